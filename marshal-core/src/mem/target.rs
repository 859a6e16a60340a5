//! Output-target glue: a [`Cursor`] over a `Vec`'s spare capacity, a
//! `BufMut` chunk or a fresh arena block, and committing what it wrote.
//! (The `Writer`-level forms that encoders are handed are `output.rs`'s.)
//!
//! The functions here use a `&mut [u8]` as the proof that bytes are
//! initialized: a live `&mut [u8]` produced by safe code points at
//! initialized bytes, so when it starts where the spare capacity of a `Vec`
//! (or the chunk of a `BufMut`) starts, that many bytes there are
//! initialized.

#[cfg(any(feature = "alloc", feature = "bytes", feature = "bumpalo"))]
use core::mem::MaybeUninit;

#[cfg(any(feature = "alloc", feature = "bytes"))]
use super::cursor::{Cursor, writer_replaced};

/// Appends to `vec` what `f` writes through the cursor over `vec`'s spare
/// capacity that it is given and hands back, when `f` returns `Ok`: no byte
/// is zeroed first, and on `Err`, `vec` keeps its length (and its
/// contents), so a failed encoding leaves no partial output behind.
/// Returns `f`'s result.
///
/// The caller reserves the capacity first.
///
/// # Panics
///
/// When `f` hands back a cursor over other memory.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn commit_to_vec<R, E>(
    vec: &mut alloc::vec::Vec<u8>,
    f: impl for<'s> FnOnce(Cursor<'s>) -> (Cursor<'s>, Result<R, E>),
) -> Result<R, E> {
    let len = vec.len();
    let (result, n) = write_uninit(vec.spare_capacity_mut(), f);
    if result.is_ok() {
        // SAFETY: `set_len` requires `new_len <= capacity()` and the
        // elements at `old_len..new_len` to be initialized (std,
        // `Vec::set_len`). `write_uninit` returns `n` only when the first
        // `n` bytes of the spare capacity, which starts at element `len`,
        // are initialized and `n <= capacity - len`: both requirements
        // hold for `len + n`.
        unsafe { vec.set_len(len + n) };
    }
    result
}

/// Proof that a run of bytes is initialized, for
/// [`append_filled_to_vec`]: made from a `&'a mut [u8]`, which safe code can
/// only have over initialized bytes, and holding that borrow for `'a`, so
/// nothing can write to those bytes (nor make them uninitialized again)
/// while the proof lives. Adjacent proofs join into one. It keeps the
/// bytes' address only as a number, never to access them.
#[cfg(feature = "alloc")]
#[derive(Debug)]
#[must_use]
pub struct Filled<'a> {
    addr: usize,
    len: usize,
    borrow: core::marker::PhantomData<&'a mut [u8]>,
}

#[cfg(feature = "alloc")]
impl<'a> Filled<'a> {
    /// The proof that `bytes` are initialized.
    #[inline]
    pub fn new(bytes: &'a mut [u8]) -> Self {
        Filled {
            addr: bytes.as_ptr().addr(),
            len: bytes.len(),
            borrow: core::marker::PhantomData,
        }
    }

    /// One proof for `self`'s bytes and then `next`'s, if `next` starts
    /// where `self` ends; else `None`.
    #[inline]
    pub fn join(self, next: Filled<'a>) -> Option<Filled<'a>> {
        if self.len == 0 {
            return Some(next);
        }
        if next.len == 0 {
            return Some(self);
        }
        if self.addr.checked_add(self.len) != Some(next.addr) {
            return None;
        }
        Some(Filled {
            addr: self.addr,
            len: self.len.checked_add(next.len)?,
            borrow: core::marker::PhantomData,
        })
    }
}

/// Appends `len` bytes to `vec`, written by `fill` straight into its spare
/// capacity, which is never zeroed: `fill` gets the first `len` bytes of
/// the spare capacity, may split them (`split_at_mut`) and write the parts
/// through writers, on other threads too, and returns the [`Filled`] proof
/// of all `len` bytes, joined from the writers' written bytes. The bytes
/// are appended when the proof covers exactly them, and then it returns
/// `true`; else `vec` keeps its length and it returns `false`.
///
/// The caller reserves the capacity first; with less than `len` bytes of
/// spare capacity, `fill` is not called and it returns `false`.
#[cfg(feature = "alloc")]
#[inline]
pub fn append_filled_to_vec<F>(vec: &mut alloc::vec::Vec<u8>, len: usize, fill: F) -> bool
where
    F: for<'s> FnOnce(&'s mut [MaybeUninit<u8>]) -> Option<Filled<'s>>,
{
    let old = vec.len();
    let Some(spare) = vec.spare_capacity_mut().get_mut(..len) else {
        return false;
    };
    let start = spare.as_ptr().addr();
    let Some(filled) = fill(spare) else {
        return false;
    };
    if len == 0 || (filled.addr == start && filled.len == len) {
        // SAFETY: `set_len` requires `new_len <= capacity()` and the
        // elements at `old_len..new_len` to be initialized (std,
        // `Vec::set_len`). The spare capacity had at least `len` bytes, so
        // `old + len <= capacity`. `filled` covers the addresses
        // `start..start + len`, those of the first `len` bytes of the spare
        // capacity, which start at element `old`. It is joined from proofs
        // of adjacent runs, each made from a `&'s mut [u8]` (initialized
        // bytes, since safe code makes no other), and each holding its
        // borrow for all of `'s`, the borrow of `spare` that `fill` was
        // given: two of them cannot overlap (two live `&mut` to one byte),
        // and none of those bytes could be written again before `fill`
        // returned. Memory at those addresses is `spare`'s, so the proofs
        // are over `spare`'s bytes, and every one of them is initialized.
        unsafe { vec.set_len(old + len) };
        return true;
    }
    false
}

