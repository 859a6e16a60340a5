//! Encoding timestamps never allocates: a counting global allocator watches
//! `encoded_len`, `write_to`, `try_write_to` and `encode` on a struct of
//! 1,000 timestamps of every type, `to_vec` makes exactly one allocation of
//! exactly `encoded_len` bytes, and decoding a fixed-size record of every
//! type allocates nothing either.
//!
//! Only allocations made by the measuring thread while a measurement is open
//! count (a thread-local flag), and measurements are serialized by a mutex.
#![cfg(all(feature = "chrono", feature = "time", feature = "jiff"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use marshal::time::{GoTime, Timestamp};
use marshal::{Marshal, Unmarshal, Writer};

// ---------------------------------------------------------------------------
// The counting allocator (as in tests/alloc_free.rs).

struct Counting;

/// Allocations (including reallocations) seen while measuring.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// The size of the last one.
static LAST_SIZE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread is inside a measured region.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn record(size: usize) {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        LAST_SIZE.store(size, Ordering::SeqCst);
    }
}

// SAFETY: every method forwards to `System` with the arguments it was given,
// so `System`'s guarantees are ours; the bookkeeping neither allocates nor
// touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Runs `f` with allocation counting on for this thread and returns its
/// result with the number of allocations and the size of the last.
fn measure<R>(_guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, usize, usize) {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    LAST_SIZE.store(0, Ordering::SeqCst);
    MEASURING.with(|m| m.set(true));
    let result = f();
    MEASURING.with(|m| m.set(false));
    (
        result,
        ALLOCATIONS.load(Ordering::SeqCst),
        LAST_SIZE.load(Ordering::SeqCst),
    )
}

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
    let (boxed, count, size) = measure(&guard, || Box::new(5u64));
    assert_eq!((count, size), (1, 8));
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

    let (n, count, _) = measure(&guard, || value.encoded_len());
    assert_eq!((n, count), (len, 0), "encoded_len allocated");

    let (n, count, _) = measure(&guard, || value.write_to(&mut buf));
    assert_eq!((n, count), (len, 0), "write_to allocated");

    let (r, count, _) = measure(&guard, || value.try_write_to(&mut buf));
    assert_eq!((r, count), (Ok(len), 0), "try_write_to allocated");

    let (r, count, _) = measure(&guard, || value.try_write_to(&mut short));
    assert!(r.is_err());
    assert_eq!(count, 0, "a failed try_write_to allocated");

    let (r, count, _) = measure(&guard, || {
        let mut w = Writer::new(&mut buf);
        value.encode(&mut w).map(|()| w.written())
    });
    assert_eq!((r, count), (Ok(len), 0), "encode allocated");

    let (bytes, count, size) = measure(&guard, || marshal::to_vec(&value));
    assert_eq!(
        (count, size),
        (1, len),
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
    let (n, count, _) = measure(&guard, || value.write_to(&mut buf));
    assert_eq!((n, count), (buf.len(), 0));
    let (back, count, _) = measure(&guard, || marshal::from_bytes::<Row>(&buf));
    assert_eq!(count, 0, "decoding allocated");
    drop(guard);
    let back = back.unwrap();
    assert_eq!(back, value);
    assert_eq!(back.chrono_fixed.offset(), value.chrono_fixed.offset());
    assert_eq!(back.time_offset.offset(), value.time_offset.offset());
}
