#![doc = include_str!("../README.md")]
#![no_std]

#[cfg(feature = "std")]
extern crate std;

pub use marshal_core::{
    BufferTooSmall, DecodeError, DecodeErrorKind, Marshal, Overflow, Reader, Unmarshal, Writer,
    from_bytes,
};
#[cfg(feature = "alloc")]
pub use marshal_core::{CowUnmarshal, to_vec};

/// Derives [`Marshal`]: an exact `encoded_len` and an in-place encoder.
///
/// See the crate documentation for attributes and examples.
pub use marshal_derive::Marshal;

/// Derives [`Unmarshal`]: a decoder that borrows from its input where it can
/// and returns a [`DecodeError`] on any bad input.
///
/// See the crate documentation for attributes and examples.
pub use marshal_derive::Unmarshal;

#[doc(hidden)]
pub mod __private {
    pub use marshal_core::__private::*;
}
