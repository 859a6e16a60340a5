//! The time crate's date and time types (feature `time`).

use ::time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcDateTime, UtcOffset};

use super::civil::{
    self, DATE_FINGERPRINT, OFFSET_INSTANT_FINGERPRINT, OffsetInstantError,
    TIME_OF_DAY_FINGERPRINT, TimeOfDay,
};
use super::{GoTime, INSTANT_FINGERPRINT, TimeError, Timestamp};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN_DAY: i32 = 2_440_588;

fn instant_of_utc(dt: UtcDateTime) -> Timestamp {
    // time keeps the nanoseconds below 10⁹ and the seconds far from the
    // ends of an `i64`.
    Timestamp::carrying(dt.unix_timestamp(), dt.nanosecond())
}

fn instant_of_offset(dt: OffsetDateTime) -> Timestamp {
    Timestamp::carrying(dt.unix_timestamp(), dt.nanosecond())
}

fn utc(at: Timestamp) -> Option<UtcDateTime> {
    UtcDateTime::from_unix_timestamp_nanos(at.unix_nanos()).ok()
}

/// `at` with `offset` seconds east of UTC, if time can hold both the offset
/// and the local date-time they make.
fn offset_date_time(at: Timestamp, offset: i32) -> Result<OffsetDateTime, OffsetInstantError> {
    let offset = UtcOffset::from_whole_seconds(offset).map_err(|_| OffsetInstantError::Offset)?;
    utc(at)
        .and_then(|dt| dt.checked_to_offset(offset))
        .ok_or(OffsetInstantError::Instant)
}

/// The instant, whatever the offset.
///
/// ```
/// use marshal::time::Timestamp;
/// use time::OffsetDateTime;
///
/// let dt = OffsetDateTime::from_unix_timestamp(-1)?;
/// assert_eq!(Timestamp::from(dt), Timestamp::from_unix_secs(-1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl From<OffsetDateTime> for Timestamp {
    fn from(dt: OffsetDateTime) -> Timestamp {
        instant_of_offset(dt)
    }
}

/// The same instant.
///
/// ```
/// use marshal::time::Timestamp;
/// use time::UtcDateTime;
///
/// let dt = UtcDateTime::from_unix_timestamp_nanos(1_500_000_000)?;
/// assert_eq!(Timestamp::from(dt), Timestamp::new(1, 500_000_000)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl From<UtcDateTime> for Timestamp {
    fn from(dt: UtcDateTime) -> Timestamp {
        instant_of_utc(dt)
    }
}

/// The same instant at offset +00:00. Fails with [`TimeError::OutOfRange`]
/// outside time's range (years ±9999, or ±999,999 with time's
/// `large-dates` feature).
///
/// ```
/// use marshal::time::Timestamp;
/// use time::OffsetDateTime;
///
/// assert_eq!(OffsetDateTime::try_from(Timestamp::UNIX_EPOCH)?, OffsetDateTime::UNIX_EPOCH);
/// assert!(OffsetDateTime::try_from(Timestamp::MAX).is_err());
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for OffsetDateTime {
    type Error = TimeError;

    fn try_from(at: Timestamp) -> Result<OffsetDateTime, TimeError> {
        offset_date_time(at, 0).map_err(|_| TimeError::OutOfRange)
    }
}

/// The same instant. Fails with [`TimeError::OutOfRange`] outside time's
/// range.
///
/// ```
/// use marshal::time::Timestamp;
/// use time::UtcDateTime;
///
/// assert_eq!(UtcDateTime::try_from(Timestamp::UNIX_EPOCH)?, UtcDateTime::UNIX_EPOCH);
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for UtcDateTime {
    type Error = TimeError;

    fn try_from(at: Timestamp) -> Result<UtcDateTime, TimeError> {
        utc(at).ok_or(TimeError::OutOfRange)
    }
}

