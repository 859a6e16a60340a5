//! The runtime of [marshal](https://docs.rs/marshal): the [`Marshal`] trait,
//! its implementations for the standard library's types, and the [`Writer`]
//! that encoders write through.
//!
//! Most users depend on the `marshal` facade crate, which re-exports
//! everything here together with `#[derive(Marshal)]`.
//!
//! `no_std`; the `alloc` feature adds owned containers and [`to_vec`], `std`
//! adds hash maps and sets. Encoding never allocates.
//!
//! ```
//! use marshal_core::Marshal;
//!
//! let value = (7u32, "hi", [true, false]);
//! let mut buf = [0u8; 32];
//! let n = value.write_to(&mut buf);
//! assert_eq!(n, value.encoded_len());
//! assert_eq!(&buf[..n], &[7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i', 1, 0]);
//! ```
#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
pub mod __private;
mod error;
mod impls;
mod traits;
mod writer;

pub use error::{BufferTooSmall, Overflow};
pub use traits::Marshal;
pub use writer::Writer;

/// Encodes `value` into a new `Vec` with exactly one allocation of exactly
/// [`encoded_len`](Marshal::encoded_len) bytes.
///
/// ```
/// let bytes = marshal_core::to_vec(&(1u8, 2u16));
/// assert_eq!(bytes, [1, 2, 0]);
/// ```
#[cfg(feature = "alloc")]
pub fn to_vec<T: Marshal + ?Sized>(value: &T) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec![0u8; value.encoded_len()];
    let written = value.write_to(&mut out);
    out.truncate(written);
    out
}
