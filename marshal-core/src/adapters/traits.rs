//! The adapter traits, their dialect forms, and the impls of `As` (the type
//! by which the derive names an adapted field) through them.

use crate::config::{Dialect, Encoding, Endian, IntEncoding, Legacy, MarshalIn, UnmarshalIn};
use crate::error::{DecodeError, Overflow};
pub use crate::mem::As;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::wire_hash;
use crate::writer::Writer;

/// Writes a `T` on the adapter's behalf: what `#[marshal(as = A)]` on a
/// field of type `T` calls instead of `T`'s own [`Marshal`] (as serde_with's
/// `SerializeAs`). An adapter is usually a unit struct of the crate that
/// needs it, so it may adapt another crate's type.
///
/// It carries the constants of [`Marshal`], so an adapted field keeps its
/// part of the struct's [`FIXED_LEN`](Marshal::FIXED_LEN) and
/// [`MAX_LEN`](Marshal::MAX_LEN), and writes through the caller's
/// [`Writer`]. Adapters compose over `Option`, `Vec`, arrays, `Box` and
/// tuples (`as = Vec<A>` adapts a `Vec<T>`); see [`adapters`](crate::adapters)
/// for the ones provided.
///
/// An adapter written by hand has its bytes in `config::legacy()`, the
/// default; to carry the other configurations, implement
/// [`MarshalAsIn`](crate::config::MarshalAsIn) for them too.
///
/// ```
/// use marshal::{Marshal, MarshalAs, Overflow, Unmarshal, UnmarshalAs, Writer, Reader, DecodeError};
///
/// // Another crate's type, with no `Marshal` impl.
/// mod geo { pub struct Vec3 { pub x: f32, pub y: f32, pub z: f32 } }
///
/// struct Vec3As;
///
/// impl MarshalAs<geo::Vec3> for Vec3As {
///     const FIXED_LEN: Option<usize> = Some(12);
///     fn encoded_len_as(_: &geo::Vec3) -> usize {
///         12
///     }
///     fn encode_as(v: &geo::Vec3, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         (v.x, v.y, v.z).encode(w)
///     }
/// }
///
/// impl<'de> UnmarshalAs<'de, geo::Vec3> for Vec3As {
///     const MIN_LEN: usize = 12;
///     const MIN_LEN_IS_EXACT: bool = true;
///     fn decode_as(r: &mut Reader<'de>) -> Result<geo::Vec3, DecodeError> {
///         let (x, y, z) = <(f32, f32, f32)>::decode(r)?;
///         Ok(geo::Vec3 { x, y, z })
///     }
/// }
///
/// #[derive(Marshal, Unmarshal)]
/// struct Particle {
///     #[marshal(as = Vec3As)]
///     at: geo::Vec3,
///     mass: f32,
/// }
///
/// // The adapted field keeps the struct's compile-time size.
/// assert_eq!(Particle::FIXED_LEN, Some(16));
/// let p = Particle { at: geo::Vec3 { x: 1.0, y: 2.0, z: 3.0 }, mass: 0.5 };
/// let back: Particle = marshal::from_bytes(&marshal::to_vec(&p)).unwrap();
/// assert_eq!((back.at.z, back.mass), (3.0, 0.5));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an adapter that encodes a `{T}`",
    label = "`{Self}` does not implement `MarshalAs<{T}>`",
    note = "an adapter named by `#[marshal(as = ...)]` implements `marshal::MarshalAs<T>` and \
            `marshal::UnmarshalAs<'de, T>` for the field's type `T`; `Option<A>`, `Vec<A>`, \
            `[A; N]`, `Box<A>` and tuples of adapters adapt the same containers of the types \
            their adapters do"
)]
pub trait MarshalAs<T: ?Sized> {
    /// `Some(n)` when every value encodes to exactly `n` bytes, as
    /// [`Marshal::FIXED_LEN`].
    ///
    /// ```
    /// use marshal::{adapters::Same, MarshalAs};
    /// assert_eq!(<[Same; 3] as MarshalAs<[u16; 3]>>::FIXED_LEN, Some(6));
    /// ```
    const FIXED_LEN: Option<usize> = None;

    /// An upper bound on the encoded length of any value, where one
    /// exists, as [`Marshal::MAX_LEN`]. Defaults to
    /// [`FIXED_LEN`](MarshalAs::FIXED_LEN).
    ///
    /// ```
    /// use marshal::{adapters::Same, MarshalAs};
    /// assert_eq!(<Option<Same> as MarshalAs<Option<u32>>>::MAX_LEN, Some(5));
    /// ```
    const MAX_LEN: Option<usize> = Self::FIXED_LEN;

