//! Collects every error of one expansion so they are reported together.

use std::cell::RefCell;
use std::fmt::Display;
use std::thread;

use quote::ToTokens;

/// Error sink threaded through attribute parsing and checks.
///
/// Parsers record problems and keep going, so a single build shows every
/// mistake. [`Ctxt::check`] must be called before the context is dropped.
/// There is no `Default`: a context starts with an empty list of errors,
/// built by [`Ctxt::new`], whereas a default (`None`) would be one already
/// checked.
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// A context with no errors yet, to be checked before it is dropped.
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanning the tokens of `obj`.
    pub(crate) fn error_spanned_by<A: ToTokens, T: Display>(&self, obj: A, msg: T) {
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    /// Records an error produced by syn.
    pub(crate) fn syn_error(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// Consumes the context, combining every recorded error into one.
    pub(crate) fn check(self) -> syn::Result<()> {
        let mut errors = self.errors.take().expect("Ctxt checked twice").into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
