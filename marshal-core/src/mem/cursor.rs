//! The writer cursor: the storage behind `Writer`, a byte buffer that may
//! start out uninitialized, and how much of it is written.
//!
//! Its fields are private to this file, so the invariants below are kept by
//! the code in this file alone:
//!
//! 1. `pos <= buf.len()`;
//! 2. `buf[..pos]` is initialized;
//! 3. `buf[..init]` is initialized, and `init <= buf.len()`;
//! 4. nothing stores an uninitialized byte into `buf`, and no
//!    `&mut [MaybeUninit<u8>]` into `buf` ever leaves this file. So a
//!    cursor over memory that was initialized leaves it initialized.
//!
//! Every constructor establishes them and every method keeps them; they hold
//! for *every* `Cursor` value, which is what makes the checks below work even
//! when user code swaps the `Writer` it was given for another one.

use core::mem::MaybeUninit;

use super::copy::{copy_short_or_long, write_copy};
use crate::error::Overflow;

/// The storage behind a `Writer`: a byte buffer that may start out
/// uninitialized, and how much of it is written. See the module docs for its
/// invariants.
pub(crate) struct Cursor<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    pos: usize,
    init: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over initialized bytes.
    #[inline]
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        let init = buf.len();
        let buf: *mut [u8] = buf;
        // SAFETY: `MaybeUninit<u8>` "is guaranteed to have the same size,
        // alignment, and ABI as `u8`" (std, `MaybeUninit`, "Layout"), so the
        // cast pointer covers exactly the bytes of `buf`, and it comes from a
        // unique reference live for `'a`, so the new reference is valid and
        // unique for `'a`. What makes the cast sound is what the caller can
        // see when the borrow ends: the bytes must still be initialized, as
        // `&mut [u8]` requires, and by invariant 4 the cursor never stores an
        // uninitialized byte nor lets the `MaybeUninit` view escape. All of
        // `buf` is initialized, so `init = len` establishes invariant 3.
        let buf = unsafe { &mut *(buf as *mut [MaybeUninit<u8>]) };
        Cursor { buf, pos: 0, init }
    }

    /// A cursor over bytes that may be uninitialized.
    #[inline]
    pub(crate) fn new_uninit(buf: &'a mut [MaybeUninit<u8>]) -> Self {
        Cursor {
            buf,
            pos: 0,
            init: 0,
        }
    }

    /// Bytes written so far.
    #[inline]
    pub(crate) fn written(&self) -> usize {
        self.pos
    }

    /// Bytes that can still be written.
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// The unwritten part of the buffer.
    #[inline]
    fn rest(&mut self) -> &mut [MaybeUninit<u8>] {
        // SAFETY: `get_unchecked_mut` requires the range to be in bounds
        // (std, `slice::get_unchecked_mut`: "out-of-bounds index" is UB);
        // `pos..` is, because `pos <= buf.len()` (invariant 1). This saves
        // the redundant check the safe index would repeat on every write.
        unsafe { self.buf.get_unchecked_mut(self.pos..) }
    }

    /// Writes `N` bytes, or nothing if they do not fit.
    #[inline]
    pub(crate) fn put_array<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), Overflow> {
        let dst = self.rest().first_chunk_mut::<N>().ok_or(Overflow)?;
        // Initialized bytes only (invariant 4); they extend `buf[..pos]`.
        write_copy(dst, &bytes);
        self.pos += N;
        Ok(())
    }

    /// Writes `bytes`, or nothing if they do not fit.
    #[inline]
    pub(crate) fn put_slice(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        let dst = self.rest().get_mut(..bytes.len()).ok_or(Overflow)?;
        copy_short_or_long(dst, bytes);
        self.pos += bytes.len();
        Ok(())
    }

    /// Writes `bytes` after their length as a little-endian `u64`, with one
    /// bounds check for both, or nothing if they do not fit.
    #[inline]
    pub(crate) fn put_prefixed(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        // `usize` is at most 64 bits wide on every target Rust supports.
        let prefix = (bytes.len() as u64).to_le_bytes();
        // A slice is at most `isize::MAX` bytes long, so this cannot wrap.
        let dst = self.rest().get_mut(..8 + bytes.len()).ok_or(Overflow)?;
        let (head, tail) = dst.split_at_mut(8);
        write_copy(head, &prefix);
        copy_short_or_long(tail, bytes);
        self.pos += 8 + bytes.len();
        Ok(())
    }

    /// Writes `prefix`, then `bytes`, with one bounds check for both, or
    /// nothing if they do not fit: [`put_prefixed`](Cursor::put_prefixed)
    /// with any prefix, for the other configurations. `put_prefixed` keeps
    /// a body of its own: calling this one changed how `legacy()`'s
    /// encoders compile (`benches/focus.rs`, callgrind: `saves-encode`
    /// 0.06% more instructions; with this one always inlined,
    /// `logs-two-pass` 25% and `saves-two-pass` 5.6% more).
    #[inline]
    pub(crate) fn put_after<const N: usize>(
        &mut self,
        prefix: [u8; N],
        bytes: &[u8],
    ) -> Result<(), Overflow> {
        // A slice is at most `isize::MAX` bytes long and `N` a small
        // prefix, so this cannot wrap.
        let dst = self.rest().get_mut(..N + bytes.len()).ok_or(Overflow)?;
        let (head, tail) = dst.split_at_mut(N);
        write_copy(head, &prefix);
        copy_short_or_long(tail, bytes);
        self.pos += N + bytes.len();
        Ok(())
    }

    /// Claims the next `len` bytes, initialized, for the caller to fill.
    /// Bytes not already known to be initialized are zeroed first.
    #[inline]
    pub(crate) fn put_copy(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        let dst = self.rest().get_mut(..bytes.len()).ok_or(Overflow)?;
        write_copy(dst, bytes);
        self.pos += bytes.len();
        Ok(())
    }

    #[inline]
    pub(crate) fn reserve(&mut self, len: usize) -> Result<&mut [u8], Overflow> {
        let start = self.pos;
        // How many of the claimed bytes lie in `buf[..init]`.
        let known = self.init.saturating_sub(start).min(len);
        let dst = self.rest().get_mut(..len).ok_or(Overflow)?;
        dst[known..].fill(MaybeUninit::new(0));
        self.pos = start + len;
        let dst = &mut self.buf[start..start + len];
        // SAFETY: `assume_init_mut` (below) requires every byte to be
        // initialized (as std's `<[MaybeUninit<T>]>::assume_init_mut` does,
        // "Safety"). `dst[..known]` is
        // `buf[start..start + known]` with `start + known <= init`, so it is
        // initialized by invariant 3, and `dst[known..]` was zeroed just
        // above. The caller gets `&mut [u8]`, which cannot store an
        // uninitialized byte, so invariant 4 holds; invariant 2 holds for the
        // new `pos` because all of `dst` is initialized.
        Ok(unsafe { assume_init_mut(dst) })
    }

    /// Runs `f` on a cursor over exactly the next `len` bytes, which `f`
    /// hands back, then counts what it wrote there as written here.
    #[inline]
    pub(crate) fn exact<F>(&mut self, len: usize, f: F) -> Result<(), Overflow>
    where
        F: for<'b> FnOnce(Cursor<'b>) -> (Cursor<'b>, Result<(), Overflow>),
    {
        let init = self.init.saturating_sub(self.pos).min(len);
        let region = self.rest().get_mut(..len).ok_or(Overflow)?;
        let start = region.as_ptr();
        let sub = Cursor {
            buf: region,
            pos: 0,
            // `region[..init]` is within `buf[..self.init]`: invariant 3.
            init,
        };
        let (Cursor { buf, pos, .. }, result) = f(sub);
        // `f` may have handed back another cursor. A cursor over exactly
        // `region` has initialized `region[..pos]` (its invariants 1 and 2),
        // and `region` starts at our `pos`, so ours may move up by `pos`.
        if !(core::ptr::eq(buf.as_ptr(), start) && buf.len() == len) {
            writer_replaced();
        }
        self.pos += pos;
        result
    }

    /// Starts an extensible body: sets aside four bytes for its length,
    /// written as zeros so that every written byte is initialized, and
    /// returns where they are, for [`end_body`](Cursor::end_body).
    #[inline(always)]
    pub(crate) fn begin_body(&mut self) -> Result<usize, Overflow> {
        let at = self.pos;
        self.put_array([0; 4])?;
        Ok(at)
    }

    /// Ends the body whose length is at `at`, the writing of which gave
    /// `result`: on success patches the length to the bytes written since
    /// (a `u32`, big-endian when `big_endian`, else little-endian);
    /// on failure takes the length and what was written after it back.
    ///
    /// Nothing here relies on this being the cursor `begin_body` was called
    /// on: an encoder that replaced the writer gets a length patched into
    /// its own written bytes (or a panic when they are too short), and the
    /// position never moves past what was written.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn end_body(
        &mut self,
        at: usize,
        result: Result<(), Overflow>,
        big_endian: bool,
    ) -> Result<(), Overflow> {
        if result.is_err() {
            // A shorter written prefix: invariants 1 and 2 hold.
            self.pos = at.min(self.pos);
            return result;
        }
        let Some(body) = self.pos.checked_sub(at.wrapping_add(4)) else {
            writer_replaced();
        };
        let len = if big_endian {
            body_len(body).to_be_bytes()
        } else {
            body_len(body).to_le_bytes()
        };
        // Initialized bytes only (invariant 4), over bytes already written.
        match self.buf.get_mut(at..at.wrapping_add(4)) {
            Some(head) => write_copy(head, &len),
            None => writer_replaced(),
        }
        Ok(())
    }

    /// The written bytes, for as long as the buffer was borrowed.
    #[inline]
    pub(crate) fn into_written(self) -> &'a mut [u8] {
        let (head, _) = self.buf.split_at_mut(self.pos);
        // SAFETY: `assume_init_mut` (below) requires every byte to be
        // initialized (as std's `<[MaybeUninit<T>]>::assume_init_mut` does,
        // "Safety"); `head` is `buf[..pos]`, initialized by invariant 2. The
        // cursor is consumed, so nothing else refers to these bytes for `'a`.
        unsafe { assume_init_mut(head) }
    }
}

