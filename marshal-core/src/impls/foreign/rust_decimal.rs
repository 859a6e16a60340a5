//! rust_decimal's `Decimal` (feature `rust_decimal`).

use core::str::FromStr;

use ::rust_decimal::Decimal;

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::impls::seq::{LEN_PREFIX, take_string};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// The largest scale a `Decimal` has: 28 digits after the point.
const MAX_SCALE: usize = 28;

/// The most digits a `Decimal`'s 96-bit mantissa has (2⁹⁶ − 1 has 29).
const MAX_DIGITS: usize = 29;

/// The longest string rust_decimal writes for a `Decimal`: a sign and
/// either `0.` and 28 digits, or 29 digits with a point among them.
const MAX_STR: usize = 1 + MAX_DIGITS + 1;

/// The string bincode 1.3 writes for a `Decimal` through rust_decimal's
/// `serde` support, which with its default features (and with
/// `serde-str`) serializes a `Decimal` as its `Display` string: a `u64`
/// byte count, then the digits in ASCII. A `-` leads a negative value,
/// and the scale sets how many digits follow the point: `1.50` keeps its
/// two, `0.05` has its leading `0`. At most 39 bytes (`MAX_LEN`); the
/// string is written from a stack buffer, without formatting or allocating,
/// and `encoded_len` counts the mantissa's digits.
///
/// rust_decimal's other serde forms (`serde-float`, which writes an `f64`,
/// and the `serde-with-*` modules) are not these bytes: a field in one of
/// them goes through the serde bridge
/// (`#[marshal(with = marshal::serde::field)]`).
///
/// ```
/// use marshal::{Marshal, Unmarshal};
/// use rust_decimal::Decimal;
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// #[marshal(max_size = 43)]
/// struct Price { cents: u32, amount: Decimal }
///
/// let amount = Decimal::new(-1250, 2); // -12.50
/// let bytes = marshal::to_vec(&Price { cents: 1, amount });
/// assert_eq!(bytes[4..], *b"\x06\0\0\0\0\0\0\0-12.50");
/// assert_eq!(marshal::from_bytes::<Price>(&bytes)?, Price { cents: 1, amount });
/// assert_eq!(Decimal::MAX_LEN, Some(39));
/// assert_eq!(Decimal::MAX.encoded_len(), 8 + 29);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl Marshal for Decimal {
    const MAX_LEN: Option<usize> = Some(LEN_PREFIX + MAX_STR);
    const FINGERPRINT: u64 = fp::leaf("decimal");

    #[inline]
    fn encoded_len(&self) -> usize {
        let parts = Parts::of(self);
        LEN_PREFIX + parts.str_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut buf = [0u8; MAX_STR];
        let len = Parts::of(self).write(&mut buf);
        w.put_prefixed(&buf[..len])
    }
}

/// What a `Decimal`'s string is made of.
struct Parts {
    negative: bool,
    /// The magnitude, below 2⁹⁶.
    mantissa: u128,
    /// Digits after the point, at most 28.
    scale: usize,
    /// Digits written: the mantissa's, or as many as the scale and one for
    /// the `0` before the point, whichever is more.
    digits: usize,
}

impl Parts {
    #[inline]
    fn of(d: &Decimal) -> Self {
        let mantissa = d.mantissa().unsigned_abs();
        // rust_decimal keeps the scale at 28 or less.
        let scale = (d.scale() as usize).min(MAX_SCALE);
        let own = match mantissa.checked_ilog10() {
            Some(log) => log as usize + 1,
            None => 0,
        };
        Parts {
            negative: d.is_sign_negative(),
            mantissa,
            scale,
            digits: own.max(scale + 1),
        }
    }

    /// The string's length: the sign, the digits and the point.
    #[inline]
    fn str_len(&self) -> usize {
        usize::from(self.negative) + self.digits + usize::from(self.scale > 0)
    }

    /// Writes the string at the start of `out`, which holds at least
    /// `MAX_STR` bytes, and returns its length.
    #[inline]
    fn write(&self, out: &mut [u8]) -> usize {
        // All 29 digits, zero-padded: the low 19 from one `u64`, the rest
        // (below 2⁹⁶ / 10¹⁹ < 10¹⁰) from another.
        const LOW: usize = 19;
        let mut digits = [b'0'; MAX_DIGITS];
        let split = 10u128.pow(LOW as u32);
        let (mut high, mut low) = (
            (self.mantissa / split) as u64,
            (self.mantissa % split) as u64,
        );
        for slot in digits[MAX_DIGITS - LOW..].iter_mut().rev() {
            *slot = b'0' + (low % 10) as u8;
            low /= 10;
        }
        for slot in digits[..MAX_DIGITS - LOW].iter_mut().rev() {
            *slot = b'0' + (high % 10) as u8;
            high /= 10;
        }
        let shown = &digits[MAX_DIGITS - self.digits..];
        let (whole, fraction) = shown.split_at(self.digits - self.scale);
        let mut at = 0;
        if self.negative {
            out[0] = b'-';
            at = 1;
        }
        out[at..at + whole.len()].copy_from_slice(whole);
        at += whole.len();
        if self.scale > 0 {
            out[at] = b'.';
            at += 1;
            out[at..at + fraction.len()].copy_from_slice(fraction);
            at += fraction.len();
        }
        at
    }
}

