//! `marshal::adapters::SerdeForm` against the real `bincode` 1.3 crate with
//! chrono's, time's and jiff's own `serde` support.
//!
//! For seeded random values of every type the adapter covers, across the
//! type's whole range (its minimum and maximum, years before 0 and after
//! 9999, leap seconds, nanoseconds of every precision, offsets of whole
//! hours, minutes and seconds), held by a derived struct as a field
//! `#[marshal(as = SerdeForm)]` after a byte: `marshal::to_vec` gives
//! exactly `bincode::serialize`'s bytes of the same pair, `encoded_len`
//! their length (within `MAX_LEN`, equal to `FIXED_LEN`), marshal reads
//! them back as the value, `try_write_to` into every shorter buffer fails
//! cleanly, and damaged copies (every truncation, every byte changed to
//! each of a few values, the string with a character removed, inserted or
//! changed under a valid length prefix) are accepted by both decoders or
//! by neither, as the same values, a refused value being a `Custom` error
//! at the field's offset. Then: the forms' fingerprints are those of the
//! types whose bytes they are, the longest values reach `MAX_LEN`, and a
//! counting global allocator (`src/counting.rs`) sees no allocation when
//! encoding or decoding.

use std::fmt::Debug;

use bincode::Options;
use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use marshal::adapters::SerdeForm;
use marshal::{DecodeErrorKind, Marshal, MarshalAs, Unmarshal, UnmarshalAs, Writer};
use marshal_test_suite::checks::bincode_exact;
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::rng::XorShift;
use serde::Serialize;
use serde::de::DeserializeOwned;

marshal_test_suite::counting_allocator!();

/// Random values per type, besides the boundaries.
const VALUES: usize = 160;

/// The byte before the adapted field, so that the field starts at offset 1.
const TAG: u8 = 0xa7;

/// A field written by `SerdeForm` after a byte: the bytes of serde's
/// `(u8, T)`.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Field<T> {
    tag: u8,
    #[marshal(as = SerdeForm)]
    value: T,
}

/// The same shape with the field's own `Marshal`: for fingerprints.
#[derive(Marshal)]
struct Plain<T> {
    tag: u8,
    value: T,
}

/// Bytes a changed byte becomes: digits, separators, a sign, a space, and
/// bytes that are not ASCII.
const BYTES: [u8; 10] = [0x00, 0xff, b'0', b'9', b'-', b'+', b':', b'T', b' ', 0x80];

/// Characters inserted into a string form.
const INSERTED: [&str; 6] = ["0", " ", "Z", ".", "+", "\u{e9}"];

/// What the damaged copies of one type came to, so a test can check that
/// its damage was neither all accepted nor all refused.
#[derive(Default, Debug)]
struct Tally {
    accepted: usize,
    refused: usize,
    /// Values that read back as themselves, and values that did not
    /// (chrono's offsets with seconds, which its form rounds).
    exact: usize,
    lossy: usize,
    /// The longest encoding seen.
    longest: usize,
}

/// Damaged copies of `bytes`, the encoding of a `Field`: every truncation,
/// a trailing byte, every byte changed to each of [`BYTES`] and to itself
/// with its case bit flipped, and for a string form, the string with each
/// character removed, each of [`INSERTED`] inserted at each position, and
/// a few changes to the whole, each under its right length prefix.
fn damaged(bytes: &[u8], is_string: bool) -> Vec<Vec<u8>> {
    let mut copies = Vec::new();
    for n in 0..bytes.len() {
        copies.push(bytes[..n].to_vec());
    }
    copies.push([bytes, &[0]].concat());
    for at in 0..bytes.len() {
        for b in BYTES.into_iter().chain([bytes[at] ^ 0x20]) {
            if b != bytes[at] {
                let mut changed = bytes.to_vec();
                changed[at] = b;
                copies.push(changed);
            }
        }
    }
    if is_string {
        let s = std::str::from_utf8(&bytes[9..]).expect("the string form is UTF-8");
        let with = |s: &[u8]| {
            let mut v = vec![TAG];
            v.extend_from_slice(&(s.len() as u64).to_le_bytes());
            v.extend_from_slice(s);
            v
        };
        for at in 0..s.len() {
            let mut removed = s.as_bytes().to_vec();
            removed.remove(at);
            copies.push(with(&removed));
        }
        for at in 0..=s.len() {
            for ins in INSERTED {
                copies.push(with(format!("{}{ins}{}", &s[..at], &s[at..]).as_bytes()));
            }
        }
        for changed in [
            s.to_lowercase(),
            s.replace('T', " "),
            s.replace('Z', "+00:00"),
            s.replace("+00:00", "Z"),
            format!("{s}Z"),
            format!(" {s}"),
            format!("{s} "),
            format!("+{s}"),
            String::new(),
        ] {
            copies.push(with(changed.as_bytes()));
        }
        let mut not_utf8 = s.as_bytes().to_vec();
        not_utf8[0] = 0xc3;
        copies.push(with(&not_utf8));
    }
    copies
}

