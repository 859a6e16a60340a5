//! `Marshal::FINGERPRINT`: the hash of the wire shape, folded from the
//! encoded fields' fingerprints in order (and, for an enum, the tag type and
//! each variant's tag). Names never enter it.
//!
//! An extensible type's `FINGERPRINT` is that of its version 1, marked as
//! extensible, so that appending fields keeps it; `__HISTORY` lists the
//! fingerprint of every version, each folded from the fields and variants
//! that version has.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field};

/// The const expression of the container's `FINGERPRINT`: of version 1 for
/// an extensible type.
pub(crate) fn container_fingerprint(cont: &Container, private: &TokenStream) -> TokenStream {
    version_fingerprint(cont, private, 1)
}

/// The `__HISTORY` item of an extensible container: the fingerprint of each
/// version, oldest first. `None` for another type, which keeps the trait's
/// default (its `FINGERPRINT` alone).
pub(crate) fn container_history(cont: &Container, private: &TokenStream) -> Option<TokenStream> {
    if !cont.extensible() {
        return None;
    }
    let versions = (1..=cont.versions()).map(|k| version_fingerprint(cont, private, k));
    Some(quote! {
        const __HISTORY: &'static [::core::primitive::u64] = &[#(#versions),*];
    })
}

/// The fingerprint of version `version` of the container: the fields (and
/// variants) added up to it. For a type that is not extensible, of the
/// whole type.
fn version_fingerprint(cont: &Container, private: &TokenStream, version: u32) -> TokenStream {
    let shape = match &cont.data {
        Data::Struct(fields) => fields_fingerprint(fields, private, version),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let pairs = variants.iter().filter(|v| v.since() <= version).map(|v| {
                let tag = proc_macro2::Literal::u64_unsuffixed(v.tag);
                let parts = field_fingerprints(&v.fields, private, version);
                quote!((#tag, &[#(#parts),*]))
            });
            quote!(#private::fp::variants(#tag_size, &[#(#pairs),*]))
        }
    };
    if cont.extensible() {
        quote!(#private::fp::extensible(#shape))
    } else {
        shape
    }
}

/// The fingerprint of the encoded fields added up to `version` (every
/// field of a type that is not extensible: all are version 1).
fn fields_fingerprint(fields: &[Field], private: &TokenStream, version: u32) -> TokenStream {
    let parts = field_fingerprints(fields, private, version);
    quote!(#private::fp::tuple(&[#(#parts),*]))
}

/// The fingerprints of the encoded fields added up to `version`.
fn field_fingerprints<'a>(
    fields: &'a [Field],
    private: &'a TokenStream,
    version: u32,
) -> impl Iterator<Item = TokenStream> + 'a {
    fields
        .iter()
        .filter(move |f| f.is_encoded() && f.since() <= version)
        .map(move |f| {
            // No spelling enters the fingerprint: a `with` field is one fixed
            // marker whatever its module's path, and a typed field is its
            // type's fingerprint, resolved by the compiler.
            if f.attrs.with.is_some() {
                quote!(#private::fp::WITH)
            } else if f.recursive {
                quote!(#private::fp::RECURSIVE)
            } else {
                let ty = f.wire();
                quote_spanned!(ty.span()=> <#ty as #private::Marshal>::FINGERPRINT)
            }
        })
}
