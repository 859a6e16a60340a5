//! arrayvec's `ArrayVec` and `ArrayString` (feature `arrayvec`).

use ::arrayvec::{ArrayString, ArrayVec};

use super::{bounded_fixed, bounded_max, take_bounded_len};
use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// A sequence, as arrayvec's `serde` support writes it and as for `Vec`: a
/// `u64` count, then the items. The capacity bounds the length, so
/// `MAX_LEN` is the prefix and `CAP` items at their largest.
///
/// ```
/// use arrayvec::ArrayVec;
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// #[marshal(max_size = 42)]
/// struct Sample { id: u16, readings: ArrayVec<u32, 8> }
///
/// assert_eq!(<ArrayVec<u32, 8>>::MAX_LEN, Some(8 + 8 * 4));
/// let s = Sample { id: 1, readings: [5, 6].into_iter().collect() };
/// let bytes = marshal::to_vec(&s);
/// assert_eq!(bytes, [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0]);
/// assert_eq!(marshal::from_bytes::<Sample>(&bytes)?, s);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<T: Marshal, const CAP: usize> Marshal for ArrayVec<T, CAP> {
    const FIXED_LEN: Option<usize> = bounded_fixed(T::FIXED_LEN, CAP);
    const MAX_LEN: Option<usize> = bounded_max(T::MAX_LEN, CAP);
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_slice().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_slice().encode(w)
    }
}

/// Decoded in place, allocating nothing; a length beyond `CAP` is an
/// [`OverCapacity`](crate::DecodeErrorKind::OverCapacity) error at the
/// length prefix.
///
/// ```
/// use arrayvec::ArrayVec;
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::to_vec(&vec![1u8, 2, 3]);
/// let err = marshal::from_bytes::<ArrayVec<u8, 2>>(&bytes).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::OverCapacity { len: 3, capacity: 2 }, 0));
/// ```
impl<'de, T: Unmarshal<'de>, const CAP: usize> Unmarshal<'de> for ArrayVec<T, CAP> {
    const MIN_LEN: usize = 8;
    const __DECODE_STACK: usize = crate::stack::value::<Self>().saturating_add(T::__DECODE_STACK);

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let len = take_bounded_len(r, T::MIN_LEN, CAP)?;
        let mut items = ArrayVec::new();
        for _ in 0..len {
            // `len <= CAP`: there is room.
            let _ = items.try_push(T::decode(r)?);
        }
        Ok(items)
    }
}

/// A string, as arrayvec's `serde` support writes it: a `u64` byte count,
/// then the UTF-8 bytes. `MAX_LEN` is the prefix and `CAP` bytes.
///
/// ```
/// use arrayvec::ArrayString;
/// use marshal::{DecodeErrorKind, Marshal};
///
/// let name = ArrayString::<8>::from("hé").unwrap();
/// assert_eq!(<ArrayString<8>>::MAX_LEN, Some(16));
/// let bytes = marshal::to_vec(&name);
/// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, b'h', 0xc3, 0xa9]);
/// assert_eq!(marshal::from_bytes::<ArrayString<8>>(&bytes)?, name);
///
/// let err = marshal::from_bytes::<ArrayString<2>>(&bytes).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::OverCapacity { len: 3, capacity: 2 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<const CAP: usize> Marshal for ArrayString<CAP> {
    const FIXED_LEN: Option<usize> = bounded_fixed(None, CAP);
    const MAX_LEN: Option<usize> = bounded_max(Some(1), CAP);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_str().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_str().encode(w)
    }
}

/// Decoded in place, allocating nothing: the bytes are checked to be UTF-8,
/// then to fit.
impl<'de, const CAP: usize> Unmarshal<'de> for ArrayString<CAP> {
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let s = <&str as Unmarshal>::decode(r)?;
        ArrayString::from(s).map_err(|_| DecodeError::over_capacity(s.len(), CAP, at))
    }
}

/// In every `Encoding`: the items, or the string, in the configuration,
/// read with the checks above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, UnmarshalIn};

    super::super::slice_in! {
        [T, const CAP: usize] ArrayVec<T, CAP> => T;
    }
    super::super::str_in! {
        [const CAP: usize] ArrayString<CAP>;
    }

    impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>, const CAP: usize>
        UnmarshalIn<'de, Encoding<E, I>> for ArrayVec<T, CAP>
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let len = super::super::take_bounded_len_in::<E, I>(r, T::MIN_LEN_IN, CAP)?;
            let mut items = ArrayVec::new();
            for _ in 0..len {
                // `len <= CAP`: there is room.
                let _ = items.try_push(T::decode_in(r)?);
            }
            Ok(items)
        }
    }

    impl<'de, E: Endian, I: IntEncoding, const CAP: usize> UnmarshalIn<'de, Encoding<E, I>>
        for ArrayString<CAP>
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let at = r.position();
            let s = <&str as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
            ArrayString::from(s).map_err(|_| DecodeError::over_capacity(s.len(), CAP, at))
        }
    }
}
