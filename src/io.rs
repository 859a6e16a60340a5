//! Encoding into `std::io::Write` streams.

use core::mem::MaybeUninit;
use std::io;
use std::vec::Vec;

use marshal_core::__facade::{encode_exact, try_append_to_vec};
use marshal_core::{LengthMismatch, Marshal, Writer};

/// Values whose encoding is at most this long go through a stack buffer.
pub(crate) const STACK_LEN: usize = 256;

/// Encodes `value` and writes it to `out` with one `write_all`, returning
/// the number of bytes written.
///
/// A type whose encoding has a small bound ([`MAX_LEN`](Marshal::MAX_LEN),
/// and so any [`FIXED_LEN`](Marshal::FIXED_LEN), of at most 256 bytes) is
/// encoded into a stack buffer. Anything else is encoded into `scratch`, a
/// buffer the caller keeps and passes again: it is cleared (not freed) each
/// time, so a stream of values allocates only while `scratch` grows to the
/// largest of them. Bytes are never zeroed before being written.
///
/// # Errors
///
/// Whatever `out.write_all` returns. Before anything is written to `out`:
/// `OutOfMemory` when `scratch` cannot grow to hold the encoding (always
/// the case for a value too large to encode, whose saturated length is
/// `usize::MAX`), and `InvalidData` wrapping a [`LengthMismatch`] when the
/// value's `encode` does not write exactly its `encoded_len` bytes, or that
/// is more than its type's `MAX_LEN` (a broken manual implementation).
///
/// ```
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// struct Point { x: i32, y: i32 }
///
/// let mut out = Vec::new();
/// let mut scratch = Vec::new();
/// // Fixed size: through the stack, `scratch` untouched.
/// assert_eq!(marshal::write_all(&Point { x: 1, y: 2 }, &mut out, &mut scratch)?, 8);
/// assert_eq!(scratch.capacity(), 0);
/// // Variable size: through `scratch`, which keeps its capacity for next time.
/// assert_eq!(marshal::write_all("hello", &mut out, &mut scratch)?, 13);
/// assert!(scratch.capacity() >= 13);
/// assert_eq!(out.len(), 8 + 13);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_all<T, W>(value: &T, out: &mut W, scratch: &mut Vec<u8>) -> io::Result<usize>
where
    T: Marshal + ?Sized,
    W: io::Write + ?Sized,
{
    let len = value.encoded_len();
    if let Some(max) = T::MAX_LEN.filter(|&max| max <= STACK_LEN) {
        if len > max {
            return Err(mismatch(LengthMismatch::AboveMax {
                encoded_len: len,
                max_len: max,
            }));
        }
        let mut buf = [MaybeUninit::uninit(); STACK_LEN];
        // `len <= max <= STACK_LEN`.
        let mut w = Writer::new_uninit(&mut buf[..len]);
        encode_exact(value, len, &mut w).map_err(mismatch)?;
        out.write_all(w.into_written())?;
        return Ok(len);
    }
    scratch.clear();
    scratch.try_reserve(len)?;
    try_append_to_vec(scratch, |w| encode_exact(value, len, w)).map_err(mismatch)?;
    out.write_all(scratch)?;
    Ok(len)
}

fn mismatch(e: LengthMismatch) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}
