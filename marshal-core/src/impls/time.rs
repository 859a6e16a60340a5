//! Durations.

use core::time::Duration;

use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// Whole seconds as a `u64`, then the sub-second nanoseconds as a `u32`.
impl Marshal for Duration {
    const FIXED_LEN: Option<usize> = Some(12);
    const FINGERPRINT: u64 = crate::fingerprint::leaf("duration");

    #[inline]
    fn encoded_len(&self) -> usize {
        12
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let mut bytes = [0u8; 12];
        bytes[..8].copy_from_slice(&self.as_secs().to_le_bytes());
        bytes[8..].copy_from_slice(&self.subsec_nanos().to_le_bytes());
        w.put_array(bytes)
    }
}

/// Rejects nanoseconds of 10⁹ or more rather than carrying them into the
/// seconds, so every value has exactly one encoding. bincode 1.3 carries
/// them, though it never writes them.
impl<'de> Unmarshal<'de> for Duration {
    const MIN_LEN: usize = 12;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let bytes: [u8; 12] = r.take_array()?;
        let [s0, s1, s2, s3, s4, s5, s6, s7, n0, n1, n2, n3] = bytes;
        let secs = u64::from_le_bytes([s0, s1, s2, s3, s4, s5, s6, s7]);
        let nanos = u32::from_le_bytes([n0, n1, n2, n3]);
        duration(secs, nanos, r.position() - 4)
    }
}

/// The `Duration` of `secs` and `nanos` (in `legacy()` or another
/// configuration), or `InvalidNanos` at `at`, the nanoseconds' offset, for
/// 10⁹ or more.
#[inline]
pub(crate) fn duration(secs: u64, nanos: u32, at: usize) -> Result<Duration, DecodeError> {
    if nanos >= 1_000_000_000 {
        return Err(DecodeError::invalid_nanos(nanos, at));
    }
    Ok(Duration::new(secs, nanos))
}
