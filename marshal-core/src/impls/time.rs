//! Durations.

use core::time::Duration;

use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

/// Whole seconds as a `u64`, then the sub-second nanoseconds as a `u32`.
impl Marshal for Duration {
    const FIXED_LEN: Option<usize> = Some(12);

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