/// At least what rust_decimal's parser asks the allocator for while it
/// rejects a string: its errors carry their messages as `String`s (at most
/// 54 bytes each), and `Decimal::from_str` then `Decimal::from_scientific`
/// make at most three of them.
const PARSE_CHARGE: usize = 3 * 64;

/// Reads what rust_decimal's `serde` support reads through bincode (with its
/// `serde-str` feature: with the default features, its `Deserialize` asks
/// bincode for `deserialize_any`, which bincode 1.3 refuses): a string, then
/// whatever `Decimal::from_str` accepts, or failing that
/// `Decimal::from_scientific`. That is any form rust_decimal parses: `1e3`,
/// `+7`, `1_000`, and more fraction digits than fit, rounded. Anything else
/// is a [`Custom`](crate::DecodeErrorKind::Custom) error at the string.
///
/// The strings `Marshal` writes (a sign, digits and a point, the value in 96
/// bits and at most 28 digits after the point) are read here without
/// rust_decimal's parser and allocate nothing. Any other string goes
/// through rust_decimal's parser, whose errors allocate their messages:
/// under an allocation budget such a string is charged 192 bytes first.
///
/// ```
/// use marshal::{DecodeErrorKind, Unmarshal};
/// use rust_decimal::Decimal;
///
/// let read = |s: &str| marshal::from_bytes::<Decimal>(&marshal::to_vec(s));
/// assert_eq!(read("-12.50")?, Decimal::new(-1250, 2));
/// assert_eq!(read("1.5e3")?, Decimal::new(1500, 0));
/// assert_eq!(read("+1_000")?, Decimal::new(1000, 0));
/// let err = read("12,50").unwrap_err();
/// assert_eq!(
///     (err.kind(), err.offset()),
///     (DecodeErrorKind::Custom("not a decimal number rust_decimal parses"), 8)
/// );
///
/// // The form `Marshal` writes allocates nothing, even under a budget of 0.
/// let bytes = marshal::to_vec(&Decimal::new(-1250, 2));
/// assert_eq!(marshal::from_bytes_limited::<Decimal>(&bytes, 0)?, Decimal::new(-1250, 2));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de> Unmarshal<'de> for Decimal {
    // rust_decimal parses no empty string.
    const MIN_LEN: usize = LEN_PREFIX + 1;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let (window, len, at) = take_string(r)?;
        from_string(r, window, len, at)
    }
}

/// The `Decimal` of the string of `len` bytes at the start of `window`,
/// at offset `at`, read as [`Unmarshal::decode`] says.
#[inline]
fn from_string(
    r: &mut Reader<'_>,
    window: &[u8],
    len: usize,
    at: usize,
) -> Result<Decimal, DecodeError> {
    let s = crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))?;
    if let Some(d) = parse_plain(s.as_bytes()) {
        return Ok(d);
    }
    r.charge_at(PARSE_CHARGE, at)?;
    Decimal::from_str(s)
        .or_else(|_| Decimal::from_scientific(s))
        .map_err(|_| not_a_decimal(at))
}

/// In every `Encoding`: the same string, after its length in the
/// configuration, read as above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};

    impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for Decimal {
        #[inline]
        fn encoded_len_in(&self) -> usize {
            let len = Parts::of(self).str_len();
            crate::impls::dialect::len_len::<I>(len) + len
        }

        #[inline]
        fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
            let mut buf = [0u8; MAX_STR];
            let len = Parts::of(self).write(&mut buf);
            crate::impls::dialect::put_len::<E, I>(w, len)?;
            w.put_slice(&buf[..len])
        }
    }

    impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for Decimal {
        // rust_decimal parses no empty string.
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN + 1;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            let (window, len, at) = crate::impls::dialect::take_string::<E, I>(r)?;
            from_string(r, window, len, at)
        }
    }
}

#[cold]
fn not_a_decimal(at: usize) -> DecodeError {
    DecodeError::custom(&"not a decimal number rust_decimal parses", at)
}

/// The `Decimal` of a string in the form `Marshal` writes: `-` or nothing,
/// digits, and a point followed by digits or nothing, with a mantissa below
/// 2⁹⁶ and at most 28 digits after the point. `None` for anything else,
/// which rust_decimal's parser may still accept.
///
/// rust_decimal's `from_str` reads such a string to this same value: the
/// digits as the mantissa, as many as follow the point as the scale, and a
/// zero positive whatever its sign.
#[inline]
fn parse_plain(s: &[u8]) -> Option<Decimal> {
    let (negative, s) = match s {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, s),
    };
    let (whole, fraction) = match s.iter().position(|&b| b == b'.') {
        Some(point) => (&s[..point], &s[point + 1..]),
        None => (s, &[][..]),
    };
    let has_point = whole.len() < s.len();
    if whole.is_empty()
        || (has_point && fraction.is_empty())
        || fraction.len() > MAX_SCALE
        || whole.len() + fraction.len() > MAX_DIGITS
    {
        return None;
    }
    let mut mantissa: u128 = 0;
    for &b in whole.iter().chain(fraction) {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        mantissa = mantissa * 10 + u128::from(digit);
    }
    if mantissa >> 96 != 0 {
        return None;
    }
    Some(Decimal::from_parts(
        mantissa as u32,
        (mantissa >> 32) as u32,
        (mantissa >> 64) as u32,
        negative && mantissa != 0,
        fraction.len() as u32,
    ))
}
