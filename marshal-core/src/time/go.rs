//! [`GoTime`]: the bytes of Go's `time.Time.MarshalBinary`.

use super::{TimeError, Timestamp};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// Seconds from Go's internal epoch, January 1 of year 1 (UTC), to the Unix
/// epoch.
const UNIX_TO_GO: i64 = 62_135_596_800;

/// Go's minutes field for its UTC location.
const UTC_MINUTES: i16 = -1;

/// An instant and a zone, encoded exactly as Go's `time.Time.MarshalBinary`
/// encodes them and read as Go's `UnmarshalBinary` reads them, so Rust and Go
/// services can exchange timestamps.
///
/// The zone is Go's UTC location (`None`) or a fixed zone some seconds east
/// of UTC (`Some(seconds)`); that is all Go's format carries of a
/// `*time.Location`. [`GoTime::new`] rejects what the format cannot carry,
/// so every `GoTime` encodes.
///
/// Wire format, big-endian as in Go (15 bytes, or 16 for version 2):
///
/// | bytes | field |
/// | --- | --- |
/// | 1 | version: 1, or 2 when the offset is not a whole number of minutes |
/// | 8 | `i64` seconds since January 1 of year 1 UTC: the Unix seconds plus 62,135,596,800 |
/// | 4 | nanoseconds, below 10⁹ |
/// | 2 | `i16` offset in whole minutes east of UTC (rounded toward zero); −1 means UTC |
/// | 1 | version 2 only: the remaining `i8` seconds of the offset |
///
/// Decoding accepts both versions and reads the seconds byte as signed.
/// (Go's own decoder reads it as unsigned, so Go misreads the negative
/// offsets with seconds that Go's encoder writes, such as New York's local
/// mean time, −4:56:02; this type reads them correctly.)
///
/// ```
/// use marshal::time::GoTime;
/// use marshal::Marshal;
///
/// // time.Date(2024, 2, 29, 9, 0, 0, 0, time.FixedZone("JST", 9*3600)).MarshalBinary()
/// let t = GoTime::new(1_709_164_800, 0, Some(9 * 3600))?;
/// assert_eq!(
///     marshal::to_vec(&t),
///     [0x01, 0, 0, 0, 0x0e, 0xdd, 0x71, 0xc0, 0, 0, 0, 0, 0, 0x02, 0x1c],
/// );
/// assert_eq!((GoTime::FIXED_LEN, GoTime::MAX_LEN), (None, Some(16)));
/// assert_eq!(marshal::from_bytes::<GoTime>(&marshal::to_vec(&t))?, t);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GoTime {
    at: Timestamp,
    offset: Option<i32>,
}

impl GoTime {
    /// Go's zero `time.Time{}`: January 1 of year 1, 00:00:00 UTC.
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// assert_eq!(GoTime::ZERO.unix_secs(), -62_135_596_800);
    /// assert_eq!(marshal::to_vec(&GoTime::ZERO), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]);
    /// ```
    pub const ZERO: GoTime = GoTime {
        at: Timestamp::from_unix_secs(-UNIX_TO_GO),
        offset: None,
    };

    /// The largest Unix second Go's format holds: Go counts seconds from
    /// year 1 in an `i64`.
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// assert!(GoTime::new(GoTime::MAX_UNIX_SECS, 999_999_999, None).is_ok());
    /// assert!(GoTime::new(GoTime::MAX_UNIX_SECS + 1, 0, None).is_err());
    /// ```
    pub const MAX_UNIX_SECS: i64 = i64::MAX - UNIX_TO_GO;

    /// An instant `nanos` nanoseconds after second `unix_secs` of the Unix
    /// epoch, in Go's UTC location (`offset: None`) or in a fixed zone
    /// `offset` seconds east of UTC.
    ///
    /// Fails, as Go's `MarshalBinary` would, with
    /// - [`TimeError::InvalidNanos`] when `nanos` is 10⁹ or more;
    /// - [`TimeError::OutOfRange`] when `unix_secs` is above
    ///   [`MAX_UNIX_SECS`](GoTime::MAX_UNIX_SECS);
    /// - [`TimeError::InvalidOffset`] when the offset's whole-minute part
    ///   (rounded toward zero) is −1, which Go reserves for UTC, that is
    ///   offsets from −119 to −60 seconds, or is outside an `i16`
    ///   (beyond −1,966,139 to 1,966,079 seconds).
    ///
    /// ```
    /// use marshal::time::{GoTime, TimeError};
    ///
    /// let lmt = GoTime::new(-2_717_650_801, 0, Some(-17_762))?; // New York, 1883
    /// assert_eq!(lmt.offset(), Some(-17_762));
    /// assert_eq!(GoTime::new(0, 0, Some(-90)), Err(TimeError::InvalidOffset(-90)));
    /// assert!(GoTime::new(0, 0, Some(-59)).is_ok());
    /// # Ok::<(), TimeError>(())
    /// ```
    pub const fn new(unix_secs: i64, nanos: u32, offset: Option<i32>) -> Result<GoTime, TimeError> {
        match Timestamp::new(unix_secs, nanos) {
            Ok(at) => GoTime::from_timestamp(at, offset),
            Err(e) => Err(e),
        }
    }

