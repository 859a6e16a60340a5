//! Adapters over containers: `Option<A>` adapts an `Option<T>` that `A`
//! adapts, and so do `Vec<A>`, `[A; N]`, `Box<A>` and tuples of adapters.
//! Each writes the container's bytes with the items written by their
//! adapters, in every dialect the item adapters carry.
//!
//! Their constants are those of the same container of `As<A, T>`, and they
//! decode through it, so a length prefix, the allocation budget and the
//! depth limit are checked as for the container itself; a `Vec` of
//! `As<A, T>`, which has `T`'s layout, becomes a `Vec<T>` (in the same
//! allocation, as std collects a mapped `IntoIter` today).

use crate::adapters::traits::{As, MarshalAs, MarshalAsIn, UnmarshalAs, UnmarshalAsIn};
use crate::config::{Dialect, Encoding, Endian, IntEncoding, Legacy, MarshalIn, UnmarshalIn};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// The length of `value` in dialect `D`: its tag byte, then the value.
fn option_len<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(value: &Option<T>) -> usize {
    match value {
        None => 1,
        Some(v) => A::encoded_len_as_in(v).saturating_add(1),
    }
}

/// Writes `value` in dialect `D`: the tag byte 0 or 1 (a raw byte in every
/// dialect), then the value.
fn option_encode<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(
    value: &Option<T>,
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    match value {
        None => w.put_u8(0),
        Some(v) => {
            w.put_u8(1)?;
            A::encode_as_in(v, w)
        }
    }
}

/// The length of `items` in dialect `D`: the `u64` length, then each item.
#[cfg(feature = "alloc")]
fn seq_len<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(items: &[T]) -> usize
where
    u64: MarshalIn<D>,
{
    let prefix = MarshalIn::<D>::encoded_len_in(&(items.len() as u64));
    prefix.saturating_add(items_len::<D, A, T>(items))
}

/// The length of `items` one after another, with no length prefix.
fn items_len<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(items: &[T]) -> usize {
    match const { A::__FIXED_LEN } {
        Some(n) => n.saturating_mul(items.len()),
        None => items
            .iter()
            .fold(0usize, |n, v| n.saturating_add(A::encoded_len_as_in(v))),
    }
}

/// Writes `items` in dialect `D`: the `u64` length, then each item.
#[cfg(feature = "alloc")]
fn seq_encode<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(
    items: &[T],
    w: &mut Writer<'_>,
) -> Result<(), Overflow>
where
    u64: MarshalIn<D>,
{
    MarshalIn::<D>::encode_in(&(items.len() as u64), w)?;
    items_encode::<D, A, T>(items, w)
}

/// Writes `items` one after another, with no length prefix.
fn items_encode<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(
    items: &[T],
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    items.iter().try_for_each(|v| A::encode_as_in(v, w))
}

/// `MarshalAs` and `MarshalAsIn` for `$adapter`, adapting `$target`: its
/// constants are `$through`'s, its bytes `$len` and `$encode`'s.
macro_rules! compose_encode {
    (
        [$($generics:tt)*] $adapter:ty => $target:ty, through $through:ty,
        len $len:ident, encode $encode:ident $(, where $($bound:tt)*)?
    ) => {
        impl<$($generics)*> MarshalAs<$target> for $adapter
        where
            A: MarshalAs<T>,
        {
            const FIXED_LEN: Option<usize> = <$through as Marshal>::FIXED_LEN;
            const MAX_LEN: Option<usize> = <$through as Marshal>::MAX_LEN;
            const FINGERPRINT: u64 = <$through as Marshal>::FINGERPRINT;

            #[inline]
            fn encoded_len_as(value: &$target) -> usize {
                $len::<Legacy, A, T>(value)
            }

            #[inline]
            fn encode_as(value: &$target, w: &mut Writer<'_>) -> Result<(), Overflow> {
                $encode::<Legacy, A, T>(value, w)
            }
        }

        impl<$($generics)*, E: Endian, I: IntEncoding> MarshalAsIn<$target, Encoding<E, I>>
            for $adapter
        where
            A: MarshalAsIn<T, Encoding<E, I>>,
        {
            #[inline]
            fn encoded_len_as_in(value: &$target) -> usize {
                $len::<Encoding<E, I>, A, T>(value)
            }

            #[inline]
            fn encode_as_in(value: &$target, w: &mut Writer<'_>) -> Result<(), Overflow> {
                $encode::<Encoding<E, I>, A, T>(value, w)
            }

            const __FIXED_LEN: Option<usize> =
                <$through as MarshalIn<Encoding<E, I>>>::__FIXED_LEN;
            const __MAX_LEN: Option<usize> = <$through as MarshalIn<Encoding<E, I>>>::__MAX_LEN;
        }
    };
}

