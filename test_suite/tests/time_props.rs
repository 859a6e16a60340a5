//! Property tests for every timestamp type, over its whole range:
//!
//! - each value encodes to exactly `FIXED_LEN` (or at most `MAX_LEN`) bytes
//!   and reads back as itself (with its offset, where it has one);
//! - the same instant, date or time of day has the same bytes in every
//!   library (chrono, time, jiff, `SystemTime`, [`Timestamp`]), built from
//!   the same calendar fields by each library's own constructors;
//! - a reader accepts an instant exactly when the target type can hold it;
//! - conversions to and from [`Timestamp`] and [`GoTime`] are lossless;
//! - arbitrary bytes never panic a reader, and what decodes re-encodes to a
//!   value that decodes the same.

use std::fmt::Debug;
use std::time::SystemTime;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use marshal::config::{self, MarshalIn, UnmarshalIn};
use marshal::time::{GoTime, TimeError, Timestamp};
use marshal::{Marshal, Unmarshal};
use marshal_test_suite::dialects::InEvery;
use marshal_test_suite::strategies::config as proptest_config;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Encodes `value`, checks the length against the size constants, decodes
/// it (alone, and followed by other bytes) and returns the bytes with the
/// decoded value.
fn round_trip<T>(value: &T) -> Result<(Vec<u8>, T), TestCaseError>
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug + InEvery,
{
    in_every_configuration(value)?;
    let bytes = marshal::to_vec(value);
    prop_assert_eq!(bytes.len(), value.encoded_len());
    if let Some(n) = T::FIXED_LEN {
        prop_assert_eq!(bytes.len(), n);
        prop_assert_eq!(<T as Unmarshal>::MIN_LEN, n);
    }
    if let Some(max) = T::MAX_LEN {
        prop_assert!(bytes.len() <= max);
    }
    prop_assert!(bytes.len() >= <T as Unmarshal>::MIN_LEN);
    let back: T = marshal::from_bytes(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back, value);
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0xa5; 3]);
    let (again, used) = T::read_from(&longer).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&again, value);
    prop_assert_eq!(used, bytes.len());
    Ok((bytes, back))
}

/// `value` in every configuration but `legacy()`: its length is
/// `encoded_len_with`'s (with fixed-width integers, `legacy()`'s), it
/// decodes back to itself, every truncation is an error, and arbitrary
/// bytes in its place never panic.
fn in_every_configuration<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug + InEvery,
{
    fn one<T, C>(value: &T, c: C) -> Result<Vec<u8>, TestCaseError>
    where
        T: PartialEq + Debug + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
        C: config::Config,
    {
        let bytes = marshal::encode_to_vec(value, c);
        prop_assert_eq!(marshal::encoded_len_with(value, c), bytes.len());
        prop_assert!(bytes.len() >= <T as UnmarshalIn<C::Dialect>>::MIN_LEN_IN);
        let (back, used) = marshal::decode_from_slice::<T, _>(&bytes, c)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!((&back, used), (value, bytes.len()));
        for cut in 0..bytes.len() {
            prop_assert!(marshal::decode_from_slice::<T, _>(&bytes[..cut], c).is_err());
        }
        Ok(bytes)
    }
    one(value, config::standard())?;
    one(value, config::standard().with_big_endian())?;
    let big = one(value, config::legacy().with_big_endian())?;
    prop_assert_eq!(big.len(), value.encoded_len());
    Ok(())
}

/// Decoding arbitrary bytes never panics; what decodes encodes to bytes
/// that decode to the same value.
fn survives<T>(bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug + InEvery,
{
    for (ok, again) in [
        survives_in::<T, _>(bytes, config::standard()),
        survives_in::<T, _>(bytes, config::standard().with_big_endian()),
        survives_in::<T, _>(bytes, config::legacy().with_big_endian()),
    ] {
        prop_assert!(!ok || again, "decoded, but did not decode again");
    }
    if let Ok((value, used)) = T::read_from(bytes) {
        prop_assert!(used <= bytes.len());
        let again = marshal::to_vec(&value);
        let back: T =
            marshal::from_bytes(&again).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(back, value);
    }
    Ok(())
}

/// Whether `bytes` decode as a `T` in `c`, and if so, whether its encoding
/// decodes to the same value.
fn survives_in<T, C>(bytes: &[u8], c: C) -> (bool, bool)
where
    T: PartialEq + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    C: config::Config,
{
    match marshal::decode_from_slice::<T, _>(bytes, c) {
        Ok((value, _)) => {
            let again = marshal::encode_to_vec(&value, c);
            let back = marshal::decode_from_slice::<T, _>(&again, c);
            (
                true,
                back.is_ok_and(|(v, used)| v == value && used == again.len()),
            )
        }
        Err(_) => (false, false),
    }
}

fn instant_bytes(secs: i64, nanos: u32) -> Vec<u8> {
    let mut b = secs.to_le_bytes().to_vec();
    b.extend_from_slice(&nanos.to_le_bytes());
    b
}

// ---------------------------------------------------------------------------
// Strategies over each type's whole range.

fn any_nanos() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), Just(999_999_999), 0u32..1_000_000_000]
}

