//! The serde bridge (feature `serde`): bincode 1.3's bytes for any type
//! that implements serde's `Serialize` and `Deserialize`, encoded in place
//! without allocating and decoded through a [`Reader`].
//!
//! The bytes are those of `bincode::serialize` with bincode 1.3's default
//! options (fixed-width little-endian integers, `u64` lengths, `u32`
//! variant indices), for every part of serde's data model bincode
//! supports, and for a type that also derives [`Marshal`](crate::Marshal)
//! they are the derived encoding's bytes. Reading accepts what
//! `bincode::deserialize` accepts, but for the deviations `WIRE_FORMAT.md`
//! lists. The functions that take a [configuration](crate::config) write
//! and read its dialect instead, the bytes of bincode 2's `serde` module
//! (`config::standard()`: bincode 1.3's `DefaultOptions` too).
//!
//! | call | does |
//! | --- | --- |
//! | [`encoded_len(&v)`](encoded_len) | the exact length, without allocating |
//! | [`write_to(&v, &mut buf)`](write_to), [`try_write_to`] | encodes at the front of `buf`, without allocating; a short buffer is [`ErrorKind::BufferTooSmall`] |
//! | [`to_vec(&v)`](to_vec) | one allocation of exactly `encoded_len` bytes (feature `alloc`) |
//! | [`from_bytes(&bytes)`](from_bytes) | exactly one value; trailing bytes are an error |
//! | [`read_from(&bytes)`](read_from) | one value from the front, and the bytes it took |
//! | [`from_bytes_limited(&bytes, max_alloc)`](from_bytes_limited) | [`from_bytes`] under an allocation budget |
//! | [`decode(&mut reader)`](decode) | one value through a [`Reader`] of your own (depth limit, budget) |
//! | [`field`] | `#[marshal(with = marshal::serde::field)]` for a field of a derived type |
//! | [`encode_to_vec(&v, config)`](encode_to_vec), [`encode_into_slice`], [`encoded_len_with`], [`decode_from_slice`], [`borrow_decode_from_slice`] | the same in any [configuration](crate::config), as bincode 2's `serde` module names them |
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Order<'a> {
//!     id: u64,
//!     symbol: &'a str,
//!     side: Side,
//! }
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! enum Side { Buy, Sell }
//!
//! let order = Order { id: 7, symbol: "ACME", side: Side::Sell };
//! let n = marshal::serde::encoded_len(&order)?;
//! let mut buf = [0u8; 64];
//! assert_eq!(marshal::serde::write_to(&order, &mut buf)?, n);
//! assert_eq!(&buf[..n], [
//!     7, 0, 0, 0, 0, 0, 0, 0, // id
//!     4, 0, 0, 0, 0, 0, 0, 0, b'A', b'C', b'M', b'E', // symbol
//!     1, 0, 0, 0, // side: variant 1
//! ]);
//!
//! // `symbol` borrows from `buf`.
//! let back: Order = marshal::serde::from_bytes(&buf[..n])?;
//! assert_eq!(back, order);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Decoding
//!
//! The deserializer reads through a [`Reader`], so it has the reader's
//! checks and limits, and its errors are [`DecodeError`]s with a kind and
//! the offset of the offending item:
//!
//! - `&str` and `&[u8]` (with `serde_bytes`) borrow from the input.
//! - A length prefix is checked against the rest of the input before
//!   anything is allocated: each item counts as at least one byte. A
//!   sequence promises its visitor no size, so nothing is allocated ahead
//!   of the items that actually decode.
//! - The depth limit ([`Reader::with_max_depth`]) applies to every value
//!   that holds others: an `Option`'s `Some`, a newtype, a tuple, a struct,
//!   a sequence, a map and an enum are each a level, charged by the stack a
//!   level building that value may take (a level of a large value counts as
//!   several). serde's derived code takes stack by the fields of a struct
//!   and the variants of an enum too (a slot per field, a frame per
//!   variant's arm, in an unoptimized build), which serde names to the
//!   deserializer: a level of a struct or tuple is also charged for each
//!   field, and a level of an enum for each variant. So no input nests
//!   deeply enough to overflow a spawned thread's 2 MiB stack, in debug
//!   and release builds alike, for serde's derived types and for
//!   hand-written `Deserialize` impls whose frames hold no more than
//!   those (`test_suite/tests/serde_stack.rs` measures shapes of both).
//! - Under an allocation budget ([`from_bytes_limited`],
//!   [`Reader::with_max_alloc`]), the deserializer charges what it can see
//!   before it is allocated: an owned string or byte buffer its length, and
//!   each item of a sequence or entry of a map, before it decodes, room for
//!   it in a `Vec` growing by doubling (eight times its size in memory for
//!   the first, four for the others). What a `Deserialize` implementation
//!   allocates on its own (a `Box`'s value, what a hash table or a B-tree
//!   takes beyond a `Vec` of its entries) is not seen.
//! - An error raised by a `Deserialize` implementation (an unknown variant
//!   index, a missing field, a custom message) is a
//!   [`Custom`](crate::DecodeErrorKind::Custom) error naming the kind of
//!   complaint, at the item the implementation was reading; a
//!   [`DecodeError`] carries no formatted text.
//!
//! What the format cannot do is an error, never a panic: reading needs the
//! type to say what comes next, so `deserialize_any` (untagged and
//! internally tagged enums) fails, as does `deserialize_identifier`
//! (adjacently tagged enums and `#[serde(flatten)]`, which read names),
//! and so does writing a sequence or map whose length is not known before
//! its items ([`ErrorKind::UnknownLength`]), as in bincode.
//!
//! ```
//! use marshal::DecodeErrorKind;
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, Debug)]
//! #[serde(untagged)]
//! enum Loose { Number(u32), Text(String) }
//!
//! let err = marshal::serde::from_bytes::<Loose>(&[1, 0, 0, 0]).unwrap_err();
//! assert!(matches!(err.kind(), DecodeErrorKind::Custom(m) if m.starts_with("deserialize_any")));
//!
//! // A length no input of this size can hold, rejected before allocating.
//! let err = marshal::serde::from_bytes::<Vec<u64>>(&[0xff; 9]).unwrap_err();
//! assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: u64::MAX });
//! ```

