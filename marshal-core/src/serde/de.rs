//! The deserializer: reads bincode 1.3's bytes for serde's data model
//! through a [`Reader`], so its checks, limits and error offsets are the
//! reader's.

use core::alloc::Layout;
use core::fmt::{self, Display};

use ::serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use core::marker::PhantomData;

use crate::config::{Encoding, Endian, Fixint, IntEncoding, LittleEndian, UnmarshalIn};
use crate::error::{DecodeError, StdEnum};
use crate::reader::Reader;
use crate::stack::levels;
use crate::traits::Unmarshal;

/// The error type serde's `Deserialize` implementations see. It is one
/// word, so that the `Result` every deserializer, visitor and access
/// method returns stays small (a three-word error made each of them a
/// `Result` passed through memory, and decoding `saves` of
/// `benches/focus.rs` through the bridge 9% slower). The [`DecodeError`] itself waits in the deserializer's
/// slot ([`Deserializer::fail`]); the word says that it is there or, for an
/// error a visitor raised (`invalid_length`, `custom`, ...), which
/// complaint it is. That one gets the offset of the item the visitor was
/// reading when it comes back through the deserializer
/// ([`Deserializer::place`]).
pub(super) struct DeError(Repr);

// One word, as the docs above say.
const _: () = assert!(size_of::<DeError>() == size_of::<usize>());

#[derive(Clone, Copy)]
enum Repr {
    /// The error is in the deserializer's slot, with its offset.
    Stored,
    /// A visitor's complaint, whose offset is not known yet.
    Unplaced(&'static &'static str),
}

impl DeError {
    /// An error raised through serde's `de::Error`, whose offset is not
    /// known yet.
    const fn unplaced(message: &'static &'static str) -> Self {
        DeError(Repr::Unplaced(message))
    }

    /// The error as the public API returns it: the one in `slot`, or a
    /// complaint never placed (a `Deserialize` implementation that failed
    /// without reading anything), placed at `at`.
    ///
    /// A `Stored` error always has its error in the slot, which holds the
    /// latest error stored: a `Deserialize` implementation that caught one
    /// error, went on, caught a second and then returned the first gets
    /// the second reported, an error of the same input all the same.
    #[cold]
    pub(super) fn into_decode_error(self, slot: Option<DecodeError>, at: usize) -> DecodeError {
        match (self.0, slot) {
            (Repr::Stored, Some(err)) => err,
            (Repr::Unplaced(message), _) => DecodeError::custom(message, at),
            (Repr::Stored, None) => DecodeError::custom(&msg::CUSTOM, at),
        }
    }
}

impl fmt::Debug for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Repr::Stored => f.write_str("DeError::Stored"),
            Repr::Unplaced(message) => f.debug_tuple("DeError::Unplaced").field(message).finish(),
        }
    }
}

impl Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Repr::Stored => f.write_str(msg::STORED),
            Repr::Unplaced(message) => f.write_str(message),
        }
    }
}

impl core::error::Error for DeError {}

/// The messages of errors raised by `Deserialize` implementations. A
/// [`DecodeError`] is three words and never allocates, so it carries the
/// kind of complaint, not serde's formatted text.
pub(super) mod msg {
    pub(crate) const STORED: &str = "the input is not a valid encoding of the value (marshal::serde reports the kind and offset)";
    pub(crate) const CUSTOM: &str = "the value's Deserialize implementation rejected the input";
    pub(crate) const INVALID_TYPE: &str =
        "invalid type: the Deserialize implementation expected another kind of value";
    pub(crate) const INVALID_VALUE: &str = "invalid value for the type being decoded";
    pub(crate) const INVALID_LENGTH: &str = "invalid length for the type being decoded";
    pub(crate) const UNKNOWN_VARIANT: &str = "unknown enum variant";
    pub(crate) const UNKNOWN_FIELD: &str = "unknown field";
    pub(crate) const MISSING_FIELD: &str = "missing field";
    pub(crate) const DUPLICATE_FIELD: &str = "duplicate field";
    pub(crate) const ANY: &str = "deserialize_any is not supported: the format is not \
         self-describing, so untagged and internally tagged enums and other self-describing \
         types cannot be read";
    pub(crate) const IDENTIFIER: &str = "deserialize_identifier is not supported: the format \
         writes no field or variant names (adjacently tagged enums and flattened fields read them)";
    pub(crate) const IGNORED_ANY: &str =
        "deserialize_ignored_any is not supported: the format cannot skip a value it does not know";
}

