//! `with` modules and small types that several suites encode.

use proptest_derive::Arbitrary;

/// A type from "another crate" that implements neither `Marshal` nor
/// `Unmarshal`: fields name it with `#[marshal(with = rgb_hex)]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

/// An [`Rgb`] as the 7-byte string `#rrggbb` (lowercase), after its `u64`
/// length: 15 bytes. Decoding accepts exactly what encoding writes; a bad
/// digit is a `Custom` error at the digit's offset within the field.
///
/// ```
/// use marshal::{DecodeErrorKind, Marshal, Unmarshal};
/// use marshal_test_suite::fixtures::{Rgb, rgb_hex};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Paint(#[marshal(with = rgb_hex)] Rgb);
///
/// let paint = Paint(Rgb { r: 0xff, g: 0x80, b: 0x00 });
/// let bytes = marshal::to_vec(&paint);
/// assert_eq!(bytes[8..], *b"#ff8000");
/// assert_eq!(marshal::from_bytes::<Paint>(&bytes), Ok(paint));
///
/// let upper = [&bytes[..8], b"#FF8000"].concat();
/// let err = marshal::from_bytes::<Paint>(&upper).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::Custom("bad hex digit"));
/// assert_eq!(err.offset(), 9);
/// ```
pub mod rgb_hex {
    use marshal::{DecodeError, Overflow, Reader, Unmarshal, Writer};

    use super::Rgb;

    /// Always 15: the length and 7 characters.
    pub fn encoded_len(_: &Rgb) -> usize {
        8 + 7
    }

    /// Writes the length 7 and `#rrggbb`.
    ///
    /// # Errors
    ///
    /// `Overflow` when `w` has fewer than 15 bytes left.
    pub fn encode(rgb: &Rgb, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let text = format!("#{:02x}{:02x}{:02x}", rgb.r, rgb.g, rgb.b);
        w.put_array(7u64.to_le_bytes())?;
        w.put_slice(text.as_bytes())
    }

    /// Reads a string and parses it as `#rrggbb`.
    ///
    /// # Errors
    ///
    /// The string's own errors, `Custom("expected #rrggbb")` at the
    /// string's start for a string of another shape, `Custom("bad hex
    /// digit")` at a digit outside `0-9a-f`.
    pub fn decode(r: &mut Reader<'_>) -> Result<Rgb, DecodeError> {
        let start = r.position();
        let text = <&str>::decode(r)?;
        let bytes = text.as_bytes();
        if bytes.len() != 7 || bytes[0] != b'#' {
            return Err(DecodeError::custom(&"expected #rrggbb", start));
        }
        let digit = |i: usize| match bytes[i] {
            b @ b'0'..=b'9' => Ok(b - b'0'),
            b @ b'a'..=b'f' => Ok(b - b'a' + 10),
            _ => Err(DecodeError::custom(&"bad hex digit", start + 8 + i)),
        };
        let channel = |i: usize| Ok::<u8, DecodeError>(digit(i)? << 4 | digit(i + 1)?);
        Ok(Rgb {
            r: channel(1)?,
            g: channel(3)?,
            b: channel(5)?,
        })
    }
}

/// A `u32`, big-endian (marshal's own is little-endian): a `with` module
/// for marshal, and a `serialize_with` function for serde that writes the
/// same 4 bytes through bincode.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
/// use marshal_test_suite::fixtures::be_u32;
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Seq(#[marshal(with = be_u32)] u32);
///
/// assert_eq!(marshal::to_vec(&Seq(0x0102_0304)), [1, 2, 3, 4]);
/// assert_eq!(marshal::from_bytes::<Seq>(&[1, 2, 3, 4]), Ok(Seq(0x0102_0304)));
/// ```
pub mod be_u32 {
    use marshal::{DecodeError, Overflow, Reader, Writer};

    /// Always 4.
    pub fn encoded_len(_: &u32) -> usize {
        4
    }

    /// Writes the 4 bytes.
    ///
    /// # Errors
    ///
    /// `Overflow` when `w` has fewer than 4 bytes left.
    pub fn encode(value: &u32, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(value.to_be_bytes())
    }

    /// Reads 4 bytes; running short is the reader's `UnexpectedEnd`.
    ///
    /// # Errors
    ///
    /// `UnexpectedEnd` on fewer than 4 bytes.
    pub fn decode(r: &mut Reader<'_>) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(r.take_array()?))
    }

    /// The same bytes through serde, as a `[u8; 4]`.
    ///
    /// # Errors
    ///
    /// The serializer's.
    pub fn serialize<S: serde::Serializer>(value: &u32, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&value.to_be_bytes(), s)
    }
}

/// A type that implements neither `Marshal` nor `Unmarshal`: only ever in
/// skipped fields, `PhantomData` and fields with a `with` module. Its value
/// is not always the default one, so a test can see that decoding a
/// skipped field gives `NotMarshal::default()`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub struct NotMarshal(pub u8);

/// A manual `Marshal` implementation that lies about its length:
/// `encoded_len` reports `REPORTED`, and `encode` writes `WRITES` bytes
/// (0, 1, 2, ...), and it has no `FIXED_LEN` or `MAX_LEN`. The suites
/// check that every output target reports the lie and never writes
/// outside its room.
///
/// ```
/// use marshal::Marshal;
/// use marshal_test_suite::fixtures::Liar;
///
/// assert_eq!(Liar::<4, 8>.encoded_len(), 4);
/// // It writes more than it reported: `to_vec` panics, naming the lie.
/// assert!(std::panic::catch_unwind(|| marshal::to_vec(&Liar::<4, 8>)).is_err());
/// assert_eq!(marshal::to_vec(&Liar::<3, 3>), [0, 1, 2]);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Liar<const REPORTED: usize, const WRITES: usize>;

impl<const REPORTED: usize, const WRITES: usize> marshal::Marshal for Liar<REPORTED, WRITES> {
    fn encoded_len(&self) -> usize {
        REPORTED
    }
    fn encode(&self, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        put_body(w, WRITES)
    }
}

/// Writes `n` bytes, 0, 1, 2, ... (wrapping): the body of a lying
/// implementation.
pub fn put_body(w: &mut marshal::Writer<'_>, n: usize) -> Result<(), marshal::Overflow> {
    (0..n).try_for_each(|i| w.put_u8(i as u8))
}
