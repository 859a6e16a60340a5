//! The checks every output target sized by `encoded_len` shares: encoding
//! exactly that many bytes, and the panics of the infallible targets; and
//! the test of whether a target that appends to spare capacity should try
//! one pass first. Used by `to_vec`, `encode_into_vec` and `write_to` here
//! and, through `__facade`, by the facade's targets.

use crate::error::LengthMismatch;
use crate::traits::Marshal;
use crate::writer::Writer;

/// Encodes `value` through the next `len` bytes of `w`, `len` being the
/// value's `encoded_len()`, and checks that it wrote exactly that many: the
/// check of every output target sized by `encoded_len`. The caller has
/// made room for `len` bytes. On error the writer may have advanced.
#[inline]
pub fn encode_exact<T: Marshal + ?Sized>(
    value: &T,
    len: usize,
    w: &mut Writer<'_>,
) -> Result<(), LengthMismatch> {
    let start = w.written();
    if w.exact(len, |w| value.encode(w)).is_err() {
        return Err(LengthMismatch::Long { encoded_len: len });
    }
    match w.written() - start {
        written if written == len => Ok(()),
        written => Err(LengthMismatch::Short {
            encoded_len: len,
            written,
        }),
    }
}

/// Whether a value of type `T` may fit in `room` bytes, so that writing it
/// there without sizing it first is worth trying: the one-pass path of the
/// targets that append to a buffer's spare capacity (`encode_into_vec`,
/// the facade's `BytesMut` and frame targets). No room, or less than a
/// fixed length, rules it out without writing a byte.
#[inline]
#[must_use]
pub fn may_fit<T: Marshal + ?Sized>(room: usize) -> bool {
    match T::FIXED_LEN {
        Some(len) => len <= room,
        None => room > 0,
    }
}

/// Panics, saying the value is too large to encode, unless `len` more
/// bytes fit in one allocation after the `used` ones already there.
#[inline]
#[track_caller]
pub fn assert_allocatable(used: usize, len: usize) {
    if len > (isize::MAX as usize).saturating_sub(used) {
        too_large(len);
    }
}

/// The panic of an infallible output target given a value longer than
/// any allocation (a saturated `encoded_len` is `usize::MAX`).
#[cold]
#[inline(never)]
#[track_caller]
fn too_large(len: usize) -> ! {
    panic!(
        "marshal: the value is too large to encode: its encoded_len() is {len} bytes, more \
         than one allocation can hold"
    )
}

/// The panic of an infallible output target whose value disagreed with
/// its own lengths.
#[cold]
#[inline(never)]
#[track_caller]
pub fn length_mismatch(mismatch: LengthMismatch) -> ! {
    panic!("marshal: {mismatch}")
}
