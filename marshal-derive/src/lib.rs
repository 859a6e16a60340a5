//! Derive macros for [marshal](https://docs.rs/marshal). Use them through the
//! `marshal` crate, which documents them and re-exports them beside their
//! traits.
//!
//! The expansion runs in four steps, each in its own module: parse the
//! `#[marshal(...)]` attributes (`internals::attr`), build an internal
//! representation of the type (`internals::ast`), check it
//! (`internals::check`), then generate code (`encode`, `size`, `bound`).
//! Every error found along the way is reported at once, at the offending
//! tokens, together with a stub impl so that no follow-on errors appear.
#![forbid(unsafe_code)]

mod bound;
mod dummy;
mod encode;
mod fallback;
mod internals;
mod size;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `marshal::Marshal`. Documented on the re-export in `marshal`.
#[proc_macro_derive(Marshal, attributes(marshal))]
pub fn derive_marshal(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    encode::expand_derive_marshal(&input).into()
}
