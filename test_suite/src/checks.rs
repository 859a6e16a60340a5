//! Checks that more than one suite makes of decoded values.

use std::fmt::Debug;

use marshal::{DecodeError, DecodeErrorKind, Unmarshal};

/// Whether `part` lies inside `input` (an empty `part` may sit at its end):
/// for a decoded `&str`, `&[u8]` or `Cow`, whether it borrows from the
/// bytes it was decoded from rather than from a copy.
///
/// ```
/// use marshal_test_suite::checks::borrows_from;
///
/// let input = marshal::to_vec("ferris");
/// let text: &str = marshal::from_bytes(&input).unwrap();
/// assert!(borrows_from(&input, text.as_bytes()));
/// assert!(!borrows_from(&input, "ferris".as_bytes()));
/// ```
pub fn borrows_from(input: &[u8], part: &[u8]) -> bool {
    let range = input.as_ptr_range();
    let start = part.as_ptr();
    range.start <= start && start.wrapping_add(part.len()) <= range.end
}

/// The error `from_bytes` gives for `input`, checked to be the one
/// `read_from` gives too (unless it is `TrailingBytes`, which `read_from`
/// does not look for).
///
/// ```
/// use marshal::DecodeErrorKind;
/// use marshal_test_suite::checks::decode_error;
///
/// let e = decode_error::<(u8, bool)>(&[1, 7]);
/// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidBool(7), 1));
/// ```
///
/// # Panics
///
/// If `input` decodes, or `read_from` disagrees.
#[track_caller]
pub fn decode_error<'de, T: Unmarshal<'de> + Debug>(input: &'de [u8]) -> DecodeError {
    let e = marshal::from_bytes::<T>(input).expect_err("decoded");
    if !matches!(e.kind(), DecodeErrorKind::TrailingBytes { .. }) {
        assert_eq!(T::read_from(input).err(), Some(e), "read_from disagrees");
    }
    e
}

/// Asserts that decoding `input` as a `T` fails with `kind` at `offset`,
/// through both entry points ([`decode_error`]).
///
/// ```
/// use marshal::DecodeErrorKind;
/// use marshal_test_suite::checks::assert_decode_error;
///
/// assert_decode_error::<u32>(&[1, 2], DecodeErrorKind::UnexpectedEnd { needed: 2 }, 0);
/// ```
///
/// # Panics
///
/// When it does not.
#[track_caller]
pub fn assert_decode_error<'de, T: Unmarshal<'de> + Debug>(
    input: &'de [u8],
    kind: DecodeErrorKind,
    offset: usize,
) {
    let e = decode_error::<T>(input);
    assert_eq!(
        (e.kind(), e.offset()),
        (kind, offset),
        "{} from {input:02x?}: {e}",
        std::any::type_name::<T>()
    );
}

/// bincode 1.3's options as `bincode::deserialize` uses them (fixed-width
/// integers, little-endian, no limit), but rejecting trailing bytes as
/// `marshal::from_bytes` does: the reference decoder the compatibility
/// suites compare marshal's against.
///
/// ```
/// use bincode::Options;
///
/// let bytes = bincode::serialize(&7u32).unwrap();
/// assert_eq!(marshal_test_suite::checks::bincode_exact().deserialize::<u32>(&bytes).unwrap(), 7);
/// assert!(marshal_test_suite::checks::bincode_exact().deserialize::<u32>(&[7, 0, 0, 0, 0]).is_err());
/// ```
pub fn bincode_exact() -> impl bincode::Options {
    use bincode::Options as _;
    bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .with_little_endian()
        .with_no_limit()
        .reject_trailing_bytes()
}
