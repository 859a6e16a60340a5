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
mod reader;
mod traits;
mod writer;

pub use error::{BufferTooSmall, DecodeError, DecodeErrorKind, Overflow};
#[cfg(feature = "alloc")]
pub use impls::CowUnmarshal;
pub use reader::Reader;
pub use traits::{Marshal, Unmarshal};
pub use writer::Writer;

/// Decodes a `T` from the whole of `input`; bytes left over after the value
/// are a [`TrailingBytes`](DecodeErrorKind::TrailingBytes) error.
///
/// ```
/// let bytes = marshal_core::to_vec(&(1u8, "hé"));
/// let (n, s): (u8, &str) = marshal_core::from_bytes(&bytes).unwrap();
/// assert_eq!((n, s), (1, "hé"));
///
/// let mut longer = bytes.clone();
/// longer.push(0);
/// assert!(marshal_core::from_bytes::<(u8, &str)>(&longer).is_err());
/// ```
pub fn from_bytes<'de, T: Unmarshal<'de>>(input: &'de [u8]) -> Result<T, DecodeError> {
    let mut r = Reader::new(input);
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

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