/// `UnmarshalAs` and `UnmarshalAsIn` for `$adapter`, adapting `$target`:
/// decoded as `$through`, then unwrapped by `$unwrap`.
macro_rules! compose_decode {
    ([$($generics:tt)*] $adapter:ty => $target:ty, through $through:ty, unwrap $unwrap:expr) => {
        impl<'de, $($generics)*> UnmarshalAs<'de, $target> for $adapter
        where
            A: UnmarshalAs<'de, T>,
        {
            const MIN_LEN: usize = <$through as Unmarshal<'de>>::MIN_LEN;
            const MIN_LEN_IS_EXACT: bool = <$through as Unmarshal<'de>>::MIN_LEN_IS_EXACT;
            const __DECODE_STACK: usize = <$through as Unmarshal<'de>>::__DECODE_STACK;

            #[inline]
            fn decode_as(r: &mut Reader<'de>) -> Result<$target, DecodeError> {
                <$through as Unmarshal<'de>>::decode(r).map($unwrap)
            }
        }

        impl<'de, $($generics)*, E: Endian, I: IntEncoding>
            UnmarshalAsIn<'de, $target, Encoding<E, I>> for $adapter
        where
            A: UnmarshalAsIn<'de, T, Encoding<E, I>>,
        {
            const MIN_LEN_AS_IN: usize = <$through as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

            #[inline]
            fn decode_as_in(r: &mut Reader<'de>) -> Result<$target, DecodeError> {
                <$through as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r).map($unwrap)
            }
        }
    };
}

compose_encode!([A, T] Option<A> => Option<T>, through Option<As<A, T>>,
    len option_len, encode option_encode);
compose_decode!([A, T] Option<A> => Option<T>, through Option<As<A, T>>,
    unwrap |v| v.map(As::into_inner));

/// The length of a value (a box's) in `D`.
#[cfg(feature = "alloc")]
fn value_len<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(value: &T) -> usize {
    A::encoded_len_as_in(value)
}

/// Writes a value (a box's) in `D`.
#[cfg(feature = "alloc")]
fn value_encode<D: Dialect, A: MarshalAsIn<T, D> + ?Sized, T>(
    value: &T,
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    A::encode_as_in(value, w)
}

impl<A, T, const N: usize> MarshalAs<[T; N]> for [A; N]
where
    A: MarshalAs<T>,
{
    const FIXED_LEN: Option<usize> = <[As<A, T>; N] as Marshal>::FIXED_LEN;
    const MAX_LEN: Option<usize> = <[As<A, T>; N] as Marshal>::MAX_LEN;
    const FINGERPRINT: u64 = <[As<A, T>; N] as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(value: &[T; N]) -> usize {
        items_len::<Legacy, A, T>(value)
    }

    #[inline]
    fn encode_as(value: &[T; N], w: &mut Writer<'_>) -> Result<(), Overflow> {
        items_encode::<Legacy, A, T>(value, w)
    }
}

