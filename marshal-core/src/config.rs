//! Every bincode configuration: the dialect of the bytes, fixed at compile
//! time by a zero-sized configuration value, as bincode 2's `config`.
//!
//! - [`legacy()`]: bincode 1.3's default options and bincode 2's
//!   `config::legacy()`: fixed-width little-endian integers, `u64`
//!   lengths, `u32` enum tags. The bytes of every other function of this
//!   crate ([`to_vec`](crate::to_vec), [`Marshal::write_to`],
//!   [`from_bytes`](crate::from_bytes), ...).
//! - [`standard()`]: bincode 2's default, and bincode 1.3's
//!   `DefaultOptions::new()`: variable-length integers, lengths and tags
//!   (see [`Varint`]).
//! - Either with [`with_big_endian()`](Configuration::with_big_endian), and
//!   with an allocation budget, [`with_limit::<N>()`](Configuration::with_limit).
//!
//! The entry points that take a configuration are named as bincode 2's:
//! [`encode_to_vec`], [`encode_into_slice`],
//! [`encoded_len_with`] and [`decode_from_slice`].
//!
//! ```
//! use marshal::{Marshal, Unmarshal, config};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Point { x: u32, y: i64 }
//!
//! let p = Point { x: 7, y: -300 };
//! let standard = marshal::encode_to_vec(&p, config::standard());
//! assert_eq!(standard, [7, 251, 0x57, 0x02]); // -300 zigzags to 599
//! let big = marshal::encode_to_vec(&p, config::legacy().with_big_endian());
//! assert_eq!(big[..4], [0, 0, 0, 7]);
//! assert_eq!(marshal::encode_to_vec(&p, config::legacy()), marshal::to_vec(&p));
//!
//! let (back, used) = marshal::decode_from_slice::<Point, _>(&standard, config::standard())?;
//! assert_eq!((back, used), (p, 4));
//! # Ok::<(), marshal::DecodeError>(())
//! ```
//!
//! # What each configuration writes
//!
//! The same `#[derive(Marshal, Unmarshal)]` serves every configuration,
//! with the facade's feature `config`: without it, the derive implements
//! [`legacy()`] alone (every `Marshal` type is [`MarshalIn`]`<`[`Legacy`]`>`),
//! and the standard library's types every configuration. The other
//! configurations' impls take the compiler three quarters as long again as
//! the rest of the derive (`BENCHMARKS.md`, "Compile time"), so a build
//! that does not use them does not pay for them.
//! Under a fixed-width configuration (`legacy()`, and it with big-endian
//! integers) every value has the size [`Marshal::FIXED_LEN`]
//! and [`MAX_LEN`](crate::Marshal::MAX_LEN) give, which describe
//! `legacy()`; under a varint configuration an integer takes 1 to 17 bytes
//! by its value, so only [`encoded_len_with`] knows a
//! value's length. `WIRE_FORMAT.md` ("Configurations") gives the bytes.
//!
//! Types and fields that only `legacy()` carries, each a compile error
//! (a missing [`MarshalIn`] impl) under another configuration:
//! manual [`Marshal`]/[`Unmarshal`]
//! implementations (implement [`MarshalIn`] and [`UnmarshalIn`] too),
//! bumpalo's arena types, and
//! [`Fingerprinted`](crate::fingerprint::Fingerprinted), whose fingerprint
//! describes `legacy()`'s bytes.
//!
//! ```compile_fail
//! use marshal::{Marshal, Overflow, Writer, config};
//!
//! struct Manual(u8);
//! impl Marshal for Manual {
//!     fn encoded_len(&self) -> usize { 1 }
//!     fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> { w.put_u8(self.0) }
//! }
//!
//! #[derive(Marshal)]
//! struct Holder { inner: Manual }
//! marshal::encode_to_vec(&Holder { inner: Manual(1) }, config::standard());
//! ```
//!
//! ```compile_fail
//! use marshal::{config, fingerprint::Fingerprinted};
//!
//! marshal::encode_to_vec(&Fingerprinted(1u32), config::standard());
//! ```

use core::marker::PhantomData;

use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

pub use crate::adapters::{MarshalAsIn, UnmarshalAsIn};

