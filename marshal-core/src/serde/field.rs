//! A field of a derived type encoded through its serde implementation:
//! `#[marshal(with = marshal::serde::field)]`, for a field whose type
//! implements `Serialize` and `Deserialize` but not
//! [`Marshal`](crate::Marshal). The bytes are the same as the bridge's
//! (bincode 1.3's), so the whole struct still has bincode's bytes.
//!
//! The `with` protocol cannot return an encoding error other than
//! [`Overflow`]: a field whose `Serialize` implementation fails (or writes a
//! sequence of unknown length) makes [`encode`] return `Overflow`, and
//! [`encoded_len`] **panic** with the error's message (so `write_to`, and
//! `try_write_to` once it asks for the length, panic with it). For such
//! types, use the fallible [`marshal::serde`](super) functions on the
//! whole value instead. Like every `with` field, the field is read through
//! the caller's reader, within its depth limit and allocation budget, and
//! gives its struct no `FIXED_LEN` or `MAX_LEN`.
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

use crate::config::{Fixint, LittleEndian};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

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

/// Writes the field through `w`.
///
/// ```
/// let mut buf = [0u8; 4];
/// let mut w = marshal::Writer::new(&mut buf);
/// marshal::serde::field::encode(&Some(7u8), &mut w).unwrap();
/// assert_eq!(w.written(), 2);
/// assert_eq!(buf[..2], [1, 7]);
/// ```
///
/// # Errors
///
/// [`Overflow`] when `w` runs out of room, and when the value's `Serialize`
/// implementation fails (then [`encoded_len`] panics with its message).
pub fn encode<T: Serialize + ?Sized>(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
    super::serialize_in::<T, _, LittleEndian, Fixint>(value, w).map_err(|_| Overflow)
}

/// Reads the field through `r`, with its depth limit and allocation budget;
/// the same as [`marshal::serde::decode`](super::decode).
///
/// ```
/// let mut r = marshal::Reader::new(&[1, 7, 0xff]);
/// let v = marshal::serde::field::decode::<Option<u8>>(&mut r)?;
/// assert_eq!((v, r.position()), (Some(7), 2));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that does not continue with a `T`, at
/// its offset in the whole input.
#[inline]
pub fn decode<'de, T: Deserialize<'de>>(r: &mut Reader<'de>) -> Result<T, DecodeError> {
    super::decode(r)
}

#[cold]
#[inline(never)]
#[track_caller]
fn failed(e: &super::Error) -> ! {
    panic!("marshal::serde::field: {e}")
}