/// Seconds in `lo..=hi`, with the ends and the neighbourhood of the epoch
/// drawn more often than a uniform draw would.
fn secs_in(lo: i64, hi: i64) -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(lo),
        Just(hi),
        (-100_000i64..100_000).prop_map(move |s| s.clamp(lo, hi)),
        lo..=hi,
    ]
}

fn any_timestamp() -> impl Strategy<Value = Timestamp> {
    (secs_in(i64::MIN, i64::MAX), any_nanos()).prop_map(|(s, n)| Timestamp::new(s, n).unwrap())
}

fn chrono_utc() -> impl Strategy<Value = DateTime<Utc>> {
    let (lo, hi) = (
        DateTime::<Utc>::MIN_UTC.timestamp(),
        DateTime::<Utc>::MAX_UTC.timestamp(),
    );
    (secs_in(lo, hi), any_nanos()).prop_map(|(s, n)| DateTime::from_timestamp(s, n).unwrap())
}

fn time_utc() -> impl Strategy<Value = time::UtcDateTime> {
    let (lo, hi) = (
        time::UtcDateTime::MIN.unix_timestamp(),
        time::UtcDateTime::MAX.unix_timestamp(),
    );
    (secs_in(lo, hi), any_nanos()).prop_map(|(s, n)| {
        time::UtcDateTime::from_unix_timestamp_nanos(i128::from(s) * 1_000_000_000 + i128::from(n))
            .unwrap()
    })
}

fn jiff_timestamp() -> impl Strategy<Value = jiff::Timestamp> {
    let (lo, hi) = (
        jiff::Timestamp::MIN.as_second(),
        jiff::Timestamp::MAX.as_second(),
    );
    (secs_in(lo, hi), any_nanos()).prop_filter_map("outside jiff's range", |(s, n)| {
        jiff::Timestamp::new(s, n as i32).ok()
    })
}

/// Calendar fields of a date-time that chrono, time and jiff all hold
/// (years -9999 to 9999).
#[derive(Debug, Clone, Copy)]
struct Fields {
    year: i16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    nanos: u32,
}

fn fields() -> impl Strategy<Value = Fields> {
    (
        prop_oneof![
            Just(-9999i16),
            Just(9999),
            Just(1970),
            Just(0),
            -9999i16..=9999
        ],
        1u8..=12,
        1u8..=31,
        0u8..24,
        0u8..60,
        0u8..60,
        any_nanos(),
    )
        .prop_filter_map(
            "no such day",
            |(year, month, day, hour, minute, second, nanos)| {
                NaiveDate::from_ymd_opt(year.into(), month.into(), day.into())?;
                Some(Fields {
                    year,
                    month,
                    day,
                    hour,
                    minute,
                    second,
                    nanos,
                })
            },
        )
}

impl Fields {
    fn chrono_date(self) -> NaiveDate {
        NaiveDate::from_ymd_opt(self.year.into(), self.month.into(), self.day.into()).unwrap()
    }
    fn chrono_time(self) -> NaiveTime {
        NaiveTime::from_hms_nano_opt(
            self.hour.into(),
            self.minute.into(),
            self.second.into(),
            self.nanos,
        )
        .unwrap()
    }
    fn time_date(self) -> time::Date {
        let month = time::Month::try_from(self.month).unwrap();
        time::Date::from_calendar_date(self.year.into(), month, self.day).unwrap()
    }
    fn time_time(self) -> time::Time {
        time::Time::from_hms_nano(self.hour, self.minute, self.second, self.nanos).unwrap()
    }
    fn jiff_date(self) -> jiff::civil::Date {
        jiff::civil::Date::new(self.year, self.month as i8, self.day as i8).unwrap()
    }
    fn jiff_time(self) -> jiff::civil::Time {
        jiff::civil::Time::new(
            self.hour as i8,
            self.minute as i8,
            self.second as i8,
            self.nanos as i32,
        )
        .unwrap()
    }
}