/// A configuration: the bytes' dialect and the allocation budget, fixed by
/// its type. Made by [`standard()`] and [`legacy()`] and their builder
/// methods; implemented by [`Configuration`] alone.
///
/// ```
/// use marshal::config::{self, Config, Endian, IntEncoding};
///
/// fn budget<C: Config>(_: C) -> Option<usize> { C::LIMIT }
/// assert_eq!(budget(config::standard().with_limit::<4096>()), Some(4096));
/// assert_eq!(budget(config::legacy()), None);
///
/// fn big_varint<C: Config>(_: C) -> (bool, bool) {
///     (<C::ByteOrder as Endian>::BIG, <C::Ints as IntEncoding>::VARINT)
/// }
/// assert_eq!(big_varint(config::standard().with_big_endian()), (true, true));
/// assert_eq!(big_varint(config::legacy()), (false, false));
/// ```
pub trait Config: Copy + sealed::Sealed {
    /// The dialect of the bytes: [`Legacy`] for fixed-width little-endian
    /// integers, else an [`Encoding`].
    type Dialect: Dialect;
    /// The byte order: [`LittleEndian`] or [`BigEndian`].
    type ByteOrder: Endian;
    /// The integer encoding: [`Fixint`] or [`Varint`].
    type Ints: IntEncoding;
    /// The allocation budget of decoding, in bytes (see
    /// [`Reader::with_max_alloc`]); `None` for none.
    const LIMIT: Option<usize>;
}

/// The bytes of a configuration: how integers, lengths and tags are
/// written. Implemented by [`Legacy`] and [`Encoding`] alone.
///
/// ```
/// use marshal::config::{BigEndian, Dialect, Encoding, Legacy, Varint};
///
/// assert!(!Legacy::VARINT && !Legacy::BIG_ENDIAN);
/// assert!(<Encoding<BigEndian, Varint>>::VARINT);
/// ```
pub trait Dialect: sealed::Sealed + 'static {
    /// Integers (but `u8` and `i8`), lengths and enum tags are variable
    /// length (see [`Varint`]).
    const VARINT: bool;
    /// Multi-byte integers and floats are written most significant byte
    /// first.
    const BIG_ENDIAN: bool;
}

/// The dialect of [`legacy()`]: fixed-width little-endian integers, as
/// every [`Marshal`] type writes. Every `Marshal` type is [`MarshalIn`] it,
/// and every `Unmarshal` type [`UnmarshalIn`] it, through its own impl.
///
/// ```
/// use marshal::config::{Legacy, MarshalIn};
///
/// let mut buf = [0u8; 4];
/// let mut w = marshal::Writer::new(&mut buf);
/// MarshalIn::<Legacy>::encode_in(&7u32, &mut w).unwrap();
/// assert_eq!(buf, [7, 0, 0, 0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Legacy;

/// Every other dialect: byte order `E` ([`LittleEndian`] or [`BigEndian`])
/// and integers `I` ([`Fixint`] or [`Varint`]). `Encoding<LittleEndian,
/// Fixint>` writes [`Legacy`]'s bytes, and no configuration names it.
///
/// ```
/// use marshal::config::{BigEndian, Encoding, Fixint, MarshalIn};
///
/// let mut buf = [0u8; 4];
/// let mut w = marshal::Writer::new(&mut buf);
/// MarshalIn::<Encoding<BigEndian, Fixint>>::encode_in(&7u32, &mut w).unwrap();
/// assert_eq!(buf, [0, 0, 0, 7]);
/// ```
pub struct Encoding<E, I>(PhantomData<(E, I)>);

/// Little-endian integers and floats: least significant byte first.
///
/// ```
/// let bytes = marshal::encode_to_vec(&1u16, marshal::config::legacy().with_little_endian());
/// assert_eq!(bytes, [1, 0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LittleEndian;

/// Big-endian integers and floats: most significant byte first.
///
/// ```
/// let bytes = marshal::encode_to_vec(&1u16, marshal::config::legacy().with_big_endian());
/// assert_eq!(bytes, [0, 1]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct BigEndian;

/// Fixed-width integers: a `u32` is always 4 bytes, a length 8 (a `u64`),
/// an enum tag 4 (a `u32`).
///
/// ```
/// let bytes = marshal::encode_to_vec(&1u32, marshal::config::standard().with_fixed_int_encoding());
/// assert_eq!(bytes, [1, 0, 0, 0]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fixint;

