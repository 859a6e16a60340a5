//! uuid's `Uuid` (feature `uuid`).

use ::uuid::Uuid;

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// The bytes bincode 1.3 writes for a `Uuid` through uuid's `serde`
/// support, which for a binary format is `serialize_bytes`: a `u64` length
/// of 16, then the 16 bytes in order. 24 bytes, whatever the value, so a
/// struct of them keeps its `FIXED_LEN`.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
/// use uuid::Uuid;
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Session { id: Uuid, user: u32 }
///
/// assert_eq!(Uuid::FIXED_LEN, Some(24));
/// assert_eq!(Session::FIXED_LEN, Some(24 + 4));
///
/// let id = Uuid::from_u128(0x00112233_4455_6677_8899_aabbccddeeff);
/// let bytes = marshal::to_vec(&Session { id, user: 7 });
/// assert_eq!(bytes[..8], [16, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!(bytes[8..24], *id.as_bytes());
/// assert_eq!(marshal::from_bytes::<Session>(&bytes)?, Session { id, user: 7 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl Marshal for Uuid {
    const FIXED_LEN: Option<usize> = Some(24);
    const FINGERPRINT: u64 = fp::leaf("uuid");

    #[inline]
    fn encoded_len(&self) -> usize {
        24
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut bytes = [0u8; 24];
        bytes[..8].copy_from_slice(&16u64.to_le_bytes());
        bytes[8..].copy_from_slice(self.as_bytes());
        w.put_array(bytes)
    }
}

/// Reads what uuid's `serde` support reads from bincode: a length that must
/// be 16 (anything else is a [`Custom`](crate::DecodeErrorKind::Custom)
/// error at the length), then the bytes. A length prefix that already
/// differs from 16 in the bytes that arrived is that error even when the
/// input ends before the 24 bytes: more bytes could not mend it, so it is
/// not [`is_incomplete`](DecodeError::is_incomplete).
///
/// ```
/// use marshal::{DecodeErrorKind, Unmarshal};
/// use uuid::Uuid;
///
/// let mut bytes = marshal::to_vec(&Uuid::nil());
/// bytes[0] = 15;
/// let err = marshal::from_bytes::<Uuid>(&bytes).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::Custom("a Uuid's length prefix must be 16"), 0));
///
/// // Cut short, the same error; a good prefix cut short is incomplete.
/// let err = Uuid::read_from(&bytes[..10]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::Custom("a Uuid's length prefix must be 16"));
/// assert!(Uuid::read_from(&[16, 0, 0]).unwrap_err().is_incomplete());
/// ```
impl<'de> Unmarshal<'de> for Uuid {
    const MIN_LEN: usize = 24;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let Ok(bytes) = r.take_array::<24>() else {
            return Err(cut_short(r));
        };
        let (len, id) = bytes.split_at(8);
        if len != LEN_PREFIX {
            return Err(bad_prefix(at));
        }
        let mut out = [0u8; 16];
        out.copy_from_slice(id);
        Ok(Uuid::from_bytes(out))
    }
}

/// The length prefix every `Uuid` has.
const LEN_PREFIX: [u8; 8] = 16u64.to_le_bytes();

#[cold]
fn bad_prefix(at: usize) -> DecodeError {
    DecodeError::custom(&"a Uuid's length prefix must be 16", at)
}

/// The error for a `Uuid` of which fewer than 24 bytes are left in `r`: a
/// bad length prefix if the bytes of it that are there say so, else the
/// end of the input.
#[cold]
fn cut_short(r: &Reader<'_>) -> DecodeError {
    let rest = r.peek_rest();
    let there = rest.len().min(LEN_PREFIX.len());
    if rest[..there] != LEN_PREFIX[..there] {
        return bad_prefix(r.position());
    }
    DecodeError::unexpected_end(24usize.saturating_sub(rest.len()), r.position())
}

/// In every `Encoding`: as uuid's `serde` support writes it through bincode
/// 2's `serde` module, its 16 bytes after their length, `16` in the
/// configuration (one byte as a varint).
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};

    impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for Uuid {
        #[inline]
        fn encoded_len_in(&self) -> usize {
            MarshalIn::<Encoding<E, I>>::encoded_len_in(&self.as_bytes()[..])
        }

        #[inline]
        fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
            MarshalIn::<Encoding<E, I>>::encode_in(&self.as_bytes()[..], w)
        }
    }

    impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for Uuid {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN + 16;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let at = r.position();
            let bytes = <&[u8] as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
            let id: [u8; 16] = bytes.try_into().map_err(|_| bad_prefix(at))?;
            Ok(Uuid::from_bytes(id))
        }
    }
}