    /// The instant `at` in the given zone; see [`GoTime::new`].
    ///
    /// ```
    /// use marshal::time::{GoTime, Timestamp};
    /// let t = GoTime::from_timestamp(Timestamp::new(1, 2)?, Some(3600))?;
    /// assert_eq!((t.unix_secs(), t.nanos(), t.offset()), (1, 2, Some(3600)));
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    pub const fn from_timestamp(at: Timestamp, offset: Option<i32>) -> Result<GoTime, TimeError> {
        if at.unix_secs() > GoTime::MAX_UNIX_SECS {
            return Err(TimeError::OutOfRange);
        }
        if let Some(secs) = offset {
            if !offset_fits(secs) {
                return Err(TimeError::InvalidOffset(secs));
            }
        }
        Ok(GoTime { at, offset })
    }

    /// Whole seconds since the Unix epoch, rounded down.
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// assert_eq!(GoTime::new(-5, 1, None)?.unix_secs(), -5);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn unix_secs(self) -> i64 {
        self.at.unix_secs()
    }

    /// Nanoseconds after [`unix_secs`](GoTime::unix_secs), in [0, 10⁹).
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// assert_eq!(GoTime::new(-5, 1, None)?.nanos(), 1);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn nanos(self) -> u32 {
        self.at.nanos()
    }

    /// `None` for Go's UTC location; otherwise the fixed zone's offset in
    /// seconds east of UTC. `Some(0)` is a zone at offset zero that is not
    /// UTC, such as `time.FixedZone("GMT", 0)`.
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// assert_eq!(GoTime::new(0, 0, None)?.offset(), None);
    /// assert_eq!(GoTime::new(0, 0, Some(0))?.offset(), Some(0));
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn offset(self) -> Option<i32> {
        self.offset
    }

    /// The instant, without the zone.
    ///
    /// ```
    /// use marshal::time::{GoTime, Timestamp};
    /// assert_eq!(GoTime::new(7, 8, Some(3600))?.timestamp(), Timestamp::new(7, 8)?);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn timestamp(self) -> Timestamp {
        self.at
    }

    /// The version byte Go writes: 2 when the offset is not a whole number
    /// of minutes (the encoding is then 16 bytes), else 1 (15 bytes).
    ///
    /// ```
    /// use marshal::time::GoTime;
    /// use marshal::Marshal;
    /// let lmt = GoTime::new(0, 0, Some(19 * 60 + 32))?; // Amsterdam's local mean time
    /// assert_eq!((lmt.version(), lmt.encoded_len()), (2, 16));
    /// assert_eq!(GoTime::new(0, 0, None)?.version(), 1);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn version(self) -> u8 {
        match self.offset {
            Some(secs) if secs % 60 != 0 => 2,
            _ => 1,
        }
    }

    /// A `GoTime` from parts known to be in range.
    #[cfg_attr(
        not(any(feature = "chrono", feature = "time", feature = "jiff")),
        allow(dead_code)
    )]
    pub(crate) const fn utc_in_range(at: Timestamp) -> GoTime {
        debug_assert!(at.unix_secs() <= GoTime::MAX_UNIX_SECS);
        GoTime { at, offset: None }
    }
}

/// Whether Go's format carries a fixed zone `secs` east of UTC: its whole
/// minutes, rounded toward zero, fit an `i16` and are not −1 (UTC).
const fn offset_fits(secs: i32) -> bool {
    let minutes = secs / 60;
    minutes != UTC_MINUTES as i32 && minutes >= i16::MIN as i32 && minutes <= i16::MAX as i32
}

/// The instant in Go's UTC location. Fails with
/// [`TimeError::OutOfRange`] above [`GoTime::MAX_UNIX_SECS`].
///
/// ```
/// use marshal::time::{GoTime, Timestamp};
/// let t = GoTime::try_from(Timestamp::new(1, 2)?)?;
/// assert_eq!(t.offset(), None);
/// assert!(GoTime::try_from(Timestamp::MAX).is_err());
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for GoTime {
    type Error = TimeError;

    fn try_from(at: Timestamp) -> Result<GoTime, TimeError> {
        GoTime::from_timestamp(at, None)
    }
}

