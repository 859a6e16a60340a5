//! Error types.

use core::fmt;

/// A [`Writer`](crate::Writer) ran out of buffer space.
///
/// This is the error of the low-level [`Marshal::encode`](crate::Marshal::encode)
/// path. The public entry points turn it into a [`BufferTooSmall`] that says how
/// many bytes were needed.
///
/// ```
/// let mut buf = [0u8; 1];
/// let mut w = marshal::Writer::new(&mut buf);
/// assert_eq!(w.put_slice(b"ab"), Err(marshal::Overflow));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Overflow;

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("output buffer too small")
    }
}

impl core::error::Error for Overflow {}

/// The buffer given to [`Marshal::try_write_to`](crate::Marshal::try_write_to)
/// is shorter than the value's encoding.
///
/// ```
/// use marshal::{BufferTooSmall, Marshal};
///
/// let mut buf = [0u8; 3];
/// let err = 7u64.try_write_to(&mut buf).unwrap_err();
/// assert_eq!(err, BufferTooSmall { needed: 8, available: 3 });
/// assert_eq!(err.to_string(), "buffer too small: encoding needs 8 bytes, buffer has 3");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BufferTooSmall {
    /// The exact encoded length of the value, as [`Marshal::encoded_len`](crate::Marshal::encoded_len) reports it.
    pub needed: usize,
    /// The length of the buffer that was given.
    pub available: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "buffer too small: encoding needs {} bytes, buffer has {}",
            self.needed, self.available
        )
    }
}

impl core::error::Error for BufferTooSmall {}
