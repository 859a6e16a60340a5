//! [`MarshalIn`] and [`UnmarshalIn`] in every [`Encoding`] for the
//! standard library's types that bincode 2 encodes, and the integers,
//! lengths and tags that every other impl writes through.

use core::time::Duration;

use crate::config::{Encoding, Endian, Fixint, IntEncoding, MarshalIn, UnmarshalIn};
use crate::error::{DecodeError, Overflow};
use crate::mem::{Layout, Primitive};
use crate::reader::Reader;
use crate::writer::Writer;

/// The largest value a varint writes in its first byte alone.
const SINGLE: u64 = 250;
/// The marker of a `u16` after the first byte.
const U16: u8 = 251;
/// The marker of a `u32`.
const U32: u8 = 252;
/// The marker of a `u64`.
const U64: u8 = 253;
/// The marker of a `u128`.
const U128: u8 = 254;

/// The layout of a fixed-width number in `Encoding<E, I>`: its memory, as
/// in `legacy()`, when it is one byte wide, or neither variable-length nor
/// big-endian.
const fn fixed_layout<E: Endian, I: IntEncoding, T: Primitive>() -> Layout<T> {
    if size_of::<T>() > 1 && (I::VARINT || E::BIG) {
        Layout::OPAQUE
    } else {
        Layout::primitive()
    }
}

/// The length of every fixed-width integer `T` in `Encoding<_, I>`: its
/// width, unless the integers are variable-length.
const fn fixed_width<I: IntEncoding, T>() -> Option<usize> {
    if I::VARINT {
        None
    } else {
        Some(size_of::<T>())
    }
}

/// The bytes of a varint of `v`.
#[inline]
pub(crate) const fn varint_len(v: u64) -> usize {
    if v <= SINGLE {
        1
    } else if v <= u16::MAX as u64 {
        3
    } else if v <= u32::MAX as u64 {
        5
    } else {
        9
    }
}

