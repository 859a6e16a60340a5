//! Adapters: a field written and read by another type's rules, with
//! `#[marshal(as = A)]` (as serde_with's `#[serde_as(as = ...)]`).
//!
//! An adapter `A` implements [`MarshalAs<T>`](crate::MarshalAs) and
//! [`UnmarshalAs<'de, T>`](crate::UnmarshalAs) for the field's type `T`. An
//! adapted field keeps everything a field of a `Marshal` type has: its
//! part of the struct's [`FIXED_LEN`](crate::Marshal::FIXED_LEN), `MAX_LEN`
//! and `MIN_LEN`, the caller's [`Writer`] and
//! [`Reader`] (so the depth limit, the allocation budget and
//! absolute error offsets), and a fingerprint of its own.
//!
//! Provided here:
//! - [`FromInto<U>`]: the value written as the `U` it converts into, and
//!   read back through `From<U>`;
//! - [`TryFromInto<U>`]: the same, read back through `TryFrom<U>`; a
//!   refused value is [`InvalidConversion`](crate::DecodeErrorKind::InvalidConversion)
//!   at its offset;
//! - [`Same`]: the type's own impl, to compose with the others;
//! - [`Owned`]: a `Cow` read as an owned value, never borrowed from the
//!   input (what a `Cow<'static, T>` field gets without asking);
//! - [`SerdeForm`] (features `chrono`, `time`, `jiff`): chrono's, time's and
//!   jiff's date and time types in the bytes bincode 1.3 writes through each
//!   crate's `serde` support, rather than marshal's own.
//!
//! A local mirror of another crate's type, derived with
//! `#[marshal(remote = path::Type)]`, is an adapter for that type too (see
//! the derive's attributes), checked against the foreign definition at
//! compile time:
//!
//! ```
//! use marshal::{Marshal, Unmarshal};
//!
//! mod geo {
//!     // Another crate's type, with public fields.
//!     #[derive(Debug, PartialEq)]
//!     pub struct LatLon { pub lat: f64, pub lon: f64 }
//! }
//!
//! #[derive(Marshal, Unmarshal)]
//! #[marshal(remote = geo::LatLon)]
//! struct LatLonDef { lat: f64, lon: f64 }
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Route { #[marshal(as = Vec<LatLonDef>)] stops: Vec<geo::LatLon> }
//!
//! let route = Route { stops: vec![geo::LatLon { lat: 1.5, lon: -2.0 }] };
//! let bytes = marshal::to_vec(&route);
//! assert_eq!(bytes.len(), 8 + 16);
//! assert_eq!(marshal::from_bytes::<Route>(&bytes).unwrap(), route);
//! ```
//!
//! Adapters compose over containers: `Option<A>` adapts `Option<T>`,
//! `Vec<A>` a `Vec<T>`, `[A; N]` a `[T; N]`, `Box<A>` a `Box<T>`, and a
//! tuple of up to 8 adapters a tuple of the types they adapt, each with the
//! container's own bytes.
//!
//! `FromInto`, `TryFromInto`, `Same`, `Owned` and their compositions carry every
//! configuration (`marshal::config`) their types do, and so does a
//! `remote` mirror; `SerdeForm` (bincode 1.3's bytes) and an adapter
//! written by hand have their bytes in `config::legacy()` only, unless the
//! latter also implements [`MarshalAsIn`] and [`UnmarshalAsIn`] for the
//! others.
//!
//! ```
//! use marshal::adapters::{Same, TryFromInto};
//! use marshal::{Marshal, Unmarshal};
//!
//! /// Stored as its `u8`.
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Level { Low, High }
//!
//! impl From<&Level> for u8 {
//!     fn from(level: &Level) -> u8 { *level as u8 }
//! }
//! impl TryFrom<u8> for Level {
//!     type Error = ();
//!     fn try_from(v: u8) -> Result<Self, ()> {
//!         match v { 0 => Ok(Level::Low), 1 => Ok(Level::High), _ => Err(()) }
//!     }
//! }
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Reading {
//!     #[marshal(as = TryFromInto<u8>)]
//!     level: Level,
//!     #[marshal(as = Vec<TryFromInto<u8>>)]
//!     history: Vec<Level>,
//!     #[marshal(as = (Same, Option<TryFromInto<u8>>))]
//!     pair: (u16, Option<Level>),
//! }
//!
//! let r = Reading { level: Level::High, history: vec![Level::Low], pair: (1, Some(Level::High)) };
//! let bytes = marshal::to_vec(&r);
//! assert_eq!(bytes.len(), 1 + (8 + 1) + (2 + 1 + 1));
//! assert_eq!(marshal::from_bytes::<Reading>(&bytes).unwrap(), r);
//!
//! // A byte that `Level` refuses, at its offset.
//! let mut bad = bytes.clone();
//! bad[0] = 7;
//! let err = marshal::from_bytes::<Reading>(&bad).unwrap_err();
//! assert_eq!(err.kind(), marshal::DecodeErrorKind::InvalidConversion);
//! assert_eq!(err.offset(), 0);
//! ```

use core::marker::PhantomData;

mod compose;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod serde_form;
pub(crate) mod traits;

#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
pub use serde_form::SerdeForm;
pub use traits::{MarshalAs, MarshalAsIn, UnmarshalAs, UnmarshalAsIn};

use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// The adapter that writes a value as the `U` it converts into (`U:
/// From<&T>`, so nothing is cloned), and reads a `U` back into it (`T:
/// From<U>`). Its bytes, sizes and fingerprint are `U`'s.
///
/// ```
/// use marshal::{adapters::FromInto, Marshal, Unmarshal};
///
/// /// Kept as `f64`, stored as `f32`.
/// #[derive(Debug, PartialEq)]
/// struct Meters(f64);
/// impl From<&Meters> for f32 {
///     fn from(m: &Meters) -> f32 { m.0 as f32 }
/// }
/// impl From<f32> for Meters {
///     fn from(v: f32) -> Meters { Meters(f64::from(v)) }
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Leg { #[marshal(as = FromInto<f32>)] length: Meters }
///
/// assert_eq!(Leg::FIXED_LEN, Some(4));
/// let bytes = marshal::to_vec(&Leg { length: Meters(1.5) });
/// assert_eq!(bytes, 1.5f32.to_le_bytes());
/// assert_eq!(marshal::from_bytes::<Leg>(&bytes).unwrap(), Leg { length: Meters(1.5) });
/// ```
pub struct FromInto<U>(PhantomData<fn() -> U>);

/// The adapter that writes a value as the `U` it converts into (`U:
/// From<&T>`), and reads a `U` back through `T: TryFrom<U>`: a value the
/// conversion refuses is a [`DecodeError`] of kind
/// [`InvalidConversion`](crate::DecodeErrorKind::InvalidConversion) at the
/// offset where the value starts. Its bytes, sizes and fingerprint are
/// `U`'s.
///
/// ```
/// use marshal::{adapters::TryFromInto, DecodeErrorKind, Marshal, Unmarshal};
///
/// /// A percentage, at most 100.
/// #[derive(Debug, PartialEq)]
/// struct Percent(u8);
/// impl From<&Percent> for u8 {
///     fn from(p: &Percent) -> u8 { p.0 }
/// }
/// impl TryFrom<u8> for Percent {
///     type Error = &'static str;
///     fn try_from(v: u8) -> Result<Self, Self::Error> {
///         if v <= 100 { Ok(Percent(v)) } else { Err("over 100") }
///     }
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Charge { id: u32, #[marshal(as = TryFromInto<u8>)] level: Percent }
///
/// let bytes = marshal::to_vec(&Charge { id: 1, level: Percent(40) });
/// assert_eq!(marshal::from_bytes::<Charge>(&bytes).unwrap().level, Percent(40));
///
/// let err = marshal::from_bytes::<Charge>(&[1, 0, 0, 0, 101]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidConversion);
/// assert_eq!(err.offset(), 4);
/// ```
pub struct TryFromInto<U>(PhantomData<fn() -> U>);

/// The adapter that is the type's own [`Marshal`] and [`Unmarshal`]: for
/// the parts of a composed adapter that need none (`as = (Same,
/// FromInto<u64>)`, `as = Vec<Same>`).
///
/// ```
/// use marshal::{adapters::{FromInto, Same}, Marshal, Unmarshal};
///
/// #[derive(Debug, PartialEq)]
/// struct Id(u32);
/// impl From<&Id> for u32 {
///     fn from(id: &Id) -> u32 { id.0 }
/// }
/// impl From<u32> for Id {
///     fn from(v: u32) -> Id { Id(v) }
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Owner { #[marshal(as = (Same, FromInto<u32>))] key: (u8, Id) }
///
/// let bytes = marshal::to_vec(&Owner { key: (1, Id(2)) });
/// assert_eq!(bytes, [1, 2, 0, 0, 0]);
/// assert_eq!(marshal::from_bytes::<Owner>(&bytes).unwrap(), Owner { key: (1, Id(2)) });
/// ```
pub struct Same;

/// `FromInto<U>` and `TryFromInto<U>` write a value as the `U` it
/// converts into (`U: From<&T>`), with `U`'s sizes and fingerprint, in
/// `legacy()` and in every dialect `U` has bytes in.
macro_rules! written_as_converted {
    ($($adapter:ident),*) => {$(
        impl<T, U> MarshalAs<T> for $adapter<U>
        where
            U: Marshal + for<'a> From<&'a T>,
        {
            const FIXED_LEN: Option<usize> = U::FIXED_LEN;
            const MAX_LEN: Option<usize> = U::MAX_LEN;
            const FINGERPRINT: u64 = U::FINGERPRINT;

            #[inline]
            fn encoded_len_as(value: &T) -> usize {
                match const { U::FIXED_LEN } {
                    Some(n) => n,
                    None => U::from(value).encoded_len(),
                }
            }

            #[inline]
            fn encode_as(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
                U::from(value).encode(w)
            }
        }

        impl<T, U, E: Endian, I: IntEncoding> MarshalAsIn<T, Encoding<E, I>> for $adapter<U>
        where
            U: MarshalIn<Encoding<E, I>> + for<'a> From<&'a T>,
        {
            #[inline]
            fn encoded_len_as_in(value: &T) -> usize {
                match const { U::__FIXED_LEN } {
                    Some(n) => n,
                    None => U::from(value).encoded_len_in(),
                }
            }

            #[inline]
            fn encode_as_in(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
                U::from(value).encode_in(w)
            }

            const __FIXED_LEN: Option<usize> = U::__FIXED_LEN;
            const __MAX_LEN: Option<usize> = U::__MAX_LEN;
        }
    )*};
}

written_as_converted!(FromInto, TryFromInto);

impl<'de, T, U> UnmarshalAs<'de, T> for FromInto<U>
where
    U: Unmarshal<'de>,
    T: From<U>,
{
    const MIN_LEN: usize = U::MIN_LEN;
    const MIN_LEN_IS_EXACT: bool = U::MIN_LEN_IS_EXACT;
    const __DECODE_STACK: usize = crate::stack::then_value::<T>(U::__DECODE_STACK);

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        U::decode(r).map(T::from)
    }
}

impl<'de, T, U> UnmarshalAs<'de, T> for TryFromInto<U>
where
    U: Unmarshal<'de>,
    T: TryFrom<U>,
{
    const MIN_LEN: usize = U::MIN_LEN;
    const MIN_LEN_IS_EXACT: bool = U::MIN_LEN_IS_EXACT;
    const __DECODE_STACK: usize = crate::stack::then_value::<T>(U::__DECODE_STACK);

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        let at = r.position();
        let value = U::decode(r)?;
        T::try_from(value).map_err(|_| DecodeError::invalid_conversion(at))
    }
}

impl<T: Marshal + ?Sized> MarshalAs<T> for Same {
    const FIXED_LEN: Option<usize> = T::FIXED_LEN;
    const MAX_LEN: Option<usize> = T::MAX_LEN;
    const FINGERPRINT: u64 = T::FINGERPRINT;

    #[inline]
    fn encoded_len_as(value: &T) -> usize {
        value.encoded_len()
    }

    #[inline]
    fn encode_as(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
        value.encode(w)
    }
}

impl<'de, T: Unmarshal<'de>> UnmarshalAs<'de, T> for Same {
    const MIN_LEN: usize = T::MIN_LEN;
    const MIN_LEN_IS_EXACT: bool = T::MIN_LEN_IS_EXACT;
    const __DECODE_STACK: usize = T::__DECODE_STACK;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        T::decode(r)
    }
}

impl<'de, T, U, E: Endian, I: IntEncoding> UnmarshalAsIn<'de, T, Encoding<E, I>> for FromInto<U>
where
    U: UnmarshalIn<'de, Encoding<E, I>>,
    T: From<U>,
{
    const MIN_LEN_AS_IN: usize = U::MIN_LEN_IN;

    #[inline]
    fn decode_as_in(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        U::decode_in(r).map(T::from)
    }
}

impl<'de, T, U, E: Endian, I: IntEncoding> UnmarshalAsIn<'de, T, Encoding<E, I>> for TryFromInto<U>
where
    U: UnmarshalIn<'de, Encoding<E, I>>,
    T: TryFrom<U>,
{
    const MIN_LEN_AS_IN: usize = U::MIN_LEN_IN;

    #[inline]
    fn decode_as_in(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        let at = r.position();
        let value = U::decode_in(r)?;
        T::try_from(value).map_err(|_| DecodeError::invalid_conversion(at))
    }
}

impl<T: MarshalIn<Encoding<E, I>> + ?Sized, E: Endian, I: IntEncoding>
    MarshalAsIn<T, Encoding<E, I>> for Same
{
    #[inline]
    fn encoded_len_as_in(value: &T) -> usize {
        value.encoded_len_in()
    }

    #[inline]
    fn encode_as_in(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
        value.encode_in(w)
    }

    const __FIXED_LEN: Option<usize> = T::__FIXED_LEN;
    const __MAX_LEN: Option<usize> = T::__MAX_LEN;
}

impl<'de, T: UnmarshalIn<'de, Encoding<E, I>>, E: Endian, I: IntEncoding>
    UnmarshalAsIn<'de, T, Encoding<E, I>> for Same
{
    const MIN_LEN_AS_IN: usize = T::MIN_LEN_IN;

    #[inline]
    fn decode_as_in(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        T::decode_in(r)
    }
}

/// The adapter that reads a [`Cow`](alloc::borrow::Cow) as an owned value
/// (`Cow::Owned`), never borrowed from the input, and writes it as the
/// `Cow` writes itself: the bytes, sizes and fingerprint of the value it
/// points to. A `Cow<'a, T>` borrows from the input where it can, which
/// needs the input to outlive `'a`; no input outlives `'static`, so a
/// derived type's `Cow<'static, T>` fields (also inside an `Option`,
/// `Vec`, `Box`, array or tuple) are read through this adapter without
/// asking. `T`'s owned form must have `T`'s bytes, as `String` has
/// `str`'s and `Vec<T>` has `[T]`'s.
///
/// ```
/// use std::borrow::Cow;
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Label {
///     name: Cow<'static, str>,
///     aliases: Vec<Cow<'static, str>>,
/// }
///
/// let label = Label { name: "disk".into(), aliases: vec!["drive".into()] };
/// let bytes = marshal::to_vec(&label);
/// let back: Label = marshal::from_bytes(&bytes)?;
/// assert_eq!(back, label);
/// assert!(matches!(back.name, Cow::Owned(_)));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[cfg(feature = "alloc")]
pub struct Owned;

#[cfg(feature = "alloc")]
mod owned {
    use alloc::borrow::{Cow, ToOwned};

    use super::{
        DecodeError, Encoding, Endian, IntEncoding, Marshal, MarshalAs, MarshalAsIn, MarshalIn,
        Overflow, Owned, Reader, Unmarshal, UnmarshalAs, UnmarshalAsIn, UnmarshalIn, Writer,
    };

    impl<B: Marshal + ToOwned + ?Sized> MarshalAs<Cow<'_, B>> for Owned {
        const FIXED_LEN: Option<usize> = B::FIXED_LEN;
        const MAX_LEN: Option<usize> = B::MAX_LEN;
        const FINGERPRINT: u64 = B::FINGERPRINT;

        #[inline]
        fn encoded_len_as(value: &Cow<'_, B>) -> usize {
            (**value).encoded_len()
        }

        #[inline]
        fn encode_as(value: &Cow<'_, B>, w: &mut Writer<'_>) -> Result<(), Overflow> {
            (**value).encode(w)
        }
    }

    impl<'de, 'a, B> UnmarshalAs<'de, Cow<'a, B>> for Owned
    where
        B: ToOwned + ?Sized,
        B::Owned: Unmarshal<'de>,
    {
        const MIN_LEN: usize = B::Owned::MIN_LEN;
        const MIN_LEN_IS_EXACT: bool = B::Owned::MIN_LEN_IS_EXACT;
        const __DECODE_STACK: usize =
            crate::stack::then_value::<Cow<'a, B>>(B::Owned::__DECODE_STACK);

        #[inline]
        fn decode_as(r: &mut Reader<'de>) -> Result<Cow<'a, B>, DecodeError> {
            B::Owned::decode(r).map(Cow::Owned)
        }
    }

    impl<B, E: Endian, I: IntEncoding> MarshalAsIn<Cow<'_, B>, Encoding<E, I>> for Owned
    where
        B: MarshalIn<Encoding<E, I>> + ToOwned + ?Sized,
    {
        #[inline]
        fn encoded_len_as_in(value: &Cow<'_, B>) -> usize {
            (**value).encoded_len_in()
        }

        #[inline]
        fn encode_as_in(value: &Cow<'_, B>, w: &mut Writer<'_>) -> Result<(), Overflow> {
            (**value).encode_in(w)
        }

        const __FIXED_LEN: Option<usize> = B::__FIXED_LEN;
        const __MAX_LEN: Option<usize> = B::__MAX_LEN;
    }

    impl<'de, 'a, B, E: Endian, I: IntEncoding> UnmarshalAsIn<'de, Cow<'a, B>, Encoding<E, I>> for Owned
    where
        B: ToOwned + ?Sized,
        B::Owned: UnmarshalIn<'de, Encoding<E, I>>,
    {
        const MIN_LEN_AS_IN: usize = B::Owned::MIN_LEN_IN;

        #[inline]
        fn decode_as_in(r: &mut Reader<'de>) -> Result<Cow<'a, B>, DecodeError> {
            B::Owned::decode_in(r).map(Cow::Owned)
        }
    }
}