/// Variable-length integers, as bincode 2 writes them: a value below 251
/// is one byte; otherwise a marker, 251, 252, 253 or 254, then the value
/// as a `u16`, `u32`, `u64` or `u128` in the configuration's byte order.
/// Signed integers are zigzag-mapped first (0, -1, 1, -2, ... to 0, 1, 2,
/// 3, ...); `u8`, `i8`, `bool`, floats and `Option`'s tag stay as they
/// are; `usize` and `isize` travel as 64-bit, lengths as `u64` and enum
/// tags as `u32`.
///
/// Decoding accepts a value written wider than needed (`251 05 00` is 5),
/// and rejects the marker 255 and a marker wider than the integer being
/// decoded with [`InvalidVarint`](crate::DecodeErrorKind::InvalidVarint)
/// at the marker's offset.
///
/// ```
/// use marshal::{DecodeErrorKind, config};
///
/// let c = config::standard();
/// assert_eq!(marshal::encode_to_vec(&250u32, c), [250]);
/// assert_eq!(marshal::encode_to_vec(&251u32, c), [251, 251, 0]);
/// assert_eq!(marshal::encode_to_vec(&-1i32, c), [1]);
/// assert_eq!(marshal::decode_from_slice::<u32, _>(&[251, 5, 0], c)?, (5, 3));
///
/// let err = marshal::decode_from_slice::<u16, _>(&[252, 0, 0, 0, 0], c).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidVarint { marker: 252, bits: 16 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Varint;

/// No allocation budget.
///
/// ```
/// use marshal::config::Config;
/// fn limit<C: Config>(_: C) -> Option<usize> { C::LIMIT }
/// assert_eq!(limit(marshal::config::standard().with_no_limit()), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NoLimit;

/// An allocation budget of `N` bytes for decoding (see
/// [`Reader::with_max_alloc`]).
///
/// ```
/// use marshal::{DecodeErrorKind, config};
///
/// let bytes = marshal::encode_to_vec(&vec![1u64; 100], config::standard());
/// let c = config::standard().with_limit::<100>();
/// let err = marshal::decode_from_slice::<Vec<u64>, _>(&bytes, c).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 100 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Limit<const N: usize>;

/// A configuration: byte order `E`, integers `I` and allocation budget `L`,
/// all in its type; the value is zero-sized.
///
/// ```
/// use marshal::config::{self, BigEndian, Configuration, Fixint, NoLimit};
///
/// let c: Configuration<BigEndian, Fixint, NoLimit> = config::legacy().with_big_endian();
/// assert_eq!(core::mem::size_of_val(&c), 0);
/// ```
pub struct Configuration<E = LittleEndian, I = Varint, L = NoLimit>(PhantomData<(E, I, L)>);

impl<E, I, L> Clone for Configuration<E, I, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, I, L> Copy for Configuration<E, I, L> {}

// A configuration is its type: every value of one is the same.
impl<E, I, L> PartialEq for Configuration<E, I, L> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<E, I, L> Eq for Configuration<E, I, L> {}

impl<E, I, L> core::hash::Hash for Configuration<E, I, L> {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

impl<E, I, L> Default for Configuration<E, I, L> {
    fn default() -> Self {
        Configuration(PhantomData)
    }
}

impl<E, I, L> core::fmt::Debug for Configuration<E, I, L>
where
    Self: Config,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Configuration")
            .field("varint", &<Self as Config>::Dialect::VARINT)
            .field("big_endian", &<Self as Config>::Dialect::BIG_ENDIAN)
            .field("limit", &<Self as Config>::LIMIT)
            .finish()
    }
}

/// bincode 2's default configuration: variable-length integers (see
/// [`Varint`]), little-endian, no allocation budget. bincode 1.3's
/// `DefaultOptions::new()` writes the same bytes.
///
/// ```
/// let bytes = marshal::encode_to_vec(&(1u64, "hi"), marshal::config::standard());
/// assert_eq!(bytes, [1, 2, b'h', b'i']);
/// ```
#[must_use]
pub const fn standard() -> Configuration<LittleEndian, Varint, NoLimit> {
    Configuration(PhantomData)
}

/// bincode 1.3's default options, and bincode 2's `config::legacy()`:
/// fixed-width little-endian integers, `u64` lengths, `u32` tags; the
/// bytes of [`to_vec`](crate::to_vec) and every function without a
/// configuration.
///
/// ```
/// let bytes = marshal::encode_to_vec(&(1u64, "hi"), marshal::config::legacy());
/// assert_eq!(bytes, marshal::to_vec(&(1u64, "hi")));
/// ```
#[must_use]
pub const fn legacy() -> Configuration<LittleEndian, Fixint, NoLimit> {
    Configuration(PhantomData)
}

impl<E, I, L> Configuration<E, I, L> {
    /// Multi-byte integers and floats most significant byte first.
    ///
    /// ```
    /// let c = marshal::config::standard().with_big_endian();
    /// assert_eq!(marshal::encode_to_vec(&300u32, c), [251, 1, 44]);
    /// ```
    #[must_use]
    pub const fn with_big_endian(self) -> Configuration<BigEndian, I, L> {
        Configuration(PhantomData)
    }

