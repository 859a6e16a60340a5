//! Names of the `#[marshal(...)]` attribute and its keys.

use std::fmt::{self, Display};

use syn::{Ident, Path};

/// An attribute name, compared against parsed paths.
#[derive(Copy, Clone)]
pub(crate) struct Symbol(pub(crate) &'static str);

pub(crate) const MARSHAL: Symbol = Symbol("marshal");
pub(crate) const CRATE: Symbol = Symbol("crate");
pub(crate) const TAG_TYPE: Symbol = Symbol("tag_type");
pub(crate) const TAG: Symbol = Symbol("tag");
pub(crate) const USE_DISCRIMINANT: Symbol = Symbol("use_discriminant");
pub(crate) const BOUND: Symbol = Symbol("bound");
pub(crate) const ENCODE: Symbol = Symbol("encode");
pub(crate) const DECODE: Symbol = Symbol("decode");
pub(crate) const SKIP: Symbol = Symbol("skip");
pub(crate) const WITH: Symbol = Symbol("with");
pub(crate) const AS: Symbol = Symbol("as");
pub(crate) const REMOTE: Symbol = Symbol("remote");
pub(crate) const GETTER: Symbol = Symbol("getter");
pub(crate) const SIZE: Symbol = Symbol("size");
pub(crate) const MAX_SIZE: Symbol = Symbol("max_size");
pub(crate) const EXTENSIBLE: Symbol = Symbol("extensible");
pub(crate) const HISTORY: Symbol = Symbol("history");
pub(crate) const OTHER: Symbol = Symbol("other");
pub(crate) const SINCE: Symbol = Symbol("since");
pub(crate) const DEFAULT: Symbol = Symbol("default");
pub(crate) const RECURSIVE: Symbol = Symbol("recursive");

impl PartialEq<Symbol> for Ident {
    fn eq(&self, word: &Symbol) -> bool {
        self == word.0
    }
}

impl PartialEq<Symbol> for &Ident {
    fn eq(&self, word: &Symbol) -> bool {
        *self == word.0
    }
}

impl PartialEq<Symbol> for Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl PartialEq<Symbol> for &Path {
    fn eq(&self, word: &Symbol) -> bool {
        self.is_ident(word.0)
    }
}

impl Display for Symbol {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(self.0)
    }
}
