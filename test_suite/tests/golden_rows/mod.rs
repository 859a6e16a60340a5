//! The table-row check of the golden tests (`golden.rs`, `time_golden.rs`):
//! WIRE_FORMAT.md's `"2a 00 ..."` byte notation, checked in both directions.

use std::fmt::Debug;

use marshal::{Marshal, Unmarshal};

/// Parses the `"2a 00 ..."` notation of WIRE_FORMAT.md.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// Asserts both directions for one table row.
#[track_caller]
pub(crate) fn row<T>(value: T, bytes: &str)
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