    /// Multi-byte integers and floats least significant byte first (the
    /// default).
    ///
    /// ```
    /// let c = marshal::config::standard().with_big_endian().with_little_endian();
    /// assert_eq!(marshal::encode_to_vec(&300u32, c), [251, 44, 1]);
    /// ```
    #[must_use]
    pub const fn with_little_endian(self) -> Configuration<LittleEndian, I, L> {
        Configuration(PhantomData)
    }

    /// Variable-length integers, lengths and tags (see [`Varint`]).
    ///
    /// ```
    /// let c = marshal::config::legacy().with_variable_int_encoding();
    /// assert_eq!(marshal::encode_to_vec(&3u64, c), [3]);
    /// ```
    #[must_use]
    pub const fn with_variable_int_encoding(self) -> Configuration<E, Varint, L> {
        Configuration(PhantomData)
    }

    /// Fixed-width integers, `u64` lengths and `u32` tags.
    ///
    /// ```
    /// let c = marshal::config::standard().with_fixed_int_encoding();
    /// assert_eq!(marshal::encode_to_vec(&3u64, c), [3, 0, 0, 0, 0, 0, 0, 0]);
    /// ```
    #[must_use]
    pub const fn with_fixed_int_encoding(self) -> Configuration<E, Fixint, L> {
        Configuration(PhantomData)
    }

    /// An allocation budget of `N` bytes for decoding, as
    /// [`from_bytes_limited`](crate::from_bytes_limited) takes (see
    /// [`Limit`]).
    ///
    /// ```
    /// use marshal::config::{self, Config};
    /// fn limit<C: Config>(_: C) -> Option<usize> { C::LIMIT }
    /// assert_eq!(limit(config::standard().with_limit::<64>()), Some(64));
    /// ```
    #[must_use]
    pub const fn with_limit<const N: usize>(self) -> Configuration<E, I, Limit<N>> {
        Configuration(PhantomData)
    }

    /// No allocation budget (the default).
    ///
    /// ```
    /// use marshal::config::{self, Config};
    /// fn limit<C: Config>(_: C) -> Option<usize> { C::LIMIT }
    /// assert_eq!(limit(config::standard().with_limit::<64>().with_no_limit()), None);
    /// ```
    #[must_use]
    pub const fn with_no_limit(self) -> Configuration<E, I, NoLimit> {
        Configuration(PhantomData)
    }
}

/// The allocation budgets a configuration may carry: [`NoLimit`] and
/// [`Limit`].
///
/// ```
/// use marshal::config::{Limit, LimitOf, NoLimit};
/// assert_eq!(<Limit<64>>::BYTES, Some(64));
/// assert_eq!(NoLimit::BYTES, None);
/// ```
pub trait LimitOf: sealed::Sealed {
    /// The budget in bytes, `None` for none.
    const BYTES: Option<usize>;
}

impl LimitOf for NoLimit {
    const BYTES: Option<usize> = None;
}

impl<const N: usize> LimitOf for Limit<N> {
    const BYTES: Option<usize> = Some(N);
}

/// How a configuration's byte order and integers make its dialect:
/// little-endian fixed-width integers are [`Legacy`].
///
/// ```
/// use marshal::config::{BigEndian, DialectOf, Dialect, Fixint, LittleEndian};
/// fn varint<E: DialectOf<I>, I>() -> bool { <E::Dialect as Dialect>::VARINT }
/// assert!(!varint::<LittleEndian, Fixint>());
/// assert!(!varint::<BigEndian, Fixint>());
/// ```
pub trait DialectOf<I>: sealed::Sealed {
    /// The dialect.
    type Dialect: Dialect;
}

impl DialectOf<Fixint> for LittleEndian {
    type Dialect = Legacy;
}

impl DialectOf<Varint> for LittleEndian {
    type Dialect = Encoding<LittleEndian, Varint>;
}

impl DialectOf<Fixint> for BigEndian {
    type Dialect = Encoding<BigEndian, Fixint>;
}

impl DialectOf<Varint> for BigEndian {
    type Dialect = Encoding<BigEndian, Varint>;
}

impl<E: DialectOf<I> + Endian, I: IntEncoding, L: LimitOf> Config for Configuration<E, I, L> {
    type Dialect = E::Dialect;
    type ByteOrder = E;
    type Ints = I;
    const LIMIT: Option<usize> = L::BYTES;
}

impl Dialect for Legacy {
    const VARINT: bool = false;
    const BIG_ENDIAN: bool = false;
}

