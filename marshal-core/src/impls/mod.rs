//! `Marshal` for the standard library's types.

#[cfg(feature = "alloc")]
mod collections;
mod net;
mod pointer;
mod primitive;
pub(crate) mod seq;
mod time;

#[cfg(feature = "alloc")]
pub use pointer::CowUnmarshal;