/// Every check of one value; `exact` says whether it must read back as
/// itself (its form loses nothing).
fn check<T>(value: T, exact: bool, tally: &mut Tally)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Copy,
    SerdeForm: MarshalAs<T> + for<'de> UnmarshalAs<'de, T>,
{
    let theirs = bincode::serialize(&(TAG, value)).expect("bincode serializes the value");
    let field = Field { tag: TAG, value };
    let ours = marshal::to_vec(&field);
    assert_eq!(
        ours,
        theirs,
        "{value:?}: marshal {:?}, bincode {:?}",
        String::from_utf8_lossy(&ours),
        String::from_utf8_lossy(&theirs)
    );
    let len = ours.len();
    assert_eq!(field.encoded_len(), len, "{value:?}");
    assert_eq!(<SerdeForm as MarshalAs<T>>::encoded_len_as(&value), len - 1);
    if let Some(max) = <SerdeForm as MarshalAs<T>>::MAX_LEN {
        assert!(
            len - 1 <= max,
            "{value:?}: {} bytes, MAX_LEN {max}",
            len - 1
        );
    }
    if let Some(fixed) = <SerdeForm as MarshalAs<T>>::FIXED_LEN {
        assert_eq!(len - 1, fixed, "{value:?}");
    }
    assert!(len > <SerdeForm as UnmarshalAs<'_, T>>::MIN_LEN);
    tally.longest = tally.longest.max(len - 1);

    // Both read the bytes back alike, without allocating; as the value
    // itself where the form loses nothing. (chrono writes an offset within
    // 30 seconds of a whole day as `+24:00`, which it does not read back.)
    let guard = lock();
    let (back, allocs) = measure(&guard, || marshal::from_bytes::<Field<T>>(&ours));
    drop(guard);
    if back.is_ok() {
        assert_eq!(allocs.count, 0, "{value:?}: decoding allocated");
    }
    let bincode_back = bincode_exact().deserialize::<(u8, T)>(&ours);
    match (back, bincode_back) {
        (Ok(back), Ok(bincode_back)) => {
            assert_eq!((back.tag, back.value), bincode_back, "{value:?}");
            if back.value == value && bincode::serialize(&(TAG, back.value)).unwrap() == theirs {
                tally.exact += 1;
            } else {
                assert!(!exact, "{value:?} read back as {:?}", back.value);
                tally.lossy += 1;
            }
        }
        (Err(_), Err(_)) => {
            assert!(!exact, "{value:?}: neither reads its bytes back");
            tally.lossy += 1;
        }
        (back, bincode_back) => panic!(
            "{value:?}: marshal {back:?}, bincode {:?}",
            bincode_back.map_err(|e| e.to_string())
        ),
    }

    // Encoding allocates nothing either.
    let mut buf = vec![0x5a; len + 4];
    let guard = lock();
    let (n, allocs) = measure(&guard, || field.write_to(&mut buf));
    drop(guard);
    assert_eq!((n, allocs.count), (len, 0), "{value:?}: encoding allocated");

    // Every shorter buffer is refused, and the full one written exactly.
    buf.fill(0x5a);
    for n in 0..len {
        let err = field.try_write_to(&mut buf[..n]).unwrap_err();
        assert_eq!((err.needed, err.available), (len, n), "{value:?}");
    }
    assert_eq!(field.try_write_to(&mut buf), Ok(len));
    assert_eq!(&buf[..len], &ours[..]);
    assert!(buf[len..].iter().all(|&b| b == 0x5a), "wrote past the end");

    let is_string = <SerdeForm as MarshalAs<T>>::FIXED_LEN.is_none();
    for input in damaged(&ours, is_string) {
        let ours = marshal::from_bytes::<Field<T>>(&input);
        let theirs = bincode_exact().deserialize::<(u8, T)>(&input);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!(
                    (a.tag, a.value),
                    *b,
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
                assert_eq!(
                    bincode::serialize(&a.value).unwrap(),
                    bincode::serialize(&b.1).unwrap()
                );
                tally.accepted += 1;
            }
            (Err(err), Err(_)) => {
                if let DecodeErrorKind::Custom(_) = err.kind() {
                    assert_eq!(err.offset(), 1, "{err}");
                }
                tally.refused += 1;
            }
            _ => panic!(
                "marshal {:?}, bincode {:?}, for {:02x?} ({:?})",
                ours,
                theirs.map_err(|e| e.to_string()),
                input,
                String::from_utf8_lossy(&input)
            ),
        }
    }
}

/// Checks every value, then that the damage was both accepted and
/// refused, that the longest encoding reached `MAX_LEN` where there is
/// one, and that most values read back as themselves.
fn check_all<T>(values: impl IntoIterator<Item = (T, bool)>)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Copy,
    SerdeForm: MarshalAs<T> + for<'de> UnmarshalAs<'de, T>,
{
    let mut tally = Tally::default();
    for (value, exact) in values {
        check(value, exact, &mut tally);
    }
    assert!(tally.accepted > 0 && tally.refused > 0, "{tally:?}");
    assert!(tally.exact > VALUES / 2, "{tally:?}");
    if let Some(max) = <SerdeForm as MarshalAs<T>>::MAX_LEN {
        assert_eq!(
            tally.longest, max,
            "the longest values fall short of MAX_LEN"
        );
    }
}

/// Nanoseconds: none, whole milliseconds, whole microseconds, or any.
fn nanos(rng: &mut XorShift) -> u32 {
    match rng.below(4) {
        0 => 0,
        1 => rng.below(1_000) as u32 * 1_000_000,
        2 => rng.below(1_000_000) as u32 * 1_000,
        _ => rng.below(1_000_000_000) as u32,
    }
}

/// A number in `lo..=hi`.
fn between(rng: &mut XorShift, lo: i64, hi: i64) -> i64 {
    lo + (rng.next() % (hi - lo + 1) as u64) as i64
}

// ---------------------------------------------------------------------------
// chrono.

fn random_chrono_date(rng: &mut XorShift) -> NaiveDate {
    let days = |d: NaiveDate| i64::from(d.num_days_from_ce());
    let ymd = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    let (lo, hi) = match rng.below(4) {
        0 => (days(NaiveDate::MIN), days(NaiveDate::MAX)),
        1 => (days(ymd(-12_000, 1, 1)), days(ymd(12_000, 12, 31))),
        _ => (days(ymd(1900, 1, 1)), days(ymd(2100, 12, 31))),
    };
    NaiveDate::from_num_days_from_ce_opt(between(rng, lo, hi) as i32).unwrap()
}

