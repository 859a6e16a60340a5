#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(feature = "std")]
extern crate std;

pub use marshal_core::{BufferTooSmall, Marshal, Overflow, Writer};
#[cfg(feature = "alloc")]
pub use marshal_core::to_vec;

/// Derives [`Marshal`]: an exact `encoded_len` and an in-place encoder.
///
/// See the crate documentation for attributes and examples.
pub use marshal_derive::Marshal;

#[doc(hidden)]
pub mod __private {
    pub use marshal_core::__private::*;
}