/// A byte order: [`LittleEndian`] or [`BigEndian`].
///
/// ```
/// use marshal::config::{BigEndian, Endian, LittleEndian};
/// assert!(BigEndian::BIG && !LittleEndian::BIG);
/// ```
pub trait Endian: sealed::Sealed + 'static {
    /// Most significant byte first.
    const BIG: bool;
}

impl Endian for LittleEndian {
    const BIG: bool = false;
}

impl Endian for BigEndian {
    const BIG: bool = true;
}

/// An integer encoding: [`Fixint`] or [`Varint`].
///
/// ```
/// use marshal::config::{Fixint, IntEncoding, Varint};
/// assert!(Varint::VARINT && !Fixint::VARINT);
/// ```
pub trait IntEncoding: sealed::Sealed + 'static {
    /// Variable length.
    const VARINT: bool;
}

impl IntEncoding for Fixint {
    const VARINT: bool = false;
}

impl IntEncoding for Varint {
    const VARINT: bool = true;
}

impl<E: Endian, I: IntEncoding> Dialect for Encoding<E, I> {
    const VARINT: bool = I::VARINT;
    const BIG_ENDIAN: bool = E::BIG;
}

mod sealed {
    pub trait Sealed {}
    impl<E, I, L> Sealed for super::Configuration<E, I, L> {}
    impl Sealed for super::Legacy {}
    impl<E, I> Sealed for super::Encoding<E, I> {}
    impl Sealed for super::LittleEndian {}
    impl Sealed for super::BigEndian {}
    impl Sealed for super::Fixint {}
    impl Sealed for super::Varint {}
    impl Sealed for super::NoLimit {}
    impl<const N: usize> Sealed for super::Limit<N> {}
}

/// A type that encodes itself in dialect `D` ([`Legacy`] or an
/// [`Encoding`]): what the configuration entry points
/// ([`encode_to_vec`], ...) call.
///
/// Every [`Marshal`] type is `MarshalIn<Legacy>`. `#[derive(Marshal)]`
/// implements it for every [`Encoding`] too, where every field's type
/// does; so do the standard library's types that bincode 2 encodes. A
/// manual implementation writes through the caller's [`Writer`], usually
/// by encoding its parts in the same dialect.
///
/// ```
/// use marshal::config::{self, Dialect, Encoding, Endian, IntEncoding, MarshalIn};
/// use marshal::{Overflow, Writer};
///
/// /// A `u32` counter.
/// struct Count(u32);
///
/// impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for Count {
///     fn encoded_len_in(&self) -> usize {
///         MarshalIn::<Encoding<E, I>>::encoded_len_in(&self.0)
///     }
///     fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         MarshalIn::<Encoding<E, I>>::encode_in(&self.0, w)
///     }
/// }
///
/// assert_eq!(marshal::encode_to_vec(&Count(300), config::standard()), [251, 44, 1]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be encoded in the dialect `{D}`",
    label = "`{Self}` does not implement `MarshalIn<{D}>`",
    note = "in `Legacy` (`config::legacy()`, and every function without a configuration), \
            a type encodes through its `Marshal` impl: derive or implement `Marshal` for it",
    note = "in another dialect, with marshal's feature `config`, `#[derive(Marshal)]` implements \
            it unless the type holds a type that only `config::legacy()` carries (a manual \
            `Marshal` impl, a bumpalo arena type): encode that with `config::legacy()` (or \
            `marshal::to_vec`), or implement `MarshalIn` for it"
)]
pub trait MarshalIn<D: Dialect> {
    /// The exact number of bytes [`encode_in`](MarshalIn::encode_in)
    /// writes.
    ///
    /// ```
    /// use marshal::config::{Encoding, LittleEndian, MarshalIn, Varint};
    /// type Standard = Encoding<LittleEndian, Varint>;
    /// assert_eq!(MarshalIn::<Standard>::encoded_len_in(&300u32), 3);
    /// ```
    fn encoded_len_in(&self) -> usize;

    /// Writes the encoding through `w`.
    ///
    /// ```
    /// use marshal::config::{Encoding, LittleEndian, MarshalIn, Varint};
    /// let mut buf = [0u8; 4];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// MarshalIn::<Encoding<LittleEndian, Varint>>::encode_in(&-2i64, &mut w).unwrap();
    /// assert_eq!(w.written(), 1);
    /// assert_eq!(buf[0], 3);
    /// ```
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow>;

