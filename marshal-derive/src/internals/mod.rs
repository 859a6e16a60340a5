//! Attribute parsing, the internal representation and its checks.

pub(crate) mod ast;
pub(crate) mod attr;
pub(crate) mod check;
pub(crate) mod ctxt;
pub(crate) mod discriminant;
pub(crate) mod repr;
pub(crate) mod symbol;

/// The trait being derived.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Derive {
    Marshal,
    Unmarshal,
}
