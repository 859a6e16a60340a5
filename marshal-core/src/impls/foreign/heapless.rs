//! heapless's `Vec` and `String` (feature `heapless`).

use ::heapless::{LenType, String, Vec};

use super::{bounded_fixed, bounded_max, take_bounded_len};
use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// A sequence, as heapless's `serde` support writes it and as for
/// `std::vec::Vec`: a `u64` count, then the items. The capacity bounds the
/// length, so `MAX_LEN` is the prefix and `N` items at their largest, and a
/// struct of bounded fields keeps a `max_size` contract.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// #[marshal(max_size = 26)] // 2 + 8 + 8 × 2
/// struct Frame { id: u16, samples: heapless::Vec<u16, 8> }
///
/// let mut samples = heapless::Vec::new();
/// samples.extend_from_slice(&[10, 20]).unwrap();
/// let frame = Frame { id: 3, samples };
/// let mut buf = [0u8; marshal::max_len::<Frame>()];
/// let n = frame.write_to(&mut buf);
/// assert_eq!(buf[..n], [3, 0, 2, 0, 0, 0, 0, 0, 0, 0, 10, 0, 20, 0]);
/// assert_eq!(marshal::from_bytes::<Frame>(&buf[..n])?, frame);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<T: Marshal, LenT: LenType, const N: usize> Marshal for Vec<T, N, LenT> {
    const FIXED_LEN: Option<usize> = bounded_fixed(T::FIXED_LEN, N);
    const MAX_LEN: Option<usize> = bounded_max(T::MAX_LEN, N);
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

/// Decoded in place, allocating nothing; a length beyond `N` is an
/// [`OverCapacity`](crate::DecodeErrorKind::OverCapacity) error at the
/// length prefix.
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::to_vec(&[1u16, 2, 3][..]);
/// let err = marshal::from_bytes::<heapless::Vec<u16, 2>>(&bytes).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::OverCapacity { len: 3, capacity: 2 }, 0));
/// ```
impl<'de, T: Unmarshal<'de>, LenT: LenType, const N: usize> Unmarshal<'de> for Vec<T, N, LenT> {
    const MIN_LEN: usize = 8;
    const __DECODE_STACK: usize = crate::stack::value::<Self>().saturating_add(T::__DECODE_STACK);

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let len = take_bounded_len(r, T::MIN_LEN, N)?;
        let mut items = Vec::new();
        for _ in 0..len {
            // `len <= N`: there is room.
            let _ = items.push(T::decode(r)?);
        }
        Ok(items)
    }
}

/// A string, as heapless's `serde` support writes it: a `u64` byte count,
/// then the UTF-8 bytes. `MAX_LEN` is the prefix and `N` bytes.
///
/// ```
/// use marshal::{DecodeErrorKind, Marshal};
///
/// let name: heapless::String<8> = heapless::String::try_from("hé").unwrap();
/// assert_eq!(<heapless::String<8>>::MAX_LEN, Some(16));
/// let bytes = marshal::to_vec(&name);
/// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, b'h', 0xc3, 0xa9]);
/// assert_eq!(marshal::from_bytes::<heapless::String<8>>(&bytes)?, name);
///
/// let err = marshal::from_bytes::<heapless::String<2>>(&bytes).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::OverCapacity { len: 3, capacity: 2 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<LenT: LenType, const N: usize> Marshal for String<N, LenT> {
    const FIXED_LEN: Option<usize> = bounded_fixed(None, N);
    const MAX_LEN: Option<usize> = bounded_max(Some(1), N);
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
impl<'de, LenT: LenType, const N: usize> Unmarshal<'de> for String<N, LenT> {
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let s = <&str as Unmarshal>::decode(r)?;
        let mut out = String::new();
        out.push_str(s)
            .map_err(|_| DecodeError::over_capacity(s.len(), N, at))?;
        Ok(out)
    }
}

/// In every `Encoding`: the items, or the string, in the configuration,
/// read with the checks above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, UnmarshalIn};

    super::super::slice_in! {
        [T, LenT: LenType, const N: usize] Vec<T, N, LenT> => T;
    }
    super::super::str_in! {
        [LenT: LenType, const N: usize] String<N, LenT>;
    }

    impl<'de, E, I, T, LenT, const N: usize> UnmarshalIn<'de, Encoding<E, I>> for Vec<T, N, LenT>
    where
        E: Endian,
        I: IntEncoding,
        T: UnmarshalIn<'de, Encoding<E, I>>,
        LenT: LenType,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let len = super::super::take_bounded_len_in::<E, I>(r, T::MIN_LEN_IN, N)?;
            let mut items = Vec::new();
            for _ in 0..len {
                // `len <= N`: there is room.
                let _ = items.push(T::decode_in(r)?);
            }
            Ok(items)
        }
    }

    impl<'de, E: Endian, I: IntEncoding, LenT: LenType, const N: usize>
        UnmarshalIn<'de, Encoding<E, I>> for String<N, LenT>
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let at = r.position();
            let s = <&str as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
            let mut out = String::new();
            out.push_str(s)
                .map_err(|_| DecodeError::over_capacity(s.len(), N, at))?;
            Ok(out)
        }
    }
}
