//! `Marshal` and `Unmarshal` for other crates' types, one feature and one
//! file per crate. Each type writes exactly the bytes bincode 1.3 writes
//! through that crate's own `serde` support (and, in every other
//! configuration, those of bincode 2's `serde` module), and decodes with the checks
//! of the standard collections: length prefixes checked against the input
//! before anything is allocated, a length beyond a fixed capacity an
//! [`OverCapacity`](crate::DecodeErrorKind::OverCapacity) error, the depth
//! limit and the allocation budget honoured.

#[cfg(feature = "arrayvec")]
mod arrayvec;
#[cfg(feature = "bumpalo")]
mod bumpalo;
#[cfg(feature = "bytes")]
mod bytes;
#[cfg(feature = "compact_str")]
mod compact_str;
#[cfg(feature = "hashbrown")]
mod hashbrown;
#[cfg(feature = "heapless")]
mod heapless;
#[cfg(feature = "indexmap")]
mod indexmap;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
#[cfg(feature = "smallvec")]
mod smallvec;
#[cfg(feature = "smol_str")]
mod smol_str;
#[cfg(feature = "uuid")]
mod uuid;

#[cfg(any(
    feature = "arrayvec",
    feature = "heapless",
    feature = "compact_str",
    feature = "smol_str"
))]
use crate::{error::DecodeError, reader::Reader};

/// Bytes in a length prefix.
#[cfg(any(feature = "arrayvec", feature = "heapless"))]
const LEN_PREFIX: usize = 8;

/// The `MAX_LEN` of a length-prefixed run of at most `capacity` items of
/// at most `item` bytes each.
#[cfg(any(feature = "arrayvec", feature = "heapless"))]
const fn bounded_max(item: Option<usize>, capacity: usize) -> Option<usize> {
    if capacity == 0 {
        return Some(LEN_PREFIX);
    }
    match item {
        Some(n) => match n.checked_mul(capacity) {
            Some(items) => items.checked_add(LEN_PREFIX),
            None => None,
        },
        None => None,
    }
}

/// The `FIXED_LEN` of a length-prefixed run of at most `capacity` items
/// whose `FIXED_LEN` is `item`: only the prefix, when no item can add a
/// byte.
#[cfg(any(feature = "arrayvec", feature = "heapless"))]
const fn bounded_fixed(item: Option<usize>, capacity: usize) -> Option<usize> {
    match (capacity, item) {
        (0, _) | (_, Some(0)) => Some(LEN_PREFIX),
        _ => None,
    }
}

/// Reads the length prefix of a run of at most `capacity` items of at
/// least `min_item` bytes each: checked against the remaining input first,
/// as for a `Vec`, then against the capacity, which a larger count is an
/// [`OverCapacity`](crate::DecodeErrorKind::OverCapacity) error at the
/// prefix.
#[cfg(any(feature = "arrayvec", feature = "heapless"))]
#[inline]
fn take_bounded_len(
    r: &mut Reader<'_>,
    min_item: usize,
    capacity: usize,
) -> Result<usize, DecodeError> {
    let at = r.position();
    let len = r.take_len(min_item)?;
    if len > capacity {
        return Err(DecodeError::over_capacity(len, capacity, at));
    }
    Ok(len)
}

/// [`take_bounded_len`] in byte order `E` and encoding `I`.
#[cfg(any(feature = "arrayvec", feature = "heapless"))]
#[inline]
fn take_bounded_len_in<E: crate::config::Endian, I: crate::config::IntEncoding>(
    r: &mut Reader<'_>,
    min_item: usize,
    capacity: usize,
) -> Result<usize, DecodeError> {
    let at = r.position();
    let len = crate::impls::dialect::take_len::<E, I>(r, min_item)?;
    if len > capacity {
        return Err(DecodeError::over_capacity(len, capacity, at));
    }
    Ok(len)
}

/// [`owned_str`] in byte order `E` and encoding `I`.
#[cfg(any(feature = "compact_str", feature = "smol_str"))]
#[inline]
fn owned_str_in<'de, E: crate::config::Endian, I: crate::config::IntEncoding>(
    r: &mut Reader<'de>,
    heap_bytes: fn(usize) -> usize,
) -> Result<&'de str, DecodeError> {
    let (window, len, at) = crate::impls::dialect::take_string::<E, I>(r)?;
    r.charge_at(heap_bytes(len), at)?;
    crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
}

