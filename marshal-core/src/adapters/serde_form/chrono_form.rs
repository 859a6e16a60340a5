//! chrono's serde forms (feature `chrono`): every type a string, as chrono's
//! `Serialize` writes it (`collect_str` of its `Debug`, `Display` or RFC
//! 3339 form), read back with its `FromStr`, which is what its
//! `Deserialize` calls.

use ::chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc,
};

use super::SerdeForm;
use super::text::{LEN_PREFIX, Text, digits, parse_str};
use crate::adapters::{MarshalAs, UnmarshalAs};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::Marshal;
use crate::writer::Writer;

/// Nanoseconds in a second.
const NANOS_PER_SEC: u32 = 1_000_000_000;

/// The longest year: a sign and six digits (chrono's years run from
/// −262,144 to 262,143).
const MAX_YEAR_LEN: usize = 7;
/// The longest fraction of a second: a point and nine digits.
const MAX_FRACTION_LEN: usize = 10;
/// `-MM-DD`.
const MONTH_DAY_LEN: usize = 6;
/// `HH:MM:SS`.
const TIME_LEN: usize = 8;
/// `+HH:MM`.
const OFFSET_LEN: usize = 6;

/// The length of a year as chrono writes it: four digits from 0 to 9999,
/// otherwise a sign and at least four digits (`{:+05}`).
#[inline]
fn year_len(year: i32) -> usize {
    if (0..=9999).contains(&year) {
        4
    } else {
        1 + digits(u64::from(year.unsigned_abs())).max(4)
    }
}

fn push_year(t: &mut Text, year: i32) {
    if (0..=9999).contains(&year) {
        t.padded(year as u64, 4);
    } else {
        t.byte(if year < 0 { b'-' } else { b'+' });
        t.padded(u64::from(year.unsigned_abs()), 4);
    }
}

/// `YYYY-MM-DD`, as chrono's `Debug` of a `NaiveDate` writes it.
fn push_date(t: &mut Text, d: &NaiveDate) {
    push_year(t, d.year());
    t.byte(b'-');
    t.two(d.month());
    t.byte(b'-');
    t.two(d.day());
}

/// The second and the nanoseconds to write: a leap second (10⁹
/// nanoseconds or more, with second 59) as second 60.
#[inline]
fn second_and_nanos(t: &NaiveTime) -> (u32, u32) {
    let (second, nanos) = (t.second(), t.nanosecond());
    if nanos >= NANOS_PER_SEC {
        (second + 1, nanos - NANOS_PER_SEC)
    } else {
        (second, nanos)
    }
}

/// The fraction's digits as chrono writes them (`SecondsFormat::AutoSi`):
/// 3, 6 or 9 digits, the fewest that are exact, and how many.
#[inline]
fn fraction(nanos: u32) -> (u32, usize) {
    if nanos % 1_000_000 == 0 {
        (nanos / 1_000_000, 3)
    } else if nanos % 1_000 == 0 {
        (nanos / 1_000, 6)
    } else {
        (nanos, 9)
    }
}

/// The length of the fraction: none for a whole second, otherwise a point
/// and its digits.
#[inline]
fn fraction_len(nanos: u32) -> usize {
    if nanos == 0 { 0 } else { 1 + fraction(nanos).1 }
}

/// `HH:MM:SS` and the fraction, as chrono's `Debug` of a `NaiveTime`
/// writes them.
fn push_time(t: &mut Text, time: &NaiveTime) {
    let (second, nanos) = second_and_nanos(time);
    t.two(time.hour());
    t.byte(b':');
    t.two(time.minute());
    t.byte(b':');
    t.two(second);
    if nanos != 0 {
        let (n, width) = fraction(nanos);
        t.byte(b'.');
        t.padded(u64::from(n), width);
    }
}

#[inline]
fn time_len(time: &NaiveTime) -> usize {
    TIME_LEN + fraction_len(second_and_nanos(time).1)
}

#[inline]
fn date_time_len(dt: &NaiveDateTime) -> usize {
    year_len(dt.year()) + MONTH_DAY_LEN + 1 + time_len(&dt.time())
}

fn push_date_time(t: &mut Text, dt: &NaiveDateTime) {
    push_date(t, &dt.date());
    t.byte(b'T');
    push_time(t, &dt.time());
}

/// The offset as chrono's RFC 3339 form writes it: `Z` for +00:00,
/// otherwise a sign, then hours and minutes, rounded to the nearest minute.
fn push_offset(t: &mut Text, offset: i32) {
    if offset == 0 {
        t.byte(b'Z');
        return;
    }
    t.byte(if offset < 0 { b'-' } else { b'+' });
    // Below 86,400 seconds, so at most 1,440 minutes: "+24:00".
    let minutes = (offset.unsigned_abs() + 30) / 60;
    t.two(minutes / 60);
    t.byte(b':');
    t.two(minutes % 60);
}

