//! Error types.

use core::fmt;

/// A [`Writer`](crate::Writer) ran out of buffer space.
///
/// This is the error of the low-level [`Marshal::encode`](crate::Marshal::encode)
/// path. The public entry points turn it into a [`BufferTooSmall`] that says how
/// many bytes were needed.
///
/// ```
/// let mut buf = [0u8; 1];
/// let mut w = marshal::Writer::new(&mut buf);
/// assert_eq!(w.put_slice(b"ab"), Err(marshal::Overflow));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Overflow;

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("output buffer too small")
    }
}

impl core::error::Error for Overflow {}

/// The buffer given to [`Marshal::try_write_to`](crate::Marshal::try_write_to)
/// is shorter than the value's encoding.
///
/// ```
/// use marshal::{BufferTooSmall, Marshal};
///
/// let mut buf = [0u8; 3];
/// let err = 7u64.try_write_to(&mut buf).unwrap_err();
/// assert_eq!(err, BufferTooSmall { needed: 8, available: 3 });
/// assert_eq!(err.to_string(), "buffer too small: encoding needs 8 bytes, buffer has 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferTooSmall {
    /// The exact encoded length of the value, as [`Marshal::encoded_len`](crate::Marshal::encoded_len) reports it.
    pub needed: usize,
    /// The length of the buffer that was given.
    pub available: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "buffer too small: encoding needs {} bytes, buffer has {}",
            self.needed, self.available
        )
    }
}

impl core::error::Error for BufferTooSmall {}

/// A value's encoding disagreed with the lengths its [`Marshal`]
/// implementation reported: a bug in a manual implementation, whose
/// [`encoded_len`], [`FIXED_LEN`] or [`MAX_LEN`] is wrong.
///
/// The output targets that size their output with `encoded_len` (a `Vec`
/// without room for the value, a frame header, an arena block) check that
/// `encode` wrote exactly that many bytes. Those that return a `Result`
/// return this, wrapped, and leave their output as it was; the others
/// panic with its message. Into spare capacity that holds the value, the
/// `Vec` and `BytesMut` targets write it in one pass without asking
/// `encoded_len`, and so have nothing to check.
///
/// ```
/// use marshal::frame::{Codec, FrameError};
/// use marshal::{LengthMismatch, Marshal, Overflow, Writer};
///
/// /// Claims 2 bytes, writes 4.
/// struct Liar;
/// impl Marshal for Liar {
///     fn encoded_len(&self) -> usize { 2 }
///     fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         w.put_array([1, 2, 3, 4])
///     }
/// }
///
/// let mut out = vec![0xff];
/// let err = Codec::new().encode_into_vec(&Liar, &mut out).unwrap_err();
/// assert_eq!(err, FrameError::LengthMismatch(LengthMismatch::Long { encoded_len: 2 }));
/// assert_eq!(out, [0xff]);
/// ```
///
/// [`Marshal`]: crate::Marshal
/// [`encoded_len`]: crate::Marshal::encoded_len
/// [`FIXED_LEN`]: crate::Marshal::FIXED_LEN
/// [`MAX_LEN`]: crate::Marshal::MAX_LEN
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LengthMismatch {
    /// `encode` wrote fewer bytes than `encoded_len` reported (or a
    /// `FIXED_LEN` inside the value is too large).
    Short {
        /// What `encoded_len` reported.
        encoded_len: usize,
        /// What `encode` wrote.
        written: usize,
    },
    /// `encode` needed more than the bytes `encoded_len` reported (or a
    /// `FIXED_LEN` inside the value is too small).
    Long {
        /// What `encoded_len` reported.
        encoded_len: usize,
    },
    /// `encoded_len` is larger than the type's `MAX_LEN`, the bound the
    /// output was sized by.
    AboveMax {
        /// What `encoded_len` reported.
        encoded_len: usize,
        /// The type's `MAX_LEN`.
        max_len: usize,
    },
}

impl fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LengthMismatch::Short {
                encoded_len,
                written,
            } => write!(
                f,
                "encode wrote {written} bytes, fewer than the {encoded_len} its encoded_len() \
                 reported"
            )?,
            LengthMismatch::Long { encoded_len } => write!(
                f,
                "encode needed more than the {encoded_len} bytes its encoded_len() reported"
            )?,
            LengthMismatch::AboveMax {
                encoded_len,
                max_len,
            } => write!(
                f,
                "encoded_len() reported {encoded_len} bytes, more than the type's MAX_LEN of \
                 {max_len}"
            )?,
        }
        f.write_str(" (a Marshal implementation whose lengths disagree with its encode)")
    }
}

impl core::error::Error for LengthMismatch {}

/// Why decoding failed, and where.
///
/// Every error names its kind ([`DecodeError::kind`]) and the byte offset in
/// the input where the offending item starts ([`DecodeError::offset`]);
/// from the entry points that decode a slice, most also name the field of
/// a derived type being read ([`DecodeError::site`]), and
/// [`error_path`](crate::error_path) gives the whole path to it. It needs
/// no allocation and is 24 bytes on 64-bit targets.
///
/// ```
/// use marshal::{DecodeErrorKind, Unmarshal};
///
/// let err = bool::read_from(&[7]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(7));
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.to_string(), "invalid bool byte 0x07 (expected 0 or 1) at byte 0");
/// ```
#[derive(Clone, Copy)]
pub struct DecodeError {
    offset: usize,
    repr: Repr,
}

