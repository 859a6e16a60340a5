//! The string forms' shared parts: a string formatted on the stack, the
//! lengths of the numbers in it, and a string read back through a parser.

use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::Unmarshal;
use crate::writer::Writer;

/// The longest string any form writes: jiff's longest `SignedDuration`
/// (36 bytes) and chrono's longest `DateTime<FixedOffset>` (38) fit.
const CAPACITY: usize = 40;

/// A string formatted on the stack, then written after its length prefix
/// in one copy ([`Text::put`]).
pub(super) struct Text {
    bytes: [u8; CAPACITY],
    len: usize,
}

impl Text {
    /// An empty string.
    #[inline]
    pub(super) const fn new() -> Text {
        Text {
            bytes: [0; CAPACITY],
            len: 0,
        }
    }

    /// Appends one ASCII byte.
    #[inline]
    pub(super) fn byte(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    /// Appends `n` in decimal, with leading zeros to `width` digits at
    /// least (`width` 1: as few digits as it takes).
    #[inline]
    pub(super) fn padded(&mut self, mut n: u64, width: usize) {
        let end = self.len + digits(n).max(width);
        for slot in self.bytes[self.len..end].iter_mut().rev() {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
        }
        self.len = end;
    }

    /// Appends `n`, below 100, as two digits.
    #[inline]
    pub(super) fn two(&mut self, n: u32) {
        self.byte(b'0' + (n / 10 % 10) as u8);
        self.byte(b'0' + (n % 10) as u8);
    }

    /// The string so far.
    #[inline]
    pub(super) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// Writes the string as a `str` is written: its length as a `u64`,
    /// then its bytes.
    #[inline]
    pub(super) fn put(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_prefixed(self.as_bytes())
    }
}

/// The number of decimal digits of `n`.
#[inline]
pub(super) const fn digits(n: u64) -> usize {
    match n.checked_ilog10() {
        Some(log) => log as usize + 1,
        None => 1,
    }
}

/// Bytes in a string's length prefix, a `u64`.
pub(super) const LEN_PREFIX: usize = 8;

/// Reads a string, borrowed from the input and checked to be UTF-8 as
/// bincode checks it, and parses it with `parse`: the crate's own parser,
/// as its `Deserialize` does. A string the parser refuses is a
/// [`Custom`](crate::DecodeErrorKind::Custom) error with `message` at the
/// value's offset (its length prefix).
#[inline]
pub(super) fn parse_str<'de, T, E>(
    r: &mut Reader<'de>,
    message: &'static &'static str,
    parse: impl FnOnce(&'de str) -> Result<T, E>,
) -> Result<T, DecodeError> {
    let at = r.position();
    let s = <&'de str>::decode(r)?;
    parse(s).map_err(|_| DecodeError::custom(message, at))
}