/// Go's UTC location.
///
/// ```
/// use marshal::time::GoTime;
/// use time::UtcDateTime;
///
/// assert_eq!(GoTime::from(UtcDateTime::UNIX_EPOCH), GoTime::new(0, 0, None)?);
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl From<UtcDateTime> for GoTime {
    fn from(dt: UtcDateTime) -> GoTime {
        // time's range lies well within Go's.
        GoTime::utc_in_range(instant_of_utc(dt))
    }
}

/// A fixed zone at the same offset (`Some(0)` for +00:00: time has no
/// separate UTC location). Fails with [`TimeError::InvalidOffset`] for an
/// offset from −119 to −60 seconds, which Go's format cannot carry.
///
/// ```
/// use marshal::time::GoTime;
/// use time::{OffsetDateTime, UtcOffset};
///
/// let dt = OffsetDateTime::UNIX_EPOCH.to_offset(UtcOffset::from_hms(5, 30, 0)?);
/// assert_eq!(GoTime::try_from(dt)?.offset(), Some(19_800));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl TryFrom<OffsetDateTime> for GoTime {
    type Error = TimeError;

    fn try_from(dt: OffsetDateTime) -> Result<GoTime, TimeError> {
        GoTime::from_timestamp(instant_of_offset(dt), Some(dt.offset().whole_seconds()))
    }
}

/// The instant at the Go zone's offset, +00:00 for Go's UTC. Fails with
/// [`TimeError::InvalidOffset`] for an offset of 26 hours or more, and
/// with [`TimeError::OutOfRange`] outside time's range.
///
/// ```
/// use marshal::time::GoTime;
/// use time::OffsetDateTime;
///
/// let dt = OffsetDateTime::try_from(GoTime::new(0, 0, Some(-2_670))?)?;
/// assert_eq!(dt.offset().as_hms(), (0, -44, -30));
/// assert_eq!(dt.unix_timestamp(), 0);
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<GoTime> for OffsetDateTime {
    type Error = TimeError;

    fn try_from(go: GoTime) -> Result<OffsetDateTime, TimeError> {
        let offset = go.offset().unwrap_or(0);
        offset_date_time(go.timestamp(), offset).map_err(|e| e.into_time_error(offset))
    }
}

fn encode_offset(dt: &OffsetDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    civil::encode_offset_instant(instant_of_offset(*dt), dt.offset().whole_seconds(), w)
}

fn decode_offset(r: &mut Reader<'_>) -> Result<OffsetDateTime, DecodeError> {
    civil::decode_offset_instant(r, offset_date_time)
}

super::fixed_size!(
    /// 16 bytes: the instant as [`Timestamp`], then the offset in seconds
    /// east of UTC as an `i32`. Decoding rejects offsets of 26 hours or
    /// more ([`InvalidUtcOffset`](crate::DecodeErrorKind::InvalidUtcOffset))
    /// and instants whose UTC or local date-time is outside time's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use marshal::Marshal;
    /// use time::{OffsetDateTime, UtcOffset};
    ///
    /// let dt = OffsetDateTime::UNIX_EPOCH.to_offset(UtcOffset::from_whole_seconds(-3600)?);
    /// assert_eq!(marshal::to_vec(&dt), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xf0, 0xf1, 0xff, 0xff]);
    /// assert_eq!(marshal::from_bytes::<OffsetDateTime>(&marshal::to_vec(&dt))?.offset(), dt.offset());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    OffsetDateTime,
    len: 16,
    fingerprint: OFFSET_INSTANT_FINGERPRINT,
    encode_offset,
    decode_offset,
);

fn encode_utc(dt: &UtcDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    instant_of_utc(*dt).encode_to(w)
}