/// `MarshalIn` in every `Encoding` for string types, through their
/// `as_str`: the bytes of `str` in the configuration.
#[cfg(any(
    feature = "compact_str",
    feature = "smol_str",
    feature = "arrayvec",
    feature = "heapless"
))]
macro_rules! str_in {
    ($([$($g:tt)*] $ty:ty;)*) => {$(
        impl<E: crate::config::Endian, I: crate::config::IntEncoding, $($g)*>
            crate::config::MarshalIn<crate::config::Encoding<E, I>> for $ty
        {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                crate::config::MarshalIn::<crate::config::Encoding<E, I>>::encoded_len_in(self.as_str())
            }

            #[inline]
            fn encode_in(
                &self,
                w: &mut crate::writer::Writer<'_>,
            ) -> Result<(), crate::error::Overflow> {
                crate::config::MarshalIn::<crate::config::Encoding<E, I>>::encode_in(self.as_str(), w)
            }
        }
    )*};
}
#[cfg(any(
    feature = "compact_str",
    feature = "smol_str",
    feature = "arrayvec",
    feature = "heapless"
))]
use str_in;

/// `MarshalIn` in every `Encoding` for sequence types, through their
/// `as_slice`: the bytes of `[T]` in the configuration.
#[cfg(any(feature = "smallvec", feature = "arrayvec", feature = "heapless"))]
macro_rules! slice_in {
    ($([$($g:tt)*] $ty:ty => $item:ty;)*) => {$(
        impl<E: crate::config::Endian, I: crate::config::IntEncoding, $($g)*>
            crate::config::MarshalIn<crate::config::Encoding<E, I>> for $ty
        where
            $item: crate::config::MarshalIn<crate::config::Encoding<E, I>>,
        {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                crate::config::MarshalIn::<crate::config::Encoding<E, I>>::encoded_len_in(self.as_slice())
            }

            #[inline]
            fn encode_in(
                &self,
                w: &mut crate::writer::Writer<'_>,
            ) -> Result<(), crate::error::Overflow> {
                crate::config::MarshalIn::<crate::config::Encoding<E, I>>::encode_in(self.as_slice(), w)
            }
        }
    )*};
}
#[cfg(any(feature = "smallvec", feature = "arrayvec", feature = "heapless"))]
use slice_in;

/// `Marshal` for string types, through their `as_str`: the bytes and the
/// fingerprint of `str`. Each type is written after its doc comment.
#[cfg(any(feature = "compact_str", feature = "smol_str"))]
macro_rules! str_impls {
    ($($(#[$doc:meta])* $ty:ty;)*) => {$(
        $(#[$doc])*
        impl crate::traits::Marshal for $ty {
            const FINGERPRINT: u64 = <str as crate::traits::Marshal>::FINGERPRINT;

            #[inline]
            fn encoded_len(&self) -> usize {
                crate::traits::Marshal::encoded_len(self.as_str())
            }

            #[inline]
            fn encode(
                &self,
                w: &mut crate::writer::Writer<'_>,
            ) -> Result<(), crate::error::Overflow> {
                crate::traits::Marshal::encode(self.as_str(), w)
            }
        }
    )*};
}
#[cfg(any(feature = "compact_str", feature = "smol_str"))]
use str_impls;

/// Reads a length-prefixed UTF-8 string, borrowed from the input, for a
/// string type that copies it: charged `heap_bytes(len)` first, what the
/// type allocates to hold `len` bytes (nothing for a string it keeps
/// inline), as `String` is charged its buffer.
#[cfg(any(feature = "compact_str", feature = "smol_str"))]
#[inline]
fn owned_str<'de>(
    r: &mut Reader<'de>,
    heap_bytes: fn(usize) -> usize,
) -> Result<&'de str, DecodeError> {
    let (window, len, at) = crate::impls::seq::take_string(r)?;
    r.charge_at(heap_bytes(len), at)?;
    crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
}
