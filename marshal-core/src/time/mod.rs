//! Timestamps, each encoded in place as a few bytes.
//!
//! The types: [`Timestamp`], this crate's own `no_std` instant; [`GoTime`],
//! byte-compatible with Go's `time.Time.MarshalBinary`; `SystemTime`
//! (feature `std`); and, with the `chrono`, `time` and `jiff` features,
//! those crates' date and time types.
//!
//! Every one of them has a fixed encoded length (GoTime has a maximum), so a
//! struct full of timestamps keeps its compile-time
//! [`FIXED_LEN`](crate::Marshal::FIXED_LEN), and encoding one writes its
//! bytes in place: no allocation, no string formatting. `WIRE_FORMAT.md`
//! specifies every byte.
//!
//! | layout | bytes | types |
//! | --- | --- | --- |
//! | instant: `i64` seconds since 1970-01-01T00:00:00Z, then `u32` nanoseconds in [0, 10⁹) | 12 | [`Timestamp`], `SystemTime`, chrono `DateTime<Utc>`, `NaiveDateTime`; time `UtcDateTime`, `PrimitiveDateTime`; jiff `Timestamp`, `civil::DateTime` |
//! | instant, then the UTC offset as `i32` seconds east | 16 | chrono `DateTime<FixedOffset>`, time `OffsetDateTime` |
//! | date: `i32` days since 1970-01-01 | 4 | chrono `NaiveDate`, time `Date`, jiff `civil::Date` |
//! | time of day: `u64` nanoseconds since midnight, below 86,400 × 10⁹ | 8 | chrono `NaiveTime`, time `Time`, jiff `civil::Time` |
//! | signed duration: `i64` seconds, then `i32` nanoseconds of the same sign | 12 | jiff `SignedDuration` |
//! | Go's `MarshalBinary` (big-endian, version 1 or 2) | 15 or 16 | [`GoTime`] |
//!
//! All integers are little-endian except inside [`GoTime`], which follows
//! Go. Date-times without a zone (`NaiveDateTime`, `PrimitiveDateTime`,
//! `civil::DateTime`) are written as if they were in UTC. In the other
//! [configurations](crate::config), each layout's integers are written as
//! the configuration writes integers (an instant's seconds as a `u64` of
//! the same bits, so that a `SystemTime` from 1970 on has bincode 2's
//! bytes), and [`GoTime`] keeps Go's bytes:
//!
//! ```
//! use marshal::config;
//! use marshal::time::Timestamp;
//!
//! let t = Timestamp::new(300, 5)?;
//! assert_eq!(marshal::encode_to_vec(&t, config::standard()), [251, 44, 1, 5]);
//! # Ok::<(), marshal::time::TimeError>(())
//! ```
//!
//! ```
//! use marshal::time::{GoTime, Timestamp};
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Event {
//!     id: u32,
//!     at: Timestamp,
//! }
//!
//! assert_eq!(Event::FIXED_LEN, Some(4 + 12));
//! let event = Event { id: 7, at: Timestamp::new(1_700_000_000, 5)? };
//! let mut buf = [0u8; 16];
//! event.write_to(&mut buf);
//! assert_eq!(marshal::from_bytes::<Event>(&buf)?, event);
//!
//! // The same instant as Go's time.Unix(1700000000, 5).UTC().MarshalBinary().
//! let go = GoTime::new(1_700_000_000, 5, None)?;
//! assert_eq!(marshal::to_vec(&go), [1, 0, 0, 0, 14, 220, 229, 232, 0, 0, 0, 0, 5, 255, 255]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

#[cfg(feature = "chrono")]
mod chrono_impl;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod civil;
mod dialect;
mod go;
#[cfg(feature = "jiff")]
mod jiff_impl;
#[cfg(feature = "std")]
mod system;
#[cfg(feature = "time")]
mod time_impl;
mod timestamp;

pub use go::GoTime;
pub use timestamp::Timestamp;

/// Nanoseconds in a second: the bound every nanosecond field stays below.
pub(crate) const NANOS_PER_SEC: u32 = 1_000_000_000;

/// A value that a timestamp type cannot hold: what [`Timestamp::new`],
/// [`GoTime::new`] and the conversions between timestamp types return
/// instead of clamping.
///
/// ```
/// use marshal::time::{GoTime, TimeError, Timestamp};
///
/// assert_eq!(Timestamp::new(0, 1_000_000_000), Err(TimeError::InvalidNanos(1_000_000_000)));
/// // Go reserves a whole-minute offset of -1 for UTC.
/// assert_eq!(GoTime::new(0, 0, Some(-60)), Err(TimeError::InvalidOffset(-60)));
/// assert_eq!(TimeError::OutOfRange.to_string(), "instant out of range for the target type");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeError {
    /// Nanoseconds of 10⁹ or more.
    InvalidNanos(u32),
    /// An instant, date or time that the target type cannot represent.
    OutOfRange,
    /// A UTC offset, in seconds east of UTC, that the target type cannot
    /// carry.
    InvalidOffset(i32),
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeError::InvalidNanos(n) => {
                write!(f, "nanoseconds {n} out of range (must be below 1000000000)")
            }
            TimeError::OutOfRange => f.write_str("instant out of range for the target type"),
            TimeError::InvalidOffset(s) => {
                write!(f, "UTC offset of {s} seconds cannot be represented")
            }
        }
    }
}

impl core::error::Error for TimeError {}

/// `Marshal` and `Unmarshal` for a type whose encoding has a fixed length:
/// `$encode(&value, writer)` writes it and `$decode(reader)` reads it back.
macro_rules! fixed_size {
    ($(#[$doc:meta])* $ty:ty, len: $len:expr, fingerprint: $fp:expr, $encode:path, $decode:path $(,)?) => {
        $(#[$doc])*
        impl $crate::Marshal for $ty {
            const FIXED_LEN: Option<usize> = Some($len);
            const FINGERPRINT: u64 = $fp;

            #[inline]
            fn encoded_len(&self) -> usize {
                $len
            }

            #[inline]
            fn encode(&self, w: &mut $crate::Writer<'_>) -> Result<(), $crate::Overflow> {
                $encode(self, w)
            }
        }

        impl<'de> $crate::Unmarshal<'de> for $ty {
            const MIN_LEN: usize = $len;
            const MIN_LEN_IS_EXACT: bool = true;

            #[inline]
            fn decode(r: &mut $crate::Reader<'de>) -> Result<Self, $crate::DecodeError> {
                $decode(r)
            }
        }
    };
}
pub(crate) use fixed_size;

/// The fingerprint shared by every type with the 12-byte instant layout.
pub(crate) const INSTANT_FINGERPRINT: u64 = crate::fingerprint::leaf("timestamp");