fn random_chrono_time(rng: &mut XorShift) -> NaiveTime {
    let secs = rng.below(86_400) as u32;
    let nanos = nanos(rng);
    if rng.below(8) == 0 {
        // A leap second: second 59 with 10⁹ nanoseconds or more.
        NaiveTime::from_hms_nano_opt(secs / 3600, secs / 60 % 60, 59, 1_000_000_000 + nanos)
            .unwrap()
    } else {
        NaiveTime::from_num_seconds_from_midnight_opt(secs, nanos).unwrap()
    }
}

fn random_chrono_date_time(rng: &mut XorShift) -> NaiveDateTime {
    random_chrono_date(rng).and_time(random_chrono_time(rng))
}

/// An offset: zero, whole hours, whole minutes, or any second, up to a
/// day.
fn random_chrono_offset(rng: &mut XorShift) -> i32 {
    match rng.below(5) {
        0 => 0,
        1 => between(rng, -23, 23) as i32 * 3600,
        2 => between(rng, -1439, 1439) as i32 * 60,
        3 => [86_399, -86_399, 86_340, -86_340, 29, -30, 31][rng.below(7)],
        _ => between(rng, -86_399, 86_399) as i32,
    }
}

fn chrono_fixed(utc: NaiveDateTime, offset: i32) -> Option<(DateTime<FixedOffset>, bool)> {
    let offset_ = FixedOffset::east_opt(offset).unwrap();
    utc.checked_add_offset(offset_)?;
    // chrono's form rounds the offset to the minute.
    Some((
        DateTime::from_naive_utc_and_offset(utc, offset_),
        offset % 60 == 0,
    ))
}

fn chrono_date_boundaries() -> Vec<NaiveDate> {
    let ymd = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    vec![
        NaiveDate::MIN,
        NaiveDate::MAX,
        ymd(-1, 12, 31),
        ymd(0, 1, 1),
        ymd(9999, 12, 31),
        ymd(10_000, 1, 1),
        ymd(-9999, 1, 1),
        ymd(-10_000, 12, 31),
        ymd(2000, 2, 29),
        ymd(1970, 1, 1),
    ]
}

fn chrono_time_boundaries() -> Vec<NaiveTime> {
    let hms = |h, m, s, n| NaiveTime::from_hms_nano_opt(h, m, s, n).unwrap();
    vec![
        NaiveTime::MIN,
        hms(23, 59, 59, 999_999_999),
        hms(23, 59, 59, 1_000_000_000),
        hms(12, 0, 59, 1_999_999_999),
        hms(0, 0, 0, 1),
        hms(0, 0, 0, 1_000),
        hms(0, 0, 0, 1_000_000),
        hms(0, 0, 0, 100_000_000),
    ]
}

#[test]
fn chrono_naive_date() {
    let mut rng = XorShift(0x6a09_e667_f3bc_c908);
    let random: Vec<_> = (0..VALUES).map(|_| random_chrono_date(&mut rng)).collect();
    check_all(
        chrono_date_boundaries()
            .into_iter()
            .chain(random)
            .map(|d| (d, true)),
    );
}

#[test]
fn chrono_naive_time() {
    let mut rng = XorShift(0xbb67_ae85_84ca_a73b);
    let random: Vec<_> = (0..VALUES).map(|_| random_chrono_time(&mut rng)).collect();
    check_all(
        chrono_time_boundaries()
            .into_iter()
            .chain(random)
            .map(|t| (t, true)),
    );
}

fn chrono_date_time_boundaries() -> Vec<NaiveDateTime> {
    let mut all = vec![NaiveDateTime::MIN, NaiveDateTime::MAX];
    for d in chrono_date_boundaries() {
        for t in chrono_time_boundaries() {
            all.push(d.and_time(t));
        }
    }
    all
}

#[test]
fn chrono_naive_date_time() {
    let mut rng = XorShift(0x3c6e_f372_fe94_f82b);
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_chrono_date_time(&mut rng))
        .collect();
    check_all(
        chrono_date_time_boundaries()
            .into_iter()
            .chain(random)
            .map(|dt| (dt, true)),
    );
}

#[test]
fn chrono_date_time_utc() {
    let mut rng = XorShift(0xa54f_f53a_5f1d_36f1);
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_chrono_date_time(&mut rng))
        .collect();
    check_all(
        chrono_date_time_boundaries()
            .into_iter()
            .chain(random)
            .map(|dt| (dt.and_utc(), true)),
    );
}

#[test]
fn chrono_date_time_fixed_offset() {
    let mut rng = XorShift(0x510e_527f_ade6_82d1);
    let mut values = Vec::new();
    for dt in chrono_date_time_boundaries() {
        for offset in [0, 3600, -3600, 86_340, -86_340, 86_399, -86_399, 59, -1] {
            values.extend(chrono_fixed(dt, offset));
        }
    }
    while values.len() < 3 * VALUES {
        let dt = random_chrono_date_time(&mut rng);
        let offset = random_chrono_offset(&mut rng);
        values.extend(chrono_fixed(dt, offset));
    }
    check_all(values);
}

// ---------------------------------------------------------------------------
// time.

fn random_time_date(rng: &mut XorShift) -> time::Date {
    let jd = |d: time::Date| i64::from(d.to_julian_day());
    let ymd = |y, m, d| time::Date::from_calendar_date(y, m, d).unwrap();
    let (lo, hi) = match rng.below(3) {
        0 => (jd(time::Date::MIN), jd(time::Date::MAX)),
        _ => (
            jd(ymd(1900, time::Month::January, 1)),
            jd(ymd(2100, time::Month::December, 31)),
        ),
    };
    time::Date::from_julian_day(between(rng, lo, hi) as i32).unwrap()
}

