//! The table-row check of the golden tests (`golden.rs`, `time_golden.rs`):
//! WIRE_FORMAT.md's `"2a 00 ..."` byte notation, checked in both directions.

use std::fmt::Debug;

use marshal::{Marshal, Unmarshal};

/// Parses the `"2a 00 ..."` notation of WIRE_FORMAT.md.
///
/// ```
/// assert_eq!(marshal_test_suite::golden::hex("2a 00 ff"), [0x2a, 0x00, 0xff]);
/// ```
///
/// # Panics
///
/// On a word that is not a hexadecimal byte.
pub fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// Asserts both directions for one table row: `value` encodes to `bytes`
/// (in [`hex`] notation), `encoded_len` is their length, and they decode
/// to `value`.
///
/// ```
/// marshal_test_suite::golden::row(0x1234u16, "34 12");
/// marshal_test_suite::golden::row(Some('é'), "01 c3 a9");
/// ```
///
/// # Panics
///
/// When a direction disagrees with the row.
#[track_caller]
pub fn row<T>(value: T, bytes: &str)
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    let expected = hex(bytes);
    assert_eq!(marshal::to_vec(&value), expected, "encoding {value:?}");
    assert_eq!(
        value.encoded_len(),
        expected.len(),
        "encoded_len of {value:?}"
    );
    assert_eq!(
        marshal::from_bytes::<T>(&expected).unwrap(),
        value,
        "decoding {bytes}"
    );
}
