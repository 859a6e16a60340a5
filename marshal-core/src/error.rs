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
/// the input where the offending item starts ([`DecodeError::offset`]). It
/// needs no allocation and is 24 bytes on 64-bit targets.
///
/// ```
/// use marshal::{DecodeErrorKind, Unmarshal};
///
/// let err = bool::read_from(&[7]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(7));
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.to_string(), "invalid bool byte 0x07 (expected 0 or 1) at byte 0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodeError {
    offset: usize,
    repr: Repr,
}

/// The compact form of [`DecodeErrorKind`]: names are stored behind one
/// thin pointer so the whole error stays within three words.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Repr {
    UnexpectedEnd {
        needed: usize,
    },
    InvalidBool(u8),
    InvalidChar(u32),
    InvalidUtf8,
    InvalidTag {
        tag: u32,
        ty: &'static &'static str,
    },
    ZeroNonZero,
    LengthOverflow {
        len: u64,
    },
    /// A `LengthOverflow` raised inside an extensible body, whose end no
    /// further input moves: the same kind, never incomplete.
    LengthOverflowInBody {
        len: u64,
    },
    // The capacity saturates at `u32::MAX`, keeping the error three words.
    OverCapacity {
        len: u64,
        capacity: u32,
    },
    TrailingBytes {
        count: usize,
    },
    InvalidNanos(u32),
    TimestampOutOfRange {
        secs: i64,
    },
    DateOutOfRange {
        days: i32,
    },
    InvalidTimeOfDay {
        nanos: u64,
    },
    InvalidUtcOffset {
        secs: i32,
    },
    UnknownGoTimeVersion(u8),
    InvalidSignedNanos(i32),
    FingerprintMismatch {
        found: u64,
    },
    TooDeep {
        limit: u32,
    },
    AllocLimit {
        limit: usize,
    },
    BodyOverrun {
        needed: usize,
    },
    Custom(&'static &'static str),
}

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
pub enum DecodeErrorKind {
    /// The input ended early; `needed` more bytes were required.
    UnexpectedEnd {
        /// Bytes missing past the end of the input.
        needed: usize,
    },
    /// A `bool` byte other than 0 or 1.
    InvalidBool(u8),
    /// A `char` that is not one well-formed UTF-8 scalar value; holds its
    /// first byte.
    InvalidChar(u32),
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// An enum tag that names no variant.
    InvalidTag {
        /// The tag read from the input.
        tag: u32,
        /// The enum's name.
        ty: &'static str,
    },
    /// Zero where a `NonZero` type was expected.
    ZeroNonZero,
    /// A length (or `usize`) that this platform's `usize` cannot hold, or a
    /// length whose elements cannot fit in the remaining input.
    LengthOverflow {
        /// The length read from the input.
        len: u64,
    },
    /// A length beyond the fixed capacity of the type being decoded (a
    /// `heapless::Vec<T, N>`, an `ArrayVec<T, N>`, an `ArrayString<N>`, ...).
    OverCapacity {
        /// The length read from the input.
        len: u64,
        /// The type's capacity (saturated at `u32::MAX`).
        capacity: usize,
    },
    /// Bytes were left over after the value ([`from_bytes`](crate::from_bytes)
    /// only).
    TrailingBytes {
        /// How many bytes were left.
        count: usize,
    },
    /// A nanosecond count of 10⁹ or more.
    InvalidNanos(u32),
    /// An instant or date-time that the type being decoded cannot
    /// represent: outside the range of chrono, time, jiff or the platform's
    /// `SystemTime`, or a Go time whose seconds do not fit an `i64` count
    /// of Unix seconds.
    TimestampOutOfRange {
        /// The seconds read from the input: since the Unix epoch, or for a
        /// [`GoTime`](crate::time::GoTime) since January 1 of year 1.
        secs: i64,
    },
    /// A date outside the range of the type being decoded.
    DateOutOfRange {
        /// The days since 1970-01-01 read from the input.
        days: i32,
    },
    /// A time of day of 24 hours or more.
    InvalidTimeOfDay {
        /// The nanoseconds since midnight read from the input.
        nanos: u64,
    },
    /// A UTC offset that the type being decoded cannot carry.
    InvalidUtcOffset {
        /// The offset read from the input, in seconds east of UTC.
        secs: i32,
    },
    /// A Go `time.Time` encoding whose version byte is neither 1 nor 2.
    UnknownGoTimeVersion(u8),
    /// Signed nanoseconds of 10⁹ or more in magnitude, or whose sign
    /// differs from that of the seconds before them.
    InvalidSignedNanos(i32),
    /// Data written under another type's
    /// [`FINGERPRINT`](crate::Marshal::FINGERPRINT) (see
    /// [`fingerprint`](crate::fingerprint)).
    FingerprintMismatch {
        /// The fingerprint found in the input.
        found: u64,
    },
    /// Collections and boxes nested more deeply than the reader allows
    /// (see [`Reader::with_max_depth`](crate::Reader::with_max_depth)).
    TooDeep {
        /// The limit that was exceeded.
        limit: u32,
    },
    /// Decoding would have asked the allocator for more bytes than the
    /// reader's budget allows (see
    /// [`Reader::with_max_alloc`](crate::Reader::with_max_alloc)). The
    /// offset is where the contents needing the memory start: just past a
    /// collection's or string's length prefix, a map's entry, or a boxed
    /// value.
    AllocLimit {
        /// The budget, in bytes.
        limit: usize,
    },
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
    },
    /// An error raised by a `with` module or a manual implementation.
    Custom(&'static str),
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
        match self.repr {
            Repr::UnexpectedEnd { needed } => DecodeErrorKind::UnexpectedEnd { needed },
            Repr::InvalidBool(b) => DecodeErrorKind::InvalidBool(b),
            Repr::InvalidChar(c) => DecodeErrorKind::InvalidChar(c),
            Repr::InvalidUtf8 => DecodeErrorKind::InvalidUtf8,
            Repr::InvalidTag { tag, ty } => DecodeErrorKind::InvalidTag { tag, ty },
            Repr::ZeroNonZero => DecodeErrorKind::ZeroNonZero,
            Repr::LengthOverflow { len } | Repr::LengthOverflowInBody { len } => {
                DecodeErrorKind::LengthOverflow { len }
            }
            Repr::OverCapacity { len, capacity } => DecodeErrorKind::OverCapacity {
                len,
                capacity: capacity as usize,
            },
            Repr::TrailingBytes { count } => DecodeErrorKind::TrailingBytes { count },
            Repr::InvalidNanos(n) => DecodeErrorKind::InvalidNanos(n),
            Repr::TimestampOutOfRange { secs } => DecodeErrorKind::TimestampOutOfRange { secs },
            Repr::DateOutOfRange { days } => DecodeErrorKind::DateOutOfRange { days },
            Repr::InvalidTimeOfDay { nanos } => DecodeErrorKind::InvalidTimeOfDay { nanos },
            Repr::InvalidUtcOffset { secs } => DecodeErrorKind::InvalidUtcOffset { secs },
            Repr::UnknownGoTimeVersion(v) => DecodeErrorKind::UnknownGoTimeVersion(v),
            Repr::InvalidSignedNanos(n) => DecodeErrorKind::InvalidSignedNanos(n),
            Repr::FingerprintMismatch { found } => DecodeErrorKind::FingerprintMismatch { found },
            Repr::TooDeep { limit } => DecodeErrorKind::TooDeep { limit },
            Repr::AllocLimit { limit } => DecodeErrorKind::AllocLimit { limit },
            Repr::BodyOverrun { needed } => DecodeErrorKind::BodyOverrun { needed },
            Repr::Custom(msg) => DecodeErrorKind::Custom(msg),
        }
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
        match self.repr {
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

    #[cold]
    pub(crate) const fn unexpected_end(offset: usize, needed: usize) -> Self {
        Self::new(Repr::UnexpectedEnd { needed }, offset)
    }

    #[cold]
    pub(crate) const fn invalid_bool(byte: u8, offset: usize) -> Self {
        Self::new(Repr::InvalidBool(byte), offset)
    }

    #[cold]
    pub(crate) const fn invalid_char(first: u32, offset: usize) -> Self {
        Self::new(Repr::InvalidChar(first), offset)
    }

    #[cold]
    pub(crate) const fn invalid_utf8(offset: usize) -> Self {
        Self::new(Repr::InvalidUtf8, offset)
    }

    #[cold]
    pub(crate) const fn zero_non_zero(offset: usize) -> Self {
        Self::new(Repr::ZeroNonZero, offset)
    }

    #[cold]
    pub(crate) const fn length_overflow(len: u64, offset: usize) -> Self {
        Self::new(Repr::LengthOverflow { len }, offset)
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

    #[cold]
    pub(crate) const fn trailing_bytes(count: usize, offset: usize) -> Self {
        Self::new(Repr::TrailingBytes { count }, offset)
    }

    #[cold]
    pub(crate) const fn too_deep(limit: u32, offset: usize) -> Self {
        Self::new(Repr::TooDeep { limit }, offset)
    }

    #[cold]
    pub(crate) const fn alloc_limit(limit: usize, offset: usize) -> Self {
        Self::new(Repr::AllocLimit { limit }, offset)
    }

    /// This error, raised inside an extensible body, as what it is there:
    /// an [`UnexpectedEnd`](DecodeErrorKind::UnexpectedEnd) is the body's
    /// end cutting a read, a [`BodyOverrun`](DecodeErrorKind::BodyOverrun),
    /// and a [`LengthOverflow`](DecodeErrorKind::LengthOverflow) is one
    /// that more input cannot mend; any other error as it is.
    #[cold]
    pub(crate) const fn past_body(self) -> Self {
        match self.repr {
            Repr::UnexpectedEnd { needed } => Self::new(Repr::BodyOverrun { needed }, self.offset),
            Repr::LengthOverflow { len } => {
                Self::new(Repr::LengthOverflowInBody { len }, self.offset)
            }
            _ => self,
        }
    }

    #[cold]
    pub(crate) const fn fingerprint_mismatch(found: u64, offset: usize) -> Self {
        Self::new(Repr::FingerprintMismatch { found }, offset)
    }

    #[cold]
    pub(crate) const fn invalid_nanos(nanos: u32, offset: usize) -> Self {
        Self::new(Repr::InvalidNanos(nanos), offset)
    }

    #[cold]
    pub(crate) const fn timestamp_out_of_range(secs: i64, offset: usize) -> Self {
        Self::new(Repr::TimestampOutOfRange { secs }, offset)
    }

    #[cold]
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    pub(crate) const fn date_out_of_range(days: i32, offset: usize) -> Self {
        Self::new(Repr::DateOutOfRange { days }, offset)
    }

    #[cold]
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    pub(crate) const fn invalid_time_of_day(nanos: u64, offset: usize) -> Self {
        Self::new(Repr::InvalidTimeOfDay { nanos }, offset)
    }

    #[cold]
    pub(crate) const fn invalid_utc_offset(secs: i32, offset: usize) -> Self {
        Self::new(Repr::InvalidUtcOffset { secs }, offset)
    }

    #[cold]
    pub(crate) const fn unknown_go_time_version(version: u8, offset: usize) -> Self {
        Self::new(Repr::UnknownGoTimeVersion(version), offset)
    }

    #[cold]
    #[cfg_attr(not(feature = "jiff"), allow(dead_code))]
    pub(crate) const fn invalid_signed_nanos(nanos: i32, offset: usize) -> Self {
        Self::new(Repr::InvalidSignedNanos(nanos), offset)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            DecodeErrorKind::UnexpectedEnd { needed } => {
                write!(f, "unexpected end of input: {needed} more bytes needed")?;
            }
            DecodeErrorKind::InvalidBool(b) => {
                write!(f, "invalid bool byte {b:#04x} (expected 0 or 1)")?;
            }
            DecodeErrorKind::InvalidChar(c) => {
                write!(f, "invalid UTF-8 char starting with byte {c:#04x}")?;
            }
            DecodeErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8 in string")?,
            DecodeErrorKind::InvalidTag { tag, ty } => {
                write!(f, "invalid tag {tag} for enum {ty}")?
            }
            DecodeErrorKind::ZeroNonZero => f.write_str("zero for a NonZero type")?,
            DecodeErrorKind::LengthOverflow { len } => {
                let within = match self.repr {
                    Repr::LengthOverflowInBody { .. } => "its extensible body",
                    _ => "the remaining input",
                };
                write!(f, "length {len} exceeds what {within} can hold")?;
            }
            DecodeErrorKind::OverCapacity { len, capacity } => {
                write!(f, "length {len} exceeds the type's capacity of {capacity}")?;
            }
            DecodeErrorKind::TrailingBytes { count } => {
                write!(f, "{count} trailing bytes after the value")?;
            }
            DecodeErrorKind::InvalidNanos(n) => {
                write!(f, "nanoseconds {n} out of range (must be below 1000000000)")?;
            }
            DecodeErrorKind::TimestampOutOfRange { secs } => {
                write!(f, "instant at {secs} seconds out of range for the type")?;
            }
            DecodeErrorKind::DateOutOfRange { days } => {
                write!(
                    f,
                    "date {days} days from 1970-01-01 out of range for the type"
                )?;
            }
            DecodeErrorKind::InvalidTimeOfDay { nanos } => write!(
                f,
                "time of day {nanos} ns after midnight out of range (must be below 86400000000000)"
            )?,
            DecodeErrorKind::InvalidUtcOffset { secs } => {
                write!(f, "UTC offset of {secs} seconds out of range for the type")?;
            }
            DecodeErrorKind::UnknownGoTimeVersion(v) => {
                write!(f, "unknown Go time encoding version {v} (expected 1 or 2)")?;
            }
            DecodeErrorKind::InvalidSignedNanos(n) => write!(
                f,
                "signed nanoseconds {n} out of range (must be below 1000000000 in magnitude, \
                 with the sign of the seconds)"
            )?,
            DecodeErrorKind::FingerprintMismatch { found } => write!(
                f,
                "fingerprint mismatch: the data carries fingerprint {found:#018x}, which is \
                 not the expected type's, so it was written in another wire format"
            )?,
            DecodeErrorKind::TooDeep { limit } => write!(
                f,
                "collections and boxes nested more than {limit} levels deep, a level of a \
                 large value counting as several (raise the limit with Reader::with_max_depth)"
            )?,
            DecodeErrorKind::AllocLimit { limit } => write!(
                f,
                "decoding needs more than the allocation budget of {limit} bytes (raise it \
                 with Reader::with_max_alloc)"
            )?,
            DecodeErrorKind::BodyOverrun { needed } => write!(
                f,
                "a field runs {needed} bytes past the end of its extensible body (the body's \
                 length prefix cuts it)"
            )?,
            DecodeErrorKind::Custom(msg) => f.write_str(msg)?,
        }
        write!(f, " at byte {}", self.offset)
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("kind", &self.kind())
            .field("offset", &self.offset)
            .finish()
    }
}

impl core::error::Error for DecodeError {}
