//! Integers, floats, `bool`, `char`, `()` and their thin wrappers.

use core::marker::PhantomData;
use core::num::{NonZero, Saturating, Wrapping};

use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

macro_rules! int_impls {
    ($($ty:ty),* $(,)?) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(core::mem::size_of::<$ty>());

            #[inline]
            fn encoded_len(&self) -> usize {
                core::mem::size_of::<$ty>()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                w.put_array(self.to_le_bytes())
            }
        }
    )*};
}

int_impls!(u16, u32, u64, u128, i16, i32, i64, i128, f32, f64);

/// Single bytes: a run of them is written with one copy.
macro_rules! byte_impls {
    ($($ty:ty),*) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(1);

            #[inline]
            fn encoded_len(&self) -> usize {
                1
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                w.put_array(self.to_le_bytes())
            }

            #[inline]
            fn encode_slice(items: &[Self], w: &mut Writer<'_>) -> Result<(), Overflow> {
                let out = w.reserve(items.len())?;
                for (o, i) in out.iter_mut().zip(items) {
                    *o = i.to_le_bytes()[0];
                }
                Ok(())
            }
        }
    )*};
}

byte_impls!(u8, i8);

/// `usize` and `isize` travel as 8 bytes whatever the platform's pointer width.
macro_rules! size_impls {
    ($($ty:ty => $wire:ty),*) => {$(
        impl Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some(8);

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
    )*};
}

size_impls!(usize => u64, isize => i64);

impl Marshal for bool {
    const FIXED_LEN: Option<usize> = Some(1);

    #[inline]
    fn encoded_len(&self) -> usize {
        1
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(u8::from(*self))
    }
}

/// A `char` is its UTF-8 bytes: one to four, with no length prefix.
impl Marshal for char {
    const MAX_LEN: Option<usize> = Some(4);

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

impl Marshal for () {
    const FIXED_LEN: Option<usize> = Some(0);

    #[inline]
    fn encoded_len(&self) -> usize {
        0
    }

    #[inline]
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), Overflow> {
        Ok(())
    }
}

impl<T: ?Sized> Marshal for PhantomData<T> {
    const FIXED_LEN: Option<usize> = Some(0);

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

            #[inline]
            fn encoded_len(&self) -> usize {
                self.0.encoded_len()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.0.encode(w)
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

            #[inline]
            fn encoded_len(&self) -> usize {
                self.get().encoded_len()
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.get().encode(w)
            }
        }
    )*};
}

nonzero_impls!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
