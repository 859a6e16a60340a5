//! The timestamps in every [`Encoding`]: each layout's integers (see the
//! module docs' table), written as the configuration writes an integer of
//! that type, in the same order. The value is checked as in `legacy()`:
//! its `legacy()` bytes are put together from the integers read and
//! decoded by its own impl, so every type accepts and rejects exactly the
//! values it does there, with each error at the start of the integer it
//! is about.
//!
//! An instant's seconds, an `i64`, are written as the `u64` with the same
//! bits: from 1970 on, the bytes of bincode 2's `SystemTime` (a `Duration`
//! since the epoch), which a varint writes as short as the value; before
//! 1970, nine bytes. [`GoTime`] is Go's format, the same bytes in every
//! configuration.

use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::time::{GoTime, Timestamp};
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// An integer of a timestamp layout, as `legacy()` writes it: fixed width,
/// little-endian.
#[derive(Clone, Copy)]
enum Int {
    /// An unsigned 64-bit integer (or an instant's seconds, their bits).
    U64,
    /// An unsigned 32-bit integer.
    U32,
    /// A signed 64-bit integer (jiff's `SignedDuration`).
    #[cfg_attr(not(feature = "jiff"), allow(dead_code))]
    I64,
    /// A signed 32-bit integer (dates and UTC offsets).
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    I32,
}

impl Int {
    /// Its width in `legacy()`.
    const fn width(self) -> usize {
        match self {
            Int::U64 | Int::I64 => 8,
            Int::U32 | Int::I32 => 4,
        }
    }

    /// The integer in `legacy()`'s bytes `b` (its width of them), as a
    /// `u64` with the same bits, sign-extended for the signed ones.
    fn read(self, b: &[u8]) -> u64 {
        let mut wide = [0u8; 8];
        wide[..self.width()].copy_from_slice(&b[..self.width()]);
        match self {
            Int::U64 | Int::I64 => u64::from_le_bytes(wide),
            Int::U32 => u64::from(u32::from_le_bytes([wide[0], wide[1], wide[2], wide[3]])),
            Int::I32 => i32::from_le_bytes([wide[0], wide[1], wide[2], wide[3]]) as i64 as u64,
        }
    }

    /// The bytes of the integer `v` (as [`read`](Int::read) returns it) in
    /// byte order `E` and encoding `I`.
    fn len_in<E: Endian, I: IntEncoding>(self, v: u64) -> usize {
        match self {
            Int::U64 => MarshalIn::<Encoding<E, I>>::encoded_len_in(&v),
            Int::U32 => MarshalIn::<Encoding<E, I>>::encoded_len_in(&(v as u32)),
            Int::I64 => MarshalIn::<Encoding<E, I>>::encoded_len_in(&(v as i64)),
            Int::I32 => MarshalIn::<Encoding<E, I>>::encoded_len_in(&(v as i32)),
        }
    }

    /// Writes the integer `v` in byte order `E` and encoding `I`.
    fn put_in<E: Endian, I: IntEncoding>(self, v: u64, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            Int::U64 => MarshalIn::<Encoding<E, I>>::encode_in(&v, w),
            Int::U32 => MarshalIn::<Encoding<E, I>>::encode_in(&(v as u32), w),
            Int::I64 => MarshalIn::<Encoding<E, I>>::encode_in(&(v as i64), w),
            Int::I32 => MarshalIn::<Encoding<E, I>>::encode_in(&(v as i32), w),
        }
    }

    /// Reads the integer in byte order `E` and encoding `I`, and writes its
    /// `legacy()` bytes into `out` (its width of them).
    fn take_in<E: Endian, I: IntEncoding>(
        self,
        r: &mut Reader<'_>,
        out: &mut [u8],
    ) -> Result<(), DecodeError> {
        match self {
            Int::U64 => out.copy_from_slice(
                &<u64 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)?.to_le_bytes(),
            ),
            Int::U32 => out.copy_from_slice(
                &<u32 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)?.to_le_bytes(),
            ),
            Int::I64 => out.copy_from_slice(
                &<i64 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)?.to_le_bytes(),
            ),
            Int::I32 => out.copy_from_slice(
                &<i32 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)?.to_le_bytes(),
            ),
        }
        Ok(())
    }
}

/// `value`'s `legacy()` bytes: `N`, its fixed length.
fn legacy<T: Marshal, const N: usize>(value: &T) -> [u8; N] {
    let mut bytes = [0u8; N];
    // A fixed-length value fills exactly its length: this cannot fail.
    let _ = value.encode(&mut Writer::new(&mut bytes));
    bytes
}

/// The integers of `bytes`, a value's `legacy()` bytes of layout `ints`,
/// each with its integer.
fn each<const N: usize>(bytes: &[u8; N], ints: &[Int]) -> impl Iterator<Item = (Int, u64)> {
    let mut at = 0;
    ints.iter().map(move |&int| {
        let v = int.read(&bytes[at..]);
        at += int.width();
        (int, v)
    })
}

/// The length of `value` of layout `ints` in byte order `E` and encoding
/// `I`.
#[inline]
fn len_in<T: Marshal, E: Endian, I: IntEncoding, const N: usize>(value: &T, ints: &[Int]) -> usize {
    if !I::VARINT {
        return N;
    }
    each(&legacy::<T, N>(value), ints)
        .map(|(int, v)| int.len_in::<E, I>(v))
        .sum()
}

/// Writes `value` of layout `ints` in byte order `E` and encoding `I`.
#[inline]
fn encode_in<T: Marshal, E: Endian, I: IntEncoding, const N: usize>(
    value: &T,
    ints: &[Int],
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    each(&legacy::<T, N>(value), ints).try_for_each(|(int, v)| int.put_in::<E, I>(v, w))
}

