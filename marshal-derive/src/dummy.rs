//! Wraps generated items in an anonymous const so they add no names to the
//! user's scope, with the runtime's private module aliased once inside it.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// The alias generated code names the runtime's `__private` by, as serde's
/// names its runtime `_serde`.
pub(crate) fn private() -> TokenStream {
    let alias = Ident::new("_marshal", Span::call_site());
    quote!(#alias)
}

/// `code` in a `const _` block in which [`private`] is `krate::__private`.
pub(crate) fn wrap_in_const(krate: &syn::Path, code: TokenStream) -> TokenStream {
    let private = private();
    quote! {
        #[doc(hidden)]
        #[allow(
            non_upper_case_globals,
            unused_attributes,
            unused_qualifications,
            clippy::all,
            clippy::pedantic
        )]
        const _: () = {
            use #krate::__private as #private;
            #code
        };
    }
}
