//! The timestamp tables of WIRE_FORMAT.md (sections 19 to 24), as tests:
//! each value encodes to exactly the listed bytes and those bytes decode
//! back to it; every rejection in section 16 that concerns timestamps gives
//! its error kind at its offset; `SystemTime` matches bincode 1.3 with
//! serde.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use marshal::time::{GoTime, Timestamp};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::checks::assert_decode_error;
use marshal_test_suite::golden::row;

fn utc(secs: i64, nanos: u32) -> DateTime<Utc> {
    DateTime::from_timestamp(secs, nanos).unwrap()
}

fn naive(y: i32, m: u32, d: u32, h: u32, min: u32, s: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .unwrap()
        .and_hms_opt(h, min, s)
        .unwrap()
}

fn fixed(secs: i64, offset: i32) -> DateTime<FixedOffset> {
    utc(secs, 0).with_timezone(&FixedOffset::east_opt(offset).unwrap())
}

fn odt(secs: i64, offset: i32) -> time::OffsetDateTime {
    time::OffsetDateTime::from_unix_timestamp(secs)
        .unwrap()
        .to_offset(time::UtcOffset::from_whole_seconds(offset).unwrap())
}

fn bytes_of(secs: i64, nanos: u32) -> [u8; 12] {
    let mut b = [0u8; 12];
    b[..8].copy_from_slice(&secs.to_le_bytes());
    b[8..].copy_from_slice(&nanos.to_le_bytes());
    b
}

const LEAP_DAY: i64 = 1_709_164_800; // 2024-02-29T00:00:00Z

#[test]
fn instants() {
    let one = "01 00 00 00 00 00 00 00 05 00 00 00";
    row(Timestamp::new(1, 5).unwrap(), one);
    row(UNIX_EPOCH + Duration::new(1, 5), one);
    let half_before = "ff ff ff ff ff ff ff ff 00 65 cd 1d";
    row(Timestamp::new(-1, 500_000_000).unwrap(), half_before);
    row(UNIX_EPOCH - Duration::from_millis(500), half_before);
    row(Timestamp::MIN, "00 00 00 00 00 00 00 80 00 00 00 00");
    row(Timestamp::MAX, "ff ff ff ff ff ff ff 7f ff c9 9a 3b");

    let leap_day = "00 c9 df 65 00 00 00 00 00 00 00 00";
    row(utc(LEAP_DAY, 0), leap_day);
    row(
        time::UtcDateTime::from_unix_timestamp(LEAP_DAY).unwrap(),
        leap_day,
    );
    row(jiff::Timestamp::from_second(LEAP_DAY).unwrap(), leap_day);

    // Date-times without a zone are written as if in UTC.
    let nine = "90 47 e0 65 00 00 00 00 00 00 00 00";
    row(naive(2024, 2, 29, 9, 0, 0), nine);
    row(
        time::PrimitiveDateTime::new(
            time::Date::from_calendar_date(2024, time::Month::February, 29).unwrap(),
            time::Time::from_hms(9, 0, 0).unwrap(),
        ),
        nine,
    );
    row(jiff::civil::date(2024, 2, 29).at(9, 0, 0, 0), nine);
}

#[test]
fn instants_with_offsets() {
    let tokyo = "00 c9 df 65 00 00 00 00 00 00 00 00 90 7e 00 00";
    row(fixed(LEAP_DAY, 9 * 3600), tokyo);
    row(odt(LEAP_DAY, 9 * 3600), tokyo);
    let west = "00 00 00 00 00 00 00 00 00 00 00 00 f0 f1 ff ff";
    row(fixed(0, -3600), west);
    row(odt(0, -3600), west);
}

#[test]
fn dates() {
    let epoch = "00 00 00 00";
    row(NaiveDate::from_ymd_opt(1970, 1, 1).unwrap(), epoch);
    row(
        time::Date::from_calendar_date(1970, time::Month::January, 1).unwrap(),
        epoch,
    );
    row(jiff::civil::date(1970, 1, 1), epoch);
    let day_before = "ff ff ff ff";
    row(NaiveDate::from_ymd_opt(1969, 12, 31).unwrap(), day_before);
    row(
        time::Date::from_calendar_date(1969, time::Month::December, 31).unwrap(),
        day_before,
    );
    row(jiff::civil::date(1969, 12, 31), day_before);
    let leap_day = "46 4d 00 00";
    row(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(), leap_day);
    row(
        time::Date::from_calendar_date(2024, time::Month::February, 29).unwrap(),
        leap_day,
    );
    row(jiff::civil::date(2024, 2, 29), leap_day);
    // The ends of the shared range, -9999-01-01 and 9999-12-31.
    row(jiff::civil::Date::MIN, "7d 4b bd ff");
    row(NaiveDate::from_ymd_opt(-9999, 1, 1).unwrap(), "7d 4b bd ff");
    row(time::Date::MIN, "7d 4b bd ff");
    row(jiff::civil::Date::MAX, "a0 c0 2c 00");
    row(
        NaiveDate::from_ymd_opt(9999, 12, 31).unwrap(),
        "a0 c0 2c 00",
    );
    row(time::Date::MAX, "a0 c0 2c 00");
}

