//! The time crate's serde forms (feature `time`). bincode is not
//! human-readable, so time's `Serialize` writes each type as a tuple of its
//! components (the date as year and day of the year), and its
//! `Deserialize` reads the same tuple and builds the value through the
//! checked constructors used here.

use ::time::{Date, OffsetDateTime, PrimitiveDateTime, Time, UtcDateTime, UtcOffset};

use super::SerdeForm;
use crate::adapters::{MarshalAs, UnmarshalAs};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::Marshal;
use crate::writer::Writer;

/// `(year: i32, ordinal: u16)`.
const DATE_LEN: usize = 6;
/// `(hour: u8, minute: u8, second: u8, nanosecond: u32)`.
const TIME_LEN: usize = 7;
/// A date, then a time.
const DATE_TIME_LEN: usize = DATE_LEN + TIME_LEN;
/// A date-time, then `(hours: i8, minutes: i8, seconds: i8)` of the offset.
const OFFSET_DATE_TIME_LEN: usize = DATE_TIME_LEN + 3;

/// The Rust types whose bytes the forms are.
type DateTuple = (i32, u16);
type TimeTuple = (u8, u8, u8, u32);
type DateTimeTuple = (i32, u16, u8, u8, u8, u32);
type OffsetDateTimeTuple = (i32, u16, u8, u8, u8, u32, i8, i8, i8);

const DATE_MESSAGE: &&str = &"time refused the year and day of the year as a Date";
const TIME_MESSAGE: &&str = &"time refused the hour, minute, second and nanosecond as a Time";
const DATE_TIME_MESSAGE: &&str = &"time refused the components as a date and time";
const OFFSET_DATE_TIME_MESSAGE: &&str =
    &"time refused the components as a date, time and UTC offset";

fn put_date(bytes: &mut [u8], year: i32, ordinal: u16) {
    bytes[..4].copy_from_slice(&year.to_le_bytes());
    bytes[4..6].copy_from_slice(&ordinal.to_le_bytes());
}

fn put_time(bytes: &mut [u8], (hour, minute, second, nanos): (u8, u8, u8, u32)) {
    bytes[0] = hour;
    bytes[1] = minute;
    bytes[2] = second;
    bytes[3..7].copy_from_slice(&nanos.to_le_bytes());
}

fn date_time_bytes(date: Date, time: Time) -> [u8; DATE_TIME_LEN] {
    let mut bytes = [0; DATE_TIME_LEN];
    put_date(&mut bytes, date.year(), date.ordinal());
    put_time(&mut bytes[DATE_LEN..], time.as_hms_nano());
    bytes
}

fn take_date(bytes: &[u8]) -> (i32, u16) {
    let year = i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let ordinal = u16::from_le_bytes([bytes[4], bytes[5]]);
    (year, ordinal)
}

fn take_time(bytes: &[u8]) -> (u8, u8, u8, u32) {
    let nanos = u32::from_le_bytes([bytes[3], bytes[4], bytes[5], bytes[6]]);
    (bytes[0], bytes[1], bytes[2], nanos)
}

/// The date-time in `bytes`, built as time's `Deserialize` builds it.
fn date_time(bytes: &[u8]) -> Option<PrimitiveDateTime> {
    let (year, ordinal) = take_date(bytes);
    let (hour, minute, second, nanos) = take_time(&bytes[DATE_LEN..]);
    Date::from_ordinal_date(year, ordinal)
        .and_then(|date| date.with_hms_nano(hour, minute, second, nanos))
        .ok()
}

/// time's `Serialize`: `(year, ordinal)` as `(i32, u16)`.
impl MarshalAs<Date> for SerdeForm {
    const FIXED_LEN: Option<usize> = Some(DATE_LEN);
    const FINGERPRINT: u64 = <DateTuple as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(_: &Date) -> usize {
        DATE_LEN
    }

    #[inline]
    fn encode_as(date: &Date, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut bytes = [0; DATE_LEN];
        put_date(&mut bytes, date.year(), date.ordinal());
        w.put_array(bytes)
    }
}

impl<'de> UnmarshalAs<'de, Date> for SerdeForm {
    const MIN_LEN: usize = DATE_LEN;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<Date, DecodeError> {
        let at = r.position();
        let (year, ordinal) = take_date(&r.take_array::<DATE_LEN>()?);
        Date::from_ordinal_date(year, ordinal).map_err(|_| DecodeError::custom(DATE_MESSAGE, at))
    }
}

/// time's `Serialize`: `(hour, minute, second, nanosecond)` as `(u8, u8,
/// u8, u32)`.
impl MarshalAs<Time> for SerdeForm {
    const FIXED_LEN: Option<usize> = Some(TIME_LEN);
    const FINGERPRINT: u64 = <TimeTuple as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(_: &Time) -> usize {
        TIME_LEN
    }