/// Writes what `f` writes through the cursor over `buf`'s current chunk
/// that it is given and hands back straight into `buf`, with no copy and no
/// zeroing, and advances `buf` past it when `f` returns `Ok`: on `Err` it
/// keeps its length, so a failed encoding leaves no partial output behind.
/// Returns `f`'s result.
///
/// The caller makes sure the chunk is large enough (for `BytesMut`,
/// `reserve` first).
///
/// # Panics
///
/// When `f` hands back a cursor over other memory.
#[cfg(feature = "bytes")]
#[inline]
pub(crate) fn commit_to_buf_mut<B, R, E>(
    buf: &mut B,
    f: impl for<'s> FnOnce(Cursor<'s>) -> (Cursor<'s>, Result<R, E>),
) -> Result<R, E>
where
    B: ::bytes::BufMut + ?Sized,
{
    let chunk = buf.chunk_mut();
    // SAFETY: `as_uninit_slice_mut` requires that we neither read the
    // memory nor write uninitialized bytes to it (bytes,
    // `UninitSlice::as_uninit_slice_mut`). The slice goes only into a
    // `Cursor`, which never stores an uninitialized byte (invariant 4) and
    // never reads; the only bytes anyone can read back are ones the cursor
    // initialized itself (`reserve`), never the chunk's prior contents.
    let uninit = unsafe { chunk.as_uninit_slice_mut() };
    let (result, n) = write_uninit(uninit, f);
    if result.is_ok() {
        // SAFETY: `advance_mut(n)` requires the next `n` bytes of the chunk
        // to be initialized (bytes, `BufMut::advance_mut`). `write_uninit`
        // returns `n` only when the first `n` bytes of the chunk are
        // initialized, so they are.
        unsafe { buf.advance_mut(n) };
    }
    result
}

/// Runs `f` with a cursor over `spare`, and returns its result and how
/// many bytes were written through the cursor it hands back, `n`: the first
/// `n` bytes of `spare` are then initialized, and `n <= spare.len()`. The
/// callers' `unsafe` blocks rely on exactly that, so it is checked, not
/// assumed: a cursor hands out what it wrote as a `&mut [u8]`, which safe
/// code can only make over initialized bytes, and it must still start
/// where `spare` starts.
///
/// # Panics
///
/// When `f` hands back a cursor over other memory.
#[cfg(any(feature = "alloc", feature = "bytes"))]
#[inline]
fn write_uninit<R>(
    spare: &mut [MaybeUninit<u8>],
    f: impl for<'s> FnOnce(Cursor<'s>) -> (Cursor<'s>, R),
) -> (R, usize) {
    let (start, capacity) = (spare.as_ptr(), spare.len());
    let (cursor, result) = f(Cursor::new_uninit(spare));
    let written = cursor.into_written();
    let n = written.len();
    if !(core::ptr::eq(written.as_ptr(), start.cast::<u8>()) && n <= capacity) {
        writer_replaced();
    }
    (result, n)
}

