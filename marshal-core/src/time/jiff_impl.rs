//! jiff's date and time types (feature `jiff`).

use ::jiff::civil::{self as jcivil, Date, DateTime, Time};
use ::jiff::tz::{Offset, TimeZone};
use ::jiff::{SignedDuration, ZonedDateTime};

use super::civil::{self, DATE_FINGERPRINT, TIME_OF_DAY_FINGERPRINT, TimeOfDay};
use super::{GoTime, INSTANT_FINGERPRINT, NANOS_PER_SEC, TimeError, Timestamp};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// 1970-01-01T00:00:00, from which civil date-times are counted.
const EPOCH_DATE_TIME: DateTime = jcivil::datetime(1970, 1, 1, 0, 0, 0, 0);
/// 1970-01-01, from which dates are counted.
const EPOCH_DATE: Date = jcivil::date(1970, 1, 1);
/// Seconds in a day.
const SECS_PER_DAY: i64 = 86_400;

fn instant(ts: ::jiff::Timestamp) -> Timestamp {
    // jiff's range is ±9,999 years, far from the ends of an `i64`.
    Timestamp::from_signed_parts(ts.as_second(), ts.subsec_nanosecond())
}

fn jiff_timestamp(at: Timestamp) -> Option<::jiff::Timestamp> {
    // The nanoseconds are below 10⁹, so they fit an `i32`.
    ::jiff::Timestamp::new(at.unix_secs(), at.nanos() as i32).ok()
}

/// A duration whose seconds are `at`'s and whose nanoseconds add to them.
fn duration(at: Timestamp) -> SignedDuration {
    // Balancing positive nanoseconds into negative seconds cannot overflow.
    SignedDuration::new(at.unix_secs(), at.nanos() as i32)
}

/// The same instant.
///
/// ```
/// use marshal::time::Timestamp;
///
/// let ts = jiff::Timestamp::new(-1, 0)?.checked_add(jiff::SignedDuration::from_millis(250))?;
/// assert_eq!(Timestamp::from(ts), Timestamp::new(-1, 250_000_000)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl From<::jiff::Timestamp> for Timestamp {
    fn from(ts: ::jiff::Timestamp) -> Timestamp {
        instant(ts)
    }
}

/// The same instant. Fails with [`TimeError::OutOfRange`] outside jiff's
/// range (about years ±9999).
///
/// ```
/// use marshal::time::Timestamp;
///
/// assert_eq!(jiff::Timestamp::try_from(Timestamp::new(-1, 5)?)?.as_nanosecond(), -999_999_995);
/// assert!(jiff::Timestamp::try_from(Timestamp::MIN).is_err());
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for ::jiff::Timestamp {
    type Error = TimeError;

    fn try_from(at: Timestamp) -> Result<::jiff::Timestamp, TimeError> {
        jiff_timestamp(at).ok_or(TimeError::OutOfRange)
    }
}

/// Go's UTC location.
///
/// ```
/// use marshal::time::GoTime;
///
/// let go = GoTime::from(jiff::Timestamp::UNIX_EPOCH);
/// assert_eq!((go.unix_secs(), go.offset()), (0, None));
/// ```
impl From<::jiff::Timestamp> for GoTime {
    fn from(ts: ::jiff::Timestamp) -> GoTime {
        // jiff's range lies well within Go's.
        GoTime::utc_in_range(instant(ts))
    }
}

/// Go's UTC location for jiff's UTC time zone (which includes a fixed zone
/// at offset zero: jiff does not tell them apart); otherwise a fixed zone
/// at the offset in force at that instant. As with Go's own
/// `MarshalBinary`, a named zone's rules are not carried, only its current
/// offset. Fails with [`TimeError::InvalidOffset`] for an offset from −119
/// to −60 seconds, which Go's format cannot carry.
///
/// ```
/// use jiff::tz::{Offset, TimeZone};
/// use jiff::ZonedDateTime;
/// use marshal::time::GoTime;
///
/// let zdt = ZonedDateTime::new(jiff::Timestamp::UNIX_EPOCH, TimeZone::fixed(Offset::from_seconds(-17_762)?));
/// assert_eq!(GoTime::try_from(&zdt)?.offset(), Some(-17_762));
/// let utc = ZonedDateTime::new(jiff::Timestamp::UNIX_EPOCH, TimeZone::UTC);
/// assert_eq!(GoTime::try_from(&utc)?.offset(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl TryFrom<&ZonedDateTime> for GoTime {
    type Error = TimeError;

    fn try_from(zdt: &ZonedDateTime) -> Result<GoTime, TimeError> {
        let offset = if *zdt.time_zone() == TimeZone::UTC {
            None
        } else {
            Some(zdt.offset().seconds())
        };
        GoTime::from_timestamp(instant(zdt.timestamp()), offset)
    }
}

