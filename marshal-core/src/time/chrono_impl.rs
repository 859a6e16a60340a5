//! chrono's date and time types (feature `chrono`).
//!
//! chrono can represent a leap second (a nanosecond field of 10⁹ or more,
//! shown as second 60). No other type here can, so a leap second is written
//! as the second after it: 23:59:60.5 as 00:00:00.5 of the next day, as
//! chrono's own conversion to `SystemTime` does. That is the one case where
//! a value does not read back as itself.

use ::chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike, Utc,
};

use super::civil::{
    self, DATE_FINGERPRINT, OFFSET_INSTANT_FINGERPRINT, OffsetInstantError,
    TIME_OF_DAY_FINGERPRINT, TimeOfDay, UNIX_EPOCH_DAYS_FROM_CE,
};
use super::{GoTime, INSTANT_FINGERPRINT, TimeError, Timestamp};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// The instant of `dt`, a leap second carried into the next second.
fn instant<Tz: TimeZone>(dt: &DateTime<Tz>) -> Timestamp {
    // chrono's range is ±262,143 years, far from the ends of an `i64`.
    Timestamp::carrying(dt.timestamp(), dt.timestamp_subsec_nanos())
}

fn utc(at: Timestamp) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(at.unix_secs(), at.nanos())
}

/// `at` with `offset` seconds east of UTC, if chrono can hold both the
/// offset and the local date-time they make.
fn fixed(at: Timestamp, offset: i32) -> Result<DateTime<FixedOffset>, OffsetInstantError> {
    let offset = FixedOffset::east_opt(offset).ok_or(OffsetInstantError::Offset)?;
    let at = utc(at).ok_or(OffsetInstantError::Instant)?;
    at.naive_utc()
        .checked_add_offset(offset)
        .ok_or(OffsetInstantError::Instant)?;
    Ok(at.with_timezone(&offset))
}

/// The instant, whatever the zone; a leap second becomes the second after
/// it.
///
/// ```
/// use chrono::{DateTime, FixedOffset};
/// use marshal::time::Timestamp;
///
/// let dt = DateTime::parse_from_rfc3339("1969-12-31T23:00:00-01:00").unwrap();
/// assert_eq!(Timestamp::from(dt), Timestamp::UNIX_EPOCH);
/// ```
impl<Tz: TimeZone> From<DateTime<Tz>> for Timestamp {
    fn from(dt: DateTime<Tz>) -> Timestamp {
        instant(&dt)
    }
}

/// The same instant. Fails with [`TimeError::OutOfRange`] outside chrono's
/// range (±262,143 years).
///
/// ```
/// use chrono::{DateTime, Utc};
/// use marshal::time::Timestamp;
///
/// let dt = DateTime::<Utc>::try_from(Timestamp::new(1_700_000_000, 5)?)?;
/// assert_eq!(dt.to_string(), "2023-11-14 22:13:20.000000005 UTC");
/// assert!(DateTime::<Utc>::try_from(Timestamp::MAX).is_err());
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for DateTime<Utc> {
    type Error = TimeError;

    fn try_from(at: Timestamp) -> Result<DateTime<Utc>, TimeError> {
        utc(at).ok_or(TimeError::OutOfRange)
    }
}

/// Go's UTC location.
///
/// ```
/// use chrono::DateTime;
/// use marshal::time::GoTime;
///
/// let go = GoTime::from(DateTime::from_timestamp(1_700_000_000, 0).unwrap());
/// assert_eq!((go.unix_secs(), go.offset()), (1_700_000_000, None));
/// ```
impl From<DateTime<Utc>> for GoTime {
    fn from(dt: DateTime<Utc>) -> GoTime {
        // chrono's range lies well within Go's.
        GoTime::utc_in_range(instant(&dt))
    }
}

/// A fixed zone at the same offset. Fails with
/// [`TimeError::InvalidOffset`] for an offset from −119 to −60 seconds,
/// which Go's format cannot carry.
///
/// ```
/// use chrono::DateTime;
/// use marshal::time::GoTime;
///
/// let dt = DateTime::parse_from_rfc3339("2024-01-15T08:30:00-05:00").unwrap();
/// let go = GoTime::try_from(dt)?;
/// assert_eq!((go.unix_secs(), go.offset()), (1_705_325_400, Some(-5 * 3600)));
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<DateTime<FixedOffset>> for GoTime {
    type Error = TimeError;

    fn try_from(dt: DateTime<FixedOffset>) -> Result<GoTime, TimeError> {
        GoTime::from_timestamp(instant(&dt), Some(dt.offset().local_minus_utc()))
    }
}

/// The instant at the Go zone's offset, +00:00 for Go's UTC. Fails with
/// [`TimeError::InvalidOffset`] for an offset of a day or more, and with
/// [`TimeError::OutOfRange`] outside chrono's range.
///
/// ```
/// use chrono::{DateTime, FixedOffset};
/// use marshal::time::GoTime;
///
/// let dt = DateTime::<FixedOffset>::try_from(GoTime::new(0, 0, Some(19 * 60 + 32))?)?;
/// assert_eq!(dt.to_string(), "1970-01-01 00:19:32 +00:19:32");
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<GoTime> for DateTime<FixedOffset> {
    type Error = TimeError;

    fn try_from(go: GoTime) -> Result<DateTime<FixedOffset>, TimeError> {
        let offset = go.offset().unwrap_or(0);
        fixed(go.timestamp(), offset).map_err(|e| e.into_time_error(offset))
    }
}

fn encode_utc(dt: &DateTime<Utc>, w: &mut Writer<'_>) -> Result<(), Overflow> {
    instant(dt).encode_to(w)
}

