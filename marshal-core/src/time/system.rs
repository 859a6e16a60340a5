//! `std::time::SystemTime`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::{INSTANT_FINGERPRINT, TimeError, Timestamp};
use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::writer::Writer;

/// The same instant. Fails with [`TimeError::OutOfRange`] only for a
/// `SystemTime` more than `i64::MAX` seconds from the Unix epoch, which no
/// platform's `SystemTime` reaches.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use marshal::time::Timestamp;
///
/// let before = UNIX_EPOCH - Duration::from_millis(1_500);
/// assert_eq!(Timestamp::try_from(before)?, Timestamp::new(-2, 500_000_000)?);
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<SystemTime> for Timestamp {
    type Error = TimeError;

    fn try_from(t: SystemTime) -> Result<Timestamp, TimeError> {
        let (secs, nanos) = match t.duration_since(UNIX_EPOCH) {
            Ok(after) => {
                let secs = i64::try_from(after.as_secs()).map_err(|_| TimeError::OutOfRange)?;
                (secs, after.subsec_nanos())
            }
            Err(e) => {
                // `before` is how far `t` lies before the epoch: round the
                // seconds down and count the nanoseconds forward from them.
                let before = e.duration();
                let whole = 0i64
                    .checked_sub_unsigned(before.as_secs())
                    .ok_or(TimeError::OutOfRange)?;
                match before.subsec_nanos() {
                    0 => (whole, 0),
                    n => (
                        whole.checked_sub(1).ok_or(TimeError::OutOfRange)?,
                        super::NANOS_PER_SEC - n,
                    ),
                }
            }
        };
        Timestamp::new(secs, nanos)
    }
}

/// The same instant. Fails with [`TimeError::OutOfRange`] outside the
/// platform's `SystemTime` range (on Unix every `Timestamp` fits).
///
/// ```
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// use marshal::time::Timestamp;
///
/// let t = SystemTime::try_from(Timestamp::new(-2, 500_000_000)?)?;
/// assert_eq!(t, UNIX_EPOCH - Duration::from_millis(1_500));
/// # Ok::<(), marshal::time::TimeError>(())
/// ```
impl TryFrom<Timestamp> for SystemTime {
    type Error = TimeError;

    fn try_from(t: Timestamp) -> Result<SystemTime, TimeError> {
        let secs = t.unix_secs();
        let sum = if secs >= 0 {
            UNIX_EPOCH.checked_add(Duration::new(secs.unsigned_abs(), t.nanos()))
        } else {
            UNIX_EPOCH
                .checked_sub(Duration::from_secs(secs.unsigned_abs()))
                .and_then(|start| start.checked_add(Duration::from_nanos(u64::from(t.nanos()))))
        };
        sum.ok_or(TimeError::OutOfRange)
    }
}

fn encode(t: &SystemTime, w: &mut Writer<'_>) -> Result<(), Overflow> {
    // Unreachable fallback: no platform's `SystemTime` lies more than
    // `i64::MAX` seconds from the epoch, and encoding cannot fail.
    let at = Timestamp::try_from(*t).unwrap_or(if *t >= UNIX_EPOCH {
        Timestamp::MAX
    } else {
        Timestamp::MIN
    });
    at.encode_to(w)
}

fn decode(r: &mut Reader<'_>) -> Result<SystemTime, DecodeError> {
    let start = r.position();
    let at = Timestamp::decode_from(r)?;
    SystemTime::try_from(at).map_err(|_| DecodeError::timestamp_out_of_range(at.unix_secs(), start))
}

super::fixed_size!(
    /// 12 bytes, as [`Timestamp`]: the seconds since the Unix epoch as an
    /// `i64`, then the nanoseconds as a `u32`. From 1970 on these are the
    /// bytes bincode writes; unlike serde, instants before 1970 encode too
    /// (with negative seconds), so seconds of 2⁶³ or more as a `u64`, which
    /// bincode rejects, read as instants before 1970. Decoding rejects
    /// nanoseconds of 10⁹ or more, which bincode carries into the seconds,
    /// and instants outside the platform's range
    /// ([`TimestampOutOfRange`](crate::DecodeErrorKind::TimestampOutOfRange)).
    ///
    /// ```
    /// use std::time::{Duration, SystemTime, UNIX_EPOCH};
    /// use marshal::Marshal;
    ///
    /// let t = UNIX_EPOCH + Duration::new(1, 5);
    /// assert_eq!(marshal::to_vec(&t), [1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]);
    ///
    /// let before = UNIX_EPOCH - Duration::from_secs(1);
    /// assert_eq!(marshal::to_vec(&before), [0xff; 8].into_iter().chain([0; 4]).collect::<Vec<_>>());
    /// assert_eq!(marshal::from_bytes::<SystemTime>(&marshal::to_vec(&before))?, before);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    SystemTime,
    len: 12,
    fingerprint: INSTANT_FINGERPRINT,
    encode,
    decode,
);