/// The instant, without the zone.
///
/// ```
/// use marshal::time::{GoTime, Timestamp};
/// assert_eq!(Timestamp::from(GoTime::ZERO).unix_secs(), -62_135_596_800);
/// ```
impl From<GoTime> for Timestamp {
    fn from(t: GoTime) -> Timestamp {
        t.timestamp()
    }
}

/// Go's `MarshalBinary` bytes: 15, or 16 when the offset has seconds.
impl Marshal for GoTime {
    const MAX_LEN: Option<usize> = Some(16);
    const FINGERPRINT: u64 = crate::fingerprint::leaf("go_time");

    #[inline]
    fn encoded_len(&self) -> usize {
        if self.version() == 2 { 16 } else { 15 }
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let (minutes, seconds) = match self.offset {
            None => (UTC_MINUTES, 0),
            // `new` checked that the minutes fit an `i16`; the remainder is
            // within ±59.
            Some(secs) => ((secs / 60) as i16, (secs % 60) as i8),
        };
        let mut bytes = [0u8; 16];
        bytes[0] = self.version();
        // `new` checked that this does not overflow.
        bytes[1..9].copy_from_slice(&(self.at.unix_secs() + UNIX_TO_GO).to_be_bytes());
        bytes[9..13].copy_from_slice(&self.at.nanos().to_be_bytes());
        bytes[13..15].copy_from_slice(&minutes.to_be_bytes());
        bytes[15] = seconds.to_be_bytes()[0];
        w.put_slice(&bytes[..self.encoded_len()])
    }
}

/// Reads both versions, with the seconds byte of version 2 as signed.
/// Rejects an unknown version
/// ([`UnknownGoTimeVersion`](crate::DecodeErrorKind::UnknownGoTimeVersion)),
/// nanoseconds of 10⁹ or more
/// ([`InvalidNanos`](crate::DecodeErrorKind::InvalidNanos)), seconds
/// beyond an `i64` of Unix seconds
/// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)),
/// and an offset [`GoTime::new`] rejects
/// ([`InvalidUtcOffset`](crate::DecodeErrorKind::InvalidUtcOffset)). A
/// minutes field of −1 with no seconds is UTC, as in Go.
///
/// ```
/// use marshal::time::GoTime;
/// use marshal::{DecodeErrorKind, Unmarshal};
///
/// // Go writes New York's local mean time, -4:56:02, as -296 minutes and -2 seconds.
/// let go = [2, 0, 0, 0, 0x0d, 0xd5, 0x95, 0xe7, 0x8f, 0, 0, 0, 0, 0xfe, 0xd8, 0xfe];
/// let (t, used) = GoTime::read_from(&go)?;
/// assert_eq!((t.unix_secs(), t.offset(), used), (-2_717_650_801, Some(-17_762), 16));
///
/// let err = GoTime::read_from(&[3; 16]).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::UnknownGoTimeVersion(3));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for GoTime {
    const MIN_LEN: usize = 15;

    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let version = r.take_u8()?;
        if version != 1 && version != 2 {
            return Err(DecodeError::unknown_go_time_version(version, at));
        }
        let [s0, s1, s2, s3, s4, s5, s6, s7, n0, n1, n2, n3, m0, m1] = r.take_array::<14>()?;
        let seconds = if version == 2 {
            i8::from_be_bytes([r.take_u8()?])
        } else {
            0
        };
        let go_secs = i64::from_be_bytes([s0, s1, s2, s3, s4, s5, s6, s7]);
        let nanos = u32::from_be_bytes([n0, n1, n2, n3]);
        let minutes = i16::from_be_bytes([m0, m1]);
        let Some(unix_secs) = go_secs.checked_sub(UNIX_TO_GO) else {
            return Err(DecodeError::timestamp_out_of_range(go_secs, at + 1));
        };
        let instant = Timestamp::new(unix_secs, nanos)
            .map_err(|_| DecodeError::invalid_nanos(nanos, at + 9))?;
        let offset = if minutes == UTC_MINUTES && seconds == 0 {
            None
        } else {
            let secs = i32::from(minutes) * 60 + i32::from(seconds);
            if !offset_fits(secs) {
                return Err(DecodeError::invalid_utc_offset(secs, at + 13));
            }
            Some(secs)
        };
        Ok(GoTime {
            at: instant,
            offset,
        })
    }
}
