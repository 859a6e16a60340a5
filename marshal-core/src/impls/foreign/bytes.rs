//! bytes' `Bytes` and `BytesMut` as field types (feature `bytes`).

use ::bytes::{Bytes, BytesMut};

use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// The bytes bincode 1.3 writes through bytes' `serde` support
/// (`serialize_bytes`): a `u64` length, then the bytes, as for `&[u8]`.
///
/// ```
/// use bytes::{Bytes, BytesMut};
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Packet { seq: u16, body: Bytes, scratch: BytesMut }
///
/// let p = Packet { seq: 1, body: Bytes::from_static(b"hi"), scratch: BytesMut::from(&b"!"[..]) };
/// let bytes = marshal::to_vec(&p);
/// assert_eq!(bytes, [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i', 1, 0, 0, 0, 0, 0, 0, 0, b'!']);
/// assert_eq!(marshal::from_bytes::<Packet>(&bytes)?, p);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl Marshal for Bytes {
    const FINGERPRINT: u64 = <[u8] as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        self[..].encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_prefixed(self)
    }
}

/// As [`Bytes`](#impl-Marshal-for-Bytes).
///
/// ```
/// use bytes::BytesMut;
/// assert_eq!(marshal::to_vec(&BytesMut::from(&b"ab"[..])), [2, 0, 0, 0, 0, 0, 0, 0, b'a', b'b']);
/// ```
impl Marshal for BytesMut {
    const FINGERPRINT: u64 = <[u8] as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        self[..].encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_prefixed(self)
    }
}

/// The length prefix and the bytes after it, charged against the reader's
/// allocation budget as one allocation of that length.
#[inline]
fn take_bytes<'de>(r: &mut Reader<'de>) -> Result<&'de [u8], DecodeError> {
    let len = r.take_len(1)?;
    r.charge_alloc(len)?;
    r.take(len)
}

/// A copy of the bytes, in one allocation of exactly their length.
///
/// ```
/// use bytes::Bytes;
/// let bytes = marshal::to_vec(&Bytes::from_static(b"abc"));
/// assert_eq!(marshal::from_bytes::<Bytes>(&bytes)?, &b"abc"[..]);
///
/// // Under an allocation budget, the copy is charged.
/// let err = marshal::from_bytes_limited::<Bytes>(&bytes, 2).unwrap_err();
/// assert_eq!(err.kind(), marshal::DecodeErrorKind::AllocLimit { limit: 2 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for Bytes {
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        take_bytes(r).map(Bytes::copy_from_slice)
    }
}

/// As [`Bytes`](#impl-Unmarshal%3C'de%3E-for-Bytes).
///
/// ```
/// use bytes::BytesMut;
/// let bytes = marshal::to_vec(&BytesMut::from(&b"abc"[..]));
/// assert_eq!(marshal::from_bytes::<BytesMut>(&bytes)?, &b"abc"[..]);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for BytesMut {
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        take_bytes(r).map(BytesMut::from)
    }
}

/// In every `Encoding`: the bytes after their length in the configuration,
/// charged as above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};

    macro_rules! bytes_in {
        ($($ty:ty => $make:expr;)*) => {$(
            impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $ty {
                #[inline]
                fn encoded_len_in(&self) -> usize {
                    MarshalIn::<Encoding<E, I>>::encoded_len_in(&self[..])
                }

                #[inline]
                fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                    MarshalIn::<Encoding<E, I>>::encode_in(&self[..], w)
                }
            }

            impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $ty {
                const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let len = crate::impls::dialect::take_len::<E, I>(r, 1)?;
                    r.charge_alloc(len)?;
                    r.take(len).map($make)
                }
            }
        )*};
    }

    bytes_in! {
        Bytes => Bytes::copy_from_slice;
        BytesMut => BytesMut::from;
    }
}