#[test]
fn times_of_day() {
    let midnight = "00 00 00 00 00 00 00 00";
    row(NaiveTime::MIN, midnight);
    row(time::Time::MIDNIGHT, midnight);
    row(jiff::civil::Time::MIN, midnight);
    let half_past_eight = "00 50 21 9e d4 1b 00 00";
    row(NaiveTime::from_hms_opt(8, 30, 0).unwrap(), half_past_eight);
    row(time::Time::from_hms(8, 30, 0).unwrap(), half_past_eight);
    row(jiff::civil::time(8, 30, 0, 0), half_past_eight);
    let last = "ff ff 4e 91 94 4e 00 00";
    row(
        NaiveTime::from_hms_nano_opt(23, 59, 59, 999_999_999).unwrap(),
        last,
    );
    row(time::Time::MAX, last);
    row(jiff::civil::Time::MAX, last);
}

#[test]
fn signed_durations() {
    row(
        jiff::SignedDuration::from_millis(1_500),
        "01 00 00 00 00 00 00 00 00 65 cd 1d",
    );
    row(
        jiff::SignedDuration::from_millis(-1_500),
        "ff ff ff ff ff ff ff ff 00 9b 32 e2",
    );
    row(
        jiff::SignedDuration::from_nanos(-5),
        "00 00 00 00 00 00 00 00 fb ff ff ff",
    );
    row(
        jiff::SignedDuration::MIN,
        "00 00 00 00 00 00 00 80 01 36 65 c4",
    );
}

#[test]
fn go_times() {
    let go = |s, n, z| GoTime::new(s, n, z).unwrap();
    row(
        go(0, 0, None),
        "01 00 00 00 0e 77 91 f7 00 00 00 00 00 ff ff",
    );
    row(GoTime::ZERO, "01 00 00 00 00 00 00 00 00 00 00 00 00 ff ff");
    row(
        go(1_709_164_800, 0, Some(9 * 3600)),
        "01 00 00 00 0e dd 71 c0 00 00 00 00 00 02 1c",
    );
    row(
        go(0, 0, Some(0)),
        "01 00 00 00 0e 77 91 f7 00 00 00 00 00 00 00",
    );
    row(
        go(1_234_567_890, 123_456_789, None),
        "01 00 00 00 0e c1 27 f9 d2 07 5b cd 15 ff ff",
    );
    row(
        go(-2_717_650_801, 0, Some(-17_762)),
        "02 00 00 00 0d d5 95 e7 8f 00 00 00 00 fe d8 fe",
    );
    row(
        go(-2_208_989_972, 0, Some(1_172)),
        "02 00 00 00 0d f3 e7 73 ec 00 00 00 00 00 13 20",
    );
}

