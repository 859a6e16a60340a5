//! jiff's serde forms (feature `jiff`): every type a string, its `Display`
//! form (which its `Serialize` writes through `collect_str`), read back with
//! its `FromStr`, the parser its `Deserialize` calls.

use ::jiff::civil::{Date, DateTime, Time};
use ::jiff::tz::Offset;
use ::jiff::{SignedDuration, Timestamp};

use super::SerdeForm;
use super::text::{LEN_PREFIX, Text, digits, parse_str};
use crate::adapters::{MarshalAs, UnmarshalAs};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::Marshal;
use crate::writer::Writer;

/// The longest year: `-00` and four digits (jiff's years run from −9999 to
/// 9999).
const MAX_YEAR_LEN: usize = 7;
/// The longest fraction of a second: a point and nine digits.
const MAX_FRACTION_LEN: usize = 10;
/// `-MM-DD`.
const MONTH_DAY_LEN: usize = 6;
/// `HH:MM:SS`.
const TIME_LEN: usize = 8;
/// The longest duration: `-PT`, 16 digits of hours and `H`, `59M`, then
/// `59`, the fraction and `S`.
const MAX_DURATION_LEN: usize = 3 + 17 + 3 + 2 + MAX_FRACTION_LEN + 1;

/// The length of a year as jiff writes it: four digits, after `-00` for a
/// year before 0.
#[inline]
fn year_len(year: i16) -> usize {
    if year < 0 { 7 } else { 4 }
}

/// The fraction's digits as jiff writes them: nine digits without their
/// trailing zeros, and how many remain.
#[inline]
fn fraction(nanos: u32) -> (u32, usize) {
    let (mut n, mut width) = (nanos, 9);
    while n % 10 == 0 && width > 0 {
        n /= 10;
        width -= 1;
    }
    (n, width)
}

/// The length of the fraction: none for whole seconds, otherwise a point
/// and its digits.
#[inline]
fn fraction_len(nanos: u32) -> usize {
    if nanos == 0 { 0 } else { 1 + fraction(nanos).1 }
}

fn push_fraction(t: &mut Text, nanos: u32) {
    if nanos != 0 {
        let (n, width) = fraction(nanos);
        t.byte(b'.');
        t.padded(u64::from(n), width);
    }
}

fn push_date(t: &mut Text, d: Date) {
    let year = d.year();
    if year < 0 {
        t.byte(b'-');
        t.byte(b'0');
        t.byte(b'0');
    }
    t.padded(u64::from(year.unsigned_abs()), 4);
    t.byte(b'-');
    t.two(u32::from(d.month().unsigned_abs()));
    t.byte(b'-');
    t.two(u32::from(d.day().unsigned_abs()));
}

#[inline]
fn date_len(d: Date) -> usize {
    year_len(d.year()) + MONTH_DAY_LEN
}

fn push_time(t: &mut Text, time: Time) {
    t.two(u32::from(time.hour().unsigned_abs()));
    t.byte(b':');
    t.two(u32::from(time.minute().unsigned_abs()));
    t.byte(b':');
    t.two(u32::from(time.second().unsigned_abs()));
    push_fraction(t, time.subsec_nanosecond().unsigned_abs());
}

#[inline]
fn time_len(time: Time) -> usize {
    TIME_LEN + fraction_len(time.subsec_nanosecond().unsigned_abs())
}

fn push_date_time(t: &mut Text, dt: DateTime) {
    push_date(t, dt.date());
    t.byte(b'T');
    push_time(t, dt.time());
}

#[inline]
fn date_time_len(dt: DateTime) -> usize {
    date_len(dt.date()) + 1 + time_len(dt.time())
}

/// jiff's `Display`: RFC 3339 in UTC with `Z`, `2024-01-15T08:30:00.25Z`.
impl MarshalAs<Timestamp> for SerdeForm {
    const MAX_LEN: Option<usize> =
        Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN + 1 + TIME_LEN + MAX_FRACTION_LEN + 1);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(ts: &Timestamp) -> usize {
        LEN_PREFIX + date_time_len(Offset::UTC.to_datetime(*ts)) + 1
    }

    fn encode_as(ts: &Timestamp, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_date_time(&mut t, Offset::UTC.to_datetime(*ts));
        t.byte(b'Z');
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, Timestamp> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<Timestamp, DecodeError> {
        parse_str(r, &"jiff refused the string as a Timestamp", |s| {
            s.parse::<Timestamp>()
        })
    }
}

/// jiff's `Display`: `2024-01-15T08:30:00.25`.
impl MarshalAs<DateTime> for SerdeForm {
    const MAX_LEN: Option<usize> =
        Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN + 1 + TIME_LEN + MAX_FRACTION_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(dt: &DateTime) -> usize {
        LEN_PREFIX + date_time_len(*dt)
    }

    fn encode_as(dt: &DateTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_date_time(&mut t, *dt);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, DateTime> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<DateTime, DecodeError> {
        parse_str(r, &"jiff refused the string as a civil::DateTime", |s| {
            s.parse::<DateTime>()
        })
    }
}

/// jiff's `Display`: `2024-01-15`.
impl MarshalAs<Date> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + MAX_YEAR_LEN + MONTH_DAY_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(d: &Date) -> usize {
        LEN_PREFIX + date_len(*d)
    }

