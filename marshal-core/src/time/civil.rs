//! The layouts that chrono, time and jiff types share: instants, instants
//! with an offset, dates and times of day, each read through a conversion
//! that may reject the value.

use super::Timestamp;
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// Nanoseconds in a day: times of day stay below it.
pub(crate) const NANOS_PER_DAY: u64 = 86_400 * 1_000_000_000;

/// Days from 0001-01-01 (day 1 of the proleptic Gregorian "common era") to
/// 1970-01-01.
#[cfg(feature = "chrono")]
pub(crate) const UNIX_EPOCH_DAYS_FROM_CE: i32 = 719_163;

/// The fingerprint of the instant-then-offset layout.
#[cfg(any(feature = "chrono", feature = "time"))]
pub(crate) const OFFSET_INSTANT_FINGERPRINT: u64 = crate::fingerprint::leaf("offset_timestamp");
/// The fingerprint of the date layout.
pub(crate) const DATE_FINGERPRINT: u64 = crate::fingerprint::leaf("date");
/// The fingerprint of the time-of-day layout.
pub(crate) const TIME_OF_DAY_FINGERPRINT: u64 = crate::fingerprint::leaf("time_of_day");

/// Reads an instant and converts it; `None` from `convert` is a
/// `TimestampOutOfRange` error at the start of the value.
#[inline]
pub(crate) fn decode_instant<T>(
    r: &mut Reader<'_>,
    convert: impl FnOnce(Timestamp) -> Option<T>,
) -> Result<T, DecodeError> {
    let start = r.position();
    let at = Timestamp::decode_from(r)?;
    convert(at).ok_or_else(|| DecodeError::timestamp_out_of_range(at.unix_secs(), start))
}

/// Writes an instant, then `offset` seconds east of UTC as an `i32`.
#[cfg(any(feature = "chrono", feature = "time"))]
#[inline]
pub(crate) fn encode_offset_instant(
    at: Timestamp,
    offset: i32,
    w: &mut Writer<'_>,
) -> Result<(), Overflow> {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(&at.to_wire());
    bytes[12..].copy_from_slice(&offset.to_le_bytes());
    w.put_array(bytes)
}

/// What went wrong converting an instant with an offset.
#[cfg(any(feature = "chrono", feature = "time"))]
pub(crate) enum OffsetInstantError {
    /// The offset is outside the target's range.
    Offset,
    /// The instant, or the local date-time it makes with the offset, is
    /// outside the target's range.
    Instant,
}

#[cfg(any(feature = "chrono", feature = "time"))]
impl OffsetInstantError {
    /// The conversion error for `offset` seconds east of UTC.
    pub(crate) fn into_time_error(self, offset: i32) -> super::TimeError {
        match self {
            OffsetInstantError::Offset => super::TimeError::InvalidOffset(offset),
            OffsetInstantError::Instant => super::TimeError::OutOfRange,
        }
    }
}

/// Reads an instant and an offset and converts them, mapping each failure
/// to the error kind and offset of its field.
#[cfg(any(feature = "chrono", feature = "time"))]
#[inline]
pub(crate) fn decode_offset_instant<T>(
    r: &mut Reader<'_>,
    convert: impl FnOnce(Timestamp, i32) -> Result<T, OffsetInstantError>,
) -> Result<T, DecodeError> {
    let start = r.position();
    let [
        b0,
        b1,
        b2,
        b3,
        b4,
        b5,
        b6,
        b7,
        b8,
        b9,
        b10,
        b11,
        o0,
        o1,
        o2,
        o3,
    ] = r.take_array::<16>()?;
    let at = Timestamp::from_wire([b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11], start)?;
    let offset = i32::from_le_bytes([o0, o1, o2, o3]);
    convert(at, offset).map_err(|e| match e {
        OffsetInstantError::Offset => DecodeError::invalid_utc_offset(offset, start + 12),
        OffsetInstantError::Instant => DecodeError::timestamp_out_of_range(at.unix_secs(), start),
    })
}

/// Writes a date as days since 1970-01-01.
#[inline]
pub(crate) fn encode_date(days: i32, w: &mut Writer<'_>) -> Result<(), Overflow> {
    w.put_array(days.to_le_bytes())
}

/// Reads a date and converts it; `None` from `convert` is a
/// `DateOutOfRange` error.
#[inline]
pub(crate) fn decode_date<T>(
    r: &mut Reader<'_>,
    convert: impl FnOnce(i32) -> Option<T>,
) -> Result<T, DecodeError> {
    let start = r.position();
    let days = i32::from_le_bytes(r.take_array()?);
    convert(days).ok_or_else(|| DecodeError::date_out_of_range(days, start))
}

/// A time of day split into its fields.
#[derive(Clone, Copy)]
pub(crate) struct TimeOfDay {
    pub(crate) hour: u8,
    pub(crate) minute: u8,
    pub(crate) second: u8,
    pub(crate) nanos: u32,
}

/// Writes a time of day as nanoseconds since midnight. The fields must be
/// in range, except that a leap second (`second` 60, or `nanos` of 10⁹ or
/// more) carries into the next second, and into the next day's midnight
/// at 23:59:60.
#[inline]
pub(crate) fn encode_time_of_day(t: TimeOfDay, w: &mut Writer<'_>) -> Result<(), Overflow> {
    let secs = (u64::from(t.hour) * 60 + u64::from(t.minute)) * 60 + u64::from(t.second);
    let nanos = (secs * 1_000_000_000 + u64::from(t.nanos)) % NANOS_PER_DAY;
    w.put_array(nanos.to_le_bytes())
}

/// Reads a time of day and converts it: a value of a day or more is an
/// `InvalidTimeOfDay` error, and so is `None` from `convert`.
#[inline]
pub(crate) fn decode_time_of_day<T>(
    r: &mut Reader<'_>,
    convert: impl FnOnce(TimeOfDay) -> Option<T>,
) -> Result<T, DecodeError> {
    let start = r.position();
    let nanos = u64::from_le_bytes(r.take_array()?);
    if nanos >= NANOS_PER_DAY {
        return Err(DecodeError::invalid_time_of_day(nanos, start));
    }
    let secs = nanos / 1_000_000_000;
    // Every field is in range: `nanos` is below a day.
    let t = TimeOfDay {
        hour: (secs / 3600) as u8,
        minute: (secs / 60 % 60) as u8,
        second: (secs % 60) as u8,
        nanos: (nanos % 1_000_000_000) as u32,
    };
    convert(t).ok_or_else(|| DecodeError::invalid_time_of_day(nanos, start))
}