#[test]
fn sizes() {
    fn fixed_exact<T: Marshal + for<'de> Unmarshal<'de>>(n: usize) {
        assert_eq!(T::FIXED_LEN, Some(n), "{}", std::any::type_name::<T>());
        assert_eq!(T::MAX_LEN, Some(n));
        assert_eq!(<T as Unmarshal>::MIN_LEN, n);
        assert!(<T as Unmarshal>::MIN_LEN_IS_EXACT);
    }
    fixed_exact::<Timestamp>(12);
    fixed_exact::<SystemTime>(12);
    fixed_exact::<DateTime<Utc>>(12);
    fixed_exact::<DateTime<FixedOffset>>(16);
    fixed_exact::<NaiveDateTime>(12);
    fixed_exact::<NaiveDate>(4);
    fixed_exact::<NaiveTime>(8);
    fixed_exact::<time::OffsetDateTime>(16);
    fixed_exact::<time::UtcDateTime>(12);
    fixed_exact::<time::PrimitiveDateTime>(12);
    fixed_exact::<time::Date>(4);
    fixed_exact::<time::Time>(8);
    fixed_exact::<jiff::Timestamp>(12);
    fixed_exact::<jiff::civil::DateTime>(12);
    fixed_exact::<jiff::civil::Date>(4);
    fixed_exact::<jiff::civil::Time>(8);
    fixed_exact::<jiff::SignedDuration>(12);

    assert_eq!(GoTime::FIXED_LEN, None);
    assert_eq!(GoTime::MAX_LEN, Some(16));
    assert_eq!(<GoTime as Unmarshal>::MIN_LEN, 15);
    const { assert!(!<GoTime as Unmarshal>::MIN_LEN_IS_EXACT) };

    // A struct of them keeps a compile-time size.
    #[derive(Marshal, Unmarshal)]
    struct Row {
        at: DateTime<Utc>,
        local: time::OffsetDateTime,
        day: jiff::civil::Date,
        opens: NaiveTime,
    }
    const { assert!(marshal::fixed_len::<Row>() == 12 + 16 + 4 + 8) };
    const { assert!(<Row as Unmarshal>::MIN_LEN_IS_EXACT) };
}

#[test]
fn rejected_instants() {
    // Nanoseconds of 10⁹ or more, whatever the type.
    let bad_nanos = bytes_of(0, 1_000_000_000);
    let kind = DecodeErrorKind::InvalidNanos(1_000_000_000);
    assert_decode_error::<Timestamp>(&bad_nanos, kind, 8);
    assert_decode_error::<SystemTime>(&bad_nanos, kind, 8);
    assert_decode_error::<DateTime<Utc>>(&bad_nanos, kind, 8);
    assert_decode_error::<NaiveDateTime>(&bad_nanos, kind, 8);
    assert_decode_error::<time::UtcDateTime>(&bad_nanos, kind, 8);
    assert_decode_error::<time::PrimitiveDateTime>(&bad_nanos, kind, 8);
    assert_decode_error::<jiff::Timestamp>(&bad_nanos, kind, 8);
    assert_decode_error::<jiff::civil::DateTime>(&bad_nanos, kind, 8);
    let mut with_offset = bad_nanos.to_vec();
    with_offset.extend_from_slice(&[0; 4]);
    assert_decode_error::<DateTime<FixedOffset>>(&with_offset, kind, 8);
    assert_decode_error::<time::OffsetDateTime>(&with_offset, kind, 8);

    // Instants beyond the library's range.
    let far = bytes_of(i64::MAX, 0);
    let kind = DecodeErrorKind::TimestampOutOfRange { secs: i64::MAX };
    assert_decode_error::<DateTime<Utc>>(&far, kind, 0);
    assert_decode_error::<NaiveDateTime>(&far, kind, 0);
    assert_decode_error::<time::UtcDateTime>(&far, kind, 0);
    assert_decode_error::<time::PrimitiveDateTime>(&far, kind, 0);
    assert_decode_error::<jiff::Timestamp>(&far, kind, 0);
    assert_decode_error::<jiff::civil::DateTime>(&far, kind, 0);
    // Year 10000 fits chrono but not time or jiff.
    let y10k = bytes_of(253_402_300_800, 0);
    assert!(marshal::from_bytes::<DateTime<Utc>>(&y10k).is_ok());
    let kind = DecodeErrorKind::TimestampOutOfRange {
        secs: 253_402_300_800,
    };
    assert_decode_error::<time::UtcDateTime>(&y10k, kind, 0);
    assert_decode_error::<jiff::civil::DateTime>(&y10k, kind, 0);

    // An instant in range whose local date-time is not.
    let max = DateTime::<Utc>::MAX_UTC.timestamp();
    let mut local_too_late = bytes_of(max, 0).to_vec();
    local_too_late.extend_from_slice(&3600i32.to_le_bytes());
    assert_decode_error::<DateTime<FixedOffset>>(
        &local_too_late,
        DecodeErrorKind::TimestampOutOfRange { secs: max },
        0,
    );
}