/// `bytes` as the `u8`s they hold: `<[MaybeUninit<u8>]>::assume_init_mut`,
/// which is newer (Rust 1.93) than the crate's `rust-version`, as std writes
/// it (a pointer cast, no code).
///
/// # Safety
///
/// Every byte of `bytes` is initialized.
#[inline(always)]
unsafe fn assume_init_mut(bytes: &mut [MaybeUninit<u8>]) -> &mut [u8] {
    let bytes: *mut [MaybeUninit<u8>] = bytes;
    // SAFETY: turning a pointer into a reference requires it to be aligned,
    // non-null, dereferenceable and pointing to a valid value of the type,
    // with nothing else accessing the memory while the reference lives (std,
    // `ptr` module, "Pointer to reference conversion"). The pointer comes
    // from a unique reference whose borrow the result takes over, so it is
    // non-null, dereferenceable for its bytes and unaliased for that
    // lifetime; `MaybeUninit<u8>` "is guaranteed to have the same size,
    // alignment, and ABI as `u8`" (std, `MaybeUninit`, "Layout"), so the
    // cast pointer covers the same bytes and is aligned for `u8`; and each
    // byte is initialized (this function's contract), which is all a valid
    // `u8` needs.
    unsafe { &mut *(bytes as *mut [u8]) }
}

