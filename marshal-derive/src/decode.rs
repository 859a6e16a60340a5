//! Generates `impl Unmarshal`: `MIN_LEN` and `decode`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::internals::Derive;
use crate::internals::ast::{Container, Data, Field, Variant};
use crate::internals::attr::{FieldDefault, TagType};
use crate::layout::container_layout;
use crate::len::{container_min_len, container_min_len_is_exact};
use crate::pattern::{local, tag_literal};
use crate::stack;

/// The `impl Unmarshal<'__de>` of a checked container; `private` is the
/// alias of the runtime's `__private` (see `dummy::wrap_in_const`).
pub(crate) fn impl_unmarshal(cont: &Container, private: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let decoded = bound::with_bound(
        cont,
        cont.generics,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#private::Unmarshal<'__de>),
    );
    let defaulted = bound::with_bound(
        cont,
        &decoded,
        |f| f.needs_default_trait(),
        &syn::parse_quote!(::core::default::Default),
    );
    let defaulted = bound::explicit(cont, Derive::Unmarshal).unwrap_or(defaulted);
    let de_generics = bound::with_de_lifetime(&defaulted);
    let (impl_generics, _, where_clause) = de_generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let min_len = container_min_len(cont, private);
    let exact = container_min_len_is_exact(cont, private);
    let layout = container_layout(cont, private, &quote!(#private::Unmarshal<'__de>));
    let stack = stack::container_stack(cont, private);
    let extensible = cont.extensible();
    let body = match &cont.data {
        Data::Struct(fields) => {
            let build = construct(&quote!(Self), fields, extensible, private);
            in_body(
                extensible,
                quote!(::core::result::Result::Ok(#build)),
                private,
            )
        }
        Data::Enum(variants) => enum_body(
            &ident.to_string(),
            variants,
            cont.tag_type(),
            extensible,
            private,
        ),
    };
    let (r, sub) = (local("__r"), local("__sub"));

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Unmarshal<'__de> for #ident #ty_generics #where_clause {
            const MIN_LEN: ::core::primitive::usize = #min_len;
            const MIN_LEN_IS_EXACT: ::core::primitive::bool = #exact;
            #layout
            #[doc(hidden)]
            const __DECODE_STACK: ::core::primitive::usize = #stack;

            #[inline]
            fn decode(#r: &mut #private::Reader<'__de>) -> #private::Decoded<Self> {
                let mut #sub = ::core::option::Option::None;
                let #r = #private::exact_reader::<Self>(#r, &mut #sub)?;
                #body
            }
        }
    }
}

/// `decode`, an expression reading from `__r`, read from an extensible
/// body instead when `extensible` (see `Reader::take_body`).
fn in_body(extensible: bool, decode: TokenStream, private: &TokenStream) -> TokenStream {
    if !extensible {
        return decode;
    }
    let r = local("__r");
    quote!(#private::Reader::take_body(#r, |#r| #decode))
}

/// The decoder of an enum: the tag, then the chosen variant's fields. An
/// extensible enum reads them from the variant's body; an unknown tag's
/// body is skipped and decodes as the `other` variant. Without one, an
/// unknown tag is `InvalidTag`.
fn enum_body(
    name: &str,
    variants: &[Variant],
    tag_type: TagType,
    extensible: bool,
    private: &TokenStream,
) -> TokenStream {
    let tag_ty = tag_primitive(tag_type);
    let (r, at, tag) = (local("__r"), local("__at"), local("__tag"));
    let ok = |value: TokenStream| quote!(::core::result::Result::Ok(#value));
    let invalid = quote!(#private::invalid_tag(#tag, &#name, #at));
    // An unknown tag: `other` (its body skipped), or an error.
    let other = variants.iter().find(|v| v.is_other()).map(|v| v.ident);
    let unknown = match other {
        Some(other) => in_body(extensible, ok(quote!(Self::#other)), private),
        None => invalid.clone(),
    };
    let read_tag = quote! {
        let #at = #private::Reader::position(#r);
        let #tag = <#tag_ty as #private::Unmarshal<'__de>>::decode(#r)?;
    };
    if let Some(first) = variants
        .first()
        .filter(|_| variants.iter().all(|v| v.fields.is_empty()))
    {
        // Unit variants only: check the tag (and skip the body), then map
        // the tag to a variant with a match that has no failing arm. The
        // compiler turns that into a table lookup or plain arithmetic
        // instead of one branch per variant, which a random run of variants
        // would mispredict.
        let tags = variants.iter().map(|v| tag_literal(v.tag, tag_type));
        let map = variants.iter().map(|v| {
            let (value, ident) = (tag_literal(v.tag, tag_type), v.ident);
            quote!(#value => Self::#ident,)
        });
        let check = other.is_none().then(|| {
            quote! {
                match #tag {
                    #(#tags)|* => {}
                    _ => return #invalid,
                }
            }
        });
        let skip = extensible.then(|| {
            let skip = in_body(true, ok(quote!(())), private);
            quote!(#skip?;)
        });
        // Without `other`, unreachable: the tag was checked above.
        let rest = other.unwrap_or(first.ident);
        return quote! {
            #read_tag
            #check
            #skip
            ::core::result::Result::Ok(match #tag {
                #(#map)*
                _ => Self::#rest,
            })
        };
    }
    let arms = variants.iter().map(|variant| {
        let value = tag_literal(variant.tag, tag_type);
        let ident = variant.ident;
        let build = construct(&quote!(Self::#ident), &variant.fields, extensible, private);
        let decode = in_body(extensible, ok(build), private);
        if variant.fields.is_empty() {
            return quote!(#value => #decode,);
        }
        // Each variant with fields decodes in a closure of its own (see
        // `__private::variant`).
        quote!(#value => #private::variant(#r, |#r| #decode),)
    });
    quote! {
        #read_tag
        match #tag {
            #(#arms)*
            _ => #unknown,
        }
    }
}

/// The primitive type a tag is read as.
fn tag_primitive(tag_type: TagType) -> TokenStream {
    match tag_type {
        TagType::U8 => quote!(::core::primitive::u8),
        TagType::U16 => quote!(::core::primitive::u16),
        TagType::U32 => quote!(::core::primitive::u32),
    }
}

/// `path { member: value, ... }`, decoding the fields in declaration order;
/// `in_body` when they are read from an extensible body, where a field
/// added after version 1 takes its default when the body has ended before
/// it, and a field cut by the body's end is `BodyOverrun`.
fn construct(
    path: &TokenStream,
    fields: &[Field],
    in_body: bool,
    private: &TokenStream,
) -> TokenStream {
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let value = if in_body && f.is_encoded() {
            body_field_decode(f, private)
        } else {
            field_decode(f, private)
        };
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// The value of a field the input does not carry: `default = path`'s
/// `path()`, else `Default::default()`.
fn field_default(field: &Field) -> TokenStream {
    let ty = field.ty;
    match &field.attrs.default {
        Some((_, FieldDefault::Path(path))) => quote_spanned!(path.span()=> #path()),
        _ => quote_spanned!(ty.span()=> ::core::default::Default::default()),
    }
}

/// An expression that decodes one encoded field from an extensible body.
fn body_field_decode(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let r = local("__r");
    let default = field_default(field);
    if field.attrs.with.is_none() {
        let decode = quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::decode);
        return if field.is_optional() {
            quote!(#private::body_field_or(#r, || #default, #decode)?)
        } else {
            quote!(#private::in_body(#decode(#r))?)
        };
    }
    let value = field_decode(field, private);
    let read = quote! {
        #private::in_body(
            (|#r: &mut #private::Reader<'__de>|
                -> ::core::result::Result<#ty, #private::DecodeError> {
                ::core::result::Result::Ok(#value)
            })(#r),
        )?
    };
    if !field.is_optional() {
        return read;
    }
    quote! {
        if #private::Reader::remaining(#r) == 0 { #default } else { #read }
    }
}

/// An expression that decodes one field from the reader.
fn field_decode(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let r = local("__r");
    if !field.is_encoded() {
        return field_default(field);
    }
    if let Some(with) = &field.attrs.with {
        let (start, value, used, e) = (
            local("__start"),
            local("__value"),
            local("__used"),
            local("__e"),
        );
        return quote_spanned! {with.span()=>
            {
                let #start = #private::Reader::position(#r);
                let (#value, #used): (#ty, ::core::primitive::usize) =
                    #with::read_from(#private::Reader::peek_rest(#r))
                        .map_err(|#e| #private::DecodeError::shifted(#e, #start))?;
                #private::Reader::take(#r, #used)?;
                #value
            }
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::decode(#r)?)
}
