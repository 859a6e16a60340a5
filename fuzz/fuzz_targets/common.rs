//! The round-trip check the decoding targets share.

use std::fmt::Debug;

use marshal::{Marshal, Unmarshal};

/// Decodes a `T` from the front of `data`. On success the value must
/// re-encode to exactly `encoded_len()` bytes that decode to an equal value,
/// and, when `canonical` (every value has one encoding), to the very bytes
/// that were read. When `data` is not one `T`, the error's site must be
/// that of its path (see [`check_site`]).
pub fn check<T>(data: &[u8], canonical: bool)
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    if let Err(err) = marshal::from_bytes::<T>(data) {
        check_site::<T>(data, err);
    }
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

/// `err`, what `from_bytes` returned for `data`: `error_path` finds the same
/// error, with the same site, and the site is the last field of the path
/// (when the path has one and kept every step).
fn check_site<T>(data: &[u8], err: marshal::DecodeError)
where
    T: for<'de> Unmarshal<'de>,
{
    let path = marshal::error_path::<T>(data).expect("the decode fails again");
    assert_eq!(path.error(), err);
    assert_eq!(path.error().site(), err.site());
    if let Some(site) = err.site() {
        let last_field = path.steps().iter().rev().find_map(|step| match step {
            marshal::Step::Field { ty, field } if *ty != "tuple" => Some((*ty, *field)),
            _ => None,
        });
        if path.left_out() == 0 {
            assert_eq!(
                last_field,
                Some((site.ty(), site.field())),
                "{err} at {path}"
            );
        }
    }
}
