//! Parses `#[repr(...)]`, which decides how a type sits in memory.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The parts of a type's `#[repr(...)]` that matter to the derive.
#[derive(Default)]
pub(crate) struct Repr {
    /// `packed` or `packed(N)`, with its tokens.
    pub(crate) packed: Option<TokenStream>,
}

impl Repr {
    pub(crate) fn from_ast(attrs: &[syn::Attribute]) -> Self {
        let mut repr = Repr::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
            // rustc itself reports malformed `repr` attributes.
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("packed") {
                    repr.packed = Some(meta.path.to_token_stream());
                }
                // `packed(N)`, `align(N)`: skip the argument.
                if meta.input.peek(syn::token::Paren) {
                    meta.input.parse::<proc_macro2::TokenTree>()?;
                }
                Ok(())
            });
        }
        repr
    }
}