fn decode_utc(r: &mut Reader<'_>) -> Result<DateTime<Utc>, DecodeError> {
    civil::decode_instant(r, utc)
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`]. Decoding rejects instants outside
    /// chrono's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use chrono::{DateTime, Utc};
    /// use marshal::Marshal;
    ///
    /// let dt = DateTime::from_timestamp(1, 5).unwrap();
    /// assert_eq!(marshal::to_vec(&dt), [1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<DateTime<Utc>>(&marshal::to_vec(&dt))?, dt);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    DateTime<Utc>,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_utc,
    decode_utc,
);

fn encode_fixed(dt: &DateTime<FixedOffset>, w: &mut Writer<'_>) -> Result<(), Overflow> {
    civil::encode_offset_instant(instant(dt), dt.offset().local_minus_utc(), w)
}

fn decode_fixed(r: &mut Reader<'_>) -> Result<DateTime<FixedOffset>, DecodeError> {
    civil::decode_offset_instant(r, fixed)
}

super::fixed_size!(
    /// 16 bytes: the instant as [`Timestamp`], then the offset in seconds
    /// east of UTC as an `i32`. Decoding rejects offsets of a day or more
    /// ([`InvalidUtcOffset`](crate::DecodeErrorKind::InvalidUtcOffset)) and
    /// instants whose UTC or local date-time is outside chrono's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use chrono::{DateTime, FixedOffset};
    /// use marshal::Marshal;
    ///
    /// let dt = DateTime::parse_from_rfc3339("1970-01-01T01:00:00+01:00").unwrap();
    /// assert_eq!(DateTime::<FixedOffset>::FIXED_LEN, Some(16));
    /// assert_eq!(marshal::to_vec(&dt), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x0e, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<DateTime<FixedOffset>>(&marshal::to_vec(&dt))?, dt);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    DateTime<FixedOffset>,
    len: 16,
    fingerprint: OFFSET_INSTANT_FINGERPRINT,
    encode_fixed,
    decode_fixed,
);

fn encode_naive_date_time(dt: &NaiveDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    instant(&dt.and_utc()).encode_to(w)
}

fn decode_naive_date_time(r: &mut Reader<'_>) -> Result<NaiveDateTime, DecodeError> {
    civil::decode_instant(r, |at| utc(at).map(|dt| dt.naive_utc()))
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`] of the same date-time in UTC. Decoding
    /// rejects date-times outside chrono's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use marshal::Marshal;
    ///
    /// let dt = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap().and_hms_opt(0, 0, 1).unwrap();
    /// assert_eq!(marshal::to_vec(&dt), [0x81, 0x51, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    NaiveDateTime,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_naive_date_time,
    decode_naive_date_time,
);

fn encode_naive_date(d: &NaiveDate, w: &mut Writer<'_>) -> Result<(), Overflow> {
    // chrono's day numbers span ±96 million, far inside an `i32`.
    civil::encode_date(d.num_days_from_ce() - UNIX_EPOCH_DAYS_FROM_CE, w)
}

fn decode_naive_date(r: &mut Reader<'_>) -> Result<NaiveDate, DecodeError> {
    civil::decode_date(r, |days| {
        days.checked_add(UNIX_EPOCH_DAYS_FROM_CE)
            .and_then(NaiveDate::from_num_days_from_ce_opt)
    })
}

super::fixed_size!(
    /// 4 bytes: days since 1970-01-01 as an `i32`. Decoding rejects dates
    /// outside chrono's range
    /// ([`DateOutOfRange`](crate::DecodeErrorKind::DateOutOfRange)).
    ///
    /// ```
    /// use chrono::NaiveDate;
    /// use marshal::Marshal;
    ///
    /// let d = NaiveDate::from_ymd_opt(1969, 12, 31).unwrap();
    /// assert_eq!(marshal::to_vec(&d), [0xff, 0xff, 0xff, 0xff]);
    /// assert_eq!(marshal::from_bytes::<NaiveDate>(&[0xff; 4])?, d);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    NaiveDate,
    len: 4,
    fingerprint: DATE_FINGERPRINT,
    encode_naive_date,
    decode_naive_date,
);

fn encode_naive_time(t: &NaiveTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    let fields = TimeOfDay {
        // chrono keeps these in range; a leap second shows as second 59
        // with 10⁹ or more nanoseconds, which the encoder carries.
        hour: t.hour() as u8,
        minute: t.minute() as u8,
        second: t.second() as u8,
        nanos: t.nanosecond(),
    };
    civil::encode_time_of_day(fields, w)
}

fn decode_naive_time(r: &mut Reader<'_>) -> Result<NaiveTime, DecodeError> {
    civil::decode_time_of_day(r, |t| {
        NaiveTime::from_hms_nano_opt(
            u32::from(t.hour),
            u32::from(t.minute),
            u32::from(t.second),
            t.nanos,
        )
    })
}

super::fixed_size!(
    /// 8 bytes: nanoseconds since midnight as a `u64`. A leap second is
    /// written as the second after it (23:59:60.5 as 00:00:00.5). Decoding
    /// rejects a day or more
    /// ([`InvalidTimeOfDay`](crate::DecodeErrorKind::InvalidTimeOfDay)).
    ///
    /// ```
    /// use chrono::NaiveTime;
    /// use marshal::Marshal;
    ///
    /// let t = NaiveTime::from_hms_nano_opt(0, 0, 1, 5).unwrap();
    /// assert_eq!(marshal::to_vec(&t), [5, 0xca, 0x9a, 0x3b, 0, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<NaiveTime>(&marshal::to_vec(&t))?, t);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    NaiveTime,
    len: 8,
    fingerprint: TIME_OF_DAY_FINGERPRINT,
    encode_naive_time,
    decode_naive_time,
);