/// The length prefix of an extensible body of `len` bytes.
///
/// # Panics
///
/// When `len` does not fit the prefix's `u32`: such a body has no encoding.
#[inline]
#[track_caller]
pub(crate) fn body_len(len: usize) -> u32 {
    match u32::try_from(len) {
        Ok(n) => n,
        Err(_) => body_too_long(len),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn body_too_long(len: usize) -> ! {
    panic!(
        "marshal: an extensible body of {len} bytes is longer than its u32 length prefix \
         can say (at most 4294967295 bytes)"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
pub(super) fn writer_replaced() -> ! {
    panic!("marshal: an encoder replaced the Writer it was given with one over other memory")
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_slice_copies_every_length_exactly() {
        let src: [u8; 70] = core::array::from_fn(|i| i as u8 + 1);
        for len in 0..=src.len() {
            // Into initialized and uninitialized memory, with bytes around.
            let mut buf = [0xEEu8; 80];
            let mut c = Cursor::new(&mut buf[..len + 3]);
            c.put_slice(&[0xAA]).unwrap();
            c.put_slice(&src[..len]).unwrap();
            assert_eq!(c.put_slice(&[1, 2, 3]), Err(Overflow));
            c.put_slice(&[0xBB, 0xCC]).unwrap();
            assert_eq!(c.written(), len + 3);
            assert_eq!(buf[0], 0xAA, "{len}");
            assert_eq!(&buf[1..=len], &src[..len], "{len}");
            assert_eq!(buf[len + 1..len + 3], [0xBB, 0xCC], "{len}");
            assert!(buf[len + 3..].iter().all(|&b| b == 0xEE), "{len}");

            let mut buf = [MaybeUninit::<u8>::uninit(); 80];
            let mut c = Cursor::new_uninit(&mut buf[..len]);
            c.put_slice(&src[..len]).unwrap();
            assert_eq!(c.into_written(), &src[..len], "{len}");
        }
    }

    #[test]
    fn put_prefixed_writes_length_and_bytes_or_nothing() {
        let src: [u8; 70] = core::array::from_fn(|i| i as u8 + 1);
        for len in 0..=src.len() {
            // Exactly room for one prefixed run and one byte after it.
            let mut buf = [0xEEu8; 90];
            let mut c = Cursor::new(&mut buf[..len + 9]);
            c.put_prefixed(&src[..len]).unwrap();
            assert_eq!(c.written(), len + 8);
            // Nine bytes do not fit in one: nothing is written.
            assert_eq!(c.put_prefixed(&[7]), Err(Overflow));
            assert_eq!(c.written(), len + 8);
            c.put_slice(&[0xBB]).unwrap();
            assert_eq!(buf[..8], (len as u64).to_le_bytes(), "{len}");
            assert_eq!(&buf[8..8 + len], &src[..len], "{len}");
            assert_eq!(buf[8 + len], 0xBB, "{len}");
            assert!(buf[len + 9..].iter().all(|&b| b == 0xEE), "{len}");

            let mut buf = [MaybeUninit::<u8>::uninit(); 80];
            let mut c = Cursor::new_uninit(&mut buf[..len + 8]);
            c.put_prefixed(&src[..len]).unwrap();
            let written = c.into_written();
            assert_eq!(written[..8], (len as u64).to_le_bytes(), "{len}");
            assert_eq!(&written[8..], &src[..len], "{len}");
        }
    }

    #[test]
    fn put_after_writes_prefix_and_bytes_or_nothing() {
        let src: [u8; 40] = core::array::from_fn(|i| i as u8 + 1);
        for len in 0..=src.len() {
            // Room for a three-byte prefix, the run, and one byte after.
            let mut buf = [0xEEu8; 50];
            let mut c = Cursor::new(&mut buf[..len + 4]);
            c.put_after([9, 8, 7], &src[..len]).unwrap();
            assert_eq!(c.written(), len + 3);
            // Two bytes do not fit in one: nothing is written.
            assert_eq!(c.put_after([6], &[5]), Err(Overflow));
            assert_eq!(c.written(), len + 3);
            c.put_slice(&[0xBB]).unwrap();
            assert_eq!(buf[..3], [9, 8, 7], "{len}");
            assert_eq!(&buf[3..3 + len], &src[..len], "{len}");
            assert_eq!(buf[3 + len], 0xBB, "{len}");
            assert!(buf[len + 4..].iter().all(|&b| b == 0xEE), "{len}");

            let mut buf = [MaybeUninit::<u8>::uninit(); 48];
            let mut c = Cursor::new_uninit(&mut buf[..len + 8]);
            c.put_after((len as u64).to_be_bytes(), &src[..len])
                .unwrap();
            let written = c.into_written();
            assert_eq!(written[..8], (len as u64).to_be_bytes(), "{len}");
            assert_eq!(&written[8..], &src[..len], "{len}");
        }
    }

    /// A buffer whose bytes are all uninitialized: Miri reports any read.
    fn uninit<const N: usize>() -> [MaybeUninit<u8>; N] {
        [MaybeUninit::uninit(); N]
    }

    #[test]
    fn writes_and_hands_back_only_written_bytes() {
        let mut buf = uninit::<16>();
        let mut c = Cursor::new_uninit(&mut buf);
        c.put_array([1, 2]).unwrap();
        c.put_slice(b"abc").unwrap();
        c.put_slice(&[0xff, 2]).unwrap();
        assert_eq!(c.written(), 7);
        assert_eq!(c.remaining(), 9);
        assert_eq!(c.into_written(), [1, 2, b'a', b'b', b'c', 0xff, 2]);
    }

    #[test]
    fn overflow_writes_nothing() {
        let mut buf = uninit::<3>();
        let mut c = Cursor::new_uninit(&mut buf);
        assert_eq!(c.put_array([0; 4]), Err(Overflow));
        assert_eq!(c.put_slice(&[0; 4]), Err(Overflow));
        assert!(c.reserve(4).is_err());
        assert_eq!(c.exact(4, |c| (c, Ok(()))), Err(Overflow));
        assert_eq!(c.written(), 0);
        assert!(c.into_written().is_empty());
    }

    #[test]
    fn reserve_zeroes_uninitialized_bytes_only() {
        let mut buf = uninit::<6>();
        let mut c = Cursor::new_uninit(&mut buf);
        c.put_u8_for_test(9);
        let r = c.reserve(3).unwrap();
        assert_eq!(r, [0, 0, 0]);
        r.copy_from_slice(b"xyz");
        assert_eq!(c.into_written(), [9, b'x', b'y', b'z']);

        // Over initialized memory the old bytes are handed out as they are.
        let mut init = [7u8; 6];
        let mut c = Cursor::new(&mut init);
        c.put_array([1]).unwrap();
        assert_eq!(c.reserve(2).unwrap(), [7, 7]);
    }

    #[test]
    fn body_lengths_up_to_u32_max_have_a_prefix() {
        assert_eq!(body_len(0), 0);
        assert_eq!(body_len(u32::MAX as usize), u32::MAX);
    }

    #[test]
    #[should_panic(expected = "longer than its u32 length prefix")]
    fn a_body_longer_than_u32_max_panics() {
        body_len(u32::MAX as usize + 1);
    }

    impl Cursor<'_> {
        fn put_u8_for_test(&mut self, b: u8) {
            self.put_array([b]).unwrap();
        }
    }
}
