//! Checks that more than one suite makes of decoded values.

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