fn random_time_time(rng: &mut XorShift) -> time::Time {
    let secs = rng.below(86_400) as u32;
    let (h, m, s) = (
        (secs / 3600) as u8,
        (secs / 60 % 60) as u8,
        (secs % 60) as u8,
    );
    time::Time::from_hms_nano(h, m, s, nanos(rng)).unwrap()
}

fn random_time_primitive(rng: &mut XorShift) -> time::PrimitiveDateTime {
    time::PrimitiveDateTime::new(random_time_date(rng), random_time_time(rng))
}

fn random_time_offset(rng: &mut XorShift) -> time::UtcOffset {
    let secs = match rng.below(4) {
        0 => 0,
        1 => between(rng, -25, 25) as i32 * 3600,
        2 => between(rng, -1559, 1559) as i32 * 60,
        _ => between(rng, -93_599, 93_599) as i32,
    };
    time::UtcOffset::from_whole_seconds(secs).unwrap()
}

fn time_primitive_boundaries() -> Vec<time::PrimitiveDateTime> {
    let dates = [
        time::Date::MIN,
        time::Date::MAX,
        time::Date::from_ordinal_date(0, 366).unwrap(),
        time::Date::from_ordinal_date(-1, 365).unwrap(),
        time::Date::from_ordinal_date(2024, 60).unwrap(),
    ];
    let times = [
        time::Time::MIDNIGHT,
        time::Time::MAX,
        time::Time::from_hms_nano(12, 30, 15, 1).unwrap(),
    ];
    let mut all = Vec::new();
    for d in dates {
        for t in times {
            all.push(time::PrimitiveDateTime::new(d, t));
        }
    }
    all
}

#[test]
fn time_date() {
    let mut rng = XorShift(0x9b05_688c_2b3e_6c1f);
    let random: Vec<_> = (0..VALUES).map(|_| random_time_date(&mut rng)).collect();
    check_all(
        time_primitive_boundaries()
            .into_iter()
            .map(|dt| dt.date())
            .chain(random)
            .map(|d| (d, true)),
    );
}

#[test]
fn time_time() {
    let mut rng = XorShift(0x1f83_d9ab_fb41_bd6b);
    let random: Vec<_> = (0..VALUES).map(|_| random_time_time(&mut rng)).collect();
    check_all(
        time_primitive_boundaries()
            .into_iter()
            .map(|dt| dt.time())
            .chain(random)
            .map(|t| (t, true)),
    );
}

#[test]
fn time_primitive_date_time() {
    let mut rng = XorShift(0x5be0_cd19_137e_2179);
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_time_primitive(&mut rng))
        .collect();
    check_all(
        time_primitive_boundaries()
            .into_iter()
            .chain(random)
            .map(|dt| (dt, true)),
    );
}

#[test]
fn time_utc_date_time() {
    let mut rng = XorShift(0xcbbb_9d5d_c105_9ed8);
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_time_primitive(&mut rng))
        .collect();
    check_all(
        time_primitive_boundaries()
            .into_iter()
            .chain(random)
            .map(|dt| (dt.as_utc(), true)),
    );
}

#[test]
fn time_offset_date_time() {
    let mut rng = XorShift(0x629a_292a_367c_d507);
    let mut values = Vec::new();
    for dt in time_primitive_boundaries() {
        for secs in [0, 93_599, -93_599, 3_600, -1] {
            let offset = time::UtcOffset::from_whole_seconds(secs).unwrap();
            values.push((dt.assume_offset(offset), true));
        }
    }
    for _ in 0..VALUES {
        let dt = random_time_primitive(&mut rng);
        values.push((dt.assume_offset(random_time_offset(&mut rng)), true));
    }
    check_all(values);
}

// ---------------------------------------------------------------------------
// jiff.

fn random_jiff_date(rng: &mut XorShift) -> jiff::civil::Date {
    let year = match rng.below(3) {
        0 => between(rng, -9999, 9999),
        1 => between(rng, -5, 5),
        _ => between(rng, 1900, 2100),
    } as i16;
    let month = between(rng, 1, 12) as i8;
    let last = jiff::civil::Date::new(year, month, 1)
        .unwrap()
        .days_in_month();
    let day = if rng.below(4) == 0 {
        last
    } else {
        between(rng, 1, i64::from(last)) as i8
    };
    jiff::civil::Date::new(year, month, day).unwrap()
}

fn random_jiff_time(rng: &mut XorShift) -> jiff::civil::Time {
    let secs = rng.below(86_400) as i32;
    let (h, m, s) = (
        (secs / 3600) as i8,
        (secs / 60 % 60) as i8,
        (secs % 60) as i8,
    );
    jiff::civil::Time::new(h, m, s, nanos(rng) as i32).unwrap()
}

fn random_jiff_date_time(rng: &mut XorShift) -> jiff::civil::DateTime {
    random_jiff_date(rng).to_datetime(random_jiff_time(rng))
}

fn random_jiff_timestamp(rng: &mut XorShift) -> jiff::Timestamp {
    loop {
        let (lo, hi) = match rng.below(3) {
            0 => (
                jiff::Timestamp::MIN.as_second(),
                jiff::Timestamp::MAX.as_second(),
            ),
            1 => (-62_200_000_000, -62_000_000_000),
            _ => (-2_208_988_800, 4_102_444_800),
        };
        if let Ok(ts) = jiff::Timestamp::new(between(rng, lo, hi), nanos(rng) as i32) {
            return ts;
        }
    }
}