    /// The fingerprint of the bytes the adapter writes, which a derived
    /// type's [`FINGERPRINT`](Marshal::FINGERPRINT) folds in for the field,
    /// as it folds a field type's. Adapters written by hand that do not
    /// set it report the shared "opaque" value, as manual `Marshal` impls
    /// do.
    ///
    /// ```
    /// use marshal::{adapters::Same, Marshal, MarshalAs};
    /// // A vector of values written by their own impls writes a vector's bytes.
    /// assert_eq!(<Vec<Same> as MarshalAs<Vec<u32>>>::FINGERPRINT, <Vec<u32>>::FINGERPRINT);
    /// ```
    const FINGERPRINT: u64 = wire_hash::OPAQUE;

    /// The exact number of bytes [`encode_as`](MarshalAs::encode_as)
    /// writes for `value`.
    ///
    /// ```
    /// use marshal::{adapters::Same, MarshalAs};
    /// assert_eq!(<Vec<Same> as MarshalAs<Vec<u16>>>::encoded_len_as(&vec![1, 2]), 12);
    /// ```
    fn encoded_len_as(value: &T) -> usize;

    /// Writes `value` through `w`.
    ///
    /// ```
    /// use marshal::{adapters::Same, MarshalAs, Writer};
    /// let mut buf = [0u8; 5];
    /// let mut w = Writer::new(&mut buf);
    /// <Option<Same> as MarshalAs<Option<u32>>>::encode_as(&Some(7), &mut w).unwrap();
    /// assert_eq!(buf, [1, 7, 0, 0, 0]);
    /// ```
    fn encode_as(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow>;
}

/// Reads a `T` on the adapter's behalf: what `#[marshal(as = A)]` on a
/// field of type `T` calls instead of `T`'s own [`Unmarshal`] (as
/// serde_with's `DeserializeAs`). It reads through the caller's
/// [`Reader`], so the depth limit, the allocation budget and absolute
/// error offsets hold inside the adapted field, and it carries the
/// constants of [`Unmarshal`].
///
/// ```
/// use marshal::{adapters::TryFromInto, UnmarshalAs, Reader};
/// use core::num::NonZeroU8;
///
/// let mut r = Reader::new(&[5]);
/// let v = <TryFromInto<u8> as UnmarshalAs<NonZeroU8>>::decode_as(&mut r).unwrap();
/// assert_eq!(v.get(), 5);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an adapter that decodes a `{T}`",
    label = "`{Self}` does not implement `UnmarshalAs<'de, {T}>`",
    note = "an adapter named by `#[marshal(as = ...)]` implements `marshal::MarshalAs<T>` and \
            `marshal::UnmarshalAs<'de, T>` for the field's type `T`"
)]
pub trait UnmarshalAs<'de, T> {
    /// The fewest bytes any value encodes to, as [`Unmarshal::MIN_LEN`]:
    /// length prefixes of containers of adapted values are checked
    /// against it.
    ///
    /// ```
    /// use marshal::{adapters::FromInto, UnmarshalAs};
    /// assert_eq!(<FromInto<u64> as UnmarshalAs<u64>>::MIN_LEN, 8);
    /// ```
    const MIN_LEN: usize = 0;

    /// `true` when every value encodes to exactly
    /// [`MIN_LEN`](UnmarshalAs::MIN_LEN) bytes, as
    /// [`Unmarshal::MIN_LEN_IS_EXACT`].
    ///
    /// ```
    /// use marshal::{adapters::FromInto, UnmarshalAs};
    /// assert!(<FromInto<u16> as UnmarshalAs<u32>>::MIN_LEN_IS_EXACT);
    /// ```
    const MIN_LEN_IS_EXACT: bool = false;

    /// An upper bound on the stack `decode_as` takes on the way to a
    /// deeper level of nesting, as `Unmarshal::__DECODE_STACK`; not part
    /// of the public API.
    #[doc(hidden)]
    const __DECODE_STACK: usize = crate::stack::value::<T>();

    /// Reads one value through `r`.
    ///
    /// ```
    /// use marshal::{adapters::Same, UnmarshalAs, Reader};
    /// let mut r = Reader::new(&[1, 9, 0]);
    /// let v = <Option<Same> as UnmarshalAs<Option<u16>>>::decode_as(&mut r).unwrap();
    /// assert_eq!(v, Some(9));
    /// ```
    fn decode_as(r: &mut Reader<'de>) -> Result<T, DecodeError>;
}