fn decode_utc(r: &mut Reader<'_>) -> Result<UtcDateTime, DecodeError> {
    civil::decode_instant(r, utc)
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`]. Decoding rejects instants outside time's
    /// range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use marshal::Marshal;
    /// use time::UtcDateTime;
    ///
    /// let dt = UtcDateTime::from_unix_timestamp(1)?;
    /// assert_eq!(marshal::to_vec(&dt), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<UtcDateTime>(&marshal::to_vec(&dt))?, dt);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    UtcDateTime,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_utc,
    decode_utc,
);

fn encode_primitive(dt: &PrimitiveDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    instant_of_utc(dt.as_utc()).encode_to(w)
}

fn decode_primitive(r: &mut Reader<'_>) -> Result<PrimitiveDateTime, DecodeError> {
    civil::decode_instant(r, |at| {
        utc(at).map(|dt| PrimitiveDateTime::new(dt.date(), dt.time()))
    })
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`] of the same date-time in UTC. Decoding
    /// rejects date-times outside time's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use marshal::Marshal;
    /// use time::{Date, Month, PrimitiveDateTime, Time};
    ///
    /// let dt = PrimitiveDateTime::new(Date::from_calendar_date(1970, Month::January, 2)?, Time::MIDNIGHT);
    /// assert_eq!(marshal::to_vec(&dt), [0x80, 0x51, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<PrimitiveDateTime>(&marshal::to_vec(&dt))?, dt);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    PrimitiveDateTime,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_primitive,
    decode_primitive,
);

fn encode_date(d: &Date, w: &mut Writer<'_>) -> Result<(), Overflow> {
    // Julian day numbers span at most ±366 million, far inside an `i32`.
    civil::encode_date(d.to_julian_day() - UNIX_EPOCH_JULIAN_DAY, w)
}

fn decode_date(r: &mut Reader<'_>) -> Result<Date, DecodeError> {
    civil::decode_date(r, |days| {
        days.checked_add(UNIX_EPOCH_JULIAN_DAY)
            .and_then(|jd| Date::from_julian_day(jd).ok())
    })
}

super::fixed_size!(
    /// 4 bytes: days since 1970-01-01 as an `i32`. Decoding rejects dates
    /// outside time's range
    /// ([`DateOutOfRange`](crate::DecodeErrorKind::DateOutOfRange)).
    ///
    /// ```
    /// use marshal::Marshal;
    /// use time::{Date, Month};
    ///
    /// let d = Date::from_calendar_date(2000, Month::January, 1)?;
    /// assert_eq!(marshal::to_vec(&d), 10_957i32.to_le_bytes());
    /// assert_eq!(marshal::from_bytes::<Date>(&marshal::to_vec(&d))?, d);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Date,
    len: 4,
    fingerprint: DATE_FINGERPRINT,
    encode_date,
    decode_date,
);

fn encode_time(t: &Time, w: &mut Writer<'_>) -> Result<(), Overflow> {
    let (hour, minute, second, nanos) = t.as_hms_nano();
    civil::encode_time_of_day(
        TimeOfDay {
            hour,
            minute,
            second,
            nanos,
        },
        w,
    )
}

fn decode_time(r: &mut Reader<'_>) -> Result<Time, DecodeError> {
    civil::decode_time_of_day(r, |t| {
        Time::from_hms_nano(t.hour, t.minute, t.second, t.nanos).ok()
    })
}

super::fixed_size!(
    /// 8 bytes: nanoseconds since midnight as a `u64`. Decoding rejects a
    /// day or more
    /// ([`InvalidTimeOfDay`](crate::DecodeErrorKind::InvalidTimeOfDay)).
    ///
    /// ```
    /// use marshal::Marshal;
    /// use time::Time;
    ///
    /// let t = Time::from_hms(1, 0, 0)?;
    /// assert_eq!(marshal::to_vec(&t), 3_600_000_000_000u64.to_le_bytes());
    /// assert_eq!(marshal::from_bytes::<Time>(&marshal::to_vec(&t))?, t);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Time,
    len: 8,
    fingerprint: TIME_OF_DAY_FINGERPRINT,
    encode_time,
    decode_time,
);