/// Offsets that Go's format carries, with the edges and the reserved range's
/// neighbours drawn often.
fn go_offset() -> impl Strategy<Value = Option<i32>> {
    prop_oneof![
        Just(None),
        Just(Some(0)),
        Just(Some(-59)),
        Just(Some(-120)),
        Just(Some(-1_966_139)),
        Just(Some(1_966_079)),
        (-93_599i32..=93_599).prop_map(Some),
        (-1_966_139i32..=1_966_079).prop_map(Some),
    ]
    .prop_filter("Go reserves -1 minute for UTC", |o| {
        o.is_none_or(|s| s / 60 != -1)
    })
}

fn go_time() -> impl Strategy<Value = GoTime> {
    (
        secs_in(i64::MIN, GoTime::MAX_UNIX_SECS),
        any_nanos(),
        go_offset(),
    )
        .prop_map(|(s, n, o)| GoTime::new(s, n, o).unwrap())
}

// ---------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn timestamp_round_trips(t in any_timestamp()) {
        let (bytes, _) = round_trip(&t)?;
        prop_assert_eq!(bytes, instant_bytes(t.unix_secs(), t.nanos()));
        prop_assert_eq!(Timestamp::from_unix_nanos(t.unix_nanos()), Ok(t));
    }

    #[test]
    fn system_time_round_trips(t in any_timestamp()) {
        // On Unix every timestamp is a SystemTime.
        let st = SystemTime::try_from(t).unwrap();
        prop_assert_eq!(Timestamp::try_from(st), Ok(t));
        let (bytes, _) = round_trip(&st)?;
        prop_assert_eq!(bytes, marshal::to_vec(&t));
    }

    #[test]
    fn chrono_instants_round_trip(dt in chrono_utc(), offset in -86_399i32..=86_399) {
        let (bytes, _) = round_trip(&dt)?;
        let t = Timestamp::from(dt);
        prop_assert_eq!(&bytes, &marshal::to_vec(&t));
        prop_assert_eq!(DateTime::<Utc>::try_from(t), Ok(dt));
        prop_assert_eq!(&marshal::to_vec(&dt.naive_utc()), &bytes);
        round_trip(&dt.naive_utc())?;
        prop_assert_eq!(GoTime::from(dt).timestamp(), t);

        let zone = FixedOffset::east_opt(offset).unwrap();
        if dt.naive_utc().checked_add_offset(zone).is_some() {
            let local = dt.with_timezone(&zone);
            let (bytes, back) = round_trip(&local)?;
            prop_assert_eq!(back.offset(), local.offset());
            prop_assert_eq!(&bytes[..12], &marshal::to_vec(&t)[..]);
            prop_assert_eq!(&bytes[12..], &offset.to_le_bytes()[..]);
            match GoTime::try_from(local) {
                Ok(go) => {
                    let again = DateTime::<FixedOffset>::try_from(go).unwrap();
                    prop_assert_eq!(again, local);
                    prop_assert_eq!(again.offset(), local.offset());
                }
                Err(e) => prop_assert_eq!(e, TimeError::InvalidOffset(offset)),
            }
        }
    }

    #[test]
    fn time_instants_round_trip(dt in time_utc(), offset in -93_599i32..=93_599) {
        let (bytes, _) = round_trip(&dt)?;
        let t = Timestamp::from(dt);
        prop_assert_eq!(&bytes, &marshal::to_vec(&t));
        prop_assert_eq!(time::UtcDateTime::try_from(t), Ok(dt));
        let primitive = time::PrimitiveDateTime::new(dt.date(), dt.time());
        prop_assert_eq!(&marshal::to_vec(&primitive), &bytes);
        round_trip(&primitive)?;
        prop_assert_eq!(GoTime::from(dt).timestamp(), t);

        let zone = time::UtcOffset::from_whole_seconds(offset).unwrap();
        if let Some(local) = dt.checked_to_offset(zone) {
            let (bytes, back) = round_trip(&local)?;
            prop_assert_eq!(back.offset(), zone);
            prop_assert_eq!(&bytes[12..], &offset.to_le_bytes()[..]);
            prop_assert_eq!(Timestamp::from(local), t);
            match GoTime::try_from(local) {
                Ok(go) => {
                    let again = time::OffsetDateTime::try_from(go).unwrap();
                    prop_assert_eq!(again, local);
                    prop_assert_eq!(again.offset(), zone);
                }
                Err(e) => prop_assert_eq!(e, TimeError::InvalidOffset(offset)),
            }
        }
    }

    #[test]
    fn jiff_instants_round_trip(ts in jiff_timestamp(), offset in -93_599i32..=93_599) {
        let (bytes, _) = round_trip(&ts)?;
        let t = Timestamp::from(ts);
        prop_assert_eq!(&bytes, &marshal::to_vec(&t));
        prop_assert_eq!(jiff::Timestamp::try_from(t), Ok(ts));
        prop_assert_eq!(GoTime::from(ts).timestamp(), t);

        let zone = jiff::tz::TimeZone::fixed(jiff::tz::Offset::from_seconds(offset).unwrap());
        let zdt = jiff::ZonedDateTime::new(ts, zone);
        match GoTime::try_from(&zdt) {
            Ok(go) => {
                prop_assert_eq!(go.offset(), (offset != 0).then_some(offset));
                prop_assert_eq!(jiff::ZonedDateTime::try_from(go).unwrap(), zdt);
            }
            Err(e) => prop_assert_eq!(e, TimeError::InvalidOffset(offset)),
        }
    }

    /// The same instant has the same bytes in every library.
    #[test]
    fn instants_agree_across_libraries(ts in jiff_timestamp()) {
        let t = Timestamp::from(ts);
        let bytes = marshal::to_vec(&ts);
        prop_assert_eq!(&marshal::to_vec(&DateTime::<Utc>::try_from(t).unwrap()), &bytes);
        prop_assert_eq!(&marshal::to_vec(&time::UtcDateTime::try_from(t).unwrap()), &bytes);
        prop_assert_eq!(&marshal::to_vec(&time::OffsetDateTime::try_from(t).unwrap())[..12], &bytes[..]);
        prop_assert_eq!(&marshal::to_vec(&SystemTime::try_from(t).unwrap()), &bytes);
    }

    /// The same calendar fields, built by each library's own constructors,
    /// give the same bytes as a date, a time of day and a date-time.
    #[test]
    fn civil_types_agree_across_libraries(f in fields()) {
        let (date, _) = round_trip(&f.chrono_date())?;
        prop_assert_eq!(&round_trip(&f.time_date())?.0, &date);
        prop_assert_eq!(&round_trip(&f.jiff_date())?.0, &date);
        let days = i32::from_le_bytes(date[..].try_into().unwrap());
        prop_assert_eq!(i64::from(days), f.chrono_date().signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap()).num_days());
        prop_assert_eq!(f.chrono_date().num_days_from_ce() - 719_163, days);

        let (time_of_day, _) = round_trip(&f.chrono_time())?;
        prop_assert_eq!(&round_trip(&f.time_time())?.0, &time_of_day);
        prop_assert_eq!(&round_trip(&f.jiff_time())?.0, &time_of_day);
        let nanos = u64::from_le_bytes(time_of_day[..].try_into().unwrap());
        let secs = (u64::from(f.hour) * 60 + u64::from(f.minute)) * 60 + u64::from(f.second);
        prop_assert_eq!(nanos, secs * 1_000_000_000 + u64::from(f.nanos));

        let chrono_dt = NaiveDateTime::new(f.chrono_date(), f.chrono_time());
        let (date_time, _) = round_trip(&chrono_dt)?;
        prop_assert_eq!(&round_trip(&time::PrimitiveDateTime::new(f.time_date(), f.time_time()))?.0, &date_time);
        prop_assert_eq!(&round_trip(&jiff::civil::DateTime::from_parts(f.jiff_date(), f.jiff_time()))?.0, &date_time);
        let secs_since_epoch = i64::from(days) * 86_400 + secs as i64;
        prop_assert_eq!(date_time, instant_bytes(secs_since_epoch, f.nanos));
    }

    #[test]
    fn chrono_dates_and_times_round_trip(
        days in NaiveDate::MIN.num_days_from_ce()..=NaiveDate::MAX.num_days_from_ce(),
        secs in 0u32..86_400,
        nanos in any_nanos(),
    ) {
        round_trip(&NaiveDate::from_num_days_from_ce_opt(days).unwrap())?;
        round_trip(&NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos).unwrap())?;
    }

    #[test]
    fn time_dates_round_trip(jd in time::Date::MIN.to_julian_day()..=time::Date::MAX.to_julian_day()) {
        round_trip(&time::Date::from_julian_day(jd).unwrap())?;
    }

    #[test]
    fn jiff_civil_date_times_round_trip(
        secs in 0i64..=jiff::civil::DateTime::MAX.duration_since(jiff::civil::DateTime::MIN).as_secs(),
        nanos in any_nanos(),
    ) {
        let dt = jiff::civil::DateTime::MIN
            .checked_add(jiff::SignedDuration::new(secs, nanos as i32));
        if let Ok(dt) = dt {
            round_trip(&dt)?;
            round_trip(&dt.date())?;
            round_trip(&dt.time())?;
        }
    }

    #[test]
    fn signed_durations_round_trip(secs in any::<i64>(), nanos in -999_999_999i32..=999_999_999) {
        let d = jiff::SignedDuration::new(secs, nanos);
        let (bytes, _) = round_trip(&d)?;
        prop_assert_eq!(&bytes[..8], &d.as_secs().to_le_bytes()[..]);
        prop_assert_eq!(&bytes[8..], &d.subsec_nanos().to_le_bytes()[..]);
        if let Ok(std) = std::time::Duration::try_from(d) {
            prop_assert_eq!(marshal::to_vec(&std), bytes);
        }
    }

    #[test]
    fn go_times_round_trip(go in go_time()) {
        let (bytes, _) = round_trip(&go)?;
        prop_assert_eq!(bytes.len(), usize::from(go.version()) + 14);
        prop_assert_eq!(bytes[0], go.version());
        prop_assert_eq!(go.version() == 2, go.offset().is_some_and(|s| s % 60 != 0));
        prop_assert_eq!(GoTime::from_timestamp(go.timestamp(), go.offset()), Ok(go));
        let go_secs = i64::from_be_bytes(bytes[1..9].try_into().unwrap());
        prop_assert_eq!(i128::from(go_secs), i128::from(go.unix_secs()) + 62_135_596_800);
    }

    /// A reader accepts an instant exactly when the type can hold it.
    #[test]
    fn readers_accept_exactly_the_representable_instants(t in any_timestamp()) {
        let bytes = marshal::to_vec(&t);
        let s = t.unix_secs();
        let chrono_ok = (DateTime::<Utc>::MIN_UTC.timestamp()..=DateTime::<Utc>::MAX_UTC.timestamp()).contains(&s);
        prop_assert_eq!(marshal::from_bytes::<DateTime<Utc>>(&bytes).is_ok(), chrono_ok);
        prop_assert_eq!(marshal::from_bytes::<NaiveDateTime>(&bytes).is_ok(), chrono_ok);
        let time_ok = (time::UtcDateTime::MIN.unix_timestamp()..=time::UtcDateTime::MAX.unix_timestamp()).contains(&s);
        prop_assert_eq!(marshal::from_bytes::<time::UtcDateTime>(&bytes).is_ok(), time_ok);
        prop_assert_eq!(marshal::from_bytes::<time::PrimitiveDateTime>(&bytes).is_ok(), time_ok);
        let jiff_ok = jiff::Timestamp::new(s, t.nanos() as i32).is_ok();
        prop_assert_eq!(marshal::from_bytes::<jiff::Timestamp>(&bytes).is_ok(), jiff_ok);
        let civil_ok = (jiff::civil::DateTime::MIN.duration_since(jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0)).as_secs()
            ..=jiff::civil::DateTime::MAX.duration_since(jiff::civil::datetime(1970, 1, 1, 0, 0, 0, 0)).as_secs())
            .contains(&s);
        prop_assert_eq!(marshal::from_bytes::<jiff::civil::DateTime>(&bytes).is_ok(), civil_ok);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..20)) {
        survives::<Timestamp>(&bytes)?;
        survives::<SystemTime>(&bytes)?;
        survives::<GoTime>(&bytes)?;
        survives::<DateTime<Utc>>(&bytes)?;
        survives::<DateTime<FixedOffset>>(&bytes)?;
        survives::<NaiveDateTime>(&bytes)?;
        survives::<NaiveDate>(&bytes)?;
        survives::<NaiveTime>(&bytes)?;
        survives::<time::OffsetDateTime>(&bytes)?;
        survives::<time::UtcDateTime>(&bytes)?;
        survives::<time::PrimitiveDateTime>(&bytes)?;
        survives::<time::Date>(&bytes)?;
        survives::<time::Time>(&bytes)?;
        survives::<jiff::Timestamp>(&bytes)?;
        survives::<jiff::civil::DateTime>(&bytes)?;
        survives::<jiff::civil::Date>(&bytes)?;
        survives::<jiff::civil::Time>(&bytes)?;
        survives::<jiff::SignedDuration>(&bytes)?;
    }

    /// Go-shaped bytes (a valid version byte, then anything) never panic,
    /// and what decodes re-encodes to bytes that decode the same.
    #[test]
    fn go_shaped_bytes_never_panic(version in 1u8..=2, rest in proptest::array::uniform15(any::<u8>())) {
        let mut bytes = vec![version];
        bytes.extend_from_slice(&rest);
        survives::<GoTime>(&bytes)?;
    }
}