/// [`MarshalAs`] in dialect `D` (`Legacy` or an [`Encoding`]), as
/// [`MarshalIn`] is [`Marshal`] in a dialect: every `MarshalAs` adapter is
/// `MarshalAsIn<T, Legacy>`, and `FromInto`, `TryFromInto`, `Same`, their
/// compositions and `remote` mirrors are in every dialect where the types
/// they write are (`SerdeForm`, bincode 1.3's bytes, in `Legacy` only). An
/// adapter written by hand implements it for the other dialects to carry
/// them.
///
/// ```
/// use marshal::config::{self, Encoding, Endian, IntEncoding, MarshalAsIn, MarshalIn};
/// use marshal::{Marshal, MarshalAs, Overflow, Writer};
///
/// /// Writes a `bool` as the `u32` 0 or 1.
/// struct BoolAsU32;
///
/// impl MarshalAs<bool> for BoolAsU32 {
///     const FIXED_LEN: Option<usize> = Some(4);
///     fn encoded_len_as(_: &bool) -> usize { 4 }
///     fn encode_as(v: &bool, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         u32::from(*v).encode(w)
///     }
/// }
///
/// impl<E: Endian, I: IntEncoding> MarshalAsIn<bool, Encoding<E, I>> for BoolAsU32 {
///     fn encoded_len_as_in(v: &bool) -> usize {
///         MarshalIn::<Encoding<E, I>>::encoded_len_in(&u32::from(*v))
///     }
///     fn encode_as_in(v: &bool, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         MarshalIn::<Encoding<E, I>>::encode_in(&u32::from(*v), w)
///     }
/// }
///
/// #[derive(Marshal)]
/// struct Flag(#[marshal(as = BoolAsU32)] bool);
///
/// assert_eq!(marshal::to_vec(&Flag(true)), [1, 0, 0, 0]);
/// # #[cfg(feature = "config")]
/// assert_eq!(marshal::encode_to_vec(&Flag(true), config::standard()), [1]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot encode a `{T}` in the dialect `{D}`",
    label = "`{Self}` does not implement `MarshalAsIn<{T}, {D}>`",
    note = "an adapter written by hand has its bytes in `config::legacy()` (through \
            `MarshalAs`); implement `MarshalAsIn` for the other dialects, or encode with \
            `config::legacy()`"
)]
pub trait MarshalAsIn<T: ?Sized, D: Dialect> {
    /// The exact number of bytes [`encode_as_in`](MarshalAsIn::encode_as_in)
    /// writes for `value`.
    ///
    /// ```
    /// use marshal::adapters::Same;
    /// use marshal::config::{Encoding, LittleEndian, MarshalAsIn, Varint};
    /// type Standard = Encoding<LittleEndian, Varint>;
    /// assert_eq!(<Same as MarshalAsIn<u64, Standard>>::encoded_len_as_in(&7), 1);
    /// ```
    fn encoded_len_as_in(value: &T) -> usize;

