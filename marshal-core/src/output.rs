//! What the output targets share: a [`Writer`] over a `Vec`'s spare
//! capacity or a `BufMut` chunk, committing what it wrote (over `mem`'s
//! cursor-level glue); the check every target sized by `encoded_len` makes,
//! encoding exactly that many bytes, and the panics of the infallible
//! targets; and the test of whether a target that appends to spare capacity
//! should try one pass first. Used by `to_vec` and `encode_into_vec` here
//! and, through `__facade`, by the facade's targets.

use crate::error::LengthMismatch;
use crate::traits::Marshal;
use crate::writer::Writer;

/// Appends to `vec` what `f` writes through a writer over `vec`'s spare
/// capacity: no byte is zeroed first. Returns `f`'s result.
///
/// This is the building block of `to_vec`, `encode_into_vec` and framing.
/// The caller reserves the capacity first.
///
/// # Panics
///
/// When `f` replaces the writer it is given with one over other memory.
#[cfg(feature = "alloc")]
#[inline]
pub fn append_to_vec<R>(vec: &mut alloc::vec::Vec<u8>, f: impl FnOnce(&mut Writer<'_>) -> R) -> R {
    match try_append_to_vec(vec, |w| Ok::<R, core::convert::Infallible>(f(w))) {
        Ok(result) => result,
        Err(never) => match never {},
    }
}

/// Like [`append_to_vec`], but the bytes `f` wrote are appended only when
/// it returns `Ok`: on `Err`, `vec` keeps its length (and its contents), so
/// a failed encoding leaves no partial output behind.
///
/// # Panics
///
/// When `f` replaces the writer it is given with one over other memory.
#[cfg(feature = "alloc")]
#[inline]
pub fn try_append_to_vec<R, E>(
    vec: &mut alloc::vec::Vec<u8>,
    f: impl FnOnce(&mut Writer<'_>) -> Result<R, E>,
) -> Result<R, E> {
    crate::mem::commit_to_vec(vec, |spare| Writer::lend(spare, f))
}

/// Writes what `f` writes through a writer over `buf`'s current chunk
/// straight into `buf`, with no copy and no zeroing, and advances `buf` past
/// it. Returns `f`'s result.
///
/// The caller makes sure the chunk is large enough (for `BytesMut`,
/// `reserve` first).
///
/// # Panics
///
/// When `f` replaces the writer it is given with one over other memory.
#[cfg(feature = "bytes")]
#[inline]
pub fn append_to_buf_mut<B, R>(buf: &mut B, f: impl FnOnce(&mut Writer<'_>) -> R) -> R
where
    B: ::bytes::BufMut + ?Sized,
{
    match try_append_to_buf_mut(buf, |w| Ok::<R, core::convert::Infallible>(f(w))) {
        Ok(result) => result,
        Err(never) => match never {},
    }
}

/// Like [`append_to_buf_mut`], but `buf` is advanced only when `f` returns
/// `Ok`: on `Err` it keeps its length, so a failed encoding leaves no
/// partial output behind.
///
/// # Panics
///
/// When `f` replaces the writer it is given with one over other memory.
#[cfg(feature = "bytes")]
#[inline]
pub fn try_append_to_buf_mut<B, R, E>(
    buf: &mut B,
    f: impl FnOnce(&mut Writer<'_>) -> Result<R, E>,
) -> Result<R, E>
where
    B: ::bytes::BufMut + ?Sized,
{
    crate::mem::commit_to_buf_mut(buf, |chunk| Writer::lend(chunk, f))
}

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

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(any(feature = "alloc", feature = "bytes"))]
    use crate::error::Overflow;

    #[cfg(feature = "alloc")]
    #[test]
    fn appends_to_spare_capacity() {
        let mut v = alloc::vec::Vec::with_capacity(8);
        v.push(1u8);
        let r = append_to_vec(&mut v, |w| w.put_slice(b"ab"));
        assert_eq!(r, Ok(()));
        assert_eq!(v, [1, b'a', b'b']);
        // Nothing written, nothing appended.
        append_to_vec(&mut v, |_| ());
        assert_eq!(v.len(), 3);
    }

    #[cfg(feature = "alloc")]
    #[test]
    #[should_panic(expected = "replaced the Writer")]
    fn append_rejects_a_replaced_writer() {
        let mut v = alloc::vec::Vec::with_capacity(8);
        append_to_vec(&mut v, |w| *w = Writer::new(&mut []));
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn try_append_commits_only_on_ok() {
        let mut v = alloc::vec::Vec::with_capacity(8);
        v.push(1u8);
        let r: Result<(), Overflow> = try_append_to_vec(&mut v, |w| {
            w.put_slice(b"abc")?;
            Err(Overflow)
        });
        assert_eq!(r, Err(Overflow));
        assert_eq!(v, [1]);
        assert_eq!(try_append_to_vec(&mut v, |w| w.put_slice(b"xy")), Ok(()));
        assert_eq!(v, [1, b'x', b'y']);
    }

    #[cfg(feature = "bytes")]
    #[test]
    fn try_append_to_buf_mut_commits_only_on_ok() {
        let mut b = ::bytes::BytesMut::with_capacity(8);
        b.extend_from_slice(b"x");
        let r: Result<(), Overflow> = try_append_to_buf_mut(&mut b, |w| {
            w.put_slice(b"yz")?;
            Err(Overflow)
        });
        assert_eq!(r, Err(Overflow));
        assert_eq!(&b[..], b"x");
        try_append_to_buf_mut(&mut b, |w| w.put_slice(b"yz")).unwrap();
        assert_eq!(&b[..], b"xyz");
    }

    #[cfg(feature = "bytes")]
    #[test]
    fn appends_to_buf_mut() {
        let mut b = ::bytes::BytesMut::with_capacity(8);
        b.extend_from_slice(b"x");
        append_to_buf_mut(&mut b, |w| w.put_slice(b"yz")).unwrap();
        assert_eq!(&b[..], b"xyz");
        let mut arr = [0u8; 4];
        let mut slice = &mut arr[..];
        append_to_buf_mut(&mut slice, |w| w.put_array([1, 2])).unwrap();
        assert_eq!(slice.len(), 2);
        assert_eq!(arr, [1, 2, 0, 0]);
    }
}