use core::fmt;

use ::serde::{Deserialize, Serialize};

use crate::error::{BufferTooSmall, DecodeError, LengthMismatch};
use crate::reader::Reader;
use crate::writer::Writer;

mod de;
mod dialect;
pub mod field;
mod ser;

#[cfg(feature = "alloc")]
pub use dialect::encode_to_vec;
pub use dialect::{
    borrow_decode_from_slice, decode_from_slice, encode_into_slice, encoded_len_with,
};

use crate::config::{Endian, Fixint, IntEncoding, LittleEndian};
use ser::{Counter, Encoder, Sink};

/// Whether byte order `E` and encoding `I` are bincode 1.3's default
/// options, which every type's own `Marshal`/`Unmarshal` impl writes.
#[inline]
const fn is_legacy<E: Endian, I: IntEncoding>() -> bool {
    !E::BIG && !I::VARINT
}

/// The exact number of bytes `value` encodes to, computed without
/// allocating.
///
/// ```
/// assert_eq!(marshal::serde::encoded_len(&(1u8, "hé"))?, 1 + 8 + 3);
/// assert_eq!(marshal::serde::encoded_len(&vec![1u32, 2])?, 8 + 8);
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// When `value`'s `Serialize` implementation fails
/// ([`ErrorKind::Custom`]) or writes a sequence or map of unknown length
/// ([`ErrorKind::UnknownLength`]).
#[inline]
pub fn encoded_len<T: Serialize + ?Sized>(value: &T) -> Result<usize, Error> {
    encoded_len_in::<T, LittleEndian, Fixint>(value)
}