/// Writes `v` as a varint in byte order `E`.
#[inline]
pub(crate) fn put_varint<E: Endian>(w: &mut Writer<'_>, v: u64) -> Result<(), Overflow> {
    if v <= SINGLE {
        w.put_u8(v as u8)
    } else if let Ok(v) = u16::try_from(v) {
        let b = if E::BIG {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        w.put_array([U16, b[0], b[1]])
    } else if let Ok(v) = u32::try_from(v) {
        let b = if E::BIG {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        w.put_array([U32, b[0], b[1], b[2], b[3]])
    } else {
        let b = if E::BIG {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        w.put_array([U64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
}

/// Reads a varint of an integer `bits` wide (16, 32 or 64) in byte order
/// `E`: a marker wider than `bits`, or 255, is
/// [`InvalidVarint`](crate::DecodeErrorKind::InvalidVarint) at the marker.
#[inline]
pub(crate) fn take_varint<E: Endian>(r: &mut Reader<'_>, bits: u8) -> Result<u64, DecodeError> {
    let at = r.position();
    let marker = r.take_u8()?;
    match marker {
        0..=250 => Ok(marker.into()),
        U16 => r.take_array().map(|b| {
            u64::from(if E::BIG {
                u16::from_be_bytes(b)
            } else {
                u16::from_le_bytes(b)
            })
        }),
        U32 if bits >= 32 => r.take_array().map(|b| {
            u64::from(if E::BIG {
                u32::from_be_bytes(b)
            } else {
                u32::from_le_bytes(b)
            })
        }),
        U64 if bits >= 64 => r.take_array().map(|b| {
            if E::BIG {
                u64::from_be_bytes(b)
            } else {
                u64::from_le_bytes(b)
            }
        }),
        _ => Err(DecodeError::invalid_varint(marker, bits, at)),
    }
}

/// Writes a length: a varint, or a fixed `u64`, in byte order `E`.
#[inline]
pub(crate) fn put_len<E: Endian, I: IntEncoding>(
    w: &mut Writer<'_>,
    len: usize,
) -> Result<(), Overflow> {
    MarshalIn::<Encoding<E, I>>::encode_in(&(len as u64), w)
}

/// Writes `bytes` after their length (a string's, or a run of bytes'):
/// with one bounds check for both when the length is a fixed-width `u64`,
/// as `legacy()` writes them.
#[inline]
pub(crate) fn put_prefixed<E: Endian, I: IntEncoding>(
    w: &mut Writer<'_>,
    bytes: &[u8],
) -> Result<(), Overflow> {
    if I::VARINT {
        put_len::<E, I>(w, bytes.len())?;
        return w.put_slice(bytes);
    }
    // `usize` is at most 64 bits wide on every target Rust supports.
    let len = bytes.len() as u64;
    w.put_after(
        if E::BIG {
            len.to_be_bytes()
        } else {
            len.to_le_bytes()
        },
        bytes,
    )
}

/// The bytes of a length.
#[inline]
pub(crate) fn len_len<I: IntEncoding>(len: usize) -> usize {
    if I::VARINT { varint_len(len as u64) } else { 8 }
}

/// Reads a length for items that each take at least `min_item_len` bytes
/// (counted as one when less), and rejects it unless that many items fit
/// in the rest of the input, as [`Reader::take_len`] does.
#[inline]
pub(crate) fn take_len<E: Endian, I: IntEncoding>(
    r: &mut Reader<'_>,
    min_item_len: usize,
) -> Result<usize, DecodeError> {
    let at = r.position();
    let raw = <u64 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)?;
    r.len_within(raw, at, min_item_len)
}

/// The length of a sequence of `len` items: its length prefix, then each.
#[inline]
pub(crate) fn seq_len<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>>(
    len: usize,
    items: impl IntoIterator<Item = T>,
) -> usize {
    items.into_iter().fold(len_len::<I>(len), |sum, item| {
        sum.saturating_add(item.encoded_len_in())
    })
}

/// Encodes a sequence of `len` items: its length prefix, then each.
#[inline]
pub(crate) fn encode_seq<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>>(
    len: usize,
    items: impl IntoIterator<Item = T>,
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    put_len::<E, I>(w, len)?;
    w.detached(|w| items.into_iter().try_for_each(|item| item.encode_in(w)))
}

/// `MarshalIn` in every `Encoding` for a collection (a sequence, a map, a
/// set): its length, then each item (entry), through its `len()` and
/// `iter()`. A parameter after `;` (a hasher) is not bounded.
#[cfg(feature = "alloc")]
macro_rules! collection_in {
    ($($t:ident<$($g:ident),+ $(; $s:ident)?>),*) => {$(
        impl<
            E: $crate::config::Endian,
            I: $crate::config::IntEncoding,
            $($g: $crate::config::MarshalIn<$crate::config::Encoding<E, I>>,)+
            $($s)?
        > $crate::config::MarshalIn<$crate::config::Encoding<E, I>> for $t<$($g),+ $(, $s)?>
        {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                $crate::impls::dialect::seq_len::<E, I, _>(self.len(), self.iter())
            }

            #[inline]
            fn encode_in(
                &self,
                w: &mut $crate::writer::Writer<'_>,
            ) -> Result<(), $crate::error::Overflow> {
                $crate::impls::dialect::encode_seq::<E, I, _>(self.len(), self.iter(), w)
            }
        }
    )*};
}
// Used by name in this file, and by path where other crates' collections
// are (features `std`, `hashbrown`, `indexmap`).
#[cfg(feature = "alloc")]
#[allow(unused_imports)]
pub(crate) use collection_in;

macro_rules! unsigned {
    ($($t:ty: $bits:literal),*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $t {
            const __FIXED_LEN: Option<usize> = fixed_width::<I, $t>();
            const __LAYOUT_IN: Layout<Self> = fixed_layout::<E, I, $t>();

            #[inline]
            fn encoded_len_in(&self) -> usize {
                if I::VARINT { varint_len(*self as u64) } else { size_of::<$t>() }
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                if I::VARINT {
                    put_varint::<E>(w, *self as u64)
                } else if E::BIG {
                    w.put_array(self.to_be_bytes())
                } else {
                    w.put_array(self.to_le_bytes())
                }
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $t {
            const MIN_LEN_IN: usize = if I::VARINT { 1 } else { size_of::<$t>() };
            const __LAYOUT_IN: Layout<Self> = fixed_layout::<E, I, $t>();

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                if I::VARINT {
                    // A marker no wider than `$bits` holds a value that fits.
                    take_varint::<E>(r, $bits).map(|v| v as $t)
                } else {
                    let b = r.take_array()?;
                    Ok(if E::BIG { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) })
                }
            }
        }
    )*};
}

unsigned!(u16: 16, u32: 32, u64: 64);

macro_rules! signed {
    ($($t:ty as $u:ty),*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $t {
            const __FIXED_LEN: Option<usize> = fixed_width::<I, $t>();

            #[inline]
            fn encoded_len_in(&self) -> usize {
                MarshalIn::<Encoding<E, I>>::encoded_len_in(&zigzag!(*self, $t as $u))
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                if I::VARINT {
                    MarshalIn::<Encoding<E, I>>::encode_in(&zigzag!(*self, $t as $u), w)
                } else {
                    MarshalIn::<Encoding<E, I>>::encode_in(&(*self as $u), w)
                }
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $t {
            const MIN_LEN_IN: usize = <$u as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let u = <$u as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
                Ok(if I::VARINT { ((u >> 1) as $t) ^ -((u & 1) as $t) } else { u as $t })
            }
        }
    )*};
}

/// `v` zigzag-mapped: 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
macro_rules! zigzag {
    ($v:expr, $t:ty as $u:ty) => {
        (($v << 1) ^ ($v >> (<$t>::BITS - 1))) as $u
    };
}

signed!(i16 as u16, i32 as u32, i64 as u64, i128 as u128);

impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for u128 {
    const __FIXED_LEN: Option<usize> = fixed_width::<I, u128>();

    #[inline]
    fn encoded_len_in(&self) -> usize {
        match u64::try_from(*self) {
            _ if !I::VARINT => 16,
            Ok(v) => varint_len(v),
            Err(_) => 17,
        }
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        if I::VARINT {
            if let Ok(v) = u64::try_from(*self) {
                return put_varint::<E>(w, v);
            }
            w.put_u8(U128)?;
        }
        if E::BIG {
            w.put_array(self.to_be_bytes())
        } else {
            w.put_array(self.to_le_bytes())
        }
    }
}

impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for u128 {
    const MIN_LEN_IN: usize = if I::VARINT { 1 } else { 16 };

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let fixed = |r: &mut Reader<'de>| {
            let b = r.take_array()?;
            Ok(if E::BIG {
                u128::from_be_bytes(b)
            } else {
                u128::from_le_bytes(b)
            })
        };
        if !I::VARINT {
            return fixed(r);
        }
        if r.peek_rest().first() == Some(&U128) {
            r.take_u8()?;
            return fixed(r);
        }
        take_varint::<E>(r, 128).map(u128::from)
    }
}

/// `usize` and `isize`, as the 64-bit integers they travel as; one that
/// does not fit this platform's is a `LengthOverflow`, as in `legacy()`.
macro_rules! pointer_sized {
    ($($t:ty as $wide:ty),*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $t {
            const __FIXED_LEN: Option<usize> = fixed_width::<I, $wide>();

            #[inline]
            fn encoded_len_in(&self) -> usize {
                MarshalIn::<Encoding<E, I>>::encoded_len_in(&(*self as $wide))
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                MarshalIn::<Encoding<E, I>>::encode_in(&(*self as $wide), w)
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $t {
            const MIN_LEN_IN: usize = <$wide as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let at = r.position();
                let v = <$wide as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
                <$t>::try_from(v).map_err(|_| DecodeError::length_overflow(v as u64, at))
            }
        }
    )*};
}

pointer_sized!(usize as u64, isize as i64);

macro_rules! float {
    ($($t:ty),*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $t {
            // Floats are never variable-length.
            const __FIXED_LEN: Option<usize> = Some(size_of::<$t>());
            const __LAYOUT_IN: Layout<Self> = fixed_layout::<E, Fixint, $t>();

            #[inline]
            fn encoded_len_in(&self) -> usize {
                size_of::<$t>()
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                if E::BIG {
                    w.put_array(self.to_be_bytes())
                } else {
                    w.put_array(self.to_le_bytes())
                }
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $t {
            const MIN_LEN_IN: usize = size_of::<$t>();
            const __LAYOUT_IN: Layout<Self> = fixed_layout::<E, Fixint, $t>();

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let b = r.take_array()?;
                Ok(if E::BIG { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) })
            }
        }
    )*};
}