fn jiff_date_time_boundaries() -> Vec<jiff::civil::DateTime> {
    let dates = [
        jiff::civil::Date::MIN,
        jiff::civil::Date::MAX,
        jiff::civil::date(-1, 12, 31),
        jiff::civil::date(0, 1, 1),
        jiff::civil::date(2024, 2, 29),
    ];
    let times = [
        jiff::civil::Time::MIN,
        jiff::civil::Time::MAX,
        jiff::civil::time(1, 2, 3, 100_000_000),
        jiff::civil::time(1, 2, 3, 1),
        jiff::civil::time(1, 2, 3, 120_000),
    ];
    let mut all = Vec::new();
    for d in dates {
        for t in times {
            all.push(d.to_datetime(t));
        }
    }
    all
}

#[test]
fn jiff_civil_date() {
    let mut rng = XorShift(0x428a_2f98_d728_ae22);
    let random: Vec<_> = (0..VALUES).map(|_| random_jiff_date(&mut rng)).collect();
    check_all(
        jiff_date_time_boundaries()
            .into_iter()
            .map(|dt| dt.date())
            .chain(random)
            .map(|d| (d, true)),
    );
}

#[test]
fn jiff_civil_time() {
    let mut rng = XorShift(0x7137_4491_23ef_65cd);
    let random: Vec<_> = (0..VALUES).map(|_| random_jiff_time(&mut rng)).collect();
    check_all(
        jiff_date_time_boundaries()
            .into_iter()
            .map(|dt| dt.time())
            .chain(random)
            .map(|t| (t, true)),
    );
}

#[test]
fn jiff_civil_date_time() {
    let mut rng = XorShift(0xb5c0_fbcf_ec4d_3b2f);
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_jiff_date_time(&mut rng))
        .collect();
    check_all(
        jiff_date_time_boundaries()
            .into_iter()
            .chain(random)
            .map(|dt| (dt, true)),
    );
}

#[test]
fn jiff_timestamp() {
    let mut rng = XorShift(0xe9b5_dba5_8189_dbbc);
    let boundaries = [
        jiff::Timestamp::MIN,
        jiff::Timestamp::MAX,
        jiff::Timestamp::UNIX_EPOCH,
        jiff::Timestamp::new(-1, 1).unwrap(),
        jiff::Timestamp::new(-62_167_219_201, 999_999_999).unwrap(),
        jiff::Timestamp::new(-377_705_023_201, 999_999_999).unwrap(),
    ];
    let random: Vec<_> = (0..VALUES)
        .map(|_| random_jiff_timestamp(&mut rng))
        .collect();
    check_all(boundaries.into_iter().chain(random).map(|ts| (ts, true)));
}

#[test]
fn jiff_signed_duration() {
    use jiff::SignedDuration;
    let mut rng = XorShift(0x3956_c25b_f348_b538);
    let mut values = vec![
        SignedDuration::MIN,
        SignedDuration::MAX,
        SignedDuration::ZERO,
        SignedDuration::new(59, 999_999_999),
        SignedDuration::new(60, 0),
        SignedDuration::new(-3600, 0),
        SignedDuration::new(3661, 0),
        SignedDuration::new(0, -1),
        SignedDuration::new(0, 1_000),
        // 16 digits of hours, 59 minutes, 59 seconds and 9 digits.
        SignedDuration::new(-3_600_000_000_000_003_599, -999_999_999),
    ];
    for _ in 0..VALUES {
        let secs = match rng.below(5) {
            0 => between(&mut rng, -59, 59),
            1 => between(&mut rng, -864_000, 864_000),
            2 => rng.next() as i64,
            3 => between(&mut rng, -1_000_000, 1_000_000) * [60, 3600][rng.below(2)],
            _ => 0,
        };
        let nanos = nanos(&mut rng) as i32;
        let nanos = if secs < 0 || (secs == 0 && rng.below(2) == 0) {
            -nanos
        } else {
            nanos
        };
        values.push(SignedDuration::new(secs, nanos));
    }
    check_all(values.into_iter().map(|d| (d, true)));
}

// ---------------------------------------------------------------------------
// Strings the crates did not write, which their parsers may still accept.

/// The bytes of `(TAG, s)`: the string after its length prefix.
fn string_field(s: &str) -> Vec<u8> {
    let mut bytes = vec![TAG];
    bytes.extend_from_slice(&(s.len() as u64).to_le_bytes());
    bytes.extend_from_slice(s.as_bytes());
    bytes
}

/// Checks that marshal and bincode accept the same of `strings` as the
/// same values, and that some are accepted and some refused.
fn check_strings<T>(strings: &[&str])
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Copy,
    SerdeForm: MarshalAs<T> + for<'de> UnmarshalAs<'de, T>,
{
    let (mut accepted, mut refused) = (0, 0);
    for s in strings {
        let bytes = string_field(s);
        let ours = marshal::from_bytes::<Field<T>>(&bytes).map(|f| f.value);
        let theirs = bincode_exact()
            .deserialize::<(u8, T)>(&bytes)
            .map(|(_, v)| v);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) if a == b => accepted += 1,
            (Err(err), Err(_)) => {
                assert_eq!(err.offset(), 1, "{s:?}: {err}");
                refused += 1;
            }
            _ => panic!(
                "{s:?}: marshal {ours:?}, bincode {:?}",
                theirs.map_err(|e| e.to_string())
            ),
        }
    }
    assert!(
        accepted > 0 && refused > 0,
        "{accepted} accepted, {refused} refused"
    );
}

