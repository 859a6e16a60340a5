//! `#[marshal(remote = path::Type)]`: a local mirror of a foreign type is
//! also an adapter for it (`MarshalAs`/`UnmarshalAs`, and their dialect
//! forms), writing the bytes a derive on the foreign definition would.
//!
//! Encoding reads the foreign value with the mirror's encoder, its fields
//! by name (or through a `getter`), its variants by the foreign path.
//! Decoding reads a mirror and moves its fields into the foreign type (or,
//! when a field has a `getter`, so the foreign fields are private, converts
//! it with `From<Mirror>`). Both check the mirror against the foreign
//! definition, at compile time: a field the foreign type lacks, of another
//! type, a foreign field or variant the mirror lacks, are errors there. A
//! `check` function, never called, does the same for a type that derives
//! only one of the traits.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::dialect;
use crate::encode::{enum_bodies, marshal_generics, struct_bodies};
use crate::internals::ast::{Container, Data, Field, Variant};
use crate::len::body_prefix;
use crate::pattern::{Subject, bare_path, local, local_at};

/// The adapter impls of the `Marshal` derive of a `remote` mirror.
pub(crate) fn impl_marshal_as(cont: &Container, private: &TokenStream) -> TokenStream {
    let Some((_, remote)) = &cont.attrs.remote else {
        return TokenStream::new();
    };
    let ident = cont.ident;
    let subject = Subject::remote(remote);
    let value = &subject.value;
    let w = local("__w");
    let (len_body, encode_body) = match &cont.data {
        Data::Struct(fields) => struct_bodies(fields, cont.extensible(), &subject, private),
        Data::Enum(variants) => enum_bodies(
            variants,
            cont.tag_type(),
            body_prefix(cont),
            &subject,
            private,
        ),
    };
    let generics = marshal_generics(cont, private);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let dialects = dialect::impl_marshal_as_in(cont, remote, private);
    let check = check(cont, remote);
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::MarshalAs<#remote> for #ident #ty_generics #where_clause {
            const FIXED_LEN: ::core::option::Option<::core::primitive::usize> =
                <Self as #private::Marshal>::FIXED_LEN;
            const MAX_LEN: ::core::option::Option<::core::primitive::usize> =
                <Self as #private::Marshal>::MAX_LEN;
            const FINGERPRINT: ::core::primitive::u64 = <Self as #private::Marshal>::FINGERPRINT;

            #[inline]
            fn encoded_len_as(#value: &#remote) -> ::core::primitive::usize {
                #len_body
            }

            #[inline]
            fn encode_as(#value: &#remote, #w: &mut #private::Writer<'_>) -> #private::Encoded {
                #encode_body
            }
        }

        #dialects
        #check
    }
}

/// The adapter impls of the `Unmarshal` derive of a `remote` mirror.
pub(crate) fn impl_unmarshal_as(cont: &Container, private: &TokenStream) -> TokenStream {
    let Some((_, remote)) = &cont.attrs.remote else {
        return TokenStream::new();
    };
    let ident = cont.ident;
    let (r, m) = (local("__r"), local("__m"));
    let convert = convert(cont, &quote!(Self), remote, &m);
    let generics = crate::decode::unmarshal_generics(cont, private);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let dialects = dialect::impl_unmarshal_as_in(cont, remote, &convert, private);
    let check = check(cont, remote);
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::UnmarshalAs<'__de, #remote> for #ident #ty_generics
            #where_clause
        {
            const MIN_LEN: ::core::primitive::usize = <Self as #private::Unmarshal<'__de>>::MIN_LEN;
            const MIN_LEN_IS_EXACT: ::core::primitive::bool =
                <Self as #private::Unmarshal<'__de>>::MIN_LEN_IS_EXACT;
            // The mirror's decode, then the foreign value built of it.
            const __DECODE_STACK: ::core::primitive::usize =
                #private::stack::then_value::<#remote>(
                    <Self as #private::Unmarshal<'__de>>::__DECODE_STACK,
                );

            #[inline]
            fn decode_as(#r: &mut #private::Reader<'__de>) -> #private::Decoded<#remote> {
                <Self as #private::Unmarshal<'__de>>::decode(#r).map(|#m| #convert)
            }
        }

        #dialects
        #check
    }
}