/// Reads a `T` of layout `ints` (at most four integers) in byte order `E`
/// and encoding `I`, and checks it as `legacy()` does: an error its own
/// impl finds in an integer is at that integer's start in the input.
#[inline]
fn decode_in<T, E: Endian, I: IntEncoding, const N: usize>(
    r: &mut Reader<'_>,
    ints: &[Int],
) -> Result<T, DecodeError>
where
    T: for<'a> Unmarshal<'a>,
{
    let mut bytes = [0u8; N];
    // Where each integer starts: in the input, and in `bytes`.
    let mut starts = [(0usize, 0usize); 4];
    let mut at = 0;
    for (k, int) in ints.iter().enumerate() {
        starts[k] = (r.position(), at);
        int.take_in::<E, I>(r, &mut bytes[at..at + int.width()])?;
        at += int.width();
    }
    let starts = &starts[..ints.len()];
    T::decode(&mut Reader::new(&bytes)).map_err(|e| {
        let (input, own) = starts
            .iter()
            .rev()
            .find(|&&(_, own)| own <= e.offset())
            .copied()
            .unwrap_or((starts[0].0, 0));
        // In a fixed-width encoding the bytes of each integer line up.
        let within = if I::VARINT { 0 } else { e.offset() - own };
        e.at(input + within)
    })
}

/// [`MarshalIn`] and [`UnmarshalIn`] in every [`Encoding`] for timestamp
/// types of `N` bytes in `legacy()` and the layout of integers given.
macro_rules! layout_in {
    ($($ty:ty: $n:literal = [$($int:ident),*];)*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $ty {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                len_in::<$ty, E, I, $n>(self, &[$(Int::$int),*])
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                encode_in::<$ty, E, I, $n>(self, &[$(Int::$int),*], w)
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $ty {
            const MIN_LEN_IN: usize = if I::VARINT { [$(Int::$int),*].len() } else { $n };

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                decode_in::<$ty, E, I, $n>(r, &[$(Int::$int),*])
            }
        }
    )*};
}

layout_in! {
    Timestamp: 12 = [U64, U32];
}

#[cfg(feature = "std")]
layout_in! {
    std::time::SystemTime: 12 = [U64, U32];
}

#[cfg(feature = "chrono")]
layout_in! {
    ::chrono::DateTime<::chrono::Utc>: 12 = [U64, U32];
    ::chrono::DateTime<::chrono::FixedOffset>: 16 = [U64, U32, I32];
    ::chrono::NaiveDateTime: 12 = [U64, U32];
    ::chrono::NaiveDate: 4 = [I32];
    ::chrono::NaiveTime: 8 = [U64];
}

#[cfg(feature = "time")]
layout_in! {
    ::time::OffsetDateTime: 16 = [U64, U32, I32];
    ::time::UtcDateTime: 12 = [U64, U32];
    ::time::PrimitiveDateTime: 12 = [U64, U32];
    ::time::Date: 4 = [I32];
    ::time::Time: 8 = [U64];
}

#[cfg(feature = "jiff")]
layout_in! {
    ::jiff::Timestamp: 12 = [U64, U32];
    ::jiff::civil::DateTime: 12 = [U64, U32];
    ::jiff::civil::Date: 4 = [I32];
    ::jiff::civil::Time: 8 = [U64];
    ::jiff::SignedDuration: 12 = [I64, I32];
}

// Go's format, the same bytes in every configuration.
crate::impls::dialect::same_bytes!(GoTime);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{BigEndian, Fixint, LittleEndian, Varint};

    type Standard = Encoding<LittleEndian, Varint>;
    type LegacyBig = Encoding<BigEndian, Fixint>;

    #[test]
    fn instants_are_their_integers() {
        let t = Timestamp::new(300, 5).unwrap();
        let mut buf = [0u8; 16];
        let mut w = Writer::new(&mut buf);
        MarshalIn::<Standard>::encode_in(&t, &mut w).unwrap();
        assert_eq!(w.written(), 4);
        assert_eq!(buf[..4], [251, 44, 1, 5]);
        assert_eq!(MarshalIn::<Standard>::encoded_len_in(&t), 4);
        let mut r = Reader::new(&buf[..4]);
        assert_eq!(
            <Timestamp as UnmarshalIn<Standard>>::decode_in(&mut r),
            Ok(t)
        );
        // Before 1970: the seconds' bits as a `u64`, nine bytes.
        let before = Timestamp::new(-1, 0).unwrap();
        assert_eq!(MarshalIn::<Standard>::encoded_len_in(&before), 9 + 1);
    }

    #[test]
    fn errors_are_at_their_integer() {
        // Nanoseconds of 10^9, after a one-byte second.
        let bytes = [1, 252, 0x00, 0xca, 0x9a, 0x3b];
        let mut r = Reader::new(&bytes);
        let e = <Timestamp as UnmarshalIn<Standard>>::decode_in(&mut r).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (crate::DecodeErrorKind::InvalidNanos(1_000_000_000), 1)
        );
        // Big-endian fixed width: at the same byte as in `legacy()`.
        let mut bytes = [0u8; 12];
        bytes[8..].copy_from_slice(&1_000_000_000u32.to_be_bytes());
        let mut r = Reader::new(&bytes);
        let e = <Timestamp as UnmarshalIn<LegacyBig>>::decode_in(&mut r).unwrap_err();
        assert_eq!(e.offset(), 8);
    }
}