/// [`encoded_len`] in byte order `E` and encoding `I`.
#[inline]
fn encoded_len_in<T: Serialize + ?Sized, E: Endian, I: IntEncoding>(
    value: &T,
) -> Result<usize, Error> {
    let mut counter = Counter(0);
    value.serialize(&mut Encoder::<_, E, I>::new(&mut counter))?;
    Ok(counter.0)
}

/// Serializes `value` through `sink` in byte order `E` and encoding `I`.
#[inline]
fn serialize_in<T: Serialize + ?Sized, S: Sink, E: Endian, I: IntEncoding>(
    value: &T,
    sink: &mut S,
) -> Result<(), Error> {
    value.serialize(&mut Encoder::<_, E, I>::new(sink))
}

/// Encodes `value` at the front of `buf` without allocating and returns the
/// number of bytes written, [`encoded_len`]. Bytes past them are left as
/// they were. The same as [`try_write_to`], kept for symmetry with
/// [`Marshal::write_to`](crate::Marshal::write_to): a buffer that is too
/// short is an error here, not a panic.
///
/// ```
/// let mut buf = [0xaa; 8];
/// assert_eq!(marshal::serde::write_to(&0x0102u16, &mut buf)?, 2);
/// assert_eq!(buf[..3], [2, 1, 0xaa]);
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`try_write_to`].
#[inline]
pub fn write_to<T: Serialize + ?Sized>(value: &T, buf: &mut [u8]) -> Result<usize, Error> {
    try_write_to(value, buf)
}

/// Encodes `value` at the front of `buf` without allocating and returns the
/// number of bytes written.
///
/// ```
/// use marshal::serde::ErrorKind;
/// use marshal::BufferTooSmall;
///
/// let mut buf = [0u8; 4];
/// assert_eq!(marshal::serde::try_write_to(&7u32, &mut buf)?, 4);
///
/// let err = marshal::serde::try_write_to("hello", &mut buf).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::BufferTooSmall(BufferTooSmall { needed: 13, available: 4 }));
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::BufferTooSmall`] when `buf` is shorter than the encoding
/// (a prefix of the encoding may have been written into it), and those of
/// [`encoded_len`].
#[inline]
pub fn try_write_to<T: Serialize + ?Sized>(value: &T, buf: &mut [u8]) -> Result<usize, Error> {
    write_in::<T, LittleEndian, Fixint>(value, buf)
}

/// [`try_write_to`] in byte order `E` and encoding `I`.
#[inline]
fn write_in<T: Serialize + ?Sized, E: Endian, I: IntEncoding>(
    value: &T,
    buf: &mut [u8],
) -> Result<usize, Error> {
    let available = buf.len();
    let mut w = Writer::new(buf);
    match serialize_in::<T, _, E, I>(value, &mut w) {
        Ok(()) => Ok(w.written()),
        Err(e) if e.is_overflow() => Err(Error::new(Repr::BufferTooSmall(BufferTooSmall {
            needed: encoded_len_in::<T, E, I>(value)?,
            available,
        }))),
        Err(e) => Err(e),
    }
}

/// Encodes `value` into a new `Vec` with one allocation of exactly
/// [`encoded_len`] bytes, written once and never zeroed first.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let map = BTreeMap::from([(1u8, "one")]);
/// assert_eq!(marshal::serde::to_vec(&map)?, [1, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, b'o', b'n', b'e']);
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`encoded_len`]; [`ErrorKind::TooLarge`] when the encoding is
/// longer than one allocation can hold; and
/// [`ErrorKind::LengthMismatch`] when the value serializes to other bytes
/// the second time (a `Serialize` implementation that is not
/// deterministic).
#[cfg(feature = "alloc")]
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<alloc::vec::Vec<u8>, Error> {
    to_vec_in::<T, LittleEndian, Fixint>(value)
}

/// [`to_vec`] in byte order `E` and encoding `I`.
#[cfg(feature = "alloc")]
fn to_vec_in<T: Serialize + ?Sized, E: Endian, I: IntEncoding>(
    value: &T,
) -> Result<alloc::vec::Vec<u8>, Error> {
    let len = encoded_len_in::<T, E, I>(value)?;
    let mut out = alloc::vec::Vec::new();
    if len > isize::MAX as usize || out.try_reserve_exact(len).is_err() {
        return Err(Error::new(Repr::TooLarge { len }));
    }
    crate::output::try_append_to_vec(&mut out, |w| match serialize_in::<T, _, E, I>(value, w) {
        Ok(()) if w.written() == len => Ok(()),
        Ok(()) if w.written() < len => {
            Err(Error::new(Repr::LengthMismatch(LengthMismatch::Short {
                encoded_len: len,
                written: w.written(),
            })))
        }
        Ok(()) => Err(Error::new(Repr::LengthMismatch(LengthMismatch::Long {
            encoded_len: len,
        }))),
        Err(e) if e.is_overflow() => Err(Error::new(Repr::LengthMismatch(LengthMismatch::Long {
            encoded_len: len,
        }))),
        Err(e) => Err(e),
    })?;
    Ok(out)
}

/// Decodes a `T` from the whole of `input`; bytes left over after the value
/// are a [`TrailingBytes`](crate::DecodeErrorKind::TrailingBytes) error.
/// `&str` and `&[u8]` (`serde_bytes`) fields borrow from `input`.
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::serde::to_vec(&(1u8, "hé"))?;
/// let (n, s): (u8, &str) = marshal::serde::from_bytes(&bytes)?;
/// assert_eq!((n, s), (1, "hé"));
///
/// let err = marshal::serde::from_bytes::<bool>(&[2]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that is not exactly one `T`.
#[inline]
pub fn from_bytes<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T, DecodeError> {
    let mut r = Reader::new(input);
    let value = decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// Decodes one `T` from the front of `input` and returns it with the
/// number of bytes it took; bytes after it are left, as bincode does.
///
/// ```
/// let (v, used) = marshal::serde::read_from::<(u8, u16)>(&[1, 2, 0, 0xff])?;
/// assert_eq!((v, used), ((1, 2), 3));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that does not start with a `T`.
#[inline]
pub fn read_from<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<(T, usize), DecodeError> {
    let mut r = Reader::new(input);
    let value = decode(&mut r)?;
    Ok((value, r.position()))
}

