//! A field of a derived type encoded through its serde implementation:
//! `#[marshal(with = marshal::serde::field)]`, for a field whose type
//! implements `Serialize` and `Deserialize` but not
//! [`Marshal`](crate::Marshal). The bytes are the same as the bridge's
//! (bincode 1.3's), so the whole struct still has bincode's bytes.
//!
//! The `with` protocol cannot return an encoding error, so a field whose
//! `Serialize` implementation fails (or writes a sequence of unknown
//! length) **panics** here, with the error's message. For such types, use
//! the fallible [`marshal::serde`](super) functions on the whole value
//! instead. Like every `with` field, the field is read through a reader of
//! its own, which the outer decode's depth limit and allocation budget do
//! not reach, and it gives its struct no `FIXED_LEN` or `MAX_LEN`.
//!
//! ```
//! use marshal::{Marshal, Unmarshal};
//! use serde::{Deserialize, Serialize};
//!
//! /// A type from another crate, with serde support only.
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Settings { retries: u8, name: String }
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Job {
//!     id: u32,
//!     #[marshal(with = marshal::serde::field)]
//!     settings: Settings,
//! }
//!
//! let job = Job { id: 1, settings: Settings { retries: 3, name: "x".into() } };
//! let bytes = marshal::to_vec(&job);
//! assert_eq!(bytes, [1, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, b'x']);
//! assert_eq!(marshal::from_bytes::<Job>(&bytes)?, job);
//! # Ok::<(), marshal::DecodeError>(())
//! ```

use ::serde::{Deserialize, Serialize};

use crate::error::DecodeError;

/// The field's exact encoded length.
///
/// ```
/// assert_eq!(marshal::serde::field::encoded_len(&(1u16, "ab")), 2 + 8 + 2);
/// ```
///
/// # Panics
///
/// When the value's `Serialize` implementation fails, with its message;
/// [`marshal::serde::encoded_len`](super::encoded_len) returns the error
/// instead.
#[track_caller]
pub fn encoded_len<T: Serialize + ?Sized>(value: &T) -> usize {
    match super::encoded_len(value) {
        Ok(len) => len,
        Err(e) => failed(&e),
    }
}

/// Writes the field at the front of `buf` and returns its length.
///
/// ```
/// let mut buf = [0u8; 4];
/// assert_eq!(marshal::serde::field::write_to(&Some(7u8), &mut buf), 2);
/// assert_eq!(buf[..2], [1, 7]);
/// ```
///
/// # Panics
///
/// When the value's `Serialize` implementation fails, with its message,
/// and when `buf` is too short; [`marshal::serde::try_write_to`](super::try_write_to)
/// returns the error instead.
#[track_caller]
pub fn write_to<T: Serialize + ?Sized>(value: &T, buf: &mut [u8]) -> usize {
    match super::try_write_to(value, buf) {
        Ok(len) => len,
        Err(e) => failed(&e),
    }
}

/// Reads the field from the front of `input`, returning it and the bytes it
/// took; the same as [`marshal::serde::read_from`](super::read_from).
///
/// ```
/// let (v, used) = marshal::serde::field::read_from::<Option<u8>>(&[1, 7, 0xff])?;
/// assert_eq!((v, used), (Some(7), 2));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that does not start with a `T`; its
/// offset is relative to `input` (the derived code adds the field's
/// position).
pub fn read_from<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<(T, usize), DecodeError> {
    super::read_from(input)
}

#[cold]
#[inline(never)]
#[track_caller]
fn failed(e: &super::Error) -> ! {
    panic!("marshal::serde::field: {e}")
}
