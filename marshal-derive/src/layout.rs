//! `__LAYOUT`: whether a struct's wire bytes are its memory, proved at
//! compile time from `size_of` and `offset_of!`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::internals::ast::{Container, Data};

/// `__LAYOUT` for `trait_path` (`Marshal` or `Unmarshal<'__de>`). Enums,
/// and structs with skipped, `with` or recursive fields, never qualify.
pub(crate) fn container_layout(
    cont: &Container,
    private: &TokenStream,
    trait_path: &TokenStream,
) -> TokenStream {
    let Data::Struct(fields) = &cont.data else {
        return quote!(#private::Layout::OPAQUE);
    };
    if fields.iter().any(|f| !f.is_encoded() || !f.sized_by_type()) {
        return quote!(#private::Layout::OPAQUE);
    }
    let parts = fields.iter().map(|f| {
        let ty = f.ty;
        let member = &f.member;
        quote! {(
            ::core::mem::offset_of!(Self, #member),
            ::core::mem::size_of::<#ty>(),
            #private::Layout::is_memcpy(<#ty as #trait_path>::__LAYOUT),
        )}
    });
    // SAFETY (of the generated block): `Layout::structure` requires, for
    // every field of the struct in wire order (declaration order, and no
    // field is skipped here), its `offset_of!`, its type's `size_of` and
    // whether its type's `__LAYOUT` for the same trait is memcpy. Those are
    // exactly the expressions passed, evaluated by the compiler; the
    // struct's own size is `size_of::<Self>()`, read by `structure` itself
    // from the layout's type, `Layout<Self>`.
    quote! {
        unsafe { #private::Layout::<Self>::structure(&[#(#parts),*]) }
    }
}