/// Allocates `len` bytes in `bump`, uninitialized: exactly one bump
/// allocation of exactly `len` bytes, and nothing on the global heap unless
/// the arena needs a new chunk.
///
/// # Panics
///
/// When `len` exceeds `isize::MAX` or the arena cannot allocate.
#[cfg(feature = "bumpalo")]
#[inline]
#[expect(
    clippy::mut_from_ref,
    reason = "an arena allocation: every call returns fresh memory, as `Bump::alloc` does"
)]
pub fn alloc_uninit(bump: &::bumpalo::Bump, len: usize) -> &mut [MaybeUninit<u8>] {
    let layout = core::alloc::Layout::array::<u8>(len).unwrap_or_else(|_| too_large(len));
    let ptr = bump.alloc_layout(layout).as_ptr().cast::<MaybeUninit<u8>>();
    // SAFETY: `from_raw_parts_mut` requires `ptr` to be non-null, aligned,
    // valid for reads and writes of `len` elements of one allocation, the
    // memory not accessed through any other pointer for the returned
    // lifetime, and `len` bytes to be at most `isize::MAX` (std,
    // `slice::from_raw_parts_mut`). `Bump::alloc_layout` returns a non-null
    // pointer to a fresh block of `layout` (size `len`, align 1) in the
    // arena, which stays valid and unused by anyone else until the arena is
    // reset or dropped, and both need `&mut Bump`, which cannot exist while
    // the returned borrow of `bump` does. `Layout::array` checked the size.
    // Elements of type `MaybeUninit<u8>` need not be initialized.
    unsafe { core::slice::from_raw_parts_mut(ptr, len) }
}

#[cfg(feature = "bumpalo")]
#[cold]
#[inline(never)]
#[track_caller]
fn too_large(len: usize) -> ! {
    panic!("marshal: cannot allocate {len} bytes in an arena")
}
#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(any(feature = "alloc", feature = "bumpalo"))]
    use crate::mem::Cursor;

    #[cfg(feature = "alloc")]
    #[test]
    fn appends_what_the_parts_filled() {
        let mut v = alloc::vec::Vec::with_capacity(16);
        v.push(9u8);
        let ok = append_filled_to_vec(&mut v, 6, |spare| {
            let (a, b) = spare.split_at_mut(2);
            let mut wa = Cursor::new_uninit(a);
            wa.put_slice(b"ab").ok()?;
            let mut wb = Cursor::new_uninit(b);
            wb.put_slice(b"cdef").ok()?;
            // Joined in either order of making; only adjacency counts.
            let (fb, fa) = (
                Filled::new(wb.into_written()),
                Filled::new(wa.into_written()),
            );
            fa.join(fb)
        });
        assert!(ok);
        assert_eq!(v, b"\x09abcdef");
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn appends_nothing_unless_the_proof_covers_every_byte() {
        let mut v = alloc::vec::Vec::with_capacity(8);
        v.push(1u8);
        // A part left unwritten: the proof ends short.
        let ok = append_filled_to_vec(&mut v, 4, |spare| {
            let (a, _rest) = spare.split_at_mut(2);
            let mut w = Cursor::new_uninit(a);
            w.put_slice(b"xy").ok()?;
            Some(Filled::new(w.into_written()))
        });
        assert!(!ok);
        // A gap between two parts: they do not join.
        let ok = append_filled_to_vec(&mut v, 4, |spare| {
            let (a, rest) = spare.split_at_mut(1);
            let (_gap, b) = rest.split_at_mut(1);
            let mut wa = Cursor::new_uninit(a);
            wa.put_slice(b"x").ok()?;
            let mut wb = Cursor::new_uninit(b);
            wb.put_slice(b"yz").ok()?;
            Filled::new(wa.into_written()).join(Filled::new(wb.into_written()))
        });
        assert!(!ok);
        // (A proof over other memory would need it borrowed for as long
        // as any `'s`, that is for `'static`; the address check rejects
        // that too.)
        // More than the spare capacity: `fill` is not called.
        let ok = append_filled_to_vec(&mut v, 100, |_| unreachable!());
        assert!(!ok);
        assert_eq!(v, [1]);
        // Zero bytes need no proof of any.
        assert!(append_filled_to_vec(&mut v, 0, |_| Some(Filled::new(
            &mut []
        ))));
        assert_eq!(v, [1]);
    }

    #[cfg(feature = "bumpalo")]
    #[test]
    fn allocates_exactly_in_the_arena() {
        let bump = ::bumpalo::Bump::with_capacity(64);
        let before = bump.chunk_capacity();
        let buf = alloc_uninit(&bump, 5);
        assert_eq!(buf.len(), 5);
        let mut c = Cursor::new_uninit(buf);
        c.put_slice(b"hello").unwrap();
        assert_eq!(c.into_written(), b"hello");
        assert_eq!(before - bump.chunk_capacity(), 5);
        assert!(alloc_uninit(&bump, 0).is_empty());
    }
}