impl de::Error for DeError {
    #[cold]
    fn custom<T: Display>(_: T) -> Self {
        DeError::unplaced(&msg::CUSTOM)
    }

    #[cold]
    fn invalid_type(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        DeError::unplaced(&msg::INVALID_TYPE)
    }

    #[cold]
    fn invalid_value(_: de::Unexpected<'_>, _: &dyn de::Expected) -> Self {
        DeError::unplaced(&msg::INVALID_VALUE)
    }

    #[cold]
    fn invalid_length(_: usize, _: &dyn de::Expected) -> Self {
        DeError::unplaced(&msg::INVALID_LENGTH)
    }

    #[cold]
    fn unknown_variant(_: &str, _: &'static [&'static str]) -> Self {
        DeError::unplaced(&msg::UNKNOWN_VARIANT)
    }

    #[cold]
    fn unknown_field(_: &str, _: &'static [&'static str]) -> Self {
        DeError::unplaced(&msg::UNKNOWN_FIELD)
    }

    #[cold]
    fn missing_field(_: &'static str) -> Self {
        DeError::unplaced(&msg::MISSING_FIELD)
    }

    #[cold]
    fn duplicate_field(_: &'static str) -> Self {
        DeError::unplaced(&msg::DUPLICATE_FIELD)
    }
}

/// Stack bytes, in an unoptimized build, that one level of serde's nesting
/// may take beside the value it builds: the deserializer's method, the
/// visitor's, the access object's, the `Deserialize` implementation's and
/// serde's `Box` or `Option` around it. With [`LEVEL_COPIES`], a level of a
/// small value is one unit of the depth limit (4 KiB of stack); measured by
/// `test_suite/tests/serde_stack.rs` at 1.2 to 2.0 KiB a unit in an
/// unoptimized build (0.15 to 0.5 KiB optimized), and a level of a 4 KiB
/// value, charged 17 units, at 32 to 52 KiB (10 to 23 KiB optimized), so
/// nesting at the default limit takes at most 1 MiB of stack.
const LEVEL_BASE: usize = 3072;

/// Copies of the value a level builds that its frames may hold: serde's
/// derived visitors keep each field in an `Option` and move it out, so
/// about 12 were measured for a 4 KiB value.
const LEVEL_COPIES: usize = 16;

/// Units of the depth limit one level of serde's nesting that builds a `T`
/// is charged.
const fn level_of<T>() -> u32 {
    levels(LEVEL_BASE.saturating_add(LEVEL_COPIES.saturating_mul(size_of::<T>())))
}

/// Stack bytes, in an unoptimized build, that serde's derived visitor of a
/// struct or tuple takes for each field beside the value it builds: the
/// field's `Option` slot, the `Result` of its `next_element`, the error
/// path. Measured at about 80 bytes a field (a struct of 256 `()` fields,
/// `test_suite/tests/serde_stack.rs`).
const LEVEL_PER_FIELD: usize = 128;

/// Stack bytes, in an unoptimized build, that serde's derived visitor of an
/// enum takes for each variant beside the copy of the value its arm
/// builds: each arm's frame holds its variant's contents, as large as the
/// enum at most. Measured at about 40 bytes beyond the enum's size a
/// variant (an enum of 64 newtype variants of 256 bytes).
const LEVEL_PER_VARIANT: usize = 128;

/// The bytes beside [`level_of`]'s that a level of an enum of `T`s with
/// `variants` variants is charged.
const fn variants_charge<T>(variants: usize) -> usize {
    variants.saturating_mul(LEVEL_PER_VARIANT.saturating_add(size_of::<T>()))
}

/// serde's deserializer over a [`Reader`], reading integers, lengths and
/// variant indices in byte order `E` and encoding `I` (bincode 1.3's
/// default options by default).
pub(super) struct Deserializer<'r, 'de, E = LittleEndian, I = Fixint> {
    r: &'r mut Reader<'de>,
    /// Where the [`DecodeError`] of a [`DeError`] travelling up waits.
    slot: &'r mut Option<DecodeError>,
    dialect: PhantomData<(E, I)>,
}

impl<'r, 'de, E: Endian, I: IntEncoding> Deserializer<'r, 'de, E, I> {
    /// A deserializer reading through `r`, keeping the error of a failed
    /// decode in `slot` ([`DeError::into_decode_error`] takes it out).
    pub(super) fn new(r: &'r mut Reader<'de>, slot: &'r mut Option<DecodeError>) -> Self {
        Deserializer {
            r,
            slot,
            dialect: PhantomData,
        }
    }
}