#[test]
fn rejected_offsets() {
    let with = |offset: i32| {
        let mut b = bytes_of(0, 0).to_vec();
        b.extend_from_slice(&offset.to_le_bytes());
        b
    };
    // chrono: below a day; time: below 26 hours.
    assert!(marshal::from_bytes::<DateTime<FixedOffset>>(&with(86_399)).is_ok());
    assert_decode_error::<DateTime<FixedOffset>>(
        &with(86_400),
        DecodeErrorKind::InvalidUtcOffset { secs: 86_400 },
        12,
    );
    assert_decode_error::<DateTime<FixedOffset>>(
        &with(-86_400),
        DecodeErrorKind::InvalidUtcOffset { secs: -86_400 },
        12,
    );
    assert!(marshal::from_bytes::<time::OffsetDateTime>(&with(-93_599)).is_ok());
    assert_decode_error::<time::OffsetDateTime>(
        &with(93_600),
        DecodeErrorKind::InvalidUtcOffset { secs: 93_600 },
        12,
    );
    assert_decode_error::<time::OffsetDateTime>(
        &with(i32::MIN),
        DecodeErrorKind::InvalidUtcOffset { secs: i32::MIN },
        12,
    );
}

#[test]
fn rejected_dates_and_times() {
    let days = |d: i32| d.to_le_bytes();
    assert_decode_error::<NaiveDate>(
        &days(i32::MAX),
        DecodeErrorKind::DateOutOfRange { days: i32::MAX },
        0,
    );
    assert_decode_error::<NaiveDate>(
        &days(i32::MIN),
        DecodeErrorKind::DateOutOfRange { days: i32::MIN },
        0,
    );
    // 2,932,897 days after 1970 is 10000-01-01: in chrono's range only.
    assert!(marshal::from_bytes::<NaiveDate>(&days(2_932_897)).is_ok());
    let kind = DecodeErrorKind::DateOutOfRange { days: 2_932_897 };
    assert_decode_error::<time::Date>(&days(2_932_897), kind, 0);
    assert_decode_error::<jiff::civil::Date>(&days(2_932_897), kind, 0);
    // And 4,371,588 days before it is -10000-12-31.
    let kind = DecodeErrorKind::DateOutOfRange { days: -4_371_588 };
    assert_decode_error::<time::Date>(&days(-4_371_588), kind, 0);
    assert_decode_error::<jiff::civil::Date>(&days(-4_371_588), kind, 0);

    let a_day = 86_400_000_000_000u64.to_le_bytes();
    let kind = DecodeErrorKind::InvalidTimeOfDay {
        nanos: 86_400_000_000_000,
    };
    assert_decode_error::<NaiveTime>(&a_day, kind, 0);
    assert_decode_error::<time::Time>(&a_day, kind, 0);
    assert_decode_error::<jiff::civil::Time>(&a_day, kind, 0);
    assert_decode_error::<jiff::civil::Time>(
        &[0xff; 8],
        DecodeErrorKind::InvalidTimeOfDay { nanos: u64::MAX },
        0,
    );
}

#[test]
fn rejected_signed_durations() {
    let dur = |secs: i64, nanos: i32| {
        let mut b = secs.to_le_bytes().to_vec();
        b.extend_from_slice(&nanos.to_le_bytes());
        b
    };
    for (secs, nanos) in [
        (1, -5),
        (-1, 5),
        (0, 1_000_000_000),
        (0, -1_000_000_000),
        (i64::MAX, i32::MAX),
        (i64::MIN, i32::MIN),
    ] {
        assert_decode_error::<jiff::SignedDuration>(
            &dur(secs, nanos),
            DecodeErrorKind::InvalidSignedNanos(nanos),
            8,
        );
    }
    for (secs, nanos) in [(0, -5), (0, 5), (-1, 0), (i64::MAX, 999_999_999)] {
        let d = marshal::from_bytes::<jiff::SignedDuration>(&dur(secs, nanos)).unwrap();
        assert_eq!((d.as_secs(), d.subsec_nanos()), (secs, nanos));
    }
}

