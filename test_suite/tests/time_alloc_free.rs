//! Encoding timestamps never allocates: a counting global allocator watches
//! `encoded_len`, `write_to`, `try_write_to` and `encode` on a struct of
//! 1,000 timestamps of every type, `to_vec` makes exactly one allocation of
//! exactly `encoded_len` bytes, and decoding a fixed-size record of every
//! type allocates nothing either.
//!
//! The counting allocator is `src/counting.rs`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use marshal::time::{GoTime, Timestamp};
use marshal::{Marshal, Unmarshal, Writer};
use marshal_test_suite::counting::{lock, measure};

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// Values.

/// One timestamp of any type.
#[derive(Marshal)]
enum Stamp {
    Timestamp(Timestamp),
    SystemTime(SystemTime),
    Go(GoTime),
    ChronoUtc(DateTime<Utc>),
    ChronoFixed(DateTime<FixedOffset>),
    ChronoNaive(NaiveDateTime),
    ChronoDate(NaiveDate),
    ChronoTime(NaiveTime),
    TimeOffset(time::OffsetDateTime),
    TimeUtc(time::UtcDateTime),
    TimePrimitive(time::PrimitiveDateTime),
    TimeDate(time::Date),
    TimeTime(time::Time),
    JiffTimestamp(jiff::Timestamp),
    JiffDateTime(jiff::civil::DateTime),
    JiffDate(jiff::civil::Date),
    JiffTime(jiff::civil::Time),
    JiffDuration(jiff::SignedDuration),
}

/// A fixed-size record with one field of each fixed-size type.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Row {
    timestamp: Timestamp,
    system_time: SystemTime,
    chrono_utc: DateTime<Utc>,
    chrono_fixed: DateTime<FixedOffset>,
    chrono_naive: NaiveDateTime,
    chrono_date: NaiveDate,
    chrono_time: NaiveTime,
    time_offset: time::OffsetDateTime,
    time_utc: time::UtcDateTime,
    time_primitive: time::PrimitiveDateTime,
    time_date: time::Date,
    time_time: time::Time,
    jiff_timestamp: jiff::Timestamp,
    jiff_date_time: jiff::civil::DateTime,
    jiff_date: jiff::civil::Date,
    jiff_time: jiff::civil::Time,
    jiff_duration: jiff::SignedDuration,
}

/// 1,000 timestamps, every type in turn, and a fixed-size record.
#[derive(Marshal)]
struct Timeline {
    stamps: Vec<Stamp>,
    row: Row,
}

fn stamp(i: i64) -> Stamp {
    let secs = 1_700_000_000 + i * 7_919 - 500 * 86_400 * (i % 11);
    let nanos = (i * 104_729 % 1_000_000_000) as u32;
    let offset = ((i % 29) as i32 - 14) * 1_800 + (i % 7) as i32 * 7;
    let utc = DateTime::<Utc>::from_timestamp(secs, nanos).unwrap();
    let ts = jiff::Timestamp::new(secs, nanos as i32).unwrap();
    let odt = time::OffsetDateTime::from_unix_timestamp(secs)
        .unwrap()
        .to_offset(time::UtcOffset::from_whole_seconds(offset).unwrap());
    match i % 18 {
        0 => Stamp::Timestamp(Timestamp::new(secs, nanos).unwrap()),
        1 => Stamp::SystemTime(UNIX_EPOCH + Duration::new(secs as u64, nanos)),
        2 => Stamp::Go(GoTime::new(secs, nanos, (i % 2 == 0).then_some(offset)).unwrap()),
        3 => Stamp::ChronoUtc(utc),
        4 => Stamp::ChronoFixed(utc.with_timezone(&FixedOffset::east_opt(offset).unwrap())),
        5 => Stamp::ChronoNaive(utc.naive_utc()),
        6 => Stamp::ChronoDate(utc.date_naive()),
        7 => Stamp::ChronoTime(utc.time()),
        8 => Stamp::TimeOffset(odt),
        9 => Stamp::TimeUtc(odt.to_utc()),
        10 => Stamp::TimePrimitive(time::PrimitiveDateTime::new(odt.date(), odt.time())),
        11 => Stamp::TimeDate(odt.date()),
        12 => Stamp::TimeTime(odt.time()),
        13 => Stamp::JiffTimestamp(ts),
        14 => Stamp::JiffDateTime(jiff::tz::Offset::UTC.to_datetime(ts)),
        15 => Stamp::JiffDate(jiff::tz::Offset::UTC.to_datetime(ts).date()),
        16 => Stamp::JiffTime(jiff::tz::Offset::UTC.to_datetime(ts).time()),
        _ => Stamp::JiffDuration(jiff::SignedDuration::new(
            secs - 1_700_000_000,
            -(nanos as i32),
        )),
    }
}

