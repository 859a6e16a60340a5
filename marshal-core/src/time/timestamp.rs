//! [`Timestamp`]: this crate's own instant.

use super::{INSTANT_FINGERPRINT, NANOS_PER_SEC, TimeError};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// An instant: whole seconds since the Unix epoch (1970-01-01T00:00:00Z,
/// negative before it) and the nanoseconds after that second, in
/// [0, 10⁹). `no_std`, `Copy`, 16 bytes in memory and 12 on the wire.
///
/// The range is every `i64` second, about ±292 billion years, so every
/// instant of `SystemTime`, chrono, time and jiff converts into a
/// `Timestamp` without loss; converting back fails only outside the target
/// type's range. Ordering is chronological.
///
/// Wire format: the seconds as an `i64`, then the nanoseconds as a `u32`,
/// both little-endian (12 bytes). For instants from 1970 on these are the
/// bytes bincode writes for `SystemTime`. A reader rejects nanoseconds of
/// 10⁹ or more.
///
/// ```
/// use marshal::time::Timestamp;
/// use marshal::Marshal;
///
/// // Half a second before the epoch: second -1, plus 500 ms.
/// let t = Timestamp::new(-1, 500_000_000)?;
/// assert_eq!(t.unix_nanos(), -500_000_000);
/// assert_eq!(Timestamp::FIXED_LEN, Some(12));
/// assert_eq!(marshal::to_vec(&t), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x65, 0xcd, 0x1d]);
/// assert_eq!(marshal::from_bytes::<Timestamp>(&marshal::to_vec(&t))?, t);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
}

impl Timestamp {
    /// 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::UNIX_EPOCH.unix_secs(), 0);
    /// assert_eq!(Timestamp::UNIX_EPOCH, Timestamp::default());
    /// ```
    pub const UNIX_EPOCH: Timestamp = Timestamp { secs: 0, nanos: 0 };

    /// The earliest instant: second `i64::MIN`.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::MIN.unix_secs(), i64::MIN);
    /// assert_eq!(Timestamp::MIN.nanos(), 0);
    /// ```
    pub const MIN: Timestamp = Timestamp {
        secs: i64::MIN,
        nanos: 0,
    };

    /// The latest instant: the last nanosecond of second `i64::MAX`.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::MAX.unix_secs(), i64::MAX);
    /// assert_eq!(Timestamp::MAX.nanos(), 999_999_999);
    /// ```
    pub const MAX: Timestamp = Timestamp {
        secs: i64::MAX,
        nanos: NANOS_PER_SEC - 1,
    };

    /// The instant `nanos` nanoseconds after second `secs` of the Unix
    /// epoch. Fails with [`TimeError::InvalidNanos`] when `nanos` is 10⁹ or
    /// more.
    ///
    /// ```
    /// use marshal::time::{TimeError, Timestamp};
    /// assert_eq!(Timestamp::new(3, 4)?.unix_nanos(), 3_000_000_004);
    /// assert_eq!(Timestamp::new(3, 1_000_000_000), Err(TimeError::InvalidNanos(1_000_000_000)));
    /// # Ok::<(), TimeError>(())
    /// ```
    pub const fn new(secs: i64, nanos: u32) -> Result<Timestamp, TimeError> {
        if nanos >= NANOS_PER_SEC {
            return Err(TimeError::InvalidNanos(nanos));
        }
        Ok(Timestamp { secs, nanos })
    }

    /// The start of second `secs` of the Unix epoch.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::from_unix_secs(-86_400).unix_nanos(), -86_400_000_000_000);
    /// ```
    #[must_use]
    pub const fn from_unix_secs(secs: i64) -> Timestamp {
        Timestamp { secs, nanos: 0 }
    }

    /// The instant `nanos` nanoseconds from the Unix epoch (negative
    /// before it). Fails with [`TimeError::OutOfRange`] beyond
    /// [`MIN`](Timestamp::MIN) and [`MAX`](Timestamp::MAX).
    ///
    /// ```
    /// use marshal::time::{TimeError, Timestamp};
    /// let t = Timestamp::from_unix_nanos(-1)?;
    /// assert_eq!((t.unix_secs(), t.nanos()), (-1, 999_999_999));
    /// assert_eq!(Timestamp::from_unix_nanos(i128::MAX), Err(TimeError::OutOfRange));
    /// # Ok::<(), TimeError>(())
    /// ```
    pub const fn from_unix_nanos(nanos: i128) -> Result<Timestamp, TimeError> {
        let per_sec = NANOS_PER_SEC as i128;
        let secs = nanos.div_euclid(per_sec);
        if secs < i64::MIN as i128 || secs > i64::MAX as i128 {
            return Err(TimeError::OutOfRange);
        }
        Ok(Timestamp {
            secs: secs as i64,
            // In [0, 10⁹), so it fits.
            nanos: nanos.rem_euclid(per_sec) as u32,
        })
    }