/// [`from_bytes`] under an allocation budget of `max_alloc` bytes (see
/// [`Reader::with_max_alloc`] and, for what the bridge charges, the
/// [module docs](self#decoding)), for input from untrusted peers.
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::serde::to_vec(&vec![String::from("twenty bytes of text"); 3])?;
/// // Three 24-byte `String`s in a `Vec`: 8 × 24 for the first, 4 × 24 for
/// // each other; then each string's 20 bytes.
/// let budget = 8 * 24 + 2 * 4 * 24 + 3 * 20;
/// let back: Vec<String> = marshal::serde::from_bytes_limited(&bytes, budget)?;
/// assert_eq!(back.len(), 3);
///
/// let err = marshal::serde::from_bytes_limited::<Vec<String>>(&bytes, budget - 1).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: budget - 1 });
/// assert_eq!(err.offset(), 8 + 2 * 28 + 8); // the third string's contents
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// Those of [`from_bytes`], and
/// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit) past the budget.
#[inline]
pub fn from_bytes_limited<'de, T: Deserialize<'de>>(
    input: &'de [u8],
    max_alloc: usize,
) -> Result<T, DecodeError> {
    let mut r = Reader::new(input).with_max_alloc(max_alloc);
    let value = decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// Decodes one `T` through `r`, with its depth limit and allocation
/// budget, leaving what follows unread: the serde counterpart of
/// [`Unmarshal::decode`](crate::Unmarshal::decode).
///
/// ```
/// use marshal::{DecodeErrorKind, Reader};
///
/// let bytes = marshal::serde::to_vec(&vec![vec![1u8]])?;
/// // A sequence in a sequence: two levels.
/// let mut r = Reader::new(&bytes).with_max_depth(1);
/// let err = marshal::serde::decode::<Vec<Vec<u8>>>(&mut r).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 1 });
///
/// let mut r = Reader::new(&bytes).with_max_depth(2);
/// assert_eq!(marshal::serde::decode::<Vec<Vec<u8>>>(&mut r)?, [[1]]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that does not continue with a `T`.
#[inline]
pub fn decode<'de, T: Deserialize<'de>>(r: &mut Reader<'de>) -> Result<T, DecodeError> {
    decode_in::<T, LittleEndian, Fixint>(r)
}

/// [`decode`] in byte order `E` and encoding `I`.
#[inline]
fn decode_in<'de, T: Deserialize<'de>, E: Endian, I: IntEncoding>(
    r: &mut Reader<'de>,
) -> Result<T, DecodeError> {
    let start = r.position();
    let mut slot = None;
    match T::deserialize(&mut de::Deserializer::<'_, '_, E, I>::new(r, &mut slot)) {
        Ok(value) => Ok(value),
        Err(err) => Err(err.into_decode_error(slot, start)),
    }
}

/// Why encoding through the serde bridge failed.
///
/// ```
/// use marshal::serde::ErrorKind;
///
/// struct Refuses;
/// impl serde::Serialize for Refuses {
///     fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
///         Err(serde::ser::Error::custom("not today"))
///     }
/// }
///
/// let err = marshal::serde::encoded_len(&Refuses).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Custom);
/// assert_eq!(err.to_string(), "not today");
/// ```
pub struct Error {
    repr: Repr,
}

/// The kind of an [`Error`].
///
/// ```
/// use marshal::serde::ErrorKind;
///
/// /// A sequence that does not say its length up front.
/// struct Unsized;
/// impl serde::Serialize for Unsized {
///     fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
///         use serde::ser::SerializeSeq;
///         s.serialize_seq(None)?.end()
///     }
/// }
///
/// let err = marshal::serde::encoded_len(&Unsized).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::UnknownLength);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The buffer is shorter than the encoding.
    BufferTooSmall(BufferTooSmall),
    /// A sequence or map whose length was not given before its items
    /// (`serialize_seq(None)`, `serialize_map(None)`): the format writes the
    /// length first. bincode 1.3 refuses these too
    /// (`SequenceMustHaveLength`).
    UnknownLength,
    /// The value serialized to other bytes the second time (`to_vec`
    /// measures, then writes): its `Serialize` implementation, or a
    /// `Display` it writes with `collect_str`, is not deterministic.
    LengthMismatch(LengthMismatch),
    /// The encoding is longer than one allocation can hold.
    TooLarge {
        /// Its length, as [`encoded_len`] counted it (saturating).
        len: usize,
    },
    /// The value's `Serialize` implementation failed (through
    /// `serde::ser::Error::custom`), or a `Display` it writes with
    /// `collect_str` did; the message is the error's
    /// [`Display`](core::fmt::Display).
    Custom,
}

