//! `Unmarshal::__DECODE_STACK`: the stack a derived decoder takes on the
//! way to a deeper level, folded from the fields' (see
//! `marshal-core/src/stack.rs`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field};

/// The `__DECODE_STACK` of the container: the stack its decoder takes on
/// the way to a deeper level (see `marshal-core/src/stack.rs`).
pub(crate) fn container_stack(cont: &Container, private: &TokenStream) -> TokenStream {
    let stack = quote!(#private::stack);
    let fields = |fields: &[Field]| {
        let each = fields.iter().map(|f| {
            let ty = f.wire();
            if f.is_encoded() && f.attrs.with.is_none() {
                // Spanned as the other constants spell the field's, so that
                // a field that is not `Unmarshal` is reported there, once.
                quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::__STACK_FIELD)
            } else {
                quote!(#stack::opaque_field::<#ty>())
            }
        });
        quote!(&[#(#each),*])
    };
    let inner = match &cont.data {
        // Read from the fields' parts (`len::struct_parts`).
        Data::Struct(_) if !cont.extensible() => return quote!(Self::__PARTS.stack),
        Data::Struct(f) => {
            let f = fields(f);
            quote!(#stack::fields(#f))
        }
        Data::Enum(variants) => {
            let each = variants.iter().map(|v| fields(&v.fields));
            quote!(#stack::variants(&[#(#each),*]))
        }
    };
    if cont.extensible() {
        quote!(#stack::body(#inner, ::core::mem::size_of::<Self>()))
    } else {
        inner
    }
}