    /// Whole seconds since the Unix epoch, rounded down: `-1` for half a
    /// second before it.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::from_unix_nanos(-500_000_000)?.unix_secs(), -1);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn unix_secs(self) -> i64 {
        self.secs
    }

    /// Nanoseconds after [`unix_secs`](Timestamp::unix_secs), in
    /// [0, 10⁹).
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::from_unix_nanos(-500_000_000)?.nanos(), 500_000_000);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn nanos(self) -> u32 {
        self.nanos
    }

    /// Nanoseconds since the Unix epoch (negative before it). Every
    /// timestamp has one: an `i128` holds the whole range.
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// assert_eq!(Timestamp::new(-2, 1)?.unix_nanos(), -1_999_999_999);
    /// # Ok::<(), marshal::time::TimeError>(())
    /// ```
    #[must_use]
    pub const fn unix_nanos(self) -> i128 {
        self.secs as i128 * NANOS_PER_SEC as i128 + self.nanos as i128
    }

    /// `secs` plus `nanos` nanoseconds, which may be a second or more (a
    /// chrono leap second). The caller keeps `secs` away from `i64::MAX`.
    #[cfg(any(feature = "chrono", feature = "time"))]
    pub(crate) const fn carrying(secs: i64, nanos: u32) -> Timestamp {
        Timestamp {
            secs: secs + (nanos / NANOS_PER_SEC) as i64,
            nanos: nanos % NANOS_PER_SEC,
        }
    }

    /// `secs` plus `nanos` nanoseconds of either sign, below a second in
    /// magnitude (jiff's representation). The caller keeps `secs` away from
    /// `i64::MIN`.
    #[cfg(feature = "jiff")]
    pub(crate) const fn from_signed_parts(secs: i64, nanos: i32) -> Timestamp {
        if nanos < 0 {
            Timestamp {
                secs: secs - 1,
                nanos: (nanos + NANOS_PER_SEC as i32) as u32,
            }
        } else {
            Timestamp {
                secs,
                nanos: nanos as u32,
            }
        }
    }

    /// The 12-byte wire form.
    #[inline]
    pub(crate) fn to_wire(self) -> [u8; 12] {
        let mut bytes = [0u8; 12];
        bytes[..8].copy_from_slice(&self.secs.to_le_bytes());
        bytes[8..].copy_from_slice(&self.nanos.to_le_bytes());
        bytes
    }

    /// Reads the 12-byte wire form that starts at byte `start` of the
    /// input, rejecting nanoseconds of 10⁹ or more.
    #[inline]
    pub(crate) fn from_wire(bytes: [u8; 12], start: usize) -> Result<Timestamp, DecodeError> {
        let [s0, s1, s2, s3, s4, s5, s6, s7, n0, n1, n2, n3] = bytes;
        let secs = i64::from_le_bytes([s0, s1, s2, s3, s4, s5, s6, s7]);
        let nanos = u32::from_le_bytes([n0, n1, n2, n3]);
        Timestamp::new(secs, nanos).map_err(|_| DecodeError::invalid_nanos(nanos, start + 8))
    }

    #[inline]
    pub(crate) fn encode_to(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(self.to_wire())
    }

    #[inline]
    pub(crate) fn decode_from(r: &mut Reader<'_>) -> Result<Timestamp, DecodeError> {
        let start = r.position();
        Timestamp::from_wire(r.take_array()?, start)
    }
}

super::fixed_size!(
    /// 12 bytes: the seconds as an `i64`, then the nanoseconds as a `u32`.
    /// Decoding rejects nanoseconds of 10⁹ or more
    /// ([`InvalidNanos`](crate::DecodeErrorKind::InvalidNanos)).
    ///
    /// ```
    /// use marshal::time::Timestamp;
    /// use marshal::{DecodeErrorKind, Unmarshal};
    ///
    /// let bytes = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0xca, 0x9a, 0x3b];
    /// let err = Timestamp::read_from(&bytes).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::InvalidNanos(1_000_000_000), 8));
    /// ```
    Timestamp,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    Timestamp::encode_to,
    Timestamp::decode_from,
);