enum Repr {
    /// The writer ran out of room; the public functions turn it into
    /// `BufferTooSmall` or `LengthMismatch`.
    Overflow,
    BufferTooSmall(BufferTooSmall),
    UnknownLength,
    // Made by `to_vec`, which needs `alloc`.
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    LengthMismatch(LengthMismatch),
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    TooLarge {
        len: usize,
    },
    Custom(Message),
}

impl Error {
    const fn new(repr: Repr) -> Self {
        Error { repr }
    }

    #[cold]
    pub(crate) fn overflow() -> Self {
        Error::new(Repr::Overflow)
    }

    fn is_overflow(&self) -> bool {
        matches!(self.repr, Repr::Overflow)
    }

    #[cold]
    pub(crate) fn unknown_length() -> Self {
        Error::new(Repr::UnknownLength)
    }

    #[cold]
    pub(crate) fn display_failed() -> Self {
        Error::new(Repr::Custom(Message::new(
            &"a Display implementation written with collect_str failed",
        )))
    }

    #[cold]
    pub(crate) fn display_changed() -> Self {
        Error::new(Repr::Custom(Message::new(
            &"a Display implementation written with collect_str wrote a different length the \
              second time",
        )))
    }

    /// The kind of error.
    ///
    /// ```
    /// use marshal::serde::ErrorKind;
    ///
    /// let err = marshal::serde::try_write_to(&1u64, &mut [0u8; 2]).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::BufferTooSmall(b) if b.needed == 8));
    /// ```
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        match &self.repr {
            // Never returned by the public functions.
            Repr::Overflow => ErrorKind::LengthMismatch(LengthMismatch::Long { encoded_len: 0 }),
            Repr::BufferTooSmall(b) => ErrorKind::BufferTooSmall(*b),
            Repr::UnknownLength => ErrorKind::UnknownLength,
            Repr::LengthMismatch(m) => ErrorKind::LengthMismatch(*m),
            Repr::TooLarge { len } => ErrorKind::TooLarge { len: *len },
            Repr::Custom(_) => ErrorKind::Custom,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Overflow => f.write_str("output buffer too small"),
            Repr::BufferTooSmall(b) => b.fmt(f),
            Repr::UnknownLength => f.write_str(
                "a sequence or map of unknown length cannot be serialized: the format writes \
                 its length before its items",
            ),
            Repr::LengthMismatch(m) => {
                write!(f, "the value serialized differently the second time: {m}")
            }
            Repr::TooLarge { len } => write!(
                f,
                "the value is too large to encode: {len} bytes, more than one allocation can hold"
            ),
            Repr::Custom(message) => f.write_str(message.as_str()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.kind());
        if let Repr::Custom(message) = &self.repr {
            d.field("message", &message.as_str());
        }
        d.finish()
    }
}