    /// Writes `value` through `w` in `D`.
    ///
    /// ```
    /// use marshal::adapters::Same;
    /// use marshal::config::{Encoding, LittleEndian, MarshalAsIn, Varint};
    /// use marshal::Writer;
    /// type Standard = Encoding<LittleEndian, Varint>;
    /// let mut buf = [0u8; 3];
    /// let mut w = Writer::new(&mut buf);
    /// <Same as MarshalAsIn<u64, Standard>>::encode_as_in(&300, &mut w).unwrap();
    /// assert_eq!(buf, [251, 44, 1]);
    /// ```
    fn encode_as_in(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow>;

    /// The length every value encodes to in `D`, where it is known, as
    /// `MarshalIn::__FIXED_LEN`. Not public API.
    #[doc(hidden)]
    const __FIXED_LEN: Option<usize> = None;

    /// The most bytes any value encodes to in `D`, where it is known, as
    /// `MarshalIn::__MAX_LEN`. Not public API.
    #[doc(hidden)]
    const __MAX_LEN: Option<usize> = None;
}

/// [`UnmarshalAs`] in dialect `D`, as [`MarshalAsIn`] is [`MarshalAs`].
///
/// ```
/// use marshal::adapters::TryFromInto;
/// use marshal::config::{Encoding, LittleEndian, UnmarshalAsIn, Varint};
/// use marshal::Reader;
/// type Standard = Encoding<LittleEndian, Varint>;
/// let mut r = Reader::new(&[251, 44, 1]);
/// let v = <TryFromInto<u32> as UnmarshalAsIn<u16, Standard>>::decode_as_in(&mut r).unwrap();
/// assert_eq!(v, 300);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot decode a `{T}` in the dialect `{D}`",
    label = "`{Self}` does not implement `UnmarshalAsIn<'de, {T}, {D}>`",
    note = "an adapter written by hand has its bytes in `config::legacy()` (through \
            `UnmarshalAs`); implement `UnmarshalAsIn` for the other dialects, or decode with \
            `config::legacy()`"
)]
pub trait UnmarshalAsIn<'de, T, D: Dialect> {
    /// The fewest bytes any value encodes to in `D`.
    ///
    /// ```
    /// use marshal::adapters::Same;
    /// use marshal::config::{Encoding, LittleEndian, UnmarshalAsIn, Varint};
    /// type Standard = Encoding<LittleEndian, Varint>;
    /// assert_eq!(<Same as UnmarshalAsIn<u64, Standard>>::MIN_LEN_AS_IN, 1);
    /// ```
    const MIN_LEN_AS_IN: usize;

    /// Reads one value through `r` in `D`.
    ///
    /// ```
    /// use marshal::adapters::Same;
    /// use marshal::config::{Encoding, LittleEndian, UnmarshalAsIn, Varint};
    /// use marshal::Reader;
    /// type Standard = Encoding<LittleEndian, Varint>;
    /// let mut r = Reader::new(&[7]);
    /// assert_eq!(<Same as UnmarshalAsIn<u64, Standard>>::decode_as_in(&mut r).unwrap(), 7);
    /// ```
    fn decode_as_in(r: &mut Reader<'de>) -> Result<T, DecodeError>;
}

impl<A: MarshalAs<T> + ?Sized, T: ?Sized> MarshalAsIn<T, Legacy> for A {
    #[inline]
    fn encoded_len_as_in(value: &T) -> usize {
        A::encoded_len_as(value)
    }

    #[inline]
    fn encode_as_in(value: &T, w: &mut Writer<'_>) -> Result<(), Overflow> {
        A::encode_as(value, w)
    }

    const __FIXED_LEN: Option<usize> = A::FIXED_LEN;
    const __MAX_LEN: Option<usize> = A::MAX_LEN;
}

impl<'de, A: UnmarshalAs<'de, T> + ?Sized, T> UnmarshalAsIn<'de, T, Legacy> for A {
    const MIN_LEN_AS_IN: usize = A::MIN_LEN;

    #[inline]
    fn decode_as_in(r: &mut Reader<'de>) -> Result<T, DecodeError> {
        A::decode_as(r)
    }
}

impl<A: MarshalAs<T> + ?Sized, T> Marshal for As<A, T> {
    const FIXED_LEN: Option<usize> = A::FIXED_LEN;
    const MAX_LEN: Option<usize> = A::MAX_LEN;
    const FINGERPRINT: u64 = A::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        A::encoded_len_as(self.get())
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        A::encode_as(self.get(), w)
    }
}

impl<'de, A: UnmarshalAs<'de, T> + ?Sized, T> Unmarshal<'de> for As<A, T> {
    const MIN_LEN: usize = A::MIN_LEN;
    const MIN_LEN_IS_EXACT: bool = A::MIN_LEN_IS_EXACT;
    const __DECODE_STACK: usize = A::__DECODE_STACK;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        A::decode_as(r).map(As::new)
    }
}

impl<A, T, E, I> MarshalIn<Encoding<E, I>> for As<A, T>
where
    A: MarshalAsIn<T, Encoding<E, I>> + ?Sized,
    E: Endian,
    I: IntEncoding,
{
    #[inline]
    fn encoded_len_in(&self) -> usize {
        A::encoded_len_as_in(self.get())
    }

    #[inline]
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        A::encode_as_in(self.get(), w)
    }

    const __FIXED_LEN: Option<usize> = A::__FIXED_LEN;
    const __MAX_LEN: Option<usize> = A::__MAX_LEN;
}

impl<'de, A, T, E, I> UnmarshalIn<'de, Encoding<E, I>> for As<A, T>
where
    A: UnmarshalAsIn<'de, T, Encoding<E, I>> + ?Sized,
    E: Endian,
    I: IntEncoding,
{
    const MIN_LEN_IN: usize = A::MIN_LEN_AS_IN;

    #[inline]
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        A::decode_as_in(r).map(As::new)
    }
}