    fn encode_as(d: &Date, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_date(&mut t, *d);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, Date> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<Date, DecodeError> {
        parse_str(r, &"jiff refused the string as a civil::Date", |s| {
            s.parse::<Date>()
        })
    }
}

/// jiff's `Display`: `08:30:00.25`.
impl MarshalAs<Time> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + TIME_LEN + MAX_FRACTION_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(time: &Time) -> usize {
        LEN_PREFIX + time_len(*time)
    }

    fn encode_as(time: &Time, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut t = Text::new();
        push_time(&mut t, *time);
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, Time> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<Time, DecodeError> {
        parse_str(r, &"jiff refused the string as a civil::Time", parse_time)
    }
}

/// The longest time string [`parse_time`] parses with a `T` before it.
const MAX_PREFIXED_TIME: usize = 63;

/// `s.parse::<Time>()`, without the allocation that parse makes for a time
/// written as jiff writes one.
///
/// jiff's parser first tries a string that does not start with `T` as a
/// full date-time (`2024-06-01T01:02:03` reads as its time), and builds an
/// error (an `Arc`, with jiff's `alloc` feature) when that fails, as it
/// does for every time of day alone; only then does it read a time. A
/// string whose third byte is `:` cannot be a date-time (a year is four
/// digits, or a sign and six), and its hour is followed by `:`, so jiff
/// reads it as a time in the extended form, which skips the check for a
/// time that could be a month and day: exactly what it does for the same
/// string after a `T`, where it reads a time straight away. So such a
/// string is parsed with a `T` before it, and any other as it is.
fn parse_time(s: &str) -> Result<Time, ::jiff::Error> {
    if s.as_bytes().get(2) == Some(&b':') && s.len() <= MAX_PREFIXED_TIME {
        let mut prefixed = [b'T'; MAX_PREFIXED_TIME + 1];
        prefixed[1..=s.len()].copy_from_slice(s.as_bytes());
        // `T` and a `str`: UTF-8, so this does not fail.
        if let Ok(prefixed) = core::str::from_utf8(&prefixed[..=s.len()]) {
            return prefixed.parse::<Time>();
        }
    }
    s.parse::<Time>()
}

/// A duration's parts as jiff's ISO 8601 form writes them: hours and
/// minutes (each only when not zero, and neither below a minute), then the
/// seconds and nanoseconds, which are written unless they are both zero
/// after hours or minutes.
struct DurationParts {
    negative: bool,
    hours: u64,
    minutes: u64,
    seconds: u64,
    nanos: u32,
    /// Whether the seconds (and fraction) are written.
    has_seconds: bool,
}

#[inline]
fn duration_parts(d: &SignedDuration) -> DurationParts {
    let abs = d.unsigned_abs();
    let (secs, nanos) = (abs.as_secs(), abs.subsec_nanos());
    let (hours, minutes, seconds) = if secs >= 60 {
        (secs / 3600, secs % 3600 / 60, secs % 60)
    } else {
        (0, 0, secs)
    };
    DurationParts {
        negative: d.is_negative(),
        hours,
        minutes,
        seconds,
        nanos,
        has_seconds: secs < 60 || seconds != 0 || nanos != 0,
    }
}

/// jiff's `Display`: the ISO 8601 duration, its sign first and balanced
/// up to hours: `PT2H30M0.5S`, `-PT1S`, `PT0S`.
impl MarshalAs<SignedDuration> for SerdeForm {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + MAX_DURATION_LEN);
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len_as(d: &SignedDuration) -> usize {
        let p = duration_parts(d);
        let mut len = LEN_PREFIX + usize::from(p.negative) + 2;
        if p.hours != 0 {
            len += digits(p.hours) + 1;
        }
        if p.minutes != 0 {
            len += digits(p.minutes) + 1;
        }
        if p.has_seconds {
            len += digits(p.seconds) + fraction_len(p.nanos) + 1;
        }
        len
    }

    fn encode_as(d: &SignedDuration, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let p = duration_parts(d);
        let mut t = Text::new();
        if p.negative {
            t.byte(b'-');
        }
        t.byte(b'P');
        t.byte(b'T');
        if p.hours != 0 {
            t.padded(p.hours, 1);
            t.byte(b'H');
        }
        if p.minutes != 0 {
            t.padded(p.minutes, 1);
            t.byte(b'M');
        }
        if p.has_seconds {
            t.padded(p.seconds, 1);
            push_fraction(&mut t, p.nanos);
            t.byte(b'S');
        }
        t.put(w)
    }
}

impl<'de> UnmarshalAs<'de, SignedDuration> for SerdeForm {
    const MIN_LEN: usize = LEN_PREFIX;

    fn decode_as(r: &mut Reader<'de>) -> Result<SignedDuration, DecodeError> {
        parse_str(r, &"jiff refused the string as a SignedDuration", |s| {
            s.parse::<SignedDuration>()
        })
    }
}
