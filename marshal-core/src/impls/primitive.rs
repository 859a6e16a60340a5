//! Integers, floats, `bool`, `char`, `()` and their thin wrappers.

use core::marker::PhantomData;
use core::num::{NonZero, Saturating, Wrapping};

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::mem::Layout;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

macro_rules! int_impls {
    ($($ty:ty),* $(,)?) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(core::mem::size_of::<$ty>());
            const FINGERPRINT: u64 = fp::leaf(stringify!($ty));
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn encoded_len(&self) -> usize {
                core::mem::size_of::<$ty>()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                w.put_array(self.to_le_bytes())
            }
        }

        impl<'de> Unmarshal<'de> for $ty {
            const MIN_LEN: usize = core::mem::size_of::<$ty>();
            const MIN_LEN_IS_EXACT: bool = true;
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                r.take_array().map(<$ty>::from_le_bytes)
            }
        }
    )*};
}

int_impls!(u16, u32, u64, u128, i16, i32, i64, i128, f32, f64);

/// Single bytes: a run of them is written with one copy.
macro_rules! byte_impls {
    ($($ty:ty => $cow:ident),*) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(1);
            const FINGERPRINT: u64 = fp::leaf(stringify!($ty));
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn encoded_len(&self) -> usize {
                1
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                w.put_array(self.to_le_bytes())
            }
        }

        impl<'de> Unmarshal<'de> for $ty {
            const MIN_LEN: usize = 1;
            const MIN_LEN_IS_EXACT: bool = true;
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                r.take_array().map(<$ty>::from_le_bytes)
            }

            #[cfg(feature = "alloc")]
            #[inline]
            fn decode_vec(
                r: &mut Reader<'de>,
                len: usize,
            ) -> Result<alloc::vec::Vec<Self>, DecodeError> {
                r.charge_alloc(len)?;
                Ok(r.take(len)?.iter().map(|b| <$ty>::from_le_bytes([*b])).collect())
            }

            #[cfg(feature = "alloc")]
            #[inline]
            fn decode_cow_slice<'a>(
                r: &mut Reader<'de>,
                len: usize,
            ) -> Result<alloc::borrow::Cow<'a, [Self]>, DecodeError>
            where
                'de: 'a,
            {
                $cow(r, len)
            }

            #[inline]
            fn decode_array<const N: usize>(r: &mut Reader<'de>) -> Result<[Self; N], DecodeError> {
                Ok(r.take_array::<N>()?.map(|b| <$ty>::from_le_bytes([b])))
            }
        }
    )*};
}

byte_impls!(u8 => borrow_bytes, i8 => owned_bytes);

/// `i8` values are not bytes in Rust's eyes: copy them.
#[cfg(feature = "alloc")]
fn owned_bytes<'a, 'de: 'a>(
    r: &mut Reader<'de>,
    len: usize,
) -> Result<alloc::borrow::Cow<'a, [i8]>, DecodeError> {
    i8::decode_vec(r, len).map(alloc::borrow::Cow::Owned)
}

/// A run of `u8` in the input is the slice itself: borrow it.
#[cfg(feature = "alloc")]
fn borrow_bytes<'a, 'de: 'a>(
    r: &mut Reader<'de>,
    len: usize,
) -> Result<alloc::borrow::Cow<'a, [u8]>, DecodeError> {
    r.take(len).map(alloc::borrow::Cow::Borrowed)
}

/// `usize` and `isize` travel as 8 bytes whatever the platform's pointer width.
macro_rules! size_impls {
    ($($ty:ty => $wire:ty),*) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(8);
            // The same bytes as the 64-bit integer, whatever the platform.
            const FINGERPRINT: u64 = fp::leaf(stringify!($wire));
            // Memcpy-equivalent only where the type is 8 bytes wide.
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn encoded_len(&self) -> usize {
                8
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                // Lossless: pointer widths are at most 64 bits on every
                // target Rust supports today; `as` keeps this infallible.
                w.put_array((*self as $wire).to_le_bytes())
            }
        }

        impl<'de> Unmarshal<'de> for $ty {
            const MIN_LEN: usize = 8;
            const MIN_LEN_IS_EXACT: bool = true;
            const __LAYOUT: Layout<Self> = Layout::primitive();

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let at = r.position();
                let wire = <$wire>::from_le_bytes(r.take_array()?);
                <$ty>::try_from(wire)
                    .map_err(|_| DecodeError::length_overflow(wire as u64, at))
            }
        }
    )*};
}

size_impls!(usize => u64, isize => i64);

impl Marshal for bool {
    const FIXED_LEN: Option<usize> = Some(1);
    const FINGERPRINT: u64 = fp::leaf("bool");

    #[inline]
    fn encoded_len(&self) -> usize {
        1
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(u8::from(*self))
    }
}