    /// The length every value encodes to in `D`, where the type knows it
    /// ([`Marshal::FIXED_LEN`] in [`Legacy`]): the output targets skip a
    /// one-pass attempt that cannot fit; a tuple (and so a derived struct)
    /// of such values is sized without looking at them and written behind
    /// one bounds check, an array of them is sized so, and an `Option` of
    /// one is written so. Not public API.
    #[doc(hidden)]
    const __FIXED_LEN: Option<usize> = None;

    /// The most bytes any value encodes to in `D`, where the type knows it
    /// ([`Marshal::MAX_LEN`] in [`Legacy`]): the output targets that write
    /// through a stack buffer check it. Not public API.
    #[doc(hidden)]
    const __MAX_LEN: Option<usize> = None;

    /// Whether a value's bytes in `D` are its memory
    /// ([`Marshal::__LAYOUT`] in [`Legacy`]): a run of them is written in
    /// one copy. Not public API.
    #[doc(hidden)]
    const __LAYOUT_IN: crate::mem::Layout<Self> = crate::mem::Layout::OPAQUE;
}

/// A type that decodes itself from dialect `D` ([`Legacy`] or an
/// [`Encoding`]): what [`decode_from_slice`]
/// calls. Every [`Unmarshal`] type is `UnmarshalIn<Legacy>`;
/// `#[derive(Unmarshal)]` implements every [`Encoding`] too, where every
/// field's type does.
///
/// ```
/// use marshal::config::{Encoding, LittleEndian, UnmarshalIn, Varint};
/// type Standard = Encoding<LittleEndian, Varint>;
///
/// let mut r = marshal::Reader::new(&[251, 44, 1]);
/// assert_eq!(<u32 as UnmarshalIn<Standard>>::decode_in(&mut r), Ok(300));
/// assert_eq!(<u32 as UnmarshalIn<Standard>>::MIN_LEN_IN, 1);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from the dialect `{D}`",
    label = "`{Self}` does not implement `UnmarshalIn<{D}>`",
    note = "in `Legacy` (`config::legacy()`, and every function without a configuration), \
            a type decodes through its `Unmarshal` impl: derive or implement `Unmarshal` for it",
    note = "in another dialect, with marshal's feature `config`, `#[derive(Unmarshal)]` \
            implements it unless the type holds a type that only `config::legacy()` carries (a \
            manual `Unmarshal` impl, a bumpalo arena type): decode that with `config::legacy()` \
            (or `marshal::from_bytes`), or implement `UnmarshalIn` for it"
)]
pub trait UnmarshalIn<'de, D: Dialect>: Sized {
    /// The fewest bytes any value takes in `D`: a length prefix is
    /// rejected unless that many bytes per item remain (each counted as at
    /// least one).
    ///
    /// ```
    /// use marshal::config::{Encoding, Legacy, LittleEndian, UnmarshalIn, Varint};
    /// assert_eq!(<u64 as UnmarshalIn<Legacy>>::MIN_LEN_IN, 8);
    /// assert_eq!(<u64 as UnmarshalIn<Encoding<LittleEndian, Varint>>>::MIN_LEN_IN, 1);
    /// ```
    const MIN_LEN_IN: usize;

    /// Whether a value's bytes in `D` are its memory
    /// ([`Unmarshal::__LAYOUT`] in [`Legacy`]): a run of them is read in
    /// one copy. Not public API.
    #[doc(hidden)]
    const __LAYOUT_IN: crate::mem::Layout<Self> = crate::mem::Layout::OPAQUE;

    /// Reads one value through `r`.
    ///
    /// ```
    /// use marshal::config::{BigEndian, Encoding, Fixint, UnmarshalIn};
    /// let mut r = marshal::Reader::new(&[0, 1]);
    /// assert_eq!(<u16 as UnmarshalIn<Encoding<BigEndian, Fixint>>>::decode_in(&mut r), Ok(1));
    /// ```
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError>;

    /// Decodes one value from the front of `input` under the allocation
    /// budget `max_alloc`, and the bytes it took: in [`Legacy`], as
    /// [`from_bytes`](crate::from_bytes) does, an error names its site.
    /// Not public API.
    #[doc(hidden)]
    #[inline]
    fn __decode_slice(
        input: &'de [u8],
        max_alloc: Option<usize>,
    ) -> Result<(Self, usize), DecodeError> {
        let mut r = crate::reader(input, max_alloc);
        let value = Self::decode_in(&mut r)?;
        Ok((value, r.position()))
    }

    /// Decodes one value through `r` into `place`: in [`Legacy`], built
    /// in place as [`Unmarshal`]'s own hidden method builds it; in an
    /// [`Encoding`], a derived struct of fields read by their types' own
    /// impls is built in place too, anything else decoded, then written.
    /// Not public API.
    #[doc(hidden)]
    #[inline(always)]
    fn __decode_in_place<'p>(
        r: &mut Reader<'de>,
        place: crate::mem::Place<'p, Self>,
    ) -> Result<crate::mem::Built<'p, Self>, DecodeError> {
        Ok(place.write(Self::decode_in(r)?))
    }

    /// `error`, which decoding through `spent` (a reader that `start`
    /// makes again) returned: in [`Legacy`], with its site, as the entry
    /// points on a slice find it. Not public API.
    #[doc(hidden)]
    #[inline]
    fn __locate(
        start: impl FnOnce() -> Reader<'de>,
        spent: &Reader<'de>,
        error: DecodeError,
    ) -> DecodeError {
        let _ = (start, spent);
        error
    }

    /// Decodes exactly one value from all of `input` under the allocation
    /// budget `max_alloc`: bytes left over are
    /// [`TrailingBytes`](crate::DecodeErrorKind::TrailingBytes). Not
    /// public API.
    #[doc(hidden)]
    #[inline]
    fn __decode_whole(input: &'de [u8], max_alloc: Option<usize>) -> Result<Self, DecodeError> {
        let mut r = crate::reader(input, max_alloc);
        let value = Self::decode_in(&mut r)?;
        r.finish()?;
        Ok(value)
    }
}