#[test]
fn error_messages() {
    let msg = |bytes: &[u8]| {
        marshal::from_bytes::<jiff::civil::DateTime>(bytes)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        msg(&bytes_of(i64::MAX, 0)),
        format!(
            "instant at {} seconds out of range for the type at byte 0",
            i64::MAX
        )
    );
    assert_eq!(
        marshal::from_bytes::<(u8, time::Date)>(&[0, 0, 0, 0, 0x80])
            .unwrap_err()
            .to_string(),
        "date -2147483648 days from 1970-01-01 out of range for the type at byte 1"
    );
    assert_eq!(
        marshal::from_bytes::<NaiveTime>(&[0xff; 8])
            .unwrap_err()
            .to_string(),
        "time of day 18446744073709551615 ns after midnight out of range \
         (must be below 86400000000000) at byte 0"
    );
    let mut odt = bytes_of(0, 0).to_vec();
    odt.extend_from_slice(&100_000i32.to_le_bytes());
    assert_eq!(
        marshal::from_bytes::<time::OffsetDateTime>(&odt)
            .unwrap_err()
            .to_string(),
        "UTC offset of 100000 seconds out of range for the type at byte 12"
    );
    assert_eq!(
        marshal::from_bytes::<GoTime>(&[9; 15])
            .unwrap_err()
            .to_string(),
        "unknown Go time encoding version 9 (expected 1 or 2) at byte 0"
    );
    let mut dur = 1i64.to_le_bytes().to_vec();
    dur.extend_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(
        marshal::from_bytes::<jiff::SignedDuration>(&dur)
            .unwrap_err()
            .to_string(),
        "signed nanoseconds -1 out of range (must be below 1000000000 in magnitude, \
         with the sign of the seconds) at byte 8"
    );
    assert!(std::mem::size_of::<marshal::DecodeError>() <= 24);
}

/// chrono's leap seconds are written as the second after them, as chrono's
/// own conversion to `SystemTime` does: the one value that does not read
/// back as itself.
#[test]
fn chrono_leap_seconds_carry_into_the_next_second() {
    let leap = NaiveTime::from_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap();
    assert_eq!(leap.to_string(), "23:59:60.500");
    let bytes = marshal::to_vec(&leap);
    assert_eq!(bytes, 500_000_000u64.to_le_bytes());
    assert_eq!(
        marshal::from_bytes::<NaiveTime>(&bytes).unwrap(),
        NaiveTime::from_hms_milli_opt(0, 0, 0, 500).unwrap()
    );
    let leap = NaiveTime::from_hms_nano_opt(12, 34, 59, 1_000_000_001).unwrap();
    assert_eq!(
        marshal::from_bytes::<NaiveTime>(&marshal::to_vec(&leap)).unwrap(),
        NaiveTime::from_hms_nano_opt(12, 35, 0, 1).unwrap()
    );

    let leap = utc(1_483_228_799, 1_250_000_000); // 2016-12-31T23:59:60.25Z
    let bytes = marshal::to_vec(&leap);
    assert_eq!(bytes, bytes_of(1_483_228_800, 250_000_000));
    assert_eq!(
        SystemTime::from(leap),
        marshal::from_bytes::<SystemTime>(&bytes).unwrap()
    );
    assert_eq!(
        marshal::to_vec(&leap.naive_utc()),
        bytes,
        "NaiveDateTime carries too"
    );
    assert_eq!(
        Timestamp::from(leap),
        Timestamp::new(1_483_228_800, 250_000_000).unwrap()
    );
}

/// From 1970 on, `SystemTime`'s bytes are bincode's (serde writes it as
/// `{ secs_since_epoch: u64, nanos_since_epoch: u32 }`), in both
/// directions; before 1970 serde refuses and marshal writes negative
/// seconds.
#[test]
fn system_time_matches_bincode() {
    let times = [
        UNIX_EPOCH,
        UNIX_EPOCH + Duration::new(0, 1),
        UNIX_EPOCH + Duration::new(1_709_164_800, 123_456_789),
        UNIX_EPOCH + Duration::new(253_402_300_799, 999_999_999),
        UNIX_EPOCH + Duration::new(i64::MAX as u64, 999_999_999),
        SystemTime::now(),
    ];
    for t in times {
        let ours = marshal::to_vec(&t);
        assert_eq!(ours, bincode::serialize(&t).unwrap(), "{t:?}");
        assert_eq!(bincode::deserialize::<SystemTime>(&ours).unwrap(), t);
        assert_eq!(marshal::from_bytes::<SystemTime>(&ours).unwrap(), t);
    }
    let before = UNIX_EPOCH - Duration::new(1, 1);
    assert!(bincode::serialize(&before).is_err());
    assert_eq!(marshal::to_vec(&before), bytes_of(-2, 999_999_999));
    let min = UNIX_EPOCH - Duration::from_secs(1 << 63);
    assert_eq!(marshal::to_vec(&min), bytes_of(i64::MIN, 0));
    assert_eq!(
        marshal::from_bytes::<SystemTime>(&bytes_of(i64::MIN, 0)).unwrap(),
        min
    );
}