float!(f32, f64);

/// Types whose bytes are the same in every dialect: their own impls.
macro_rules! same_bytes {
    ($($t:ty),*) => {$(
        impl<E: $crate::config::Endian, I: $crate::config::IntEncoding>
            $crate::config::MarshalIn<$crate::config::Encoding<E, I>> for $t
        {
            const __FIXED_LEN: Option<usize> = <$t as $crate::traits::Marshal>::FIXED_LEN;
            const __MAX_LEN: Option<usize> = <$t as $crate::traits::Marshal>::MAX_LEN;
            const __LAYOUT_IN: $crate::mem::Layout<Self> =
                <$t as $crate::traits::Marshal>::__LAYOUT;

            #[inline]
            fn encoded_len_in(&self) -> usize {
                $crate::traits::Marshal::encoded_len(self)
            }

            #[inline]
            fn encode_in(
                &self,
                w: &mut $crate::writer::Writer<'_>,
            ) -> Result<(), $crate::error::Overflow> {
                $crate::traits::Marshal::encode(self, w)
            }
        }

        impl<'de, E: $crate::config::Endian, I: $crate::config::IntEncoding>
            $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>> for $t
        {
            const MIN_LEN_IN: usize = <$t as $crate::traits::Unmarshal<'de>>::MIN_LEN;
            const __LAYOUT_IN: $crate::mem::Layout<Self> =
                <$t as $crate::traits::Unmarshal<'de>>::__LAYOUT;

            #[inline]
            fn decode_in(
                r: &mut $crate::reader::Reader<'de>,
            ) -> Result<Self, $crate::error::DecodeError> {
                <$t as $crate::traits::Unmarshal<'de>>::decode(r)
            }
        }
    )*};
}
pub(crate) use same_bytes;