/// Reads a `T` in byte order `E` and encoding `I`: through its own
/// [`Unmarshal`] impl in bincode 1.3's default options (the same bytes,
/// and exactly the code of the legacy route), else through its
/// [`UnmarshalIn`] impl.
#[inline]
fn take<'de, T, E: Endian, I: IntEncoding>(r: &mut Reader<'de>) -> Result<T, DecodeError>
where
    T: Unmarshal<'de> + UnmarshalIn<'de, Encoding<E, I>>,
{
    if super::is_legacy::<E, I>() {
        T::decode(r)
    } else {
        T::decode_in(r)
    }
}

impl<'de, E: Endian, I: IntEncoding> Deserializer<'_, 'de, E, I> {
    /// Keeps `err` in the slot and returns the word that says it is there.
    #[cold]
    fn fail(&mut self, err: DecodeError) -> DeError {
        *self.slot = Some(err);
        DeError(Repr::Stored)
    }

    /// Reads through the reader with `f`, its error kept in the slot.
    #[inline]
    fn read<T>(
        &mut self,
        f: impl FnOnce(&mut Reader<'de>) -> Result<T, DecodeError>,
    ) -> Result<T, DeError> {
        match f(self.r) {
            Ok(value) => Ok(value),
            Err(err) => Err(self.fail(err)),
        }
    }

    /// `err`, at `at` if its offset was not known yet.
    #[cold]
    fn place(&mut self, err: DeError, at: usize) -> DeError {
        match err.0 {
            Repr::Stored => err,
            Repr::Unplaced(message) => self.fail(DecodeError::custom(message, at)),
        }
    }

    /// Runs `f` one level deeper ([`Reader::nest`]), the level charged by
    /// the stack a level building a `T` may take: the depth limit applies
    /// to every value that holds others (an `Option`'s `Some`, a newtype,
    /// a tuple, a struct, a sequence, a map, an enum).
    #[inline]
    fn nest<T>(
        &mut self,
        f: impl FnOnce(&mut Deserializer<'_, 'de, E, I>) -> Result<T, DeError>,
    ) -> Result<T, DeError> {
        self.nest_charged(const { level_of::<T>() }, f)
    }

    /// [`nest`](Self::nest) for a level whose visitor also takes `extra`
    /// bytes of stack: a struct's or tuple's fields, an enum's variants.
    #[inline]
    fn nest_with<T>(
        &mut self,
        extra: usize,
        f: impl FnOnce(&mut Deserializer<'_, 'de, E, I>) -> Result<T, DeError>,
    ) -> Result<T, DeError> {
        let bytes = LEVEL_BASE
            .saturating_add(LEVEL_COPIES.saturating_mul(size_of::<T>()))
            .saturating_add(extra);
        self.nest_charged(levels(bytes), f)
    }

    /// Runs `f` one level deeper, charging `levels` units of the depth
    /// limit.
    #[inline]
    fn nest_charged<T>(
        &mut self,
        levels: u32,
        f: impl FnOnce(&mut Deserializer<'_, 'de, E, I>) -> Result<T, DeError>,
    ) -> Result<T, DeError> {
        let slot = &mut *self.slot;
        match self
            .r
            .nest_levels_in_place(levels, |r| f(&mut Deserializer::new(r, slot)))
        {
            Ok(result) => result,
            Err(too_deep) => Err(self.fail(too_deep)),
        }
    }

    /// A length prefix, checked against the rest of the input: each item
    /// counts as at least one byte, whatever its type.
    #[inline]
    fn len(&mut self) -> Result<usize, DeError> {
        if super::is_legacy::<E, I>() {
            self.read(|r| r.take_len(1))
        } else {
            self.read(|r| crate::impls::dialect::take_len::<E, I>(r, 1))
        }
    }
}

/// Reads a value in the dialect and hands it to the visitor.
macro_rules! primitive {
    ($($method:ident => $visit:ident($ty:ty);)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
            let at = self.r.position();
            let value = self.read(take::<$ty, E, I>)?;
            visitor.$visit::<DeError>(value).map_err(|e| self.place(e, at))
        }
    )*};
}

impl<'de, E: Endian, I: IntEncoding> de::Deserializer<'de> for &mut Deserializer<'_, 'de, E, I> {
    type Error = DeError;

    #[inline]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[cold]
    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, DeError> {
        Err(self.fail(DecodeError::custom(&msg::ANY, self.r.position())))
    }

