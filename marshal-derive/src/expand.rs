//! Runs one derive: parse, check, then generate or fall back.

use proc_macro2::TokenStream;

use crate::dummy;
use crate::fallback;
use crate::internals::ast::Container;
use crate::internals::check;
use crate::internals::ctxt::Ctxt;
use crate::{decode, encode};

/// The trait being derived.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Derive {
    Marshal,
    Unmarshal,
}

pub(crate) fn expand(input: &syn::DeriveInput, derive: Derive) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    check::check(&cx, &cont, derive);
    let krate = crate_path(&cont);
    if let Err(err) = cx.check() {
        return fallback::expand(input, &krate, err, derive);
    }
    dummy::wrap_in_const(match derive {
        Derive::Marshal => encode::impl_marshal(&cont, &krate),
        Derive::Unmarshal => decode::impl_unmarshal(&cont, &krate),
    })
}

/// `#[marshal(crate = ...)]`, or `::marshal`.
fn crate_path(cont: &Container) -> syn::Path {
    cont.attrs
        .crate_path
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::marshal))
}