same_bytes!(u8, i8, bool, char, ());

impl<E: Endian, I: IntEncoding, T: ?Sized> MarshalIn<Encoding<E, I>>
    for core::marker::PhantomData<T>
{
    const __FIXED_LEN: Option<usize> = Some(0);
    const __LAYOUT_IN: Layout<Self> = Layout::empty();

    #[inline]
    fn encoded_len_in(&self) -> usize {
        0
    }

    #[inline]
    fn encode_in(&self, _: &mut Writer<'_>) -> Result<(), Overflow> {
        Ok(())
    }
}

impl<'de, E: Endian, I: IntEncoding, T: ?Sized> UnmarshalIn<'de, Encoding<E, I>>
    for core::marker::PhantomData<T>
{
    const MIN_LEN_IN: usize = 0;
    const __LAYOUT_IN: Layout<Self> = Layout::empty();

    #[inline]
    fn decode_in(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(core::marker::PhantomData)
    }
}

impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for str {
    #[inline]
    fn encoded_len_in(&self) -> usize {
        len_len::<I>(self.len()).saturating_add(self.len())
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        put_prefixed::<E, I>(w, self.as_bytes())
    }
}

/// Reads a string's length and bytes: the input from the string's start
/// on, its length and its offset (see `seq::take_string`).
#[inline]
pub(crate) fn take_string<'de, E: Endian, I: IntEncoding>(
    r: &mut Reader<'de>,
) -> Result<(&'de [u8], usize, usize), DecodeError> {
    let len = take_len::<E, I>(r, 1)?;
    let at = r.position();
    let window = r.peek_rest();
    r.take(len)?;
    Ok((window, len, at))
}

impl<'de: 'a, 'a, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for &'a str {
    const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let (window, len, at) = take_string::<E, I>(r)?;
        crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
    }
}

impl<'de: 'a, 'a, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for &'a [u8] {
    const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let len = take_len::<E, I>(r, 1)?;
        r.take(len)
    }
}

/// A byte array borrowed from the input: its `N` bytes, with no length
/// before them, as an owned `[u8; N]` in every configuration (and in
/// `legacy()`, whose reader this is).
impl<'de: 'a, 'a, E: Endian, I: IntEncoding, const N: usize> UnmarshalIn<'de, Encoding<E, I>>
    for &'a [u8; N]
{
    const MIN_LEN_IN: usize = N;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        <Self as crate::traits::Unmarshal<'de>>::decode(r)
    }
}

impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>> MarshalIn<Encoding<E, I>> for [T] {
    #[inline]
    fn encoded_len_in(&self) -> usize {
        // Values whose bytes are their memory: as many bytes as they take.
        if T::__LAYOUT_IN.is_memcpy() {
            return len_len::<I>(self.len()).saturating_add(size_of_val(self));
        }
        seq_len::<E, I, _>(self.len(), self.iter())
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        // Values whose bytes are their memory: one copy.
        if let Some(bytes) = crate::mem::memory_of(T::__LAYOUT_IN, self) {
            if size_of::<T>() == 1 {
                return put_prefixed::<E, I>(w, bytes);
            }
            put_len::<E, I>(w, self.len())?;
            return w.put_slice(bytes);
        }
        encode_seq::<E, I, _>(self.len(), self.iter(), w)
    }
}

impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>, const N: usize>
    MarshalIn<Encoding<E, I>> for [T; N]
{
    const __FIXED_LEN: Option<usize> = crate::len::mul(T::__FIXED_LEN, N);
    const __LAYOUT_IN: Layout<Self> = Layout::array(T::__LAYOUT_IN);

    #[inline]
    fn encoded_len_in(&self) -> usize {
        if T::__LAYOUT_IN.is_memcpy() {
            return core::mem::size_of::<Self>();
        }
        if let Some(n) = Self::__FIXED_LEN {
            return n;
        }
        self.iter()
            .fold(0, |sum, item| sum.saturating_add(item.encoded_len_in()))
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        // Wire bytes that are the memory: one copy, as in `legacy()`.
        if let Some(bytes) = crate::mem::memory_of(T::__LAYOUT_IN, self) {
            return w.put_copy(bytes);
        }
        self.iter().try_for_each(|item| item.encode_in(w))
    }
}

impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>, const N: usize>
    UnmarshalIn<'de, Encoding<E, I>> for [T; N]
{
    const MIN_LEN_IN: usize = T::MIN_LEN_IN.saturating_mul(N);
    const __LAYOUT_IN: Layout<Self> = Layout::array(T::__LAYOUT_IN);

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        // Wire bytes that are the memory: one check, one copy, as in
        // `legacy()`.
        if T::__LAYOUT_IN.is_memcpy() {
            return crate::impls::array_from_run(r, T::__LAYOUT_IN);
        }
        crate::traits::try_array(|| T::decode_in(r))
    }
}

/// Pointers and references: the value they point to.
macro_rules! by_ref {
    ($($ptr:ty),*) => {$(
        impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>> + ?Sized>
            MarshalIn<Encoding<E, I>> for $ptr
        {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                (**self).encoded_len_in()
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                (**self).encode_in(w)
            }
        }
    )*};
}

by_ref!(&T, &mut T);

impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>> MarshalIn<Encoding<E, I>>
    for Option<T>
{
    const __FIXED_LEN: Option<usize> = match T::__FIXED_LEN {
        Some(0) => Some(1),
        _ => None,
    };

    #[inline]
    fn encoded_len_in(&self) -> usize {
        match self {
            None => 1,
            Some(v) => v.encoded_len_in().saturating_add(1),
        }
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            None => w.put_u8(0),
            Some(v) => {
                let some = |w: &mut Writer<'_>| {
                    w.put_u8(1)?;
                    v.encode_in(w)
                };
                // A fixed-size value: one bounds check, tag included, as
                // in `legacy()`.
                match T::__FIXED_LEN {
                    Some(n) => w.exact(n.saturating_add(1), some),
                    None => some(w),
                }
            }
        }
    }
}

impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
    UnmarshalIn<'de, Encoding<E, I>> for Option<T>
{
    const MIN_LEN_IN: usize = 1;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match r.take_u8()? {
            0 => Ok(None),
            1 => T::decode_in(r).map(Some),
            tag => Err(DecodeError::invalid_std_tag(
                tag.into(),
                crate::error::StdEnum::Option,
                at,
            )),
        }
    }
}

impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>, U: MarshalIn<Encoding<E, I>>>
    MarshalIn<Encoding<E, I>> for Result<T, U>
{
    #[inline]
    fn encoded_len_in(&self) -> usize {
        match self {
            Ok(v) => v.encoded_len_in().saturating_add(1),
            Err(e) => e.encoded_len_in().saturating_add(1),
        }
        .saturating_add(if I::VARINT { 0 } else { 3 })
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            Ok(v) => {
                MarshalIn::<Encoding<E, I>>::encode_in(&0u32, w)?;
                v.encode_in(w)
            }
            Err(e) => {
                MarshalIn::<Encoding<E, I>>::encode_in(&1u32, w)?;
                e.encode_in(w)
            }
        }
    }
}

impl<
    'de,
    E: Endian,
    I: IntEncoding,
    T: UnmarshalIn<'de, Encoding<E, I>>,
    U: UnmarshalIn<'de, Encoding<E, I>>,
> UnmarshalIn<'de, Encoding<E, I>> for Result<T, U>
{
    const MIN_LEN_IN: usize = <u32 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match <u32 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)? {
            0 => T::decode_in(r).map(Ok),
            1 => U::decode_in(r).map(Err),
            tag => Err(DecodeError::invalid_tag(tag, &"Result", at)),
        }
    }
}

macro_rules! tuple {
    ($($name:ident $index:tt),+) => {
        impl<E: Endian, I: IntEncoding, $($name: MarshalIn<Encoding<E, I>>),+>
            MarshalIn<Encoding<E, I>> for ($($name,)+)
        {
            const __FIXED_LEN: Option<usize> = crate::len::sum(&[$($name::__FIXED_LEN),+]);

            #[inline(always)]
            fn encoded_len_in(&self) -> usize {
                match Self::__FIXED_LEN {
                    Some(n) => n,
                    None => 0usize $(.saturating_add(self.$index.encoded_len_in()))+,
                }
            }

            #[inline(always)]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                let fields = |w: &mut Writer<'_>| {
                    $(self.$index.encode_in(w)?;)+
                    Ok(())
                };
                // A fixed-size tuple (a derived struct's fields): one
                // bounds check, as in `legacy()`.
                match Self::__FIXED_LEN {
                    Some(n) => w.exact(n, fields),
                    None => fields(w),
                }
            }
        }

        impl<'de, E: Endian, I: IntEncoding, $($name: UnmarshalIn<'de, Encoding<E, I>>),+>
            UnmarshalIn<'de, Encoding<E, I>> for ($($name,)+)
        {
            const MIN_LEN_IN: usize = 0usize $(.saturating_add($name::MIN_LEN_IN))+;

            #[inline(always)]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                Ok(($($name::decode_in(r)?,)+))
            }
        }
    };
}

