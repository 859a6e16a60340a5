//! The serde bridge in any configuration ([`crate::config`]): bincode 2's
//! `serde` module, by name and by bytes.
//!
//! The configuration's byte order and integer encoding apply to every
//! integer, float, length and variant index serde hands over, as bincode
//! 2's serde support writes them; `u8`, `i8`, `bool`, `char` and an
//! `Option`'s tag are one byte (`char` its UTF-8) in every configuration.
//! With [`config::legacy()`](crate::config::legacy) the bytes, and the
//! code that writes and reads them, are those of [`to_vec`](super::to_vec)
//! and [`from_bytes`](super::from_bytes).

use ::serde::{Deserialize, Serialize};

use super::Error;
use crate::config::Config;
use crate::error::DecodeError;
use crate::reader::Reader;

/// Encodes `value` in `config`'s dialect into a new `Vec` of exactly its
/// length, as bincode 2's `serde::encode_to_vec`.
///
/// ```
/// use marshal::config;
///
/// #[derive(serde::Serialize)]
/// struct Point { x: i32, y: u64 }
///
/// let bytes = marshal::serde::encode_to_vec(&Point { x: -2, y: 300 }, config::standard())?;
/// assert_eq!(bytes, [3, 251, 44, 1]);
/// let bytes = marshal::serde::encode_to_vec(&Point { x: -2, y: 300 }, config::legacy())?;
/// assert_eq!(bytes, marshal::serde::to_vec(&Point { x: -2, y: 300 })?);
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`to_vec`](super::to_vec).
#[cfg(feature = "alloc")]
pub fn encode_to_vec<T, C>(value: &T, config: C) -> Result<alloc::vec::Vec<u8>, Error>
where
    T: Serialize + ?Sized,
    C: Config,
{
    let _ = config;
    super::to_vec_in::<T, C::ByteOrder, C::Ints>(value)
}

/// Encodes `value` in `config`'s dialect at the front of `buf` without
/// allocating and returns the number of bytes written, as bincode 2's
/// `serde::encode_into_slice`.
///
/// ```
/// use marshal::{BufferTooSmall, config};
/// use marshal::serde::ErrorKind;
///
/// let mut buf = [0u8; 4];
/// let n = marshal::serde::encode_into_slice(&(1u16, "hi"), &mut buf, config::standard())?;
/// assert_eq!(buf[..n], [1, 2, b'h', b'i']);
///
/// let big = config::standard().with_big_endian();
/// let err = marshal::serde::encode_into_slice(&u64::MAX, &mut buf, big).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::BufferTooSmall(BufferTooSmall { needed: 9, available: 4 }));
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`try_write_to`](super::try_write_to).
pub fn encode_into_slice<T, C>(value: &T, buf: &mut [u8], config: C) -> Result<usize, Error>
where
    T: Serialize + ?Sized,
    C: Config,
{
    let _ = config;
    super::write_in::<T, C::ByteOrder, C::Ints>(value, buf)
}

/// The exact number of bytes `value` encodes to in `config`'s dialect,
/// computed without allocating.
///
/// ```
/// use marshal::config;
///
/// let v = (7u32, vec![1u64; 3]);
/// assert_eq!(marshal::serde::encoded_len_with(&v, config::standard())?, 1 + 1 + 3);
/// assert_eq!(marshal::serde::encoded_len_with(&v, config::legacy())?, 4 + 8 + 3 * 8);
/// # Ok::<(), marshal::serde::Error>(())
/// ```
///
/// # Errors
///
/// Those of [`encoded_len`](super::encoded_len).
pub fn encoded_len_with<T, C>(value: &T, config: C) -> Result<usize, Error>
where
    T: Serialize + ?Sized,
    C: Config,
{
    let _ = config;
    super::encoded_len_in::<T, C::ByteOrder, C::Ints>(value)
}

/// Decodes one `T` in `config`'s dialect from the front of `input`, and
/// returns it with the number of bytes it took, as bincode 2's
/// `serde::decode_from_slice` (bytes after the value are not looked at).
/// `&str` and `&[u8]` (`serde_bytes`) borrow from `input`, as with
/// bincode 2's `serde::borrow_decode_from_slice`. The reader's depth limit
/// and the rule that a length prefix buys at most what the input can hold
/// apply in every dialect, and the configuration's
/// [`with_limit`](crate::config::Configuration::with_limit) is the
/// allocation budget, charged as the [module docs](super#decoding) say.
///
/// ```
/// use marshal::{DecodeErrorKind, config};
///
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Point { x: i32, y: u64 }
///
/// let (p, used) = marshal::serde::decode_from_slice::<Point, _>(&[3, 251, 44, 1, 9], config::standard())?;
/// assert_eq!((p, used), (Point { x: -2, y: 300 }, 4));
///
/// let err = marshal::serde::decode_from_slice::<u16, _>(&[252, 0, 0, 1, 0], config::standard())
///     .unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidVarint { marker: 252, bits: 16 });
///
/// let tight = config::standard().with_limit::<4>();
/// let err = marshal::serde::decode_from_slice::<String, _>(&[5, b'h', b'e', b'l', b'l', b'o'], tight)
///     .unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 4 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// # Errors
///
/// A [`DecodeError`] for any input that does not start with a `T`.
pub fn decode_from_slice<'de, T, C>(input: &'de [u8], config: C) -> Result<(T, usize), DecodeError>
where
    T: Deserialize<'de>,
    C: Config,
{
    let _ = config;
    let mut r = Reader::new(input);
    if let Some(limit) = C::LIMIT {
        r = r.with_max_alloc(limit);
    }
    let value = super::decode_in::<T, C::ByteOrder, C::Ints>(&mut r)?;
    Ok((value, r.position()))
}

/// [`decode_from_slice`], under bincode 2's name for decoding a type that
/// borrows from the input.
///
/// ```
/// use marshal::config;
///
/// let (s, used) = marshal::serde::borrow_decode_from_slice::<&str, _>(&[2, b'h', b'i'], config::standard())?;
/// assert_eq!((s, used), ("hi", 3));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// # Errors
///
/// Those of [`decode_from_slice`].
#[inline]
pub fn borrow_decode_from_slice<'de, T, C>(
    input: &'de [u8],
    config: C,
) -> Result<(T, usize), DecodeError>
where
    T: Deserialize<'de>,
    C: Config,
{
    decode_from_slice(input, config)
}
