//! Derive macros for [`marshalers`](https://docs.rs/marshalers) (library
//! `marshal`). Use them through it: it documents them, with every
//! attribute, and re-exports them beside their traits as
//! `marshal::Marshal` and `marshal::Unmarshal`.
//!
//! The expansion runs in four steps, each in its own module: parse the
//! `#[marshal(...)]` attributes (`internals::attr`), build an internal
//! representation of the type (`internals::ast`), check it
//! (`internals::check`), then generate code: `encode` and `decode` build the
//! impls, from the constants that `len`, `fingerprint`, `layout` and `stack`
//! make, the generics that `bound` makes, and the patterns and hygienic
//! locals of `pattern`; with the feature `config`, `dialect` builds the
//! impls of the other configurations beside them.
//! Every error found along the way is reported at once, at the offending
//! tokens, together with a stub impl so that no follow-on errors appear.
#![forbid(unsafe_code)]

mod bound;
mod decode;
mod dialect;
mod dummy;
mod encode;
mod expand;
mod fallback;
mod fingerprint;
mod internals;
mod layout;
mod len;
#[cfg(test)]
mod output_tests;
mod pattern;
mod remote;
mod stack;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

use crate::expand::expand;
use crate::internals::Derive;

/// Derives `marshal::Marshal` for a struct or enum: an exact
/// `encoded_len`, an in-place encoder, and the compile-time `FIXED_LEN` and
/// `MAX_LEN`. Use it through its re-export, `marshal::Marshal`, whose
/// documentation describes the `#[marshal(...)]` attributes, with examples.
#[proc_macro_derive(Marshal, attributes(marshal))]
pub fn derive_marshal(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Marshal).into()
}

/// Derives `marshal::Unmarshal` for a struct or enum: a decoder that reads
/// what `#[derive(Marshal)]` writes, borrowing from its input where it can.
/// Use it through its re-export, `marshal::Unmarshal`, whose documentation
/// describes the `#[marshal(...)]` attributes, with examples.
#[proc_macro_derive(Unmarshal, attributes(marshal))]
pub fn derive_unmarshal(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input, Derive::Unmarshal).into()
}