/// Strings around an RFC 3339 date-time.
const DATE_TIMES: &[&str] = &[
    "2012-12-12T12:12:12Z",
    "2012-12-12 12:12:12Z",
    "2012-12-12t12:12:12z",
    "2012-12-12T12:12:12+0000",
    "2012-12-12T12:12:12+00:00",
    "2012-12-12T12:12:12-00:00",
    "2012-12-12T12:12:12.5+01:30",
    "2012-12-12T12:12:12+01:30:15",
    "2012-12-12T12:12:12+24:00",
    "2012-12-12T12:12:12+23:59",
    "2012-  12-12T12:  12:12Z",
    "2012-12-12T12:12:12Z ",
    " 2012-12-12T12:12:12Z",
    "2012-12-12T12:12:12",
    "2012-12-12T12:12",
    "2012-12-12",
    "2012-02-30T00:00:00Z",
    "2012-12-12T24:00:00Z",
    "2015-06-30T23:59:60Z",
    "2015-06-30T23:59:60.5+00:00",
    "2012-12-12T12:12:12.1234567891Z",
    "2012-12-12T12:12:12.123456789123",
    "2012-12-12T12:12:12,5Z",
    "+10000-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "-0001-01-01T00:00:00Z",
    "+002024-01-01T00:00:00Z",
    "-000000-01-01T00:00:00Z",
    "-262144-01-01T00:00:00Z",
    "-262145-01-01T00:00:00Z",
    "262143-12-31T23:59:59Z",
    "+262144-01-01T00:00:00Z",
    "20240101T000000Z",
    "2024-01-01T00:00:00Z[America/New_York]",
    "2024-01-01T00:00:00+05:00[UTC]",
    "2024-01-01T00:00:00[UTC]",
    "",
    " ",
    "Z",
];

/// Strings around a date.
const DATES: &[&str] = &[
    "2012-12-12",
    "2012-1-1",
    "2012-01-01 ",
    " 2012-01-01",
    "+2012-12-12",
    "+002012-12-12",
    "20121212",
    "2012-02-29",
    "2013-02-29",
    "-262144-01-01",
    "-262145-01-01",
    "262143-12-31",
    "262144-01-01",
    "-009999-01-01",
    "-010000-01-01",
    "2012-12-12T00:00:00",
    "2012-12-12T00:00:00Z",
    "2012-12",
    "",
];

/// Strings around a time of day.
const TIMES: &[&str] = &[
    "12:12:12",
    "12:12",
    "12",
    "1212",
    "121212",
    "T12:12:12",
    "t12:12:12",
    "1:2:3",
    "23:59:60",
    "23:59:60.999999999",
    "24:00:00",
    "12:12:12.",
    "12:12:12.1",
    "12:12:12.1234567890",
    "12:12:12Z",
    "12:12:12+05:00",
    "12:12:12-05:00[America/New_York]",
    "12:12:12[UTC]",
    "12:12:12 ",
    " 12:12:12",
    "2024-06-01T01:02:03",
    "2024-06-01",
    "1230-12",
    "12:12:12[a-time-zone-name-long-enough-to-make-the-string-longer-than-64]",
    "",
];

/// Strings around a duration.
const DURATIONS: &[&str] = &[
    "PT1S",
    "-PT1S",
    "+PT1S",
    "pt1s",
    "PT1.5S",
    "PT1,5S",
    "PT1H",
    "PT1H2M3.000000004S",
    "P1D",
    "P1Y",
    "PT",
    "PT0S",
    "1s",
    "-1s",
    "1 hour 2 minutes",
    "1h 2m",
    "2562047788015215h 30m 7s 999ms 999us 999ns",
    "PT2562047788015215H30M7.999999999S",
    "PT2562047788015215H30M8S",
    "PT9999999999999999999H",
    "",
];

#[test]
fn strings_chrono_did_not_write() {
    check_strings::<DateTime<Utc>>(DATE_TIMES);
    check_strings::<DateTime<FixedOffset>>(DATE_TIMES);
    check_strings::<NaiveDateTime>(DATE_TIMES);
    check_strings::<NaiveDate>(DATES);
    check_strings::<NaiveTime>(TIMES);
}

#[test]
fn strings_jiff_did_not_write() {
    check_strings::<jiff::Timestamp>(DATE_TIMES);
    check_strings::<jiff::civil::DateTime>(DATE_TIMES);
    check_strings::<jiff::civil::Date>(DATES);
    check_strings::<jiff::civil::Time>(TIMES);
    check_strings::<jiff::civil::Time>(DATE_TIMES);
    check_strings::<jiff::SignedDuration>(DURATIONS);
}

// ---------------------------------------------------------------------------
// Constants, offsets and allocations.

