//! Encoding into `std::io::Write` streams.

use core::mem::MaybeUninit;
use std::io;
use std::vec::Vec;

use marshal_core::Marshal;

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
/// Whatever `out.write_all` returns.
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
    if let Some(max) = T::MAX_LEN
        && max <= STACK_LEN
    {
        let mut buf = [MaybeUninit::uninit(); STACK_LEN];
        let bytes = value.write_to_uninit(&mut buf[..max]);
        out.write_all(bytes)?;
        return Ok(bytes.len());
    }
    scratch.clear();
    let len = crate::encode_into_vec(value, scratch);
    out.write_all(scratch)?;
    Ok(len)
}
