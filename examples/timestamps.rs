//! An event record with several timestamp types: its compile-time size, its
//! bytes, and the same instant exchanged in Go's `time.Time.MarshalBinary`
//! format.
//!
//! ```sh
//! cargo run --example timestamps --features chrono,time,jiff
//! ```

use chrono::{DateTime, FixedOffset, NaiveDate, Utc};
use marshal::time::{GoTime, Timestamp};
use marshal::{Marshal, Unmarshal};

/// Something that happened, with every timestamp written in place.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Event {
    id: u64,
    /// When it happened (chrono, 12 bytes).
    occurred: DateTime<Utc>,
    /// When it was recorded, at the recorder's offset (time, 16 bytes).
    recorded: time::OffsetDateTime,
    /// The wall-clock time at the site (jiff, 12 bytes).
    local: jiff::civil::DateTime,
    /// The day it is booked against (chrono, 4 bytes).
    business_day: NaiveDate,
    /// When the site opens (jiff, 8 bytes).
    opens: jiff::civil::Time,
    /// How long after `occurred` to retry (jiff, 12 bytes).
    retry_after: jiff::SignedDuration,
    /// This crate's own instant (12 bytes).
    expires: Timestamp,
}

/// A fixed-size event encodes into a stack buffer sized at compile time.
const EVENT_LEN: usize = marshal::fixed_len::<Event>();

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let occurred = DateTime::<Utc>::from_timestamp(1_709_164_800, 123_456_789).ok_or("range")?;
    let tokyo = FixedOffset::east_opt(9 * 3600).ok_or("offset")?;
    let event = Event {
        id: 42,
        occurred,
        recorded: time::OffsetDateTime::from_unix_timestamp(1_709_164_801)?
            .to_offset(time::UtcOffset::from_hms(9, 0, 0)?),
        local: jiff::civil::date(2024, 2, 29).at(9, 0, 0, 123_456_789),
        business_day: NaiveDate::from_ymd_opt(2024, 2, 29).ok_or("date")?,
        opens: jiff::civil::time(8, 30, 0, 0),
        retry_after: jiff::SignedDuration::from_millis(-1_500),
        expires: Timestamp::new(1_709_251_200, 0)?,
    };

    println!("Event::FIXED_LEN = {:?}", Event::FIXED_LEN);
    let mut buf = [0u8; EVENT_LEN];
    let n = event.write_to(&mut buf);
    assert_eq!(n, EVENT_LEN);
    println!("{n} bytes: {}", hex(&buf));
    let back: Event = marshal::from_bytes(&buf)?;
    assert_eq!(back, event);
    println!("decoded: {back:?}");

    // The same instant, in Tokyo's zone, as Go writes it: a Go service reads
    // these bytes with `var t time.Time; t.UnmarshalBinary(b)`.
    let go = GoTime::try_from(occurred.with_timezone(&tokyo))?;
    let mut go_buf = [0u8; marshal::max_len::<GoTime>()];
    let n = go.write_to(&mut go_buf);
    println!(
        "\nGo time.Time.MarshalBinary, version {} ({n} bytes): {}",
        go.version(),
        hex(&go_buf[..n])
    );

    // And back: bytes a Go service wrote with
    // time.Date(1883, 11, 18, 12, 3, 57, 0, time.FixedZone("LMT", -17762)).MarshalBinary()
    // (New York's local mean time: an offset with seconds, so version 2).
    let from_go = [
        0x02, 0x00, 0x00, 0x00, 0x0d, 0xd5, 0x95, 0xe7, 0x8f, 0x00, 0x00, 0x00, 0x00, 0xfe, 0xd8,
        0xfe,
    ];
    let (lmt, _) = GoTime::read_from(&from_go)?;
    let lmt = DateTime::<FixedOffset>::try_from(lmt)?;
    println!("from Go: {lmt} (instant {})", lmt.to_utc());
    assert_eq!(lmt.to_string(), "1883-11-18 12:03:57 -04:56:02");
    Ok(())
}