/// Whether a field of the mirror is read through a `getter`: the foreign
/// fields are then private, and decoding converts with `From<Mirror>`.
fn has_getters(cont: &Container) -> bool {
    cont.data.all_fields().any(|f| f.attrs.getter.is_some())
}

/// The foreign value built from the mirror `m`, of the type at `mirror`:
/// its fields moved into the foreign struct or variant of the same name,
/// or `From<Mirror>` when the foreign fields are private.
pub(crate) fn convert(
    cont: &Container,
    mirror: &TokenStream,
    remote: &syn::Path,
    m: &syn::Ident,
) -> TokenStream {
    if has_getters(cont) {
        return quote!(<#remote as ::core::convert::From<#mirror>>::from(#m));
    }
    let bare = bare_path(remote);
    match &cont.data {
        Data::Struct(fields) => {
            let (pattern, build) = moved(mirror, &bare, fields);
            quote!({
                let #pattern = #m;
                #build
            })
        }
        Data::Enum(variants) => {
            let arms = variants.iter().map(|v: &Variant| {
                let ident = v.ident;
                let (pattern, build) =
                    moved(&quote!(#mirror::#ident), &quote!(#bare::#ident), &v.fields);
                quote!(#pattern => #build,)
            });
            quote!(match #m { #(#arms)* })
        }
    }
}

/// The pattern that binds every field of `from` and the expression that
/// builds `to` of them: braced, `{ 0: .. }` for a tuple's fields, which
/// serves every kind of struct and variant.
fn moved(from: &TokenStream, to: &TokenStream, fields: &[Field]) -> (TokenStream, TokenStream) {
    let bindings: Vec<_> = (0..fields.len())
        .map(|i| local(&format!("__v{i}")))
        .collect();
    let members: Vec<_> = fields.iter().map(|f| &f.member).collect();
    // Each foreign field is built spanned at the mirror's, where a
    // mismatch is reported.
    let built = fields.iter().enumerate().map(|(i, f)| {
        let (member, span) = (&f.member, f.original.span());
        let b = local_at(&format!("__v{i}"), span);
        quote_spanned!(span=> #member: #b)
    });
    (
        quote!(#from { #(#members: #bindings),* }),
        quote!(#to { #(#built),* }),
    )
}

/// A function never called, whose body checks the mirror against the
/// foreign definition in whichever derive runs: every foreign variant has
/// a mirror variant (an exhaustive match over the foreign type), and,
/// where the foreign fields are visible, every foreign field a mirror field
/// of its type (the foreign value built from a mirror).
fn check(cont: &Container, remote: &syn::Path) -> TokenStream {
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let ident = cont.ident;
    let (m, value) = (local("__m"), local("__remote"));
    let bare = bare_path(remote);
    let variants = match &cont.data {
        Data::Enum(variants) => {
            let arms = variants.iter().map(|v| {
                let ident = v.ident;
                quote!(#bare::#ident { .. } => {})
            });
            // At the foreign path: a variant the mirror lacks is reported
            // there.
            let value = local_at("__remote", remote.span());
            quote_spanned!(remote.span()=> match *#value { #(#arms)* })
        }
        Data::Struct(_) => TokenStream::new(),
    };
    let built = (!has_getters(cont)).then(|| {
        let convert = convert(cont, &quote!(#ident), remote, &m);
        quote!(let _: #remote = #convert;)
    });
    quote! {
        #[allow(dead_code, unreachable_code, clippy::all)]
        fn __marshal_remote_check #impl_generics (#m: #ident #ty_generics, #value: &#remote)
            #where_clause
        {
            #variants
            #built
        }
    }
}
