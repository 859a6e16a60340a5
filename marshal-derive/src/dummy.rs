//! Wraps generated items in an anonymous const so they add no names to the
//! user's scope.

use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn wrap_in_const(code: TokenStream) -> TokenStream {
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
            #code
        };
    }
}
