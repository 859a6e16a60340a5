//! `SerdeForm`: chrono's, time's and jiff's date and time types in the
//! bytes bincode 1.3 writes through each crate's own `serde` support.
//!
//! One file per crate; `text` holds what the string forms share.

#[cfg(feature = "chrono")]
mod chrono_form;
#[cfg(feature = "jiff")]
mod jiff_form;
#[cfg(any(feature = "chrono", feature = "jiff"))]
mod text;
#[cfg(feature = "time")]
mod time_form;

/// The adapter that writes a chrono, time or jiff date or time in the
/// bytes bincode 1.3 writes for it through the crate's own `serde` support
/// (`bincode::serialize` with the crate's `serde` feature), and reads them
/// back as the crate's `Deserialize` does: for data written by bincode 1.3
/// before a move to marshal.
///
/// Without it, a field of these types has marshal's own compact bytes (the
/// `chrono`, `time` and `jiff` features, see [`marshal::time`](crate::time)),
/// which are not bincode's: use `#[marshal(as = SerdeForm)]` on each field
/// that bincode 1.3 wrote through serde (`as = Option<SerdeForm>`,
/// `Vec<SerdeForm>`, ... for containers of them). No serde is involved at
/// run time, and the `serde` feature is not needed: encoding formats the
/// value straight into the output, and its length is computed without
/// formatting it; decoding borrows a string from the input and parses it
/// with the crate's own parser (its `FromStr`, which is what its
/// `Deserialize` calls). Neither allocates for the bytes the crates write.
/// (jiff's parser builds its errors on the heap when jiff's `alloc` feature
/// is on: refusing a string costs an allocation, and so does a string jiff
/// reads only after trying another form, such as a time of day without its
/// minutes.)
///
/// | type | feature | serde form | bytes |
/// | --- | --- | --- | --- |
/// | chrono `DateTime<Utc>` | `chrono` | string: RFC 3339 with `Z`, `2024-01-15T08:30:00.250Z` | 8 + 20 to 33 |
/// | chrono `DateTime<FixedOffset>` | `chrono` | string: RFC 3339 at its offset, `2024-01-15T08:30:00-05:00` (`Z` for +00:00; the offset rounded to the minute) | 8 + 20 to 38 |
/// | chrono `NaiveDateTime` | `chrono` | string: `2024-01-15T08:30:00.250` | 8 + 19 to 32 |
/// | chrono `NaiveDate` | `chrono` | string: `2024-01-15` | 8 + 10 to 13 |
/// | chrono `NaiveTime` | `chrono` | string: `08:30:00.250` | 8 + 8 to 18 |
/// | time `OffsetDateTime` | `time` | tuple: local `(year: i32, day of year: u16, hour: u8, minute: u8, second: u8, nanosecond: u32)`, then the offset's `(hours: i8, minutes: i8, seconds: i8)` | 16 |
/// | time `PrimitiveDateTime`, `UtcDateTime` | `time` | tuple: `(i32, u16, u8, u8, u8, u32)`, as above | 13 |
/// | time `Date` | `time` | tuple: `(year: i32, day of year: u16)` | 6 |
/// | time `Time` | `time` | tuple: `(hour: u8, minute: u8, second: u8, nanosecond: u32)` | 7 |
/// | jiff `Timestamp` | `jiff` | string: RFC 3339 with `Z`, `2024-01-15T08:30:00.25Z` | 8 + 20 to 33 |
/// | jiff `civil::DateTime` | `jiff` | string: `2024-01-15T08:30:00.25` | 8 + 19 to 32 |
/// | jiff `civil::Date` | `jiff` | string: `2024-01-15` | 8 + 10 to 13 |
/// | jiff `civil::Time` | `jiff` | string: `08:30:00.25` | 8 + 8 to 18 |
/// | jiff `SignedDuration` | `jiff` | string: ISO 8601 duration, `PT2H30M0.5S`, `-PT1S`, `PT0S` | 8 + 4 to 36 |
///
/// A string is written as bincode writes one: its length as a `u64`, then
/// its bytes. Details of the strings, as each crate writes them:
///
/// - chrono writes a fraction of a second as 3, 6 or 9 digits, the fewest
///   that are exact, and none for a whole second; a year outside 0 to 9999
///   with its sign and at least four digits (`+10000`, `-0001`); a leap
///   second as second 60 (`23:59:60.500Z`). jiff writes a fraction as
///   nine digits without their trailing zeros, and a year before 0 as
///   `-00` and four digits (`-000001`).
/// - time's forms are tuples because bincode is not human-readable: time's
///   `Serialize` writes strings only for formats that are.
///
/// Each string form has a [`MAX_LEN`](crate::MarshalAs::MAX_LEN) (the
/// longest string above, plus 8) and the fingerprint of a `String`; each
/// tuple form has a [`FIXED_LEN`](crate::MarshalAs::FIXED_LEN) and the
/// fingerprint of its tuple. A value the crate refuses (a string its parser
/// rejects, components out of range) is a [`DecodeError`](crate::DecodeError)
/// of kind [`Custom`](crate::DecodeErrorKind::Custom) at the offset where
/// the value starts; a string that is not UTF-8 is
/// [`InvalidUtf8`](crate::DecodeErrorKind::InvalidUtf8), as for any string.
///
/// These forms are bincode 1.3's bytes, so `SerdeForm` has them in
/// `config::legacy()`, the default, only: in another configuration, a type
/// with such a field has no impl, and encoding it there does not compile.
///
/// ```compile_fail
/// use marshal::{Marshal, adapters::SerdeForm, config};
///
/// #[derive(Marshal)]
/// struct Day(#[marshal(as = SerdeForm)] chrono::NaiveDate);
///
/// let day = Day(chrono::NaiveDate::MIN);
/// let _ = marshal::encode_to_vec(&day, config::legacy()); // compiles
/// let _ = marshal::encode_to_vec(&day, config::standard()); // does not
/// ```
///
/// ```
/// # #[cfg(feature = "chrono")] {
/// use chrono::{DateTime, Utc};
/// use marshal::adapters::SerdeForm;
/// use marshal::{DecodeErrorKind, Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Event {
///     id: u32,
///     // Written by bincode 1.3 through chrono's `Serialize`.
///     #[marshal(as = SerdeForm)]
///     at: DateTime<Utc>,
///     #[marshal(as = Option<SerdeForm>)]
///     ended: Option<DateTime<Utc>>,
/// }
///
/// let at = "2024-01-15T08:30:00.250Z".parse::<DateTime<Utc>>().unwrap();
/// let event = Event { id: 7, at, ended: None };
/// let bytes = marshal::to_vec(&event);
/// // What `bincode::serialize` writes for the same struct with serde's derive.
/// let mut expected = vec![7, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0];
/// expected.extend_from_slice(b"2024-01-15T08:30:00.250Z");
/// expected.push(0);
/// assert_eq!(bytes, expected);
/// assert_eq!(event.encoded_len(), bytes.len());
/// assert_eq!(Event::MAX_LEN, Some(4 + 41 + 1 + 41));
/// assert_eq!(marshal::from_bytes::<Event>(&bytes)?, event);
///
/// // A string chrono refuses, at the offset where the field starts.
/// let mut bad = bytes.clone();
/// bad[12 + 5] = b'x';
/// let err = marshal::from_bytes::<Event>(&bad).unwrap_err();
/// assert!(matches!(err.kind(), DecodeErrorKind::Custom(_)));
/// assert_eq!(err.offset(), 4);
/// # }
/// # #[cfg(feature = "time")] {
/// # use marshal::{adapters::SerdeForm, Marshal, Unmarshal};
/// // time's serde form of a date: (year, day of the year) as (i32, u16).
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Due(#[marshal(as = SerdeForm)] time::Date);
///
/// let due = Due(time::Date::from_ordinal_date(2024, 60).unwrap());
/// assert_eq!(Due::FIXED_LEN, Some(6));
/// assert_eq!(marshal::to_vec(&due), [0xe8, 0x07, 0, 0, 60, 0]);
/// assert_eq!(marshal::from_bytes::<Due>(&[0xe8, 0x07, 0, 0, 60, 0])?, due);
/// // Day 366 of a year that has 365.
/// assert!(marshal::from_bytes::<Due>(&[0xe9, 0x07, 0, 0, 0x6e, 1]).is_err());
/// # }
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub struct SerdeForm;
