//! Generates `impl Unmarshal`: `MIN_LEN` and `decode`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::internals::ast::{Container, Data, Field, Variant};
use crate::internals::attr::TagType;
use crate::size::container_min_len;
use crate::walk::tag_literal;

/// The `impl Unmarshal<'__de>` of a checked container.
pub(crate) fn impl_unmarshal(cont: &Container, krate: &syn::Path) -> TokenStream {
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let decoded = bound::with_bound(
        cont,
        cont.generics,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#krate::__private::Unmarshal<'__de>),
    );
    let defaulted = bound::with_bound(
        cont,
        &decoded,
        |f| !f.is_encoded(),
        &syn::parse_quote!(::core::default::Default),
    );
    let de_generics = with_de_lifetime(&defaulted);
    let (impl_generics, _, where_clause) = de_generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let min_len = container_min_len(cont, &private);
    let body = match &cont.data {
        Data::Struct(fields) => {
            let build = construct(&quote!(Self), fields, &private);
            quote!(::core::result::Result::Ok(#build))
        }
        Data::Enum(variants) => enum_body(&ident.to_string(), variants, cont.tag_type(), &private),
        Data::Union => unreachable!("unions are rejected by the checks"),
    };

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Unmarshal<'__de> for #ident #ty_generics #where_clause {
            const MIN_LEN: usize = #min_len;

            #[inline]
            fn decode(
                __r: &mut #private::Reader<'__de>,
            ) -> ::core::result::Result<Self, #private::DecodeError> {
                #body
            }
        }
    }
}

/// `generics` with a leading `'__de` lifetime that outlives every lifetime of
/// the type, so borrowed fields can borrow from the input.
pub(crate) fn with_de_lifetime(generics: &syn::Generics) -> syn::Generics {
    let mut generics = generics.clone();
    let bounds: Vec<syn::Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let de: syn::LifetimeParam = if bounds.is_empty() {
        syn::parse_quote!('__de)
    } else {
        syn::parse_quote!('__de: #(#bounds)+*)
    };
    generics.params.insert(0, syn::GenericParam::Lifetime(de));
    generics
}

fn enum_body(name: &str, variants: &[Variant], tag_type: TagType, private: &TokenStream) -> TokenStream {
    let tag_ty = match tag_type {
        TagType::U8 => quote!(u8),
        TagType::U16 => quote!(u16),
        TagType::U32 => quote!(u32),
    };
    let arms = variants.iter().map(|variant| {
        let tag = tag_literal(variant.tag, tag_type);
        let ident = variant.ident;
        let build = construct(&quote!(Self::#ident), &variant.fields, private);
        quote!(#tag => ::core::result::Result::Ok(#build),)
    });
    quote! {
        let __at = __r.position();
        let __tag = <#tag_ty as #private::Unmarshal<'__de>>::decode(__r)?;
        match __tag {
            #(#arms)*
            _ => ::core::result::Result::Err(#private::DecodeError::invalid_tag(
                ::core::convert::From::from(__tag),
                &#name,
                __at,
            )),
        }
    }
}

/// `path { member: value, ... }`, decoding the fields in declaration order.
fn construct(path: &TokenStream, fields: &[Field], private: &TokenStream) -> TokenStream {
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let value = field_decode(f, private);
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// An expression that decodes one field from `__r`.
fn field_decode(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    if !field.is_encoded() {
        return quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default());
    }
    if let Some(with) = &field.attrs.with {
        return quote_spanned! {with.span()=>
            {
                let __start = __r.position();
                let (__value, __used) = #with::read_from(__r.peek_rest())
                    .map_err(|__e| __e.shifted(__start))?;
                __r.take(__used)?;
                __value
            }
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::decode(__r)?)
}