    primitive! {
        deserialize_bool => visit_bool(bool);
        deserialize_i8 => visit_i8(i8);
        deserialize_i16 => visit_i16(i16);
        deserialize_i32 => visit_i32(i32);
        deserialize_i64 => visit_i64(i64);
        deserialize_i128 => visit_i128(i128);
        deserialize_u8 => visit_u8(u8);
        deserialize_u16 => visit_u16(u16);
        deserialize_u32 => visit_u32(u32);
        deserialize_u64 => visit_u64(u64);
        deserialize_u128 => visit_u128(u128);
        deserialize_f32 => visit_f32(f32);
        deserialize_f64 => visit_f64(f64);
        deserialize_char => visit_char(char);
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        let s = self.read(take::<&'de str, E, I>)?;
        visitor
            .visit_borrowed_str::<DeError>(s)
            .map_err(|e| self.place(e, at))
    }

    /// An owned `String`, allocated here (and charged against the reader's
    /// budget) and handed over, so `String` takes it without copying.
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        #[cfg(feature = "alloc")]
        {
            // Copied and checked in one pass, as the derive route's `String`.
            let s = self.read(take::<alloc::string::String, E, I>)?;
            visitor
                .visit_string::<DeError>(s)
                .map_err(|e| self.place(e, at))
        }
        #[cfg(not(feature = "alloc"))]
        {
            let s = self.read(take::<&'de str, E, I>)?;
            visitor
                .visit_borrowed_str::<DeError>(s)
                .map_err(|e| self.place(e, at))
        }
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        let bytes = self.read(take::<&'de [u8], E, I>)?;
        visitor
            .visit_borrowed_bytes::<DeError>(bytes)
            .map_err(|e| self.place(e, at))
    }

    /// An owned `Vec<u8>`, as for [`deserialize_string`](Self::deserialize_string).
    #[inline]
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        let bytes = self.read(take::<&'de [u8], E, I>)?;
        #[cfg(feature = "alloc")]
        {
            // Charged at the bytes, after their length prefix.
            let start = self.r.position() - bytes.len();
            self.read(|r| r.charge_at(bytes.len(), start))?;
            visitor
                .visit_byte_buf::<DeError>(alloc::vec::Vec::from(bytes))
                .map_err(|e| self.place(e, at))
        }
        #[cfg(not(feature = "alloc"))]
        visitor
            .visit_borrowed_bytes::<DeError>(bytes)
            .map_err(|e| self.place(e, at))
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        match self.read(Reader::take_u8)? {
            0 => visitor
                .visit_none::<DeError>()
                .map_err(|e| self.place(e, at)),
            1 => self.nest(|de| visitor.visit_some(&mut *de).map_err(|e| de.place(e, at))),
            tag => Err(self.fail(DecodeError::invalid_std_tag(
                tag.into(),
                StdEnum::Option,
                at,
            ))),
        }
    }

    #[inline]
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        visitor
            .visit_unit::<DeError>()
            .map_err(|e| self.place(e, at))
    }

    #[inline]
    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let at = self.r.position();
        self.nest(|de| {
            visitor
                .visit_newtype_struct(&mut *de)
                .map_err(|e| de.place(e, at))
        })
    }

    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        self.nest(|de| {
            let len = de.len()?;
            visitor
                .visit_seq(Items::growing(&mut *de, len))
                .map_err(|e| de.place(e, at))
        })
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let at = self.r.position();
        self.nest_with(len.saturating_mul(LEVEL_PER_FIELD), |de| {
            visitor
                .visit_seq(Items::inline(&mut *de, len))
                .map_err(|e| de.place(e, at))
        })
    }

    #[inline]
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_tuple(len, visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let at = self.r.position();
        self.nest(|de| {
            let len = de.len()?;
            visitor
                .visit_map(Entries {
                    de: &mut *de,
                    len,
                    index: 0,
                    key: Layout::new::<()>(),
                })
                .map_err(|e| de.place(e, at))
        })
    }

    /// A struct is its fields in order, as a tuple.
    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.deserialize_tuple(fields.len(), visitor)
    }

    #[inline]
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let at = self.r.position();
        let extra = variants_charge::<V::Value>(variants.len());
        self.nest_with(extra, |de| {
            visitor.visit_enum(&mut *de).map_err(|e| de.place(e, at))
        })
    }

    #[cold]
    fn deserialize_identifier<V: Visitor<'de>>(self, _: V) -> Result<V::Value, DeError> {
        Err(self.fail(DecodeError::custom(&msg::IDENTIFIER, self.r.position())))
    }

    #[cold]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, DeError> {
        Err(self.fail(DecodeError::custom(&msg::IGNORED_ANY, self.r.position())))
    }
}