impl<A, T, const N: usize, E: Endian, I: IntEncoding> MarshalAsIn<[T; N], Encoding<E, I>> for [A; N]
where
    A: MarshalAsIn<T, Encoding<E, I>>,
{
    #[inline]
    fn encoded_len_as_in(value: &[T; N]) -> usize {
        items_len::<Encoding<E, I>, A, T>(value)
    }

    #[inline]
    fn encode_as_in(value: &[T; N], w: &mut Writer<'_>) -> Result<(), Overflow> {
        items_encode::<Encoding<E, I>, A, T>(value, w)
    }

    const __FIXED_LEN: Option<usize> = <[As<A, T>; N] as MarshalIn<Encoding<E, I>>>::__FIXED_LEN;
    const __MAX_LEN: Option<usize> = <[As<A, T>; N] as MarshalIn<Encoding<E, I>>>::__MAX_LEN;
}

compose_decode!([A, T, const N: usize] [A; N] => [T; N], through [As<A, T>; N],
    unwrap |v| v.map(As::into_inner));

/// A tuple of adapters adapts a tuple of the types they adapt, element by
/// element.
macro_rules! tuple_adapters {
    ($(($($a:ident $t:ident . $idx:tt),+))*) => {$(
        impl<$($a, $t),+> MarshalAs<($($t,)+)> for ($($a,)+)
        where
            $($a: MarshalAs<$t>,)+
        {
            const FIXED_LEN: Option<usize> = <($(As<$a, $t>,)+) as Marshal>::FIXED_LEN;
            const MAX_LEN: Option<usize> = <($(As<$a, $t>,)+) as Marshal>::MAX_LEN;
            const FINGERPRINT: u64 = <($(As<$a, $t>,)+) as Marshal>::FINGERPRINT;

            #[inline]
            fn encoded_len_as(value: &($($t,)+)) -> usize {
                0usize $(.saturating_add($a::encoded_len_as(&value.$idx)))+
            }

            #[inline]
            fn encode_as(value: &($($t,)+), w: &mut Writer<'_>) -> Result<(), Overflow> {
                $($a::encode_as(&value.$idx, w)?;)+
                Ok(())
            }
        }

        impl<$($a, $t,)+ E: Endian, I: IntEncoding> MarshalAsIn<($($t,)+), Encoding<E, I>>
            for ($($a,)+)
        where
            $($a: MarshalAsIn<$t, Encoding<E, I>>,)+
        {
            #[inline]
            fn encoded_len_as_in(value: &($($t,)+)) -> usize {
                0usize $(.saturating_add($a::encoded_len_as_in(&value.$idx)))+
            }

            #[inline]
            fn encode_as_in(value: &($($t,)+), w: &mut Writer<'_>) -> Result<(), Overflow> {
                $($a::encode_as_in(&value.$idx, w)?;)+
                Ok(())
            }

            const __FIXED_LEN: Option<usize> =
                <($(As<$a, $t>,)+) as MarshalIn<Encoding<E, I>>>::__FIXED_LEN;
            const __MAX_LEN: Option<usize> =
                <($(As<$a, $t>,)+) as MarshalIn<Encoding<E, I>>>::__MAX_LEN;
        }

        impl<'de, $($a, $t),+> UnmarshalAs<'de, ($($t,)+)> for ($($a,)+)
        where
            $($a: UnmarshalAs<'de, $t>,)+
        {
            const MIN_LEN: usize = <($(As<$a, $t>,)+) as Unmarshal<'de>>::MIN_LEN;
            const MIN_LEN_IS_EXACT: bool =
                <($(As<$a, $t>,)+) as Unmarshal<'de>>::MIN_LEN_IS_EXACT;
            const __DECODE_STACK: usize =
                <($(As<$a, $t>,)+) as Unmarshal<'de>>::__DECODE_STACK;

            #[inline]
            fn decode_as(r: &mut Reader<'de>) -> Result<($($t,)+), DecodeError> {
                Ok(($($a::decode_as(r)?,)+))
            }
        }

        impl<'de, $($a, $t,)+ E: Endian, I: IntEncoding>
            UnmarshalAsIn<'de, ($($t,)+), Encoding<E, I>> for ($($a,)+)
        where
            $($a: UnmarshalAsIn<'de, $t, Encoding<E, I>>,)+
        {
            const MIN_LEN_AS_IN: usize =
                <($(As<$a, $t>,)+) as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

            #[inline]
            fn decode_as_in(r: &mut Reader<'de>) -> Result<($($t,)+), DecodeError> {
                Ok(($($a::decode_as_in(r)?,)+))
            }
        }
    )*};
}

tuple_adapters! {
    (A0 T0.0)
    (A0 T0.0, A1 T1.1)
    (A0 T0.0, A1 T1.1, A2 T2.2)
    (A0 T0.0, A1 T1.1, A2 T2.2, A3 T3.3)
    (A0 T0.0, A1 T1.1, A2 T2.2, A3 T3.3, A4 T4.4)
    (A0 T0.0, A1 T1.1, A2 T2.2, A3 T3.3, A4 T4.4, A5 T5.5)
    (A0 T0.0, A1 T1.1, A2 T2.2, A3 T3.3, A4 T4.4, A5 T5.5, A6 T6.6)
    (A0 T0.0, A1 T1.1, A2 T2.2, A3 T3.3, A4 T4.4, A5 T5.5, A6 T6.6, A7 T7.7)
}

#[cfg(feature = "alloc")]
mod owned {
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    use super::{seq_encode, seq_len, value_encode, value_len};
    use crate::adapters::traits::{As, MarshalAs, MarshalAsIn, UnmarshalAs, UnmarshalAsIn};
    use crate::config::{Encoding, Endian, IntEncoding, Legacy, MarshalIn, UnmarshalIn};
    use crate::error::{DecodeError, Overflow};
    use crate::impls::nest_unless_fixed;
    use crate::reader::Reader;
    use crate::stack::Container;
    use crate::traits::{Marshal, Unmarshal};
    use crate::writer::Writer;

    /// A vector of `As<A, T>`, read as the `Vec<T>` it is (the two have one
    /// layout, and std's collection of a mapped `IntoIter` may keep the
    /// allocation: it does today, and either way the result is the same).
    fn unwrap_vec<A, T>(items: Vec<As<A, T>>) -> Vec<T> {
        items.into_iter().map(As::into_inner).collect()
    }

    compose_encode!([A, T] Vec<A> => Vec<T>, through Vec<As<A, T>>,
        len seq_len, encode seq_encode);
    compose_decode!([A, T] Vec<A> => Vec<T>, through Vec<As<A, T>>, unwrap unwrap_vec);

    compose_encode!([A, T] Box<A> => Box<T>, through Box<As<A, T>>,
        len value_len, encode value_encode);

    /// Read as `Box<T>` is: a level, the box's allocation charged, then the
    /// value, boxed.
    impl<'de, A, T> UnmarshalAs<'de, Box<T>> for Box<A>
    where
        A: UnmarshalAs<'de, T>,
    {
        const MIN_LEN: usize = <Box<As<A, T>> as Unmarshal<'de>>::MIN_LEN;
        const MIN_LEN_IS_EXACT: bool = <Box<As<A, T>> as Unmarshal<'de>>::MIN_LEN_IS_EXACT;
        const __DECODE_STACK: usize = <Box<As<A, T>> as Unmarshal<'de>>::__DECODE_STACK;

        #[inline]
        fn decode_as(r: &mut Reader<'de>) -> Result<Box<T>, DecodeError> {
            let levels = const { Container::POINTER.levels::<As<A, T>>() };
            nest_unless_fixed::<As<A, T>, _>(r, levels, |r| {
                r.charge_alloc(size_of::<T>())?;
                A::decode_as(r).map(Box::new)
            })
        }
    }

    /// Read as `Box<T>` is in the dialect.
    impl<'de, A, T, E: Endian, I: IntEncoding> UnmarshalAsIn<'de, Box<T>, Encoding<E, I>> for Box<A>
    where
        A: UnmarshalAsIn<'de, T, Encoding<E, I>>,
    {
        const MIN_LEN_AS_IN: usize =
            <Box<As<A, T>> as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_as_in(r: &mut Reader<'de>) -> Result<Box<T>, DecodeError> {
            r.charge_alloc(size_of::<T>())?;
            r.nest_levels(const { Container::POINTER.levels_of_value::<T>() }, |r| {
                A::decode_as_in(r).map(Box::new)
            })
        }
    }
}
