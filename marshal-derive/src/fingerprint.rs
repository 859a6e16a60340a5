//! `Marshal::FINGERPRINT`: the hash of the wire shape, folded from the
//! encoded fields' fingerprints in order (and, for an enum, the tag type and
//! each variant's tag). Names never enter it.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field};

/// The const expression of the container's `FINGERPRINT`.
pub(crate) fn container_fingerprint(cont: &Container, private: &TokenStream) -> TokenStream {
    match &cont.data {
        Data::Struct(fields) => fields_fingerprint(fields, private),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let pairs = variants.iter().map(|v| {
                let tag = v.tag;
                let fp = fields_fingerprint(&v.fields, private);
                quote!((#tag, #fp))
            });
            quote!(#private::fp::enumeration(#tag_size, &[#(#pairs),*]))
        }
    }
}

fn fields_fingerprint(fields: &[Field], private: &TokenStream) -> TokenStream {
    let parts = fields.iter().filter(|f| f.is_encoded()).map(|f| {
        // No spelling enters the fingerprint: a `with` field is one fixed
        // marker whatever its module's path, and a typed field is its
        // type's fingerprint, resolved by the compiler.
        if f.attrs.with.is_some() {
            quote!(#private::fp::WITH)
        } else if f.recursive {
            quote!(#private::fp::RECURSIVE)
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> <#ty as #private::Marshal>::FINGERPRINT)
        }
    });
    quote!(#private::fp::tuple(&[#(#parts),*]))
}