// Three words: the offset, and the kind in its compact form (with its
// site, in `Repr::Sited`).
#[cfg(target_pointer_width = "64")]
const _: () = assert!(core::mem::size_of::<DecodeError>() == 24);

/// A derived type's field as a site: its type (`Record`, `Shape::Circle`
/// for a variant's field) and its name (`note`, `0`).
pub(crate) type SiteNames = [&'static str; 2];

/// An enum of the standard library's whose tag `marshal` reads, named by a
/// byte in `InvalidTagOf`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum StdEnum {
    Option = 0,
    IpAddr = 1,
    SocketAddr = 2,
}

impl fmt::Display for StdEnum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Load::<&'static str>::load(*self))
    }
}

impl Load<&'static str> for StdEnum {
    fn load(self) -> &'static str {
        match self {
            StdEnum::Option => "Option",
            StdEnum::IpAddr => "IpAddr",
            StdEnum::SocketAddr => "SocketAddr",
        }
    }
}

/// Where in a derived type a [`DecodeError`] was raised: the type and the
/// field (or variant's field) being read, as [`DecodeError::site`] gives
/// it.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug)]
/// struct Record { id: u32, note: Option<String> }
///
/// let mut bytes = marshal::to_vec(&Record { id: 1, note: None });
/// bytes[4] = 45; // not an `Option` tag
/// let err = marshal::from_bytes::<Record>(&bytes).unwrap_err();
/// let site = err.site().unwrap();
/// assert_eq!((site.ty(), site.field()), ("Record", "note"));
/// assert_eq!(site.to_string(), "Record.note");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Site {
    names: &'static SiteNames,
}

impl Site {
    /// The type: a struct's name, or an enum's and its variant's
    /// (`Shape::Circle`).
    ///
    /// ```
    /// #[derive(marshal::Unmarshal, Debug)]
    /// enum Shape { Dot, Circle { r: f32, filled: bool } }
    ///
    /// // Circle, r = 1.0, filled = 2 (not a bool)
    /// let err = marshal::from_bytes::<Shape>(&[1, 0, 0, 0, 0, 0, 128, 63, 2]).unwrap_err();
    /// assert_eq!(err.site().unwrap().ty(), "Shape::Circle");
    /// ```
    #[must_use]
    pub fn ty(&self) -> &'static str {
        self.names[0]
    }

    /// The field's name, or its index for a tuple struct's or variant's
    /// field. (A struct whose fields are all of fixed size is checked
    /// against the input whole, before its first field is read: an input
    /// too short for it fails there, in its first field.)
    ///
    /// ```
    /// #[derive(marshal::Unmarshal, Debug)]
    /// struct Pair(u8, bool);
    ///
    /// let err = marshal::from_bytes::<Vec<Pair>>(&[1, 0, 0, 0, 0, 0, 0, 0, 7, 9]).unwrap_err();
    /// assert_eq!(err.site().unwrap().field(), "1");
    /// assert_eq!(err.to_string(), "invalid bool byte 0x09 (expected 0 or 1) at byte 9, in Pair.1");
    /// ```
    #[must_use]
    pub fn field(&self) -> &'static str {
        self.names[1]
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.ty(), self.field())
    }
}

/// A form of `Repr` but `Sited`, in seven bytes: which form, and its
/// fields in 48 bits.
#[derive(Clone, Copy)]
struct Small {
    form: Form,
    bits: [u8; 6],
}

/// The fields of a form, packed into 48 bits (`Repr::pack`) and unpacked
/// in the same order (`Small::unpack`).
#[derive(Default)]
struct Bits {
    bits: u64,
    used: u32,
}

impl Bits {
    const MAX: u32 = 48;

    /// Appends `value`: `None` if it does not fit what is left.
    fn put<T: Pack>(&mut self, value: T) -> Option<()> {
        let bits = value.pack()?;
        if self.used + T::BITS > Self::MAX || (T::BITS < 64 && bits >> T::BITS != 0) {
            return None;
        }
        self.bits |= bits << self.used;
        self.used += T::BITS;
        Some(())
    }

    /// The next value, as `put` appended it.
    fn take<T: Pack>(&mut self) -> T {
        let mask = (1u64 << T::BITS) - 1;
        let value = T::unpack((self.bits >> self.used) & mask);
        self.used += T::BITS;
        value
    }

    fn bytes(&self) -> [u8; 6] {
        let [a, b, c, d, e, f, _, _] = self.bits.to_le_bytes();
        [a, b, c, d, e, f]
    }

    fn from_bytes([a, b, c, d, e, f]: [u8; 6]) -> Bits {
        Bits {
            bits: u64::from_le_bytes([a, b, c, d, e, f, 0, 0]),
            used: 0,
        }
    }
}

/// A field of a form of `Repr`, in at most `BITS` bits (`Bits`).
trait Pack: Sized {
    const BITS: u32;
    /// The bits, or `None` if this value does not fit.
    fn pack(self) -> Option<u64>;
    fn unpack(bits: u64) -> Self;
}

/// Unsigned integers of `BITS` bits, kept whole.
macro_rules! pack_unsigned {
    ($($ty:ty),*) => {$(
        impl Pack for $ty {
            const BITS: u32 = <$ty>::BITS;
            fn pack(self) -> Option<u64> {
                Some(self.into())
            }
            fn unpack(bits: u64) -> Self {
                bits as $ty
            }
        }
    )*};
}

pack_unsigned!(u8, u32);

