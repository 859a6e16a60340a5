//! smol_str's `SmolStr` (feature `smol_str`).

use ::smol_str::SmolStr;

use super::{owned_str, str_impls};
use crate::error::DecodeError;
use crate::impls::seq::LEN_PREFIX;
use crate::reader::Reader;
use crate::traits::Unmarshal;

str_impls! {
    /// A string, as smol_str's `serde` support writes it and as for `String`:
    /// a `u64` byte count, then the UTF-8 bytes. The same bytes and
    /// fingerprint as `String`.
    ///
    /// ```
    /// use marshal::{Marshal, Unmarshal};
    /// use smol_str::SmolStr;
    ///
    /// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    /// struct Ident { name: SmolStr }
    ///
    /// let ident = Ident { name: SmolStr::new("hé") };
    /// let bytes = marshal::to_vec(&ident);
    /// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, b'h', 0xc3, 0xa9]);
    /// assert_eq!(marshal::from_bytes::<Ident>(&bytes)?, ident);
    /// assert_eq!(SmolStr::FINGERPRINT, String::FINGERPRINT);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    SmolStr;
}

/// The most bytes a `SmolStr` keeps inline.
const INLINE: usize = 23;

/// What smol_str 0.3 allocates for a string of `len` bytes: nothing
/// inline; else an `Arc<str>`, two counters and the bytes, padded to the
/// counters' alignment. (A longer run of newlines then spaces, which
/// smol_str takes from a static string, is charged as well: it allocates
/// nothing.)
#[inline]
fn heap_bytes(len: usize) -> usize {
    const WORD: usize = core::mem::size_of::<usize>();
    if len <= INLINE {
        return 0;
    }
    len.saturating_add(2 * WORD).next_multiple_of(WORD)
}

/// Decoded as `String` is, the bytes checked to be UTF-8 once. A string of
/// up to 23 bytes is kept inline and allocates nothing, so under an
/// allocation budget it is charged nothing; a longer one is charged its
/// `Arc<str>` before it is allocated.
///
/// ```
/// use marshal::DecodeErrorKind;
/// use smol_str::SmolStr;
///
/// let short = marshal::to_vec("twenty-three, on stack!");
/// let s: SmolStr = marshal::from_bytes_limited(&short, 0)?;
/// assert!(!s.is_heap_allocated());
///
/// let long = marshal::to_vec("twenty-four, in an Arc!!");
/// let err = marshal::from_bytes_limited::<SmolStr>(&long, 39).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 39 });
/// let s: SmolStr = marshal::from_bytes_limited(&long, 40)?;
/// assert!(s.is_heap_allocated());
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for SmolStr {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        owned_str(r, heap_bytes).map(SmolStr::new)
    }
}

super::str_in! {
    [] SmolStr;
}

/// In every `Encoding`: the string in the configuration, charged as above.
impl<'de, E: crate::config::Endian, I: crate::config::IntEncoding>
    crate::config::UnmarshalIn<'de, crate::config::Encoding<E, I>> for SmolStr
{
    const MIN_LEN_IN: usize =
        <u64 as crate::config::UnmarshalIn<'de, crate::config::Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        super::owned_str_in::<E, I>(r, heap_bytes).map(SmolStr::new)
    }
}
