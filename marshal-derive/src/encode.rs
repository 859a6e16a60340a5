//! Generates `impl Marshal`: the size constants, `encoded_len` and `encode`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::dummy;
use crate::fallback;
use crate::internals::ast::{Container, Data, Field, Style, Variant};
use crate::internals::attr::TagType;
use crate::internals::check;
use crate::internals::ctxt::Ctxt;
use crate::size::{SizeConst, container_len};

/// Entry point of `#[derive(Marshal)]`.
pub(crate) fn expand_derive_marshal(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    check::check(&cx, &cont);
    let krate = crate_path(&cont);
    if let Err(err) = cx.check() {
        return fallback::expand(input, &krate, err);
    }

    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let generics = bound::with_bound(
        &cont,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#krate::__private::Marshal),
    );
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let fixed_len = container_len(&cont, &private, SizeConst::Fixed);
    let max_len = container_len(&cont, &private, SizeConst::Max);
    let (len_body, encode_body) = match &cont.data {
        Data::Struct(_, fields) => struct_bodies(fields, &private),
        Data::Enum(variants) => enum_bodies(variants, cont.tag_type(), &private),
        Data::Union => unreachable!("unions are rejected by the checks"),
    };

    dummy::wrap_in_const(quote! {
        #[automatically_derived]
        impl #impl_generics #private::Marshal for #ident #ty_generics #where_clause {
            const FIXED_LEN: ::core::option::Option<usize> = #fixed_len;
            const MAX_LEN: ::core::option::Option<usize> = #max_len;

            #[inline]
            fn encoded_len(&self) -> usize {
                if let ::core::option::Option::Some(__n) =
                    <Self as #private::Marshal>::FIXED_LEN
                {
                    return __n;
                }
                #len_body
            }

            #[inline]
            fn encode(
                &self,
                __w: &mut #private::Writer<'_>,
            ) -> ::core::result::Result<(), #private::Overflow> {
                #encode_body
            }
        }
    })
}

/// `#[marshal(crate = ...)]`, or `::marshal`.
pub(crate) fn crate_path(cont: &Container) -> syn::Path {
    cont.attrs
        .crate_path
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::marshal))
}

fn struct_bodies(fields: &[Field], private: &TokenStream) -> (TokenStream, TokenStream) {
    let access = |f: &Field| {
        let member = &f.member;
        quote!(&self.#member)
    };
    let lens = fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| field_len(f, &access(f), private));
    let encodes = fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| field_encode(f, &access(f), private));
    (
        quote!(0 #(+ #lens)*),
        quote! {
            #(#encodes)*
            ::core::result::Result::Ok(())
        },
    )
}

fn enum_bodies(
    variants: &[Variant],
    tag_type: TagType,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    if variants.is_empty() {
        return (quote!(match *self {}), quote!(match *self {}));
    }
    let tag_size = tag_type.size();
    let mut len_arms = Vec::new();
    let mut encode_arms = Vec::new();
    for variant in variants {
        let pattern = variant_pattern(variant);
        let encoded = || {
            variant
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_encoded())
        };
        let lens = encoded().map(|(i, f)| field_len(f, &binding(i), private));
        let encodes = encoded().map(|(i, f)| field_encode(f, &binding(i), private));
        let tag = tag_literal(variant.tag, tag_type);
        len_arms.push(quote!(#pattern => #tag_size #(+ #lens)*,));
        encode_arms.push(quote! {
            #pattern => {
                __w.put_array(#tag.to_le_bytes())?;
                #(#encodes)*
            }
        });
    }
    (
        quote!(match self { #(#len_arms)* }),
        quote! {
            match self { #(#encode_arms)* }
            ::core::result::Result::Ok(())
        },
    )
}

/// The pattern binding a variant's encoded fields to `__f0`, `__f1`, ...
fn variant_pattern(variant: &Variant) -> TokenStream {
    let ident = variant.ident;
    match variant.style {
        Style::Unit => quote!(Self::#ident),
        Style::Tuple => {
            let parts = variant.fields.iter().enumerate().map(|(i, f)| {
                if f.is_encoded() {
                    binding(i)
                } else {
                    quote!(_)
                }
            });
            quote!(Self::#ident(#(#parts),*))
        }
        Style::Struct => {
            let parts = variant
                .fields
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_encoded())
                .map(|(i, f)| {
                    let member = &f.member;
                    let b = binding(i);
                    quote!(#member: #b)
                });
            quote!(Self::#ident { #(#parts,)* .. })
        }
    }
}

fn binding(i: usize) -> TokenStream {
    let ident = format_ident!("__f{}", i);
    quote!(#ident)
}

fn tag_literal(tag: u64, tag_type: TagType) -> Literal {
    // The checks have already rejected tags that do not fit.
    match tag_type {
        TagType::U8 => Literal::u8_suffixed(u8::try_from(tag).unwrap_or(u8::MAX)),
        TagType::U16 => Literal::u16_suffixed(u16::try_from(tag).unwrap_or(u16::MAX)),
        TagType::U32 => Literal::u32_suffixed(u32::try_from(tag).unwrap_or(u32::MAX)),
    }
}

/// The encoded length of one field; `access` evaluates to `&FieldType`.
fn field_len(field: &Field, access: &TokenStream, private: &TokenStream) -> TokenStream {
    if let Some(with) = &field.attrs.with {
        return quote_spanned!(with.span()=> #with::encoded_len(#access));
    }
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as #private::Marshal>::encoded_len(#access))
}

/// Encodes one field through `__w`; `access` evaluates to `&FieldType`.
fn field_encode(field: &Field, access: &TokenStream, private: &TokenStream) -> TokenStream {
    if let Some(with) = &field.attrs.with {
        let message = format!(
            "`{}::write_to` wrote a different number of bytes than its `encoded_len` reported",
            quote!(#with).to_string().replace(' ', "")
        );
        return quote_spanned! {with.span()=>
            {
                let __value = #access;
                let __len = #with::encoded_len(__value);
                let __written = #with::write_to(__value, __w.reserve(__len)?);
                ::core::debug_assert_eq!(__written, __len, #message);
            }
        };
    }
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as #private::Marshal>::encode(#access, __w)?;)
}