    #[inline]
    fn encode_as(time: &Time, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut bytes = [0; TIME_LEN];
        put_time(&mut bytes, time.as_hms_nano());
        w.put_array(bytes)
    }
}

impl<'de> UnmarshalAs<'de, Time> for SerdeForm {
    const MIN_LEN: usize = TIME_LEN;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<Time, DecodeError> {
        let at = r.position();
        let (hour, minute, second, nanos) = take_time(&r.take_array::<TIME_LEN>()?);
        Time::from_hms_nano(hour, minute, second, nanos)
            .map_err(|_| DecodeError::custom(TIME_MESSAGE, at))
    }
}

/// time's `Serialize`: the date's tuple, then the time's: `(i32, u16, u8,
/// u8, u8, u32)`.
impl MarshalAs<PrimitiveDateTime> for SerdeForm {
    const FIXED_LEN: Option<usize> = Some(DATE_TIME_LEN);
    const FINGERPRINT: u64 = <DateTimeTuple as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(_: &PrimitiveDateTime) -> usize {
        DATE_TIME_LEN
    }

    #[inline]
    fn encode_as(dt: &PrimitiveDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(date_time_bytes(dt.date(), dt.time()))
    }
}

impl<'de> UnmarshalAs<'de, PrimitiveDateTime> for SerdeForm {
    const MIN_LEN: usize = DATE_TIME_LEN;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<PrimitiveDateTime, DecodeError> {
        let at = r.position();
        date_time(&r.take_array::<DATE_TIME_LEN>()?)
            .ok_or_else(|| DecodeError::custom(DATE_TIME_MESSAGE, at))
    }
}

/// time's `Serialize`: the UTC date's tuple, then the time's, as for
/// `PrimitiveDateTime`.
impl MarshalAs<UtcDateTime> for SerdeForm {
    const FIXED_LEN: Option<usize> = Some(DATE_TIME_LEN);
    const FINGERPRINT: u64 = <DateTimeTuple as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(_: &UtcDateTime) -> usize {
        DATE_TIME_LEN
    }

    #[inline]
    fn encode_as(dt: &UtcDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(date_time_bytes(dt.date(), dt.time()))
    }
}

impl<'de> UnmarshalAs<'de, UtcDateTime> for SerdeForm {
    const MIN_LEN: usize = DATE_TIME_LEN;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<UtcDateTime, DecodeError> {
        let at = r.position();
        date_time(&r.take_array::<DATE_TIME_LEN>()?)
            .map(PrimitiveDateTime::as_utc)
            .ok_or_else(|| DecodeError::custom(DATE_TIME_MESSAGE, at))
    }
}

/// time's `Serialize`: the local date's and time's tuples, then the
/// offset's hours, minutes past the hour and seconds past the minute:
/// `(i32, u16, u8, u8, u8, u32, i8, i8, i8)`.
impl MarshalAs<OffsetDateTime> for SerdeForm {
    const FIXED_LEN: Option<usize> = Some(OFFSET_DATE_TIME_LEN);
    const FINGERPRINT: u64 = <OffsetDateTimeTuple as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(_: &OffsetDateTime) -> usize {
        OFFSET_DATE_TIME_LEN
    }

    #[inline]
    fn encode_as(dt: &OffsetDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut bytes = [0; OFFSET_DATE_TIME_LEN];
        bytes[..DATE_TIME_LEN].copy_from_slice(&date_time_bytes(dt.date(), dt.time()));
        let (hours, minutes, seconds) = dt.offset().as_hms();
        bytes[DATE_TIME_LEN..].copy_from_slice(&[hours as u8, minutes as u8, seconds as u8]);
        w.put_array(bytes)
    }
}

impl<'de> UnmarshalAs<'de, OffsetDateTime> for SerdeForm {
    const MIN_LEN: usize = OFFSET_DATE_TIME_LEN;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode_as(r: &mut Reader<'de>) -> Result<OffsetDateTime, DecodeError> {
        let at = r.position();
        let bytes = r.take_array::<OFFSET_DATE_TIME_LEN>()?;
        let [hours, minutes, seconds] = [0, 1, 2].map(|i| bytes[DATE_TIME_LEN + i] as i8);
        date_time(&bytes)
            .and_then(|dt| {
                UtcOffset::from_hms(hours, minutes, seconds)
                    .ok()
                    .map(|offset| dt.assume_offset(offset))
            })
            .ok_or_else(|| DecodeError::custom(OFFSET_DATE_TIME_MESSAGE, at))
    }
}