impl Pack for i32 {
    const BITS: u32 = 32;
    fn pack(self) -> Option<u64> {
        Some((self as u32).into())
    }
    fn unpack(bits: u64) -> Self {
        bits as u32 as i32
    }
}

/// Lengths, counts and offsets below 2⁴⁸ (larger ones keep no site).
impl Pack for u64 {
    const BITS: u32 = 48;
    fn pack(self) -> Option<u64> {
        Some(self)
    }
    fn unpack(bits: u64) -> Self {
        bits
    }
}

impl Pack for usize {
    const BITS: u32 = 48;
    fn pack(self) -> Option<u64> {
        Some(self as u64)
    }
    fn unpack(bits: u64) -> Self {
        // At most 2³² − 1 on a 32-bit target, where it came from a usize.
        bits as usize
    }
}

/// Seconds within ±2⁴⁷.
impl Pack for i64 {
    const BITS: u32 = 48;
    fn pack(self) -> Option<u64> {
        let bits = (self as u64) & ((1 << 48) - 1);
        (Self::unpack(bits) == self).then_some(bits)
    }
    fn unpack(bits: u64) -> Self {
        ((bits << 16) as i64) >> 16
    }
}

impl Pack for StdEnum {
    const BITS: u32 = 8;
    fn pack(self) -> Option<u64> {
        Some(self as u64)
    }
    fn unpack(bits: u64) -> Self {
        match bits {
            1 => StdEnum::IpAddr,
            2 => StdEnum::SocketAddr,
            _ => StdEnum::Option,
        }
    }
}

/// A name or message: a pointer, which does not fit.
impl Pack for &'static &'static str {
    const BITS: u32 = 0;
    fn pack(self) -> Option<u64> {
        None
    }
    fn unpack(_: u64) -> Self {
        &""
    }
}