/// As for `&ZonedDateTime`.
///
/// ```
/// use jiff::tz::TimeZone;
/// use jiff::ZonedDateTime;
/// use marshal::time::GoTime;
///
/// let zdt = ZonedDateTime::new(jiff::Timestamp::UNIX_EPOCH, TimeZone::UTC);
/// assert_eq!(GoTime::try_from(zdt)?, GoTime::new(0, 0, None)?);
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<ZonedDateTime> for GoTime {
    type Error = TimeError;

    fn try_from(zdt: ZonedDateTime) -> Result<GoTime, TimeError> {
        GoTime::try_from(&zdt)
    }
}

/// jiff's UTC time zone for Go's UTC, otherwise a fixed-offset time zone.
/// Fails with [`TimeError::InvalidOffset`] for an offset of 26 hours or
/// more, and with [`TimeError::OutOfRange`] outside jiff's range.
///
/// ```
/// use jiff::ZonedDateTime;
/// use marshal::time::GoTime;
///
/// let zdt = ZonedDateTime::try_from(GoTime::new(1_709_164_800, 0, Some(9 * 3600))?)?;
/// assert_eq!(zdt.to_string(), "2024-02-29T09:00:00+09:00[+09:00]");
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<GoTime> for ZonedDateTime {
    type Error = TimeError;

    fn try_from(go: GoTime) -> Result<ZonedDateTime, TimeError> {
        let zone = match go.offset() {
            None => TimeZone::UTC,
            Some(secs) => TimeZone::fixed(
                Offset::from_seconds(secs).map_err(|_| TimeError::InvalidOffset(secs))?,
            ),
        };
        let at = jiff_timestamp(go.timestamp()).ok_or(TimeError::OutOfRange)?;
        Ok(ZonedDateTime::new(at, zone))
    }
}

fn encode_timestamp(ts: &::jiff::Timestamp, w: &mut Writer<'_>) -> Result<(), Overflow> {
    instant(*ts).encode_to(w)
}

fn decode_timestamp(r: &mut Reader<'_>) -> Result<::jiff::Timestamp, DecodeError> {
    civil::decode_instant(r, jiff_timestamp)
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`]. Decoding rejects instants outside jiff's
    /// range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use marshal::Marshal;
    ///
    /// let ts = jiff::Timestamp::new(-1, 0)?;
    /// assert_eq!(marshal::to_vec(&ts), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<jiff::Timestamp>(&marshal::to_vec(&ts))?, ts);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ::jiff::Timestamp,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_timestamp,
    decode_timestamp,
);

fn encode_date_time(dt: &DateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    let since = dt.duration_since(EPOCH_DATE_TIME);
    // Within ±10,000 years of 1970, far from the ends of an `i64`.
    Timestamp::from_signed_parts(since.as_secs(), since.subsec_nanos()).encode_to(w)
}

fn decode_date_time(r: &mut Reader<'_>) -> Result<DateTime, DecodeError> {
    civil::decode_instant(r, |at| EPOCH_DATE_TIME.checked_add(duration(at)).ok())
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`] of the same date-time in UTC. Decoding
    /// rejects date-times outside jiff's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use jiff::civil::{date, DateTime};
    /// use marshal::Marshal;
    ///
    /// let dt = date(1970, 1, 2).at(0, 0, 1, 0);
    /// assert_eq!(marshal::to_vec(&dt), [0x81, 0x51, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    /// assert_eq!(marshal::from_bytes::<DateTime>(&marshal::to_vec(&dt))?, dt);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    DateTime,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode_date_time,
    decode_date_time,
);

fn encode_date(d: &Date, w: &mut Writer<'_>) -> Result<(), Overflow> {
    // Whole days, within ±3.7 million of 1970-01-01: an `i32` holds them.
    let days = d.duration_since(EPOCH_DATE).as_secs() / SECS_PER_DAY;
    civil::encode_date(days as i32, w)
}

fn decode_date(r: &mut Reader<'_>) -> Result<Date, DecodeError> {
    civil::decode_date(r, |days| {
        EPOCH_DATE
            .checked_add(SignedDuration::from_secs(i64::from(days) * SECS_PER_DAY))
            .ok()
    })
}