/// Every `Marshal`/`Unmarshal` type in `$dialect`: its own impls.
macro_rules! own_impls {
    ($($dialect:ty),*) => {$(
        impl<T: Marshal + ?Sized> MarshalIn<$dialect> for T {
            #[inline]
            fn encoded_len_in(&self) -> usize {
                self.encoded_len()
            }

            #[inline]
            fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                self.encode(w)
            }

            const __FIXED_LEN: Option<usize> = T::FIXED_LEN;
            const __MAX_LEN: Option<usize> = T::MAX_LEN;
            const __LAYOUT_IN: crate::mem::Layout<Self> = <T as Marshal>::__LAYOUT;
        }

        impl<'de, T: Unmarshal<'de>> UnmarshalIn<'de, $dialect> for T {
            const MIN_LEN_IN: usize = T::MIN_LEN;
            const __LAYOUT_IN: crate::mem::Layout<Self> = <T as Unmarshal<'de>>::__LAYOUT;

            #[inline]
            fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                T::decode(r)
            }

            #[inline(always)]
            fn __decode_in_place<'p>(
                r: &mut Reader<'de>,
                place: crate::mem::Place<'p, Self>,
            ) -> Result<crate::mem::Built<'p, Self>, DecodeError> {
                T::__decode_in(r, place)
            }

            #[inline]
            fn __locate(
                start: impl FnOnce() -> Reader<'de>,
                spent: &Reader<'de>,
                error: DecodeError,
            ) -> DecodeError {
                crate::trace::locate::<T>(start, spent.left(), error)
            }

            #[inline]
            fn __decode_slice(
                input: &'de [u8],
                max_alloc: Option<usize>,
            ) -> Result<(Self, usize), DecodeError> {
                crate::decode_prefix(input, max_alloc)
            }

            #[inline]
            fn __decode_whole(
                input: &'de [u8],
                max_alloc: Option<usize>,
            ) -> Result<Self, DecodeError> {
                crate::decode_all(input, max_alloc)
            }
        }
    )*};
}

own_impls!(Legacy, __NoDialect);

/// A dialect no configuration names: with it, every `Marshal` type has a
/// second impl, so that one with no other dialect's is reported as missing
/// `MarshalIn` in the dialect asked for (with the traits' notes), not as a
/// dialect that should have been `Legacy`. Not part of the public API.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct __NoDialect;

impl sealed::Sealed for __NoDialect {}

impl Dialect for __NoDialect {
    const VARINT: bool = false;
    const BIG_ENDIAN: bool = false;
}