fn row() -> Row {
    let secs = -14_182_940; // 1969-07-20T20:17:40Z
    let utc = DateTime::<Utc>::from_timestamp(secs, 5).unwrap();
    let odt = time::OffsetDateTime::from_unix_timestamp(secs)
        .unwrap()
        .to_offset(time::UtcOffset::from_hms(-5, -30, 0).unwrap());
    let ts = jiff::Timestamp::new(secs, 5).unwrap();
    let civil = jiff::tz::Offset::UTC.to_datetime(ts);
    Row {
        timestamp: Timestamp::new(secs, 5).unwrap(),
        system_time: UNIX_EPOCH - Duration::new(14_182_940, 0),
        chrono_utc: utc,
        chrono_fixed: utc.with_timezone(&FixedOffset::east_opt(5 * 3600 + 45 * 60).unwrap()),
        chrono_naive: utc.naive_utc(),
        chrono_date: utc.date_naive(),
        chrono_time: utc.time(),
        time_offset: odt,
        time_utc: odt.to_utc(),
        time_primitive: time::PrimitiveDateTime::new(odt.date(), odt.time()),
        time_date: odt.date(),
        time_time: odt.time(),
        jiff_timestamp: ts,
        jiff_date_time: civil,
        jiff_date: civil.date(),
        jiff_time: civil.time(),
        jiff_duration: jiff::SignedDuration::from_millis(-1_500),
    }
}

fn timeline() -> Timeline {
    Timeline {
        stamps: (0..1_000).map(stamp).collect(),
        row: row(),
    }
}

// ---------------------------------------------------------------------------
// Tests.

#[test]
fn the_counter_counts() {
    let guard = lock();
    let (boxed, allocs) = measure(&guard, || Box::new(5u64));
    assert_eq!((allocs.count, allocs.sizes.last().copied()), (1, Some(8)));
    drop(boxed);
}

#[test]
fn encoding_a_thousand_timestamps_does_not_allocate() {
    let value = timeline();
    assert_eq!(value.stamps.len(), 1_000);
    let len = value.encoded_len();
    assert!(len > 8 + 1_000 * (4 + 4), "{len}");
    let mut buf = vec![0xa5u8; len + 16];
    let mut short = vec![0u8; len / 2];
    let guard = lock();

    let (n, allocs) = measure(&guard, || value.encoded_len());
    assert_eq!((n, allocs.count), (len, 0), "encoded_len allocated");

    let (n, allocs) = measure(&guard, || value.write_to(&mut buf));
    assert_eq!((n, allocs.count), (len, 0), "write_to allocated");

    let (r, allocs) = measure(&guard, || value.try_write_to(&mut buf));
    assert_eq!((r, allocs.count), (Ok(len), 0), "try_write_to allocated");

    let (r, allocs) = measure(&guard, || value.try_write_to(&mut short));
    assert!(r.is_err());
    assert_eq!(allocs.count, 0, "a failed try_write_to allocated");

    let (r, allocs) = measure(&guard, || {
        let mut w = Writer::new(&mut buf);
        value.encode(&mut w).map(|()| w.written())
    });
    assert_eq!((r, allocs.count), (Ok(len), 0), "encode allocated");

    let (bytes, allocs) = measure(&guard, || marshal::to_vec(&value));
    assert_eq!(
        (allocs.count, allocs.sizes.last().copied()),
        (1, Some(len)),
        "to_vec: one allocation of encoded_len bytes"
    );
    drop(guard);

    assert_eq!(&buf[..len], &bytes[..]);
    assert!(
        buf[len..].iter().all(|&b| b == 0xa5),
        "wrote past encoded_len"
    );
}

#[test]
fn a_record_of_every_type_has_a_fixed_size_and_decodes_without_allocating() {
    assert_eq!(
        Row::FIXED_LEN,
        Some(12 + 12 + 12 + 16 + 12 + 4 + 8 + 16 + 12 + 12 + 4 + 8 + 12 + 12 + 4 + 8 + 12)
    );
    let value = row();
    let mut buf = [0u8; marshal::fixed_len::<Row>()];
    let guard = lock();
    let (n, allocs) = measure(&guard, || value.write_to(&mut buf));
    assert_eq!((n, allocs.count), (buf.len(), 0));
    let (back, allocs) = measure(&guard, || marshal::from_bytes::<Row>(&buf));
    assert_eq!(allocs.count, 0, "decoding allocated");
    drop(guard);
    let back = back.unwrap();
    assert_eq!(back, value);
    assert_eq!(back.chrono_fixed.offset(), value.chrono_fixed.offset());
    assert_eq!(back.time_offset.offset(), value.time_offset.offset());
}