#[inline]
fn offset_len(offset: i32) -> usize {
    if offset == 0 { 1 } else { OFFSET_LEN }
}

/// The RFC 3339 string of a local date-time and its offset.
fn rfc3339(local: &NaiveDateTime, offset: i32) -> Text {
    let mut t = Text::new();
    push_date_time(&mut t, local);
    push_offset(&mut t, offset);
    t
}

/// chrono's `Serialize`: RFC 3339 in UTC, with `Z`
/// (`2024-01-15T08:30:00.250Z`). Decoding parses it as chrono's
/// `Deserialize` does (any offset, converted to UTC).
impl MarshalAs<DateTime<Utc>> for SerdeForm {
    const MAX_LEN: Option<usize> =
        Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN + 1 + TIME_LEN + MAX_FRACTION_LEN + 1);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(dt: &DateTime<Utc>) -> usize {
        LEN_PREFIX + date_time_len(&dt.naive_utc()) + 1
    }

    fn encode_as(dt: &DateTime<Utc>, w: &mut Writer<'_>) -> Result<(), Overflow> {
        rfc3339(&dt.naive_utc(), 0).put(w)
    }
}

impl<'de> UnmarshalAs<'de, DateTime<Utc>> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<DateTime<Utc>, DecodeError> {
        parse_str(
            r,
            &"chrono refused the string as an RFC 3339 DateTime<Utc>",
            |s| s.parse::<DateTime<Utc>>(),
        )
    }
}

/// chrono's `Serialize`: RFC 3339 at the value's offset
/// (`2024-01-15T08:30:00-05:00`), the offset rounded to the minute and `Z`
/// for +00:00.
impl MarshalAs<DateTime<FixedOffset>> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(
        LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN + 1 + TIME_LEN + MAX_FRACTION_LEN + OFFSET_LEN,
    );
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(dt: &DateTime<FixedOffset>) -> usize {
        LEN_PREFIX + date_time_len(&dt.naive_local()) + offset_len(dt.offset().local_minus_utc())
    }

    fn encode_as(dt: &DateTime<FixedOffset>, w: &mut Writer<'_>) -> Result<(), Overflow> {
        rfc3339(&dt.naive_local(), dt.offset().local_minus_utc()).put(w)
    }
}

impl<'de> UnmarshalAs<'de, DateTime<FixedOffset>> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<DateTime<FixedOffset>, DecodeError> {
        parse_str(
            r,
            &"chrono refused the string as an RFC 3339 DateTime<FixedOffset>",
            |s| s.parse::<DateTime<FixedOffset>>(),
        )
    }
}

/// chrono's `Serialize`: its `Debug` form, `2024-01-15T08:30:00.250`.
impl MarshalAs<NaiveDateTime> for SerdeForm {
    const MAX_LEN: Option<usize> =
        Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN + 1 + TIME_LEN + MAX_FRACTION_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(dt: &NaiveDateTime) -> usize {
        LEN_PREFIX + date_time_len(dt)
    }

    fn encode_as(dt: &NaiveDateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_date_time(&mut t, dt);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, NaiveDateTime> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<NaiveDateTime, DecodeError> {
        parse_str(r, &"chrono refused the string as a NaiveDateTime", |s| {
            s.parse::<NaiveDateTime>()
        })
    }
}

/// chrono's `Serialize`: its `Debug` form, `2024-01-15`.
impl MarshalAs<NaiveDate> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(d: &NaiveDate) -> usize {
        LEN_PREFIX + year_len(d.year()) + MONTH_DAY_LEN
    }

    fn encode_as(d: &NaiveDate, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_date(&mut t, d);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, NaiveDate> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<NaiveDate, DecodeError> {
        parse_str(r, &"chrono refused the string as a NaiveDate", |s| {
            s.parse::<NaiveDate>()
        })
    }
}

/// chrono's `Serialize`: its `Display` form, `08:30:00.250`, a leap second
/// as second 60.
impl MarshalAs<NaiveTime> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + TIME_LEN + MAX_FRACTION_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(time: &NaiveTime) -> usize {
        LEN_PREFIX + time_len(time)
    }

    fn encode_as(time: &NaiveTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_time(&mut t, time);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, NaiveTime> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<NaiveTime, DecodeError> {
        parse_str(r, &"chrono refused the string as a NaiveTime", |s| {
            s.parse::<NaiveTime>()
        })
    }
}