/// Encodes `value` in `config`'s dialect into a new `Vec` of exactly its
/// length, as bincode 2's `encode_to_vec`; with [`legacy()`], the bytes
/// of [`to_vec`](crate::to_vec).
///
/// ```
/// use marshal::config;
///
/// let bytes = marshal::encode_to_vec(&vec![1u32, 300], config::standard());
/// assert_eq!(bytes, [2, 1, 251, 44, 1]);
/// ```
///
/// # Panics
///
/// As [`to_vec`](crate::to_vec): when the value is too large for one
/// allocation, or a manual [`MarshalIn`] writes other than its
/// `encoded_len_in`.
#[cfg(feature = "alloc")]
#[track_caller]
pub fn encode_to_vec<T, C>(value: &T, config: C) -> alloc::vec::Vec<u8>
where
    T: MarshalIn<C::Dialect> + ?Sized,
    C: Config,
{
    let _ = config;
    let len = value.encoded_len_in();
    crate::output::assert_allocatable(0, len);
    let mut out = alloc::vec::Vec::with_capacity(len);
    if let Err(mismatch) =
        crate::output::try_append_to_vec(&mut out, |w| encode_exact::<T, C::Dialect>(value, len, w))
    {
        crate::output::length_mismatch(mismatch);
    }
    out
}

/// Encodes `value` in `config`'s dialect at the front of `buf` and returns
/// its length, as bincode 2's `encode_into_slice`; a `buf` too short is
/// [`BufferTooSmall`](crate::BufferTooSmall), with a prefix of the
/// encoding possibly written. Never allocates.
///
/// ```
/// use marshal::{BufferTooSmall, config};
///
/// let mut buf = [0u8; 4];
/// assert_eq!(marshal::encode_into_slice(&(7u16, -1i8), &mut buf, config::standard()), Ok(2));
/// assert_eq!(buf[..2], [7, 0xff]);
/// assert_eq!(
///     marshal::encode_into_slice(&u64::MAX, &mut buf, config::standard()),
///     Err(BufferTooSmall { needed: 9, available: 4 })
/// );
/// ```
pub fn encode_into_slice<T, C>(
    value: &T,
    buf: &mut [u8],
    config: C,
) -> Result<usize, crate::BufferTooSmall>
where
    T: MarshalIn<C::Dialect> + ?Sized,
    C: Config,
{
    let _ = config;
    let available = buf.len();
    let mut w = Writer::new(buf);
    match value.encode_in(&mut w) {
        Ok(()) => Ok(w.written()),
        Err(Overflow) => Err(crate::BufferTooSmall {
            needed: value.encoded_len_in(),
            available,
        }),
    }
}

/// The exact number of bytes `value` encodes to in `config`'s dialect,
/// computed without allocating or writing.
///
/// ```
/// use marshal::config;
///
/// assert_eq!(marshal::encoded_len_with(&(1u64, "hi"), config::standard()), 1 + 1 + 2);
/// assert_eq!(marshal::encoded_len_with(&(1u64, "hi"), config::legacy()), 8 + 8 + 2);
/// ```
#[must_use]
pub fn encoded_len_with<T, C>(value: &T, config: C) -> usize
where
    T: MarshalIn<C::Dialect> + ?Sized,
    C: Config,
{
    let _ = config;
    value.encoded_len_in()
}

/// Decodes one value of `T` in `config`'s dialect from the front of
/// `input`, and returns it with the number of bytes it took, as bincode
/// 2's `decode_from_slice` (bytes after the value are not looked at). A
/// type that borrows (`&str`, `&[u8]`) borrows from `input`. The depth
/// limit and the rule that a length prefix buys at most what the input
/// can hold apply in every dialect, and the configuration's
/// [`with_limit`](Configuration::with_limit) is the allocation budget.
///
/// ```
/// use marshal::{DecodeErrorKind, config};
///
/// let (s, used) = marshal::decode_from_slice::<&str, _>(&[2, b'h', b'i', 9], config::standard())?;
/// assert_eq!((s, used), ("hi", 3));
///
/// let err = marshal::decode_from_slice::<u32, _>(&[255], config::standard()).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidVarint { marker: 255, bits: 32 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub fn decode_from_slice<'de, T, C>(input: &'de [u8], config: C) -> Result<(T, usize), DecodeError>
where
    T: UnmarshalIn<'de, C::Dialect>,
    C: Config,
{
    let _ = config;
    T::__decode_slice(input, C::LIMIT)
}

/// [`crate::output::encode_exact`] in dialect `D`.
#[inline]
pub(crate) fn encode_exact<T: MarshalIn<D> + ?Sized, D: Dialect>(
    value: &T,
    len: usize,
    w: &mut Writer<'_>,
) -> Result<(), crate::LengthMismatch> {
    let start = w.written();
    if w.exact(len, |w| value.encode_in(w)).is_err() {
        return Err(crate::LengthMismatch::Long { encoded_len: len });
    }
    match w.written() - start {
        written if written == len => Ok(()),
        written => Err(crate::LengthMismatch::Short {
            encoded_len: len,
            written,
        }),
    }
}