tuple!(A 0);
tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
tuple!(A 0, B 1, C 2, D 3, F 4);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10, N 11);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10, N 11, O 12);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10, N 11, O 12, P 13);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10, N 11, O 12, P 13, Q 14);
tuple!(A 0, B 1, C 2, D 3, F 4, G 5, H 6, J 7, K 8, L 9, M 10, N 11, O 12, P 13, Q 14, R 15);

/// `Duration`: seconds as a `u64`, then nanoseconds as a `u32`.
impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for Duration {
    const __FIXED_LEN: Option<usize> = <(u64, u32) as MarshalIn<Encoding<E, I>>>::__FIXED_LEN;

    #[inline]
    fn encoded_len_in(&self) -> usize {
        MarshalIn::<Encoding<E, I>>::encoded_len_in(&(self.as_secs(), self.subsec_nanos()))
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        MarshalIn::<Encoding<E, I>>::encode_in(&(self.as_secs(), self.subsec_nanos()), w)
    }
}

impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for Duration {
    const MIN_LEN_IN: usize = 2 * <u32 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let secs = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
        let at = r.position();
        let nanos = <u32 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
        crate::impls::time::duration(secs, nanos, at)
    }
}

#[cfg(feature = "alloc")]
mod owned {
    use alloc::boxed::Box;
    use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{take_len, take_string};
    use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};
    use crate::error::{DecodeError, Overflow};
    use crate::impls::pointer::decode as pointer;
    use crate::reader::Reader;
    use crate::stack::Container;
    use crate::writer::Writer;

    by_ref!(Box<T>, alloc::rc::Rc<T>, alloc::sync::Arc<T>);

    impl<E: Endian, I: IntEncoding, B> MarshalIn<Encoding<E, I>> for alloc::borrow::Cow<'_, B>
    where
        B: MarshalIn<Encoding<E, I>> + alloc::borrow::ToOwned + ?Sized,
    {
        #[inline]
        fn encoded_len_in(&self) -> usize {
            (**self).encoded_len_in()
        }

        #[inline]
        fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
            (**self).encode_in(w)
        }
    }

    /// Decoded owned: a `Cow` of the owned form.
    impl<'de, E: Endian, I: IntEncoding, B> UnmarshalIn<'de, Encoding<E, I>>
        for alloc::borrow::Cow<'_, B>
    where
        B: alloc::borrow::ToOwned + ?Sized,
        B::Owned: UnmarshalIn<'de, Encoding<E, I>>,
    {
        const MIN_LEN_IN: usize = B::Owned::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            B::Owned::decode_in(r).map(alloc::borrow::Cow::Owned)
        }
    }

    macro_rules! shared {
        ($($ptr:ident),*) => {$(
            impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
                UnmarshalIn<'de, Encoding<E, I>> for $ptr<T>
            {
                const MIN_LEN_IN: usize = T::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    // The value and the two counters.
                    r.charge_alloc(size_of::<T>().saturating_add(2 * size_of::<usize>()))?;
                    r.nest_levels(const { Container::POINTER.levels_of_value::<T>() }, |r| {
                        T::decode_in(r).map($ptr::new)
                    })
                }
            }
        )*};
    }

    use alloc::rc::Rc;
    use alloc::sync::Arc;
    shared!(Rc, Arc);

    macro_rules! as_slice {
        ($($t:ty, $slice:ident $(, $g:ident)?);*) => {$(
            impl<E: Endian, I: IntEncoding $(, $g: MarshalIn<Encoding<E, I>>)?>
                MarshalIn<Encoding<E, I>> for $t
            {
                #[inline]
                fn encoded_len_in(&self) -> usize {
                    MarshalIn::<Encoding<E, I>>::encoded_len_in(self.$slice())
                }

                #[inline]
                fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                    MarshalIn::<Encoding<E, I>>::encode_in(self.$slice(), w)
                }
            }
        )*};
    }

    as_slice!(String, as_str; Vec<T>, as_slice, T);

    impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for String {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let (window, len, at) = take_string::<E, I>(r)?;
            let capacity = if len == 0 { 0 } else { len.max(16) };
            r.charge_at(capacity, at)?;
            crate::mem::string_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
        }
    }

    impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
        UnmarshalIn<'de, Encoding<E, I>> for Vec<T>
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            vec_in::<E, I, T>(r).map(|(items, _)| items)
        }
    }

    /// A `Vec<T>` and where its items started (after its length prefix).
    #[inline(always)]
    fn vec_in<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>(
        r: &mut Reader<'de>,
    ) -> Result<(Vec<T>, usize), DecodeError> {
        r.nest_levels(const { Container::SEQUENCE.levels_of_value::<T>() }, |r| {
            let len = take_len::<E, I>(r, T::MIN_LEN_IN)?;
            let at = r.position();
            // Values whose bytes are their memory: one check, one copy.
            // (Zero-sized values take the loop below: nothing to copy.)
            if T::__LAYOUT_IN.is_memcpy() && size_of::<T>() > 0 {
                return crate::impls::vec_from_run(r, T::__LAYOUT_IN, len).map(|v| (v, at));
            }
            let mut items = Vec::with_capacity(r.try_capacity_for::<T>(len)?);
            // Through a local reader, which stays in registers while
            // the values are written through pointers.
            r.local(|r| crate::impls::extend_decoded::<Encoding<E, I>, T>(&mut items, len, r))?;
            Ok((items, at))
        })
    }

    /// `Box`, `Rc` and `Arc` of `str` and of `[T]`: a `&str` or a `Vec<T>`
    /// converted, the conversion's allocation charged to the budget at
    /// the contents' offset, as `legacy()` does (`impls::pointer`).
    macro_rules! unsized_pointers {
        ($($ptr:ident => $bytes:ident, $from_vec:ident;)*) => {$(
            impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $ptr<str> {
                const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let s = <&str as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
                    let bytes = pointer::$bytes(core::alloc::Layout::array::<u8>(s.len()));
                    r.charge_at(bytes, r.position() - s.len())?;
                    Ok($ptr::from(s))
                }
            }

            impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
                UnmarshalIn<'de, Encoding<E, I>> for $ptr<[T]>
            {
                const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let (items, at) = vec_in::<E, I, T>(r)?;
                    r.charge_at(pointer::$from_vec(&items), at)?;
                    Ok($ptr::from(items))
                }
            }
        )*};
    }

    unsized_pointers! {
        Box => boxed, boxed_from_vec;
        Rc => counted, counted_from_vec;
        Arc => counted, counted_from_vec;
    }

    impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
        UnmarshalIn<'de, Encoding<E, I>> for Box<T>
    {
        const MIN_LEN_IN: usize = T::MIN_LEN_IN;

        /// The value built in its own allocation (`__decode_in_place`), as
        /// in `legacy()`: a derived struct's fields are written there
        /// directly, not gathered on the stack and moved.
        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.charge_alloc(size_of::<T>())?;
            r.nest_levels(const { Container::POINTER.levels_of_value::<T>() }, |r| {
                crate::mem::box_built(|place| T::__decode_in_place(r, place))
            })
        }
    }

    impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
        UnmarshalIn<'de, Encoding<E, I>> for VecDeque<T>
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            Vec::<T>::decode_in(r).map(VecDeque::from)
        }
    }

    collection_in!(BTreeMap<K, V>, BTreeSet<T>, VecDeque<T>);

    impl<'de, E: Endian, I: IntEncoding, K, V> UnmarshalIn<'de, Encoding<E, I>> for BTreeMap<K, V>
    where
        K: UnmarshalIn<'de, Encoding<E, I>> + Ord,
        V: UnmarshalIn<'de, Encoding<E, I>>,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.nest_levels(const { Container::MAP.levels_of_value::<(K, V)>() }, |r| {
                let len = take_len::<E, I>(r, K::MIN_LEN_IN.saturating_add(V::MIN_LEN_IN))?;
                let mut map = BTreeMap::new();
                for i in 0..len {
                    r.charge_alloc(crate::impls::collections::tree_entry_charge::<K, V>(i))?;
                    let k = K::decode_in(r)?;
                    map.insert(k, V::decode_in(r)?);
                }
                Ok(map)
            })
        }
    }

    impl<'de, E: Endian, I: IntEncoding, T> UnmarshalIn<'de, Encoding<E, I>> for BTreeSet<T>
    where
        T: UnmarshalIn<'de, Encoding<E, I>> + Ord,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.nest_levels(const { Container::SEQUENCE.levels_of_value::<T>() }, |r| {
                let len = take_len::<E, I>(r, T::MIN_LEN_IN)?;
                let mut set = BTreeSet::new();
                for i in 0..len {
                    r.charge_alloc(crate::impls::collections::tree_entry_charge::<T, ()>(i))?;
                    set.insert(T::decode_in(r)?);
                }
                Ok(set)
            })
        }
    }
}