#[test]
fn fingerprints_are_those_of_the_types_whose_bytes_the_forms_are() {
    let string = <Plain<String> as Marshal>::FINGERPRINT;
    assert_eq!(<Field<DateTime<Utc>> as Marshal>::FINGERPRINT, string);
    assert_eq!(
        <Field<DateTime<FixedOffset>> as Marshal>::FINGERPRINT,
        string
    );
    assert_eq!(<Field<NaiveDateTime> as Marshal>::FINGERPRINT, string);
    assert_eq!(<Field<NaiveDate> as Marshal>::FINGERPRINT, string);
    assert_eq!(<Field<NaiveTime> as Marshal>::FINGERPRINT, string);
    assert_eq!(<Field<jiff::Timestamp> as Marshal>::FINGERPRINT, string);
    assert_eq!(
        <Field<jiff::civil::DateTime> as Marshal>::FINGERPRINT,
        string
    );
    assert_eq!(<Field<jiff::civil::Date> as Marshal>::FINGERPRINT, string);
    assert_eq!(<Field<jiff::civil::Time> as Marshal>::FINGERPRINT, string);
    assert_eq!(
        <Field<jiff::SignedDuration> as Marshal>::FINGERPRINT,
        string
    );
    assert_eq!(
        <Field<time::Date> as Marshal>::FINGERPRINT,
        <Plain<(i32, u16)> as Marshal>::FINGERPRINT
    );
    assert_eq!(
        <Field<time::Time> as Marshal>::FINGERPRINT,
        <Plain<(u8, u8, u8, u32)> as Marshal>::FINGERPRINT
    );
    let date_time = <Plain<(i32, u16, u8, u8, u8, u32)> as Marshal>::FINGERPRINT;
    assert_eq!(
        <Field<time::PrimitiveDateTime> as Marshal>::FINGERPRINT,
        date_time
    );
    assert_eq!(
        <Field<time::UtcDateTime> as Marshal>::FINGERPRINT,
        date_time
    );
    assert_eq!(
        <Field<time::OffsetDateTime> as Marshal>::FINGERPRINT,
        <Plain<(i32, u16, u8, u8, u8, u32, i8, i8, i8)> as Marshal>::FINGERPRINT
    );
    // And not the fingerprints of marshal's own forms.
    assert_ne!(
        <Field<DateTime<Utc>> as Marshal>::FINGERPRINT,
        <Plain<DateTime<Utc>> as Marshal>::FINGERPRINT
    );
    assert_ne!(
        <Field<time::Date> as Marshal>::FINGERPRINT,
        <Plain<time::Date> as Marshal>::FINGERPRINT
    );
}

#[test]
fn sizes_of_the_forms() {
    fn sizes<T>() -> (Option<usize>, Option<usize>, usize, bool)
    where
        SerdeForm: MarshalAs<T> + for<'de> UnmarshalAs<'de, T>,
    {
        (
            <SerdeForm as MarshalAs<T>>::FIXED_LEN,
            <SerdeForm as MarshalAs<T>>::MAX_LEN,
            <SerdeForm as UnmarshalAs<'_, T>>::MIN_LEN,
            <SerdeForm as UnmarshalAs<'_, T>>::MIN_LEN_IS_EXACT,
        )
    }
    let string = |max: usize| (None, Some(8 + max), 8, false);
    let fixed = |n| (Some(n), Some(n), n, true);
    assert_eq!(sizes::<DateTime<Utc>>(), string(33));
    assert_eq!(sizes::<DateTime<FixedOffset>>(), string(38));
    assert_eq!(sizes::<NaiveDateTime>(), string(32));
    assert_eq!(sizes::<NaiveDate>(), string(13));
    assert_eq!(sizes::<NaiveTime>(), string(18));
    assert_eq!(sizes::<time::OffsetDateTime>(), fixed(16));
    assert_eq!(sizes::<time::PrimitiveDateTime>(), fixed(13));
    assert_eq!(sizes::<time::UtcDateTime>(), fixed(13));
    assert_eq!(sizes::<time::Date>(), fixed(6));
    assert_eq!(sizes::<time::Time>(), fixed(7));
    assert_eq!(sizes::<jiff::Timestamp>(), string(33));
    assert_eq!(sizes::<jiff::civil::DateTime>(), string(32));
    assert_eq!(sizes::<jiff::civil::Date>(), string(13));
    assert_eq!(sizes::<jiff::civil::Time>(), string(18));
    assert_eq!(sizes::<jiff::SignedDuration>(), string(36));
    // A struct of fixed-size forms keeps its compile-time size.
    assert_eq!(
        <Field<time::OffsetDateTime> as Marshal>::FIXED_LEN,
        Some(17)
    );
    assert_eq!(<Field<NaiveDate> as Marshal>::MAX_LEN, Some(1 + 8 + 13));
}

#[test]
fn a_refused_value_is_an_error_at_its_offset() {
    // chrono: the month 13.
    let mut bytes = marshal::to_vec(&Field {
        tag: TAG,
        value: NaiveDate::from_ymd_opt(2024, 1, 31).unwrap(),
    });
    bytes[9 + 5..9 + 7].copy_from_slice(b"13");
    let err = marshal::from_bytes::<Field<NaiveDate>>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Custom(m) if m.contains("NaiveDate")),
        "{err}"
    );
    assert_eq!(err.offset(), 1);
    assert!(
        bincode_exact()
            .deserialize::<(u8, NaiveDate)>(&bytes)
            .is_err()
    );

    // time: day 366 of 2023.
    let mut bytes = marshal::to_vec(&Field {
        tag: TAG,
        value: time::Date::from_ordinal_date(2023, 365).unwrap(),
    });
    bytes[5..7].copy_from_slice(&366u16.to_le_bytes());
    let err = marshal::from_bytes::<Field<time::Date>>(&bytes).unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::Custom(_)), "{err}");
    assert_eq!(err.offset(), 1);
    assert!(
        bincode_exact()
            .deserialize::<(u8, time::Date)>(&bytes)
            .is_err()
    );

    // jiff: a string that is not UTF-8 is refused as any string is.
    let mut bytes = marshal::to_vec(&Field {
        tag: TAG,
        value: jiff::civil::time(1, 2, 3, 0),
    });
    bytes[9] = 0xff;
    let err = marshal::from_bytes::<Field<jiff::civil::Time>>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidUtf8);
    assert!(
        bincode_exact()
            .deserialize::<(u8, jiff::civil::Time)>(&bytes)
            .is_err()
    );

    // A truncated string.
    let err = marshal::from_bytes::<Field<jiff::civil::Time>>(&bytes[..12]).unwrap_err();
    assert!(err.is_incomplete(), "{err}");
}