impl core::error::Error for Error {}

impl ::serde::ser::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::new(Repr::Custom(Message::from_display(&msg)))
    }
}

/// A custom error's message: the whole text with `alloc`; without, its
/// first [`Message::INLINE`] bytes.
struct Message {
    #[cfg(feature = "alloc")]
    text: alloc::boxed::Box<str>,
    #[cfg(not(feature = "alloc"))]
    buf: [u8; Message::INLINE],
    #[cfg(not(feature = "alloc"))]
    len: usize,
}

impl Message {
    /// Bytes of a message kept without `alloc`.
    #[cfg(not(feature = "alloc"))]
    const INLINE: usize = 64;

    fn new(text: &&'static str) -> Self {
        Message::from_display(text)
    }

    #[cfg(feature = "alloc")]
    fn from_display(msg: &dyn fmt::Display) -> Self {
        Message {
            text: alloc::string::ToString::to_string(msg).into_boxed_str(),
        }
    }

    #[cfg(not(feature = "alloc"))]
    fn from_display(msg: &dyn fmt::Display) -> Self {
        /// Keeps what fits, cut at a character boundary.
        struct Inline<'a>(&'a mut Message);
        impl fmt::Write for Inline<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                for c in s.chars() {
                    let end = self.0.len + c.len_utf8();
                    let Some(dst) = self.0.buf.get_mut(self.0.len..end) else {
                        return Err(fmt::Error);
                    };
                    c.encode_utf8(dst);
                    self.0.len = end;
                }
                Ok(())
            }
        }
        let mut message = Message {
            buf: [0; Message::INLINE],
            len: 0,
        };
        // A message that does not fit is cut short.
        let _ = fmt::write(&mut Inline(&mut message), format_args!("{msg}"));
        message
    }

    fn as_str(&self) -> &str {
        #[cfg(feature = "alloc")]
        {
            &self.text
        }
        #[cfg(not(feature = "alloc"))]
        {
            core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
        }
    }
}