/// `MarshalIn` and `UnmarshalIn` in every `Encoding` for a hash map and a
/// hash set of the standard library's interface (std's, hashbrown's): the
/// length, then the entries, decoded as `legacy()` decodes them.
#[cfg(any(feature = "std", feature = "hashbrown"))]
macro_rules! hash_impls_in {
    ($map:ident, $set:ident) => {
        $crate::impls::dialect::collection_in!($map<K, V; S>, $set<T; S>);

        impl<'de, E, I, K, V, S> $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>>
            for $map<K, V, S>
        where
            E: $crate::config::Endian,
            I: $crate::config::IntEncoding,
            K: $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>>
                + Eq
                + core::hash::Hash,
            V: $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>>,
            S: core::hash::BuildHasher + Default,
        {
            const MIN_LEN_IN: usize = <u64 as $crate::config::UnmarshalIn<
                'de,
                $crate::config::Encoding<E, I>,
            >>::MIN_LEN_IN;

            #[inline]
            fn decode_in(
                r: &mut $crate::reader::Reader<'de>,
            ) -> Result<Self, $crate::error::DecodeError> {
                use $crate::stack::Container;
                r.nest_levels(const { Container::MAP.levels_of_value::<(K, V)>() }, |r| {
                    let len = $crate::impls::dialect::take_len::<E, I>(
                        r,
                        K::MIN_LEN_IN.saturating_add(V::MIN_LEN_IN),
                    )?;
                    let capacity = $crate::impls::collections::table_capacity::<(K, V)>(r, len)?;
                    let mut map = $map::with_capacity_and_hasher(capacity, S::default());
                    for _ in 0..len {
                        let k = K::decode_in(r)?;
                        map.insert(k, V::decode_in(r)?);
                    }
                    Ok(map)
                })
            }
        }

        impl<'de, E, I, T, S> $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>>
            for $set<T, S>
        where
            E: $crate::config::Endian,
            I: $crate::config::IntEncoding,
            T: $crate::config::UnmarshalIn<'de, $crate::config::Encoding<E, I>>
                + Eq
                + core::hash::Hash,
            S: core::hash::BuildHasher + Default,
        {
            const MIN_LEN_IN: usize = <u64 as $crate::config::UnmarshalIn<
                'de,
                $crate::config::Encoding<E, I>,
            >>::MIN_LEN_IN;

            #[inline]
            fn decode_in(
                r: &mut $crate::reader::Reader<'de>,
            ) -> Result<Self, $crate::error::DecodeError> {
                use $crate::stack::Container;
                r.nest_levels(const { Container::SEQUENCE.levels_of_value::<T>() }, |r| {
                    let len = $crate::impls::dialect::take_len::<E, I>(r, T::MIN_LEN_IN)?;
                    let capacity = $crate::impls::collections::table_capacity::<T>(r, len)?;
                    let mut set = $set::with_capacity_and_hasher(capacity, S::default());
                    for _ in 0..len {
                        set.insert(T::decode_in(r)?);
                    }
                    Ok(set)
                })
            }
        }
    };
}
#[cfg(feature = "hashbrown")]
pub(crate) use hash_impls_in;