impl<'de> Unmarshal<'de> for bool {
    const MIN_LEN: usize = 1;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match r.take_u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(DecodeError::invalid_bool(b, at)),
        }
    }
}

/// A `char` is its UTF-8 bytes: one to four, with no length prefix.
impl Marshal for char {
    const MAX_LEN: Option<usize> = Some(4);
    const FINGERPRINT: u64 = fp::leaf("char");

    #[inline]
    fn encoded_len(&self) -> usize {
        self.len_utf8()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut tmp = [0u8; 4];
        w.put_slice(self.encode_utf8(&mut tmp).as_bytes())
    }
}

impl<'de> Unmarshal<'de> for char {
    const MIN_LEN: usize = 1;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let first = r.take_u8()?;
        let width = match first {
            0x00..=0x7f => return Ok(char::from(first)),
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return Err(DecodeError::invalid_char(first.into(), at)),
        };
        let mut bytes = [first, 0, 0, 0];
        bytes[1..width].copy_from_slice(r.take(width - 1)?);
        core::str::from_utf8(&bytes[..width])
            .ok()
            .and_then(|s| s.chars().next())
            .ok_or(DecodeError::invalid_char(first.into(), at))
    }
}

impl Marshal for () {
    const FIXED_LEN: Option<usize> = Some(0);
    const FINGERPRINT: u64 = fp::leaf("()");
    const __LAYOUT: Layout<Self> = Layout::empty();

    #[inline]
    fn encoded_len(&self) -> usize {
        0
    }

    #[inline]
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), Overflow> {
        Ok(())
    }
}

impl<'de> Unmarshal<'de> for () {
    const MIN_LEN_IS_EXACT: bool = true;
    const __LAYOUT: Layout<Self> = Layout::empty();

    #[inline]
    fn decode(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(())
    }
}

impl<'de, T: ?Sized> Unmarshal<'de> for PhantomData<T> {
    const MIN_LEN_IS_EXACT: bool = true;
    const __LAYOUT: Layout<Self> = Layout::empty();

    #[inline]
    fn decode(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(PhantomData)
    }
}

impl<T: ?Sized> Marshal for PhantomData<T> {
    const FIXED_LEN: Option<usize> = Some(0);
    const FINGERPRINT: u64 = fp::leaf("()");
    const __LAYOUT: Layout<Self> = Layout::empty();

    #[inline]
    fn encoded_len(&self) -> usize {
        0
    }

    #[inline]
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), Overflow> {
        Ok(())
    }
}

/// `Wrapping<T>` and `Saturating<T>` encode as the `T` inside.
macro_rules! wrapper_impls {
    ($($wrapper:ident),*) => {$(
        impl<T: Marshal> Marshal for $wrapper<T> {
            const FIXED_LEN: Option<usize> = T::FIXED_LEN;
            const MAX_LEN: Option<usize> = T::MAX_LEN;
            const FINGERPRINT: u64 = T::FINGERPRINT;
            // `Wrapping` and `Saturating` are `repr(transparent)`.
            const __LAYOUT: Layout<Self> = Layout::transparent(T::__LAYOUT);

            #[inline]
            fn encoded_len(&self) -> usize {
                self.0.encoded_len()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.0.encode(w)
            }
        }

        impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for $wrapper<T> {
            const MIN_LEN: usize = T::MIN_LEN;
            const MIN_LEN_IS_EXACT: bool = T::MIN_LEN_IS_EXACT;
            const __LAYOUT: Layout<Self> = Layout::transparent(T::__LAYOUT);
            const __DECODE_STACK: usize = crate::stack::fields(&[crate::nesting::field_of::<T>()]);

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                T::decode(r).map($wrapper)
            }
        }
    )*};
}

wrapper_impls!(Wrapping, Saturating);

/// `NonZero<T>` encodes as the `T` inside.
macro_rules! nonzero_impls {
    ($($t:ty),*) => {$(
        impl Marshal for NonZero<$t> {
            const FIXED_LEN: Option<usize> = <$t as Marshal>::FIXED_LEN;
            const FINGERPRINT: u64 = fp::mix(fp::leaf("nonzero"), <$t as Marshal>::FINGERPRINT);

            #[inline]
            fn encoded_len(&self) -> usize {
                self.get().encoded_len()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.get().encode(w)
            }
        }

        impl<'de> Unmarshal<'de> for NonZero<$t> {
            const MIN_LEN: usize = <$t as Unmarshal>::MIN_LEN;
            const MIN_LEN_IS_EXACT: bool = true;

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                let at = r.position();
                NonZero::new(<$t>::decode(r)?).ok_or(DecodeError::zero_non_zero(at))
            }
        }
    )*};
}

nonzero_impls!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);
