//! compact_str's `CompactString` (feature `compact_str`).

use ::compact_str::CompactString;

use super::{owned_str, str_impls};
use crate::error::DecodeError;
use crate::impls::seq::LEN_PREFIX;
use crate::reader::Reader;
use crate::traits::Unmarshal;

str_impls! {
    /// A string, as compact_str's `serde` support writes it and as for
    /// `String`: a `u64` byte count, then the UTF-8 bytes. The same bytes and
    /// fingerprint as `String`.
    ///
    /// ```
    /// use compact_str::CompactString;
    /// use marshal::{Marshal, Unmarshal};
    ///
    /// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    /// struct Tag { name: CompactString }
    ///
    /// let tag = Tag { name: CompactString::from("hé") };
    /// let bytes = marshal::to_vec(&tag);
    /// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, b'h', 0xc3, 0xa9]);
    /// assert_eq!(marshal::from_bytes::<Tag>(&bytes)?, tag);
    /// assert_eq!(CompactString::FINGERPRINT, String::FINGERPRINT);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    CompactString;
}

/// The most bytes a `CompactString` keeps inline: as many as it is large
/// (24 on 64-bit targets).
const INLINE: usize = core::mem::size_of::<CompactString>();

/// What compact_str 0.10 allocates for a string of `len` bytes: nothing
/// inline; else a buffer of at least `INLINE` and a word, and on targets
/// whose capacity field cannot hold the capacity (32-bit ones, from 16 MiB
/// on), a word before the buffer to hold it.
#[inline]
fn heap_bytes(len: usize) -> usize {
    const WORD: usize = core::mem::size_of::<usize>();
    if len <= INLINE {
        return 0;
    }
    let capacity = len.max(INLINE + WORD);
    // The capacity field is the word but its last byte.
    if WORD < 8 && capacity >= (1 << (8 * (WORD - 1))) - 2 {
        return capacity.saturating_add(WORD).next_multiple_of(WORD);
    }
    capacity
}

/// Decoded as `String` is, the bytes checked to be UTF-8 once. A string of
/// up to 24 bytes (on 64-bit targets) is kept inline and allocates nothing,
/// so under an allocation budget it is charged nothing; a longer one is
/// charged its buffer before it is allocated.
///
/// ```
/// use compact_str::CompactString;
/// use marshal::DecodeErrorKind;
///
/// let short = marshal::to_vec("twenty-four bytes inline");
/// let s: CompactString = marshal::from_bytes_limited(&short, 0)?;
/// assert!(!s.is_heap_allocated());
///
/// let long = marshal::to_vec("twenty-five bytes on heap!");
/// let err = marshal::from_bytes_limited::<CompactString>(&long, 31).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 31 });
/// let s: CompactString = marshal::from_bytes_limited(&long, 32)?;
/// assert!(s.is_heap_allocated());
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for CompactString {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        owned_str(r, heap_bytes).map(CompactString::from)
    }
}

super::str_in! {
    [] CompactString;
}

/// In every `Encoding`: the string in the configuration, charged as above.
impl<'de, E: crate::config::Endian, I: crate::config::IntEncoding>
    crate::config::UnmarshalIn<'de, crate::config::Encoding<E, I>> for CompactString
{
    const MIN_LEN_IN: usize =
        <u64 as crate::config::UnmarshalIn<'de, crate::config::Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        super::owned_str_in::<E, I>(r, heap_bytes).map(CompactString::from)
    }
}