#[cfg(feature = "std")]
mod hashed {
    use std::collections::{HashMap, HashSet};

    hash_impls_in!(HashMap, HashSet);
}

/// `NonZero<T>` as the `T` inside, zero rejected as in `legacy()`.
macro_rules! nonzero_in {
    ($($t:ty),*) => {$(
        impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for core::num::NonZero<$t> {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                MarshalIn::<Encoding<E, I>>::encoded_len_in(&self.get())
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                MarshalIn::<Encoding<E, I>>::encode_in(&self.get(), w)
            }
        }

        impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>>
            for core::num::NonZero<$t>
        {
            const MIN_LEN_IN: usize = <$t as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let at = r.position();
                let v = <$t as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
                core::num::NonZero::new(v).ok_or(DecodeError::zero_non_zero(at))
            }
        }
    )*};
}

nonzero_in!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// `Wrapping<T>` and `Saturating<T>` as the `T` inside.
macro_rules! wrapper_in {
    ($($wrapper:ident),*) => {$(
        impl<E: Endian, I: IntEncoding, T: MarshalIn<Encoding<E, I>>> MarshalIn<Encoding<E, I>>
            for core::num::$wrapper<T>
        {
            const __LAYOUT_IN: Layout<Self> = Layout::transparent(T::__LAYOUT_IN);

            #[inline]
            fn encoded_len_in(&self) -> usize {
                self.0.encoded_len_in()
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.0.encode_in(w)
            }
        }

        impl<'de, E: Endian, I: IntEncoding, T: UnmarshalIn<'de, Encoding<E, I>>>
            UnmarshalIn<'de, Encoding<E, I>> for core::num::$wrapper<T>
        {
            const MIN_LEN_IN: usize = T::MIN_LEN_IN;
            const __LAYOUT_IN: Layout<Self> = Layout::transparent(T::__LAYOUT_IN);

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                T::decode_in(r).map(core::num::$wrapper)
            }
        }
    )*};
}

wrapper_in!(Wrapping, Saturating);