/// A field of every type, each in its serde form.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Every {
    #[marshal(as = SerdeForm)]
    chrono_utc: DateTime<Utc>,
    #[marshal(as = SerdeForm)]
    chrono_fixed: DateTime<FixedOffset>,
    #[marshal(as = SerdeForm)]
    chrono_naive: NaiveDateTime,
    #[marshal(as = SerdeForm)]
    chrono_date: NaiveDate,
    #[marshal(as = SerdeForm)]
    chrono_time: NaiveTime,
    #[marshal(as = SerdeForm)]
    time_offset: time::OffsetDateTime,
    #[marshal(as = SerdeForm)]
    time_utc: time::UtcDateTime,
    #[marshal(as = SerdeForm)]
    time_primitive: time::PrimitiveDateTime,
    #[marshal(as = SerdeForm)]
    time_date: time::Date,
    #[marshal(as = SerdeForm)]
    time_time: time::Time,
    #[marshal(as = SerdeForm)]
    jiff_timestamp: jiff::Timestamp,
    #[marshal(as = SerdeForm)]
    jiff_date_time: jiff::civil::DateTime,
    #[marshal(as = SerdeForm)]
    jiff_date: jiff::civil::Date,
    #[marshal(as = SerdeForm)]
    jiff_time: jiff::civil::Time,
    #[marshal(as = SerdeForm)]
    jiff_duration: jiff::SignedDuration,
    #[marshal(as = Option<SerdeForm>)]
    maybe: Option<jiff::Timestamp>,
    #[marshal(as = [SerdeForm; 2])]
    pair: [DateTime<Utc>; 2],
}

/// The same fields through serde: what bincode 1.3 wrote.
#[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
struct EverySerde {
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
    maybe: Option<jiff::Timestamp>,
    pair: [DateTime<Utc>; 2],
}

fn every(i: u64) -> (Every, EverySerde) {
    let mut rng = XorShift(0x8000_0000_0000_0001 ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let chrono_naive = random_chrono_date_time(&mut rng);
    let chrono_fixed = chrono_fixed(
        random_chrono_date(&mut rng).and_hms_opt(12, 0, 0).unwrap(),
        3600,
    )
    .unwrap()
    .0;
    let primitive = random_time_primitive(&mut rng);
    let time_offset = primitive.assume_offset(random_time_offset(&mut rng));
    let jiff_timestamp = random_jiff_timestamp(&mut rng);
    let jiff_date_time = random_jiff_date_time(&mut rng);
    let jiff_duration = jiff::SignedDuration::new(rng.next() as i64, 5);
    let pair = [
        chrono_naive.and_utc(),
        random_chrono_date_time(&mut rng).and_utc(),
    ];
    let maybe = i.is_multiple_of(2).then_some(jiff_timestamp);
    macro_rules! both {
        ($($field:ident: $value:expr),* $(,)?) => {
            (Every { $($field: $value),* }, EverySerde { $($field: $value),* })
        };
    }
    both! {
        chrono_utc: chrono_naive.and_utc(),
        chrono_fixed: chrono_fixed,
        chrono_naive: chrono_naive,
        chrono_date: chrono_naive.date(),
        chrono_time: chrono_naive.time(),
        time_offset: time_offset,
        time_utc: primitive.as_utc(),
        time_primitive: primitive,
        time_date: primitive.date(),
        time_time: primitive.time(),
        jiff_timestamp: jiff_timestamp,
        jiff_date_time: jiff_date_time,
        jiff_date: jiff_date_time.date(),
        jiff_time: jiff_date_time.time(),
        jiff_duration: jiff_duration,
        maybe: maybe,
        pair: pair,
    }
}

#[test]
fn a_struct_of_every_type_has_bincodes_bytes() {
    for i in 0..64 {
        let (ours, theirs) = every(i);
        let bytes = bincode::serialize(&theirs).unwrap();
        assert_eq!(marshal::to_vec(&ours), bytes);
        assert_eq!(ours.encoded_len(), bytes.len());
        assert_eq!(marshal::from_bytes::<Every>(&bytes).unwrap(), ours);
        assert_eq!(
            bincode_exact().deserialize::<EverySerde>(&bytes).unwrap(),
            theirs
        );
    }
}

#[test]
fn encoding_and_decoding_do_not_allocate() {
    let values: Vec<Every> = (0..32).map(|i| every(i).0).collect();
    let mut buf = vec![0u8; 4096];
    let guard = lock();
    for value in &values {
        let len = value.encoded_len();
        assert!(len <= buf.len());

        let (n, allocs) = measure(&guard, || value.encoded_len());
        assert_eq!((n, allocs.count), (len, 0), "encoded_len allocated");

        let (n, allocs) = measure(&guard, || value.write_to(&mut buf));
        assert_eq!((n, allocs.count), (len, 0), "write_to allocated");

        let (r, allocs) = measure(&guard, || value.try_write_to(&mut buf[..len - 1]));
        assert!(r.is_err());
        assert_eq!(allocs.count, 0, "a failed try_write_to allocated");

        let (r, allocs) = measure(&guard, || {
            let mut w = Writer::new(&mut buf);
            value.encode(&mut w).map(|()| w.written())
        });
        assert_eq!((r, allocs.count), (Ok(len), 0), "encode allocated");

        let (back, allocs) = measure(&guard, || marshal::from_bytes::<Every>(&buf[..len]));
        assert_eq!(allocs.count, 0, "decoding allocated");
        assert_eq!(back.as_ref(), Ok(value));

        // Input cut short is refused without allocating.
        let (r, allocs) = measure(&guard, || marshal::from_bytes::<Every>(&buf[..len / 2]));
        assert!(r.is_err());
        assert_eq!(allocs.count, 0, "a failed decode allocated");
    }
    drop(guard);
}