super::fixed_size!(
    /// 4 bytes: days since 1970-01-01 as an `i32`. Decoding rejects dates
    /// outside jiff's range
    /// ([`DateOutOfRange`](crate::DecodeErrorKind::DateOutOfRange)).
    ///
    /// ```
    /// use jiff::civil::{date, Date};
    /// use marshal::Marshal;
    ///
    /// let d = date(1969, 12, 31);
    /// assert_eq!(marshal::to_vec(&d), [0xff; 4]);
    /// assert_eq!(marshal::from_bytes::<Date>(&[0xff; 4])?, d);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    Date,
    len: 4,
    fingerprint: DATE_FINGERPRINT,
    encode_date,
    decode_date,
);

fn encode_time(t: &Time, w: &mut Writer<'_>) -> Result<(), Overflow> {
    // jiff keeps every field in range and non-negative.
    let fields = TimeOfDay {
        hour: t.hour() as u8,
        minute: t.minute() as u8,
        second: t.second() as u8,
        nanos: t.subsec_nanosecond() as u32,
    };
    civil::encode_time_of_day(fields, w)
}

fn decode_time(r: &mut Reader<'_>) -> Result<Time, DecodeError> {
    civil::decode_time_of_day(r, |t| {
        // In range, so the casts are lossless.
        Time::new(t.hour as i8, t.minute as i8, t.second as i8, t.nanos as i32).ok()
    })
}

super::fixed_size!(
    /// 8 bytes: nanoseconds since midnight as a `u64`. Decoding rejects a
    /// day or more
    /// ([`InvalidTimeOfDay`](crate::DecodeErrorKind::InvalidTimeOfDay)).
    ///
    /// ```
    /// use jiff::civil::{time, Time};
    /// use marshal::Marshal;
    ///
    /// let t = time(23, 59, 59, 999_999_999);
    /// assert_eq!(marshal::to_vec(&t), 86_399_999_999_999u64.to_le_bytes());
    /// assert_eq!(marshal::from_bytes::<Time>(&marshal::to_vec(&t))?, t);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    Time,
    len: 8,
    fingerprint: TIME_OF_DAY_FINGERPRINT,
    encode_time,
    decode_time,
);

fn encode_signed_duration(d: &SignedDuration, w: &mut Writer<'_>) -> Result<(), Overflow> {
    let mut bytes = [0u8; 12];
    bytes[..8].copy_from_slice(&d.as_secs().to_le_bytes());
    bytes[8..].copy_from_slice(&d.subsec_nanos().to_le_bytes());
    w.put_array(bytes)
}

fn decode_signed_duration(r: &mut Reader<'_>) -> Result<SignedDuration, DecodeError> {
    let [s0, s1, s2, s3, s4, s5, s6, s7, n0, n1, n2, n3] = r.take_array::<12>()?;
    let secs = i64::from_le_bytes([s0, s1, s2, s3, s4, s5, s6, s7]);
    let nanos = i32::from_le_bytes([n0, n1, n2, n3]);
    let in_range = nanos.unsigned_abs() < NANOS_PER_SEC;
    let same_sign = secs == 0 || nanos == 0 || (secs < 0) == (nanos < 0);
    if !(in_range && same_sign) {
        return Err(DecodeError::invalid_signed_nanos(nanos, r.position() - 4));
    }
    // Balanced already, so `new` does no arithmetic that could overflow.
    Ok(SignedDuration::new(secs, nanos))
}

super::fixed_size!(
    /// 12 bytes: the seconds as an `i64`, then the nanoseconds as an `i32`
    /// with the same sign (or zero), as jiff holds them. A non-negative
    /// duration has the bytes of the same `core::time::Duration`. Decoding
    /// rejects nanoseconds of 10⁹ or more in magnitude or of the other sign
    /// ([`InvalidSignedNanos`](crate::DecodeErrorKind::InvalidSignedNanos)).
    ///
    /// ```
    /// use jiff::SignedDuration;
    /// use marshal::Marshal;
    ///
    /// let d = SignedDuration::new(-1, -5);
    /// assert_eq!(marshal::to_vec(&d), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfb, 0xff, 0xff, 0xff]);
    /// assert_eq!(marshal::from_bytes::<SignedDuration>(&marshal::to_vec(&d))?, d);
    /// assert_eq!(
    ///     marshal::to_vec(&SignedDuration::new(1, 5)),
    ///     marshal::to_vec(&std::time::Duration::new(1, 5)),
    /// );
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    SignedDuration,
    len: 12,
    fingerprint: crate::fingerprint::leaf("signed_duration"),
    encode_signed_duration,
    decode_signed_duration,
);