/// What an item of a collection is charged against the reader's
/// allocation budget before it decodes, when the collection may allocate
/// for it: room in a `Vec` growing by doubling, the most such a vector asks
/// for over its growth. Counting the reallocations at their new sizes, a
/// vector of `n` items asks for less than `4n` items' worth (its capacity
/// ends below `2n`, and each capacity is twice the last), and at most 8
/// items' worth for its first allocation: so the first item is charged 8
/// times its size and each later one 4 times.
#[inline]
fn item_charge(index: usize, item: Layout) -> usize {
    let size = item.pad_to_align().size();
    size.saturating_mul(if index == 0 { 8 } else { 4 })
}

/// The elements of a sequence, tuple or struct.
struct Items<'a, 'r, 'de, E, I> {
    de: &'a mut Deserializer<'r, 'de, E, I>,
    len: usize,
    index: usize,
    /// Whether the visitor may allocate for the items (a sequence), so
    /// they are charged against the budget; a tuple's or struct's are
    /// held inline.
    growing: bool,
}

impl<'a, 'r, 'de, E, I> Items<'a, 'r, 'de, E, I> {
    fn growing(de: &'a mut Deserializer<'r, 'de, E, I>, len: usize) -> Self {
        Items {
            de,
            len,
            index: 0,
            growing: true,
        }
    }

    fn inline(de: &'a mut Deserializer<'r, 'de, E, I>, len: usize) -> Self {
        Items {
            de,
            len,
            index: 0,
            growing: false,
        }
    }
}

impl<'de, E: Endian, I: IntEncoding> de::SeqAccess<'de> for Items<'_, '_, 'de, E, I> {
    type Error = DeError;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        if self.len == 0 {
            return Ok(None);
        }
        self.len -= 1;
        if self.growing && self.de.r.has_budget() {
            let charge = item_charge(self.index, Layout::new::<T::Value>());
            self.de.read(|r| r.charge_alloc(charge))?;
        }
        self.index += 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    /// The items left for a tuple or struct; none is promised for a
    /// sequence, whose visitor would allocate room for that many before
    /// any is read, which a length prefix does not justify.
    #[inline]
    fn size_hint(&self) -> Option<usize> {
        (!self.growing).then_some(self.len)
    }
}

/// The entries of a map.
struct Entries<'a, 'r, 'de, E, I> {
    de: &'a mut Deserializer<'r, 'de, E, I>,
    len: usize,
    index: usize,
    /// The layout of the last key read, for charging its entry.
    key: Layout,
}

impl<'de, E: Endian, I: IntEncoding> de::MapAccess<'de> for Entries<'_, '_, 'de, E, I> {
    type Error = DeError;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        if self.len == 0 {
            return Ok(None);
        }
        self.len -= 1;
        self.key = Layout::new::<K::Value>();
        seed.deserialize(&mut *self.de).map(Some)
    }

    /// Charges the entry (the key and the value side by side) before its
    /// value decodes, as a sequence charges an item.
    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        if self.de.r.has_budget() {
            let entry = match self.key.extend(Layout::new::<V::Value>()) {
                Ok((entry, _)) => item_charge(self.index, entry),
                Err(_) => usize::MAX,
            };
            self.de.read(|r| r.charge_alloc(entry))?;
        }
        self.index += 1;
        seed.deserialize(&mut *self.de)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        None
    }
}

/// An enum: a `u32` variant index, then the variant's contents.
impl<'de, E: Endian, I: IntEncoding> de::EnumAccess<'de> for &mut Deserializer<'_, 'de, E, I> {
    type Error = DeError;
    type Variant = Self;

    #[inline]
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), DeError> {
        let at = self.r.position();
        let index = self.read(take::<u32, E, I>)?;
        let variant = seed
            .deserialize(IntoDeserializer::<DeError>::into_deserializer(index))
            .map_err(|e| self.place(e, at))?;
        Ok((variant, self))
    }
}

impl<'de, E: Endian, I: IntEncoding> de::VariantAccess<'de> for &mut Deserializer<'_, 'de, E, I> {
    type Error = DeError;

    #[inline]
    fn unit_variant(self) -> Result<(), DeError> {
        Ok(())
    }

    #[inline]
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DeError> {
        seed.deserialize(self)
    }

    #[inline]
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_tuple(self, len, visitor)
    }

    #[inline]
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        de::Deserializer::deserialize_tuple(self, fields.len(), visitor)
    }
}