/// Everything about the kinds of `DecodeError`, from one table (invoked
/// once, below) in which each kind is a row:
///
/// ```text
/// /// The kind's docs.
/// Kind                                 a unit variant,
/// Kind(name: Type)                     a tuple variant, whose field `name`
///                                      binds in the message and constructor,
/// Kind { /// docs                      or a struct variant;
///        field: Type, ... }
///     => "message",                    a format string over the fields,
///     or Alternative { field: Type }   optionally a second compact form of
///         => "message",                the same kind, with its own message,
///     #[attributes] fn constructor;    and optionally a constructor.
/// ```
///
/// A field written `name: Type as Compact` is kept as `Compact` (see
/// `Load`). From the table come:
///
/// - `DecodeErrorKind`, each row's variant with its docs and fields, with
///   the attributes written before `pub enum DecodeErrorKind;`;
/// - `Repr`, the compact form a `DecodeError` keeps, with a variant for each
///   row and each alternative, and `Repr::kind` from it to the public kind;
///   and `Repr::Sited`, any of them whose fields fit in 48 bits (`Small`),
///   with a site;
/// - `Form`, naming each of those variants, and `Repr::pack` and
///   `Small::unpack` between a variant and its `Small` form;
/// - `Repr::fmt_message`, the message of the `Display` of `DecodeError`;
/// - for each row with one, `DecodeError::constructor(fields.., offset)`,
///   `#[cold]` and `pub(crate)`.
macro_rules! decode_error_kinds {
    (
        $(#[$kind_attr:meta])*
        pub enum DecodeErrorKind;

        $(#[$repr_attr:meta])*
        enum Repr;

        $(
            $(#[doc = $doc:literal])*
            $kind:ident
            $(($name:ident: $ty:ty $(as $compact:ty)?))?
            $({$(
                $(#[doc = $field_doc:literal])*
                $field:ident: $field_ty:ty $(as $field_compact:ty)?
            ),* $(,)?})?
            => $message:literal
            $(, or $alt:ident { $($alt_field:ident: $alt_ty:ty),* } => $alt_message:literal)?
            $(, $(#[$ctor_attr:meta])* fn $ctor:ident)?;
        )*
    ) => {
        $(#[$kind_attr])*
        pub enum DecodeErrorKind {
            $(
                $(#[doc = $doc])*
                $kind
                $(($ty))?
                $({$($(#[doc = $field_doc])* $field: $field_ty),*})?,
            )*
        }

        $(#[$repr_attr])*
        enum Repr {
            $(
                $kind
                $((decode_error_kinds!(@compact $ty $(as $compact)?)))?
                $({$($field: decode_error_kinds!(@compact $field_ty $(as $field_compact)?)),*})?,
                $($alt { $($alt_field: $alt_ty),* },)?
            )*
            /// Another form, packed, with the site where it was raised.
            /// Made only after an error, by `DecodeError::in_site`: the
            /// forms decoding makes keep their first word to their own
            /// byte (and a field or none), which keeps checking a decode's
            /// `Result` one compare.
            Sited(Small, &'static SiteNames),
        }

        /// Names each form of `Repr` but `Sited`, for `Small`.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        enum Form {
            $($kind, $($alt,)?)*
        }

        impl Repr {
            /// This form in 48 bits, if its fields fit (see `Pack`).
            #[allow(unused_mut)] // (for the forms without fields)
            fn pack(self) -> Option<Small> {
                match self {
                    $(
                        Repr::$kind $(($name))? $({$($field),*})? => {
                            let mut bits = Bits::default();
                            $(bits.put($name)?;)?
                            $($(bits.put($field)?;)*)?
                            Some(Small { form: Form::$kind, bits: bits.bytes() })
                        }
                        $(Repr::$alt { $($alt_field),* } => {
                            let mut bits = Bits::default();
                            $(bits.put($alt_field)?;)*
                            Some(Small { form: Form::$alt, bits: bits.bytes() })
                        })?
                    )*
                    Repr::Sited(small, _) => Some(small),
                }
            }
        }

        impl Small {
            /// The form `Repr::pack` packed.
            #[allow(unused_mut)] // (for the forms without fields)
            fn unpack(self) -> Repr {
                let mut bits = Bits::from_bytes(self.bits);
                match self.form {
                    $(
                        Form::$kind => Repr::$kind
                            $((bits.take::<decode_error_kinds!(@compact $ty $(as $compact)?)>()))?
                            $({$($field: bits.take::<decode_error_kinds!(@compact $field_ty $(as $field_compact)?)>()),*})?,
                        $(Form::$alt => Repr::$alt { $($alt_field: bits.take::<$alt_ty>()),* },)?
                    )*
                }
            }
        }

        impl Repr {
            /// The public kind of this form.
            fn kind(self) -> DecodeErrorKind {
                match self {
                    Repr::Sited(small, _) => small.unpack().kind(),
                    $(
                        Repr::$kind $(($name))? $({$($field),*})? => {
                            DecodeErrorKind::$kind
                            $((Load::load($name)))?
                            $({$($field: Load::load($field)),*})?
                        }
                        $(Repr::$alt { $($alt_field),* } => {
                            DecodeErrorKind::$kind { $($alt_field: Load::load($alt_field)),* }
                        })?
                    )*
                }
            }

            /// The kind's message, without the offset.
            fn fmt_message(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Repr::Sited(small, _) => small.unpack().fmt_message(f),
                    $(
                        Repr::$kind $(($name))? $({$($field),*})? => write!(f, $message),
                        $(Repr::$alt { $($alt_field),* } => write!(f, $alt_message),)?
                    )*
                }
            }
        }

        impl DecodeError {
            $(
                decode_error_kinds!(
                    @constructor [$($(#[$ctor_attr])* $ctor)?] $kind
                    ($($name: decode_error_kinds!(@compact $ty $(as $compact)?))?)
                    {$($($field: decode_error_kinds!(@compact $field_ty $(as $field_compact)?)),*)?}
                );
            )*
        }
    };

    // The type a field is kept as in `Repr`.
    (@compact $ty:ty) => { $ty };
    (@compact $ty:ty as $compact:ty) => { $compact };

    // A row's constructor, if it has one: of a tuple variant, or of a
    // struct or unit variant.
    (@constructor [] $($row:tt)*) => {};
    (
        @constructor [$(#[$attr:meta])* $ctor:ident] $kind:ident
        ($name:ident: $ty:ty) {}
    ) => {
        $(#[$attr])*
        #[cold]
        pub(crate) const fn $ctor($name: $ty, offset: usize) -> Self {
            Self::new(Repr::$kind($name), offset)
        }
    };
    (
        @constructor [$(#[$attr:meta])* $ctor:ident] $kind:ident
        () {$($field:ident: $ty:ty),*}
    ) => {
        $(#[$attr])*
        #[cold]
        pub(crate) const fn $ctor($($field: $ty,)* offset: usize) -> Self {
            Self::new(Repr::$kind { $($field),* }, offset)
        }
    };
}

/// A field of a [`DecodeErrorKind`] from the compact form `Repr` keeps it
/// in: as it is, widened, or dereferenced.
trait Load<T> {
    fn load(self) -> T;
}

impl<T> Load<T> for T {
    fn load(self) -> T {
        self
    }
}

/// A capacity, saturated at `u32::MAX` to keep the error three words.
impl Load<usize> for u32 {
    fn load(self) -> usize {
        self as usize
    }
}

/// A name or message behind one thin pointer, to keep the error three
/// words.
impl Load<&'static str> for &'static &'static str {
    fn load(self) -> &'static str {
        self
    }
}

// The kinds of decode error, in the order `DecodeErrorKind` lists them.
decode_error_kinds! {
    /// The kind of a [`DecodeError`].
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Unmarshal};
    ///
    /// let err = <(u8, u32)>::read_from(&[1, 2, 3]).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::UnexpectedEnd { needed: 2 });
    /// assert_eq!(err.offset(), 1);
    ///
    /// // A length prefix the rest of the input cannot hold.
    /// let err = <&str>::read_from(&[5, 0, 0, 0, 0, 0, 0, 0, b'a']).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 5 });
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum DecodeErrorKind;

    /// The compact form of [`DecodeErrorKind`]: names are stored behind one
    /// thin pointer so the whole error stays within three words.
    #[derive(Clone, Copy)]
    enum Repr;

    /// The input ended early; `needed` more bytes were required.
    UnexpectedEnd {
        /// Bytes missing past the end of the input.
        needed: usize,
    } => "unexpected end of input: {needed} more bytes needed",
    fn unexpected_end;

    /// A `bool` byte other than 0 or 1.
    InvalidBool(byte: u8) => "invalid bool byte {byte:#04x} (expected 0 or 1)",
    fn invalid_bool;

    /// A `char` that is not one well-formed UTF-8 scalar value; holds its
    /// first byte.
    InvalidChar(first: u32) => "invalid UTF-8 char starting with byte {first:#04x}",
    fn invalid_char;

    /// A string that is not valid UTF-8.
    InvalidUtf8 => "invalid UTF-8 in string",
    fn invalid_utf8;

    /// An enum tag that names no variant.
    InvalidTag {
        /// The tag read from the input.
        tag: u32,
        /// The enum's name.
        ty: &'static str as &'static &'static str,
    } => "invalid tag {tag} for enum {ty}",
    // The same of an enum of the standard library's, named by a byte:
    // small enough to keep a site.
    or InvalidTagOf { tag: u32, ty: StdEnum } => "invalid tag {tag} for enum {ty}";
    // Made by the public `DecodeError::invalid_tag`, or by
    // `DecodeError::invalid_std_tag`.

    /// Zero where a `NonZero` type was expected.
    ZeroNonZero => "zero for a NonZero type",
    fn zero_non_zero;

    /// A variable-length integer (of [`config::standard`](crate::config::standard)
    /// and the other varint configurations) whose first byte is 255, or
    /// announces more bytes than the integer being decoded has: 252 and up
    /// for a 16-bit integer, 253 and up for 32 bits, 254 and up for 64.
    InvalidVarint {
        /// The first byte read from the input.
        marker: u8,
        /// The width in bits of the integer being decoded.
        bits: u8,
    } => "invalid variable-length integer marker {marker} for a {bits}-bit integer",
    fn invalid_varint;

    /// A length (or `usize`) that this platform's `usize` cannot hold, or a
    /// length whose elements cannot fit in the remaining input.
    LengthOverflow {
        /// The length read from the input.
        len: u64,
    } => "length {len} exceeds what the remaining input can hold",
    // Raised inside an extensible body, whose end no further input moves:
    // the same kind, never incomplete (`DecodeError::past_body`).
    or LengthOverflowInBody { len: u64 }
        => "length {len} exceeds what its extensible body can hold",
    fn length_overflow;

    /// A length beyond the fixed capacity of the type being decoded (a
    /// `heapless::Vec<T, N>`, an `ArrayVec<T, N>`, an `ArrayString<N>`, ...).
    OverCapacity {
        /// The length read from the input.
        len: u64,
        /// The type's capacity (saturated at `u32::MAX`).
        capacity: usize as u32,
    } => "length {len} exceeds the type's capacity of {capacity}";
    // Made by `DecodeError::over_capacity`, which saturates the capacity.

    /// Bytes were left over after the value ([`from_bytes`](crate::from_bytes)
    /// only).
    TrailingBytes {
        /// How many bytes were left.
        count: usize,
    } => "{count} trailing bytes after the value",
    fn trailing_bytes;

    /// A nanosecond count of 10⁹ or more.
    InvalidNanos(nanos: u32) => "nanoseconds {nanos} out of range (must be below 1000000000)",
    fn invalid_nanos;

    /// An instant or date-time that the type being decoded cannot
    /// represent: outside the range of chrono, time, jiff or the platform's
    /// `SystemTime`, or a Go time whose seconds do not fit an `i64` count
    /// of Unix seconds.
    TimestampOutOfRange {
        /// The seconds read from the input: since the Unix epoch, or for a
        /// [`GoTime`](crate::time::GoTime) since January 1 of year 1.
        secs: i64,
    } => "instant at {secs} seconds out of range for the type",
    fn timestamp_out_of_range;

    /// A date outside the range of the type being decoded.
    DateOutOfRange {
        /// The days since 1970-01-01 read from the input.
        days: i32,
    } => "date {days} days from 1970-01-01 out of range for the type",
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    fn date_out_of_range;

    /// A time of day of 24 hours or more.
    InvalidTimeOfDay {
        /// The nanoseconds since midnight read from the input.
        nanos: u64,
    } => "time of day {nanos} ns after midnight out of range (must be below 86400000000000)",
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    fn invalid_time_of_day;

    /// A UTC offset that the type being decoded cannot carry.
    InvalidUtcOffset {
        /// The offset read from the input, in seconds east of UTC.
        secs: i32,
    } => "UTC offset of {secs} seconds out of range for the type",
    fn invalid_utc_offset;

    /// A Go `time.Time` encoding whose version byte is neither 1 nor 2.
    UnknownGoTimeVersion(version: u8)
        => "unknown Go time encoding version {version} (expected 1 or 2)",
    fn unknown_go_time_version;

    /// Signed nanoseconds of 10⁹ or more in magnitude, or whose sign
    /// differs from that of the seconds before them.
    InvalidSignedNanos(nanos: i32)
        => "signed nanoseconds {nanos} out of range (must be below 1000000000 in magnitude, \
            with the sign of the seconds)",
    #[cfg_attr(not(feature = "jiff"), allow(dead_code))]
    fn invalid_signed_nanos;

    /// Data written under another type's
    /// [`FINGERPRINT`](crate::Marshal::FINGERPRINT) (see
    /// [`fingerprint`](crate::fingerprint)).
    FingerprintMismatch {
        /// The fingerprint found in the input.
        found: u64,
    } => "fingerprint mismatch: the data carries fingerprint {found:#018x}, which is not the \
          expected type's, so it was written in another wire format",
    fn fingerprint_mismatch;

    /// Collections and boxes nested more deeply than the reader allows
    /// (see [`Reader::with_max_depth`](crate::Reader::with_max_depth)).
    TooDeep {
        /// The limit that was exceeded.
        limit: u32,
    } => "collections and boxes nested more than {limit} levels deep, a level of a large value \
          counting as several (raise the limit with Reader::with_max_depth)",
    fn too_deep;

    /// Decoding would have asked the allocator for more bytes than the
    /// reader's budget allows (see
    /// [`Reader::with_max_alloc`](crate::Reader::with_max_alloc)). The
    /// offset is where the contents needing the memory start: just past a
    /// collection's or string's length prefix, a map's entry, or a boxed
    /// value.
    AllocLimit {
        /// The budget, in bytes.
        limit: usize,
    } => "decoding needs more than the allocation budget of {limit} bytes (raise it with \
          Reader::with_max_alloc)",
    fn alloc_limit;

    /// A field of an extensible type's body (see
    /// [`Reader::take_body`](crate::Reader::take_body)) runs past the
    /// body's end: the body's length cuts the field, or leaves out a
    /// version-1 field altogether. The bytes may well be in the input,
    /// after the body, which is why this is not
    /// [`UnexpectedEnd`](DecodeErrorKind::UnexpectedEnd): no writer
    /// produces it, and more input would not help. The offset is where the
    /// read that ran past the end starts.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Unmarshal};
    ///
    /// #[derive(Unmarshal, Debug)]
    /// #[marshal(extensible)]
    /// struct Point { x: u32, y: u32 }
    ///
    /// // A body of 6 bytes: `y` starts inside it and needs 2 more.
    /// let bytes = [6, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0];
    /// let err = marshal::from_bytes::<Point>(&bytes).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::BodyOverrun { needed: 2 });
    /// assert_eq!(err.offset(), 8);
    /// ```
    BodyOverrun {
        /// Bytes missing past the end of the body.
        needed: usize,
    } => "a field runs {needed} bytes past the end of its extensible body (the body's length \
          prefix cuts it)";
    // Made by `DecodeError::past_body`, of an `UnexpectedEnd`.

    /// A value allocated in an arena (bumpalo's `Vec`, `String` or `Box`,
    /// feature `bumpalo`), decoded through a reader without one: through
    /// [`from_bytes`](crate::from_bytes) rather than
    /// `marshal::arena::from_bytes_in`, say (see
    /// [`Reader::with_arena`](crate::Reader)). The offset is where the
    /// value starts.
    NoArena {
        /// The arena type's name.
        ty: &'static str as &'static &'static str,
    } => "{ty} is allocated in an arena, and this decode has none (decode it with \
          marshal::arena::from_bytes_in)",
    #[cfg_attr(not(feature = "bumpalo"), allow(dead_code))]
    fn no_arena;

    /// The arena (feature `bumpalo`) could not allocate: its allocation
    /// limit (`Bump::set_allocation_limit`) refused a new chunk, or the
    /// global allocator did. The offset is where the contents needing the
    /// memory start, as for [`AllocLimit`](DecodeErrorKind::AllocLimit).
    ArenaFull => "the arena could not allocate (its allocation limit, or the allocator, \
                  refused a new chunk)",
    #[cfg_attr(not(feature = "bumpalo"), allow(dead_code))]
    fn arena_full;

    /// A value read for a field `#[marshal(as = TryFromInto<U>)]` (see
    /// [`adapters::TryFromInto`](crate::adapters::TryFromInto)) that the
    /// field's type refused: its `TryFrom<U>` returned an error. The
    /// offset is where the value starts.
    InvalidConversion => "the value read does not convert into the field's type (its TryFrom \
                          refused it)",
    fn invalid_conversion;

    /// An error raised by a `with` module or a manual implementation.
    Custom(message: &'static str as &'static &'static str) => "{message}";
    // Made by the public `DecodeError::custom`.
}

impl DecodeError {
    /// The kind of error.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Unmarshal};
    /// let err = u32::read_from(&[1, 2]).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::UnexpectedEnd { needed: 2 });
    /// ```
    #[must_use]
    pub fn kind(&self) -> DecodeErrorKind {
        self.repr.kind()
    }

    /// The byte offset in the input where the offending item starts.
    ///
    /// ```
    /// use marshal::Unmarshal;
    /// let err = <(u8, bool)>::read_from(&[1, 9]).unwrap_err();
    /// assert_eq!(err.offset(), 1);
    /// ```
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The field of a derived type (or of a derived enum's variant) that
    /// was being read when the error was raised: the innermost one, when
    /// types nest. Set by the entry points that decode a whole slice
    /// ([`from_bytes`](crate::from_bytes),
    /// [`from_bytes_limited`](crate::from_bytes_limited),
    /// [`from_bytes_into`](crate::from_bytes_into),
    /// and the `marshal` crate's frames, `par::decode_batch` and
    /// `buf::decode_from_bytes`; not [`Unmarshal::read_from`](crate::Unmarshal::read_from)
    /// nor [`Unmarshal::decode`](crate::Unmarshal::decode)): after an error, and only then, they read
    /// the input again to find it, so decoding that succeeds pays nothing
    /// for it. [`Display`](fmt::Display) ends with it (`…, in
    /// Record.note`).
    ///
    /// `None` for an error raised outside any derived field (at the top
    /// level, or trailing bytes), from a [`Reader`](crate::Reader) of your
    /// own, and for errors whose fields leave no room for it in the three
    /// words a `DecodeError` takes: an
    /// [`InvalidTag`](DecodeErrorKind::InvalidTag) raised by a derived enum
    /// or a manual implementation (it names its enum, the type being read,
    /// instead), a [`Custom`](DecodeErrorKind::Custom) or
    /// [`NoArena`](DecodeErrorKind::NoArena) error (they hold a name too),
    /// an [`OverCapacity`](DecodeErrorKind::OverCapacity) error, a length,
    /// count, fingerprint or number of nanoseconds of 2⁴⁸ or more, or a
    /// number of seconds of 2⁴⁷ or more either side of zero. Nor for an
    /// [`AllocLimit`](DecodeErrorKind::AllocLimit) error, nor for an error
    /// under an allocation budget that the first decode left too little of
    /// for a second reading: the two readings together ask the allocator
    /// for no more than the budget. And the search stops at a struct or
    /// enum with a field read `with` a module (whose code could decode
    /// again, and look for a site of its own, at every level): an error in
    /// it or after it has none.
    ///
    /// For the whole path, from the top of the value, see
    /// [`error_path`](crate::error_path).
    ///
    /// ```
    /// use marshal::{Marshal, Unmarshal};
    ///
    /// #[derive(Marshal, Unmarshal, Debug)]
    /// struct Record { id: u32, note: Option<String> }
    ///
    /// let mut bytes = marshal::to_vec(&vec![Record { id: 1, note: None }]);
    /// bytes[12] = 45;
    /// let err = marshal::from_bytes::<Vec<Record>>(&bytes).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid tag 45 for enum Option at byte 12, in Record.note");
    ///
    /// // The reader's own decode does not look for it.
    /// let mut r = marshal::Reader::new(&bytes);
    /// let err = <Vec<Record>>::decode(&mut r).unwrap_err();
    /// assert_eq!(err.site(), None);
    /// assert_eq!(err.to_string(), "invalid tag 45 for enum Option at byte 12");
    /// ```
    #[must_use]
    pub fn site(&self) -> Option<Site> {
        match self.repr {
            Repr::Sited(_, names) => Some(Site { names }),
            _ => None,
        }
    }

    /// The same error, in the field `names` (`[type, field]`), if its form
    /// has room for a site; else as it is.
    #[must_use]
    pub(crate) fn in_site(self, names: Option<&'static SiteNames>) -> Self {
        match (names, self.repr) {
            // A site found already, by a `from_bytes` nested in a decoder,
            // is the inner one: kept.
            (_, Repr::Sited(..)) | (None, _) => self,
            (Some(names), repr) => match repr.pack() {
                Some(small) => Self::new(Repr::Sited(small, names), self.offset),
                None => self,
            },
        }
    }

    /// An invalid tag of an enum of the standard library's.
    #[cold]
    pub(crate) const fn invalid_std_tag(tag: u32, ty: StdEnum, offset: usize) -> Self {
        Self::new(Repr::InvalidTagOf { tag, ty }, offset)
    }

    /// Whether the input ended before the value did: decoding needed bytes
    /// past the end of the input and had found nothing invalid before, so
    /// more bytes could complete the value. `false` for invalid data, which
    /// more bytes cannot mend.
    ///
    /// A valid encoding cut short reports one of two kinds, depending on
    /// where it was cut, and both are incomplete:
    ///
    /// - [`UnexpectedEnd`](DecodeErrorKind::UnexpectedEnd): a fixed-size
    ///   read (an integer, a tag, a length prefix itself, a `char`'s bytes)
    ///   ran past the end;
    /// - [`LengthOverflow`](DecodeErrorKind::LengthOverflow) whose `len` is
    ///   at most `isize::MAX`: a length prefix (of a string, sequence, map or
    ///   extensible body) promises more items than the rest of the input
    ///   can hold. It is checked before anything is allocated, and on the
    ///   length alone: the error does not say how many bytes the items
    ///   need.
    ///
    /// Everything else is not: a length above `isize::MAX`, which no input
    /// can hold (and, on a 32-bit target, a `usize` or length that does not
    /// fit it); a bad `bool`, `char`, UTF-8 or tag; a length over a
    /// type's capacity; trailing bytes; exceeding the depth limit or the
    /// allocation budget; anything running past the end of an extensible
    /// body (below); a `with` module's
    /// or manual implementation's [`Custom`](DecodeErrorKind::Custom)
    /// error. What decoding finds first decides: a cut value whose length
    /// prefix is also over a type's capacity, say, is incomplete until the
    /// bytes arrive, and then invalid.
    ///
    /// Inside an extensible type's body, the body's length is the end: the
    /// whole body is in the input before any of it is read, so nothing
    /// that runs past the body's end is incomplete. A read that does is a
    /// [`BodyOverrun`](DecodeErrorKind::BodyOverrun) (a field cut by the
    /// body's end, or a version-1 field the body does not reach), and a
    /// length prefix that promises more than the body has left is a
    /// `LengthOverflow` that is not incomplete. Only the body's own length,
    /// when it runs past the end of the input, is.
    ///
    /// A reader that waits for more bytes on `true` must still bound what
    /// it buffers: an 8-byte length prefix can promise 2⁶³ − 1 bytes.
    /// marshal's length-delimited frames (`marshal::frame`) state their
    /// length up front and bound it (`Codec::max_len`).
    ///
    /// ```
    /// use marshal::Unmarshal;
    ///
    /// let bytes = marshal::to_vec(&(7u32, String::from("hello")));
    /// // Cut inside the `u32`, inside the length prefix, inside the string.
    /// for cut in [2, 9, 15] {
    ///     let err = <(u32, String)>::read_from(&bytes[..cut]).unwrap_err();
    ///     assert!(err.is_incomplete(), "{err}");
    /// }
    /// // Invalid data: more bytes would not help.
    /// assert!(!bool::read_from(&[2]).unwrap_err().is_incomplete());
    /// let huge = u64::MAX.to_le_bytes();
    /// assert!(!<Vec<u8>>::read_from(&huge).unwrap_err().is_incomplete());
    /// ```
    #[must_use]
    pub fn is_incomplete(&self) -> bool {
        match self.repr.plain() {
            Repr::UnexpectedEnd { .. } => true,
            Repr::LengthOverflow { len } => len <= isize::MAX as u64,
            _ => false,
        }
    }

    /// An error raised by a `with` module or a manual implementation. The
    /// message is a reference to a `&'static str` (write `&"..."`), which
    /// keeps the error three words small.
    ///
    /// The offset is relative to the buffer the module was given; the
    /// derived code adds the field's position.
    ///
    /// ```
    /// use marshal::{DecodeError, DecodeErrorKind};
    /// let err = DecodeError::custom(&"temperature out of range", 3);
    /// assert_eq!(err.kind(), DecodeErrorKind::Custom("temperature out of range"));
    /// assert_eq!(err.to_string(), "temperature out of range at byte 3");
    /// ```
    #[must_use]
    pub const fn custom(message: &'static &'static str, offset: usize) -> Self {
        Self::new(Repr::Custom(message), offset)
    }

    /// An invalid enum tag; `ty` names the enum (write `&"Name"`).
    ///
    /// ```
    /// let err = marshal::DecodeError::invalid_tag(7, &"Side", 41);
    /// assert_eq!(err.to_string(), "invalid tag 7 for enum Side at byte 41");
    /// ```
    #[must_use]
    pub const fn invalid_tag(tag: u32, ty: &'static &'static str, offset: usize) -> Self {
        Self::new(Repr::InvalidTag { tag, ty }, offset)
    }

    /// The same error, with its offset moved `by` bytes further into the
    /// input: for errors from a nested buffer.
    ///
    /// ```
    /// let err = marshal::DecodeError::custom(&"bad", 2).shifted(10);
    /// assert_eq!(err.offset(), 12);
    /// ```
    #[must_use]
    pub const fn shifted(self, by: usize) -> Self {
        Self {
            offset: self.offset.saturating_add(by),
            repr: self.repr,
        }
    }

    const fn new(repr: Repr, offset: usize) -> Self {
        DecodeError { offset, repr }
    }

    /// The same error, at `offset`: for errors found in bytes put together
    /// from the input's (a timestamp's in another configuration).
    #[must_use]
    pub(crate) const fn at(self, offset: usize) -> Self {
        Self {
            offset,
            repr: self.repr,
        }
    }

    /// `len` items where the type holds at most `capacity`.
    #[cold]
    #[cfg_attr(not(any(feature = "arrayvec", feature = "heapless")), allow(dead_code))]
    pub(crate) const fn over_capacity(len: usize, capacity: usize, offset: usize) -> Self {
        let capacity = if capacity > u32::MAX as usize {
            u32::MAX
        } else {
            capacity as u32
        };
        Self::new(
            Repr::OverCapacity {
                len: len as u64,
                capacity,
            },
            offset,
        )
    }

    /// This error, raised inside an extensible body, as what it is there:
    /// an [`UnexpectedEnd`](DecodeErrorKind::UnexpectedEnd) is the body's
    /// end cutting a read, a [`BodyOverrun`](DecodeErrorKind::BodyOverrun),
    /// and a [`LengthOverflow`](DecodeErrorKind::LengthOverflow) is one
    /// that more input cannot mend; any other error as it is.
    #[cold]
    pub(crate) fn past_body(self) -> Self {
        if let Repr::Sited(small, names) = self.repr {
            // An error with its site (from a `from_bytes` inside a `with`
            // module, say): the same, with the same site.
            let plain = Self::new(small.unpack(), self.offset).past_body();
            return match plain.repr.pack() {
                Some(small) => Self::new(Repr::Sited(small, names), self.offset),
                None => plain,
            };
        }
        match self.repr {
            Repr::UnexpectedEnd { needed } => Self::new(Repr::BodyOverrun { needed }, self.offset),
            Repr::LengthOverflow { len } => {
                Self::new(Repr::LengthOverflowInBody { len }, self.offset)
            }
            _ => self,
        }
    }
}

impl Repr {
    /// This form, unpacked if `Sited`.
    fn plain(self) -> Repr {
        match self {
            Repr::Sited(small, _) => small.unpack(),
            repr => repr,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.repr.fmt_message(f)?;
        write!(f, " at byte {}", self.offset)?;
        match self.site() {
            Some(site) => write!(f, ", in {site}"),
            None => Ok(()),
        }
    }
}

/// Errors are equal when their kinds, offsets and
/// [`is_incomplete`](DecodeError::is_incomplete) are: the
/// [`site`](DecodeError::site) is not compared, as an error is the same
/// error whether or not its site was looked for.
impl PartialEq for DecodeError {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind()
            && self.offset == other.offset
            && self.is_incomplete() == other.is_incomplete()
    }
}

impl Eq for DecodeError {}

impl core::hash::Hash for DecodeError {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.kind().hash(state);
        self.offset.hash(state);
        self.is_incomplete().hash(state);
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("kind", &self.kind())
            .field("offset", &self.offset)
            .field("site", &self.site())
            .finish()
    }
}

impl core::error::Error for DecodeError {}
