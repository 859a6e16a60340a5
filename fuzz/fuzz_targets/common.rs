//! The round-trip check the decoding targets share.

use std::fmt::Debug;

use marshal::{Marshal, Unmarshal};

/// Decodes a `T` from the front of `data`. On success the value must
/// re-encode to exactly `encoded_len()` bytes that decode to an equal value,
/// and, when `canonical` (every value has one encoding), to the very bytes
/// that were read.
pub fn check<T>(data: &[u8], canonical: bool)
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    let Ok((value, used)) = T::read_from(data) else {
        return;
    };
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes.len(), value.encoded_len());
    if canonical {
        assert_eq!(bytes, data[..used], "not the bytes that were read");
    }
    let again: T = marshal::from_bytes(&bytes).expect("re-encoded value decodes");
    assert_eq!(again, value);
}
