//! The crate's only `unsafe` code: writing into memory that may be
//! uninitialized, and handing back the part that was written.
//!
//! Everything here rests on one type, [`Cursor`], the storage behind
//! [`Writer`]. Its fields are private to this module, so the invariants
//! below are kept by the code in this file alone:
//!
//! 1. `pos <= buf.len()`;
//! 2. `buf[..pos]` is initialized;
//! 3. `buf[..init]` is initialized, and `init <= buf.len()`;
//! 4. nothing stores an uninitialized byte into `buf`, and no
//!    `&mut [MaybeUninit<u8>]` into `buf` ever leaves this module. So a
//!    cursor over memory that was initialized leaves it initialized.
//!
//! Every constructor establishes them and every method keeps them; they hold
//! for *every* `Cursor` value, which is what makes the checks below work even
//! when user code swaps the `Writer` it was given for another one.
//!
//! The functions at the bottom use a `&mut [u8]` as the proof that bytes are
//! initialized: a live `&mut [u8]` produced by safe code points at
//! initialized bytes, so when it starts where the spare capacity of a `Vec`
//! (or the chunk of a `BufMut`) starts, that many bytes there are
//! initialized.
//!
//! See `POLICIES.md` for the rules every `unsafe` block follows.

use core::fmt;
use core::mem::MaybeUninit;

use crate::error::Overflow;
use crate::writer::Writer;

/// The storage behind a [`Writer`]: a byte buffer that may start out
/// uninitialized, and how much of it is written. See the module docs for its
/// invariants.
pub(crate) struct Cursor<'a> {
    buf: &'a mut [MaybeUninit<u8>],
    pos: usize,
    init: usize,
}

impl fmt::Debug for Cursor<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Writer")
            .field("written", &self.pos)
            .field("remaining", &self.remaining())
            .finish()
    }
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
        dst.write_copy_of_slice(&bytes);
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
        head.write_copy_of_slice(&prefix);
        copy_short_or_long(tail, bytes);
        self.pos += 8 + bytes.len();
        Ok(())
    }

    /// Claims the next `len` bytes, initialized, for the caller to fill.
    /// Bytes not already known to be initialized are zeroed first.
    #[inline]
    pub(crate) fn put_copy(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        let dst = self.rest().get_mut(..bytes.len()).ok_or(Overflow)?;
        dst.write_copy_of_slice(bytes);
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
        // SAFETY: `assume_init_mut` requires every element to be initialized
        // (std, `<[MaybeUninit<T>]>::assume_init_mut`). `dst[..known]` is
        // `buf[start..start + known]` with `start + known <= init`, so it is
        // initialized by invariant 3, and `dst[known..]` was zeroed just
        // above. The caller gets `&mut [u8]`, which cannot store an
        // uninitialized byte, so invariant 4 holds; invariant 2 holds for the
        // new `pos` because all of `dst` is initialized.
        Ok(unsafe { dst.assume_init_mut() })
    }

    /// Runs `f` on a writer over exactly the next `len` bytes, then counts
    /// what it wrote there as written here.
    #[inline]
    pub(crate) fn exact<F>(&mut self, len: usize, f: F) -> Result<(), Overflow>
    where
        F: FnOnce(&mut Writer<'_>) -> Result<(), Overflow>,
    {
        let init = self.init.saturating_sub(self.pos).min(len);
        let region = self.rest().get_mut(..len).ok_or(Overflow)?;
        let start = region.as_ptr();
        let mut sub = Writer::from_cursor(Cursor {
            buf: region,
            pos: 0,
            // `region[..init]` is within `buf[..self.init]`: invariant 3.
            init,
        });
        let result = f(&mut sub);
        let Cursor { buf, pos, .. } = sub.into_cursor();
        // `f` may have replaced the writer. A cursor over exactly `region`
        // has initialized `region[..pos]` (its invariants 1 and 2), and
        // `region` starts at our `pos`, so ours may move up by `pos`.
        if !(core::ptr::eq(buf.as_ptr(), start) && buf.len() == len) {
            writer_replaced();
        }
        self.pos += pos;
        result
    }

    /// The written bytes, for as long as the buffer was borrowed.
    #[inline]
    pub(crate) fn into_written(self) -> &'a mut [u8] {
        let (head, _) = self.buf.split_at_mut(self.pos);
        // SAFETY: `assume_init_mut` requires every element to be initialized
        // (std, `<[MaybeUninit<T>]>::assume_init_mut`); `head` is
        // `buf[..pos]`, initialized by invariant 2. The cursor is consumed,
        // so nothing else refers to these bytes for `'a`.
        unsafe { head.assume_init_mut() }
    }
}

/// Copies `src` into `dst`, which has the same length. Strings on the wire
/// are mostly short, and a call to `memcpy` for each costs more than the
/// copy: up to 64 bytes are moved inline, as possibly overlapping loads
/// and stores of at most 16 bytes each.
#[inline(always)]
fn copy_short_or_long(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    #[inline(always)]
    fn ends<const N: usize>(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
            d.write_copy_of_slice(s);
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            d.write_copy_of_slice(s);
        }
    }
    match src.len() {
        0 => {}
        1..4 => {
            // First, middle and last byte cover lengths 1 to 3.
            let n = src.len();
            for i in [0, n / 2, n - 1] {
                if let (Some(d), Some(s)) = (dst.get_mut(i), src.get(i)) {
                    d.write(*s);
                }
            }
        }
        4..8 => ends::<4>(dst, src),
        8..16 => ends::<8>(dst, src),
        16..32 => ends::<16>(dst, src),
        32..=64 => {
            // The first and the last 32 bytes, each as two 16-byte chunks:
            // without wider vector registers, a 32-byte chunk is a call to
            // `memcpy` again.
            let n = src.len();
            for range in [0..32, n - 32..n] {
                if let (Some(d), Some(s)) = (dst.get_mut(range.clone()), src.get(range)) {
                    ends::<16>(d, s);
                }
            }
        }
        _ => {
            dst.write_copy_of_slice(src);
        }
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn writer_replaced() -> ! {
    panic!("marshal: an encoder replaced the Writer it was given with one over other memory")
}

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
    let len = vec.len();
    let spare = vec.spare_capacity_mut();
    let (start, capacity) = (spare.as_ptr(), spare.len());
    let mut w = Writer::new_uninit(spare);
    let result = f(&mut w);
    let written = w.into_written();
    let n = written.len();
    if !(core::ptr::eq(written.as_ptr(), start.cast::<u8>()) && n <= capacity) {
        writer_replaced();
    }
    // SAFETY: `set_len` requires `new_len <= capacity()` and the elements at
    // `old_len..new_len` to be initialized (std, `Vec::set_len`). `written`
    // was a `&mut [u8]` of `n` bytes, so those bytes are initialized, and it
    // starts where the spare capacity starts, i.e. at element `len`, with
    // `n <= capacity - len`: both requirements hold for `len + n`.
    unsafe { vec.set_len(len + n) };
    result
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
    let chunk = buf.chunk_mut();
    // SAFETY: `as_uninit_slice_mut` requires that we neither read the
    // memory nor write uninitialized bytes to it (bytes,
    // `UninitSlice::as_uninit_slice_mut`). The slice goes only into a
    // `Writer`, whose cursor never stores an uninitialized byte (invariant
    // 4) and never reads; the only bytes anyone can read back are ones the
    // cursor initialized itself (`reserve`), never the chunk's prior
    // contents.
    let uninit = unsafe { chunk.as_uninit_slice_mut() };
    let (start, capacity) = (uninit.as_ptr(), uninit.len());
    let mut w = Writer::new_uninit(uninit);
    let result = f(&mut w);
    let written = w.into_written();
    let n = written.len();
    if !(core::ptr::eq(written.as_ptr(), start.cast::<u8>()) && n <= capacity) {
        writer_replaced();
    }
    // SAFETY: `advance_mut(n)` requires the next `n` bytes of the chunk to be
    // initialized (bytes, `BufMut::advance_mut`). `written` was a `&mut [u8]`
    // of `n` bytes starting at the chunk's start, so they are.
    unsafe { buf.advance_mut(n) };
    result
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

/// Whether a type's wire encoding is exactly its in-memory representation
/// on this target, so a run of values can be copied in one piece.
///
/// A `Layout` that [`is_memcpy`](Layout::is_memcpy) promises, for the type
/// whose `__LAYOUT` it is: a value's `size_of::<T>()` bytes are all
/// initialized (no padding), they are exactly its wire encoding, and every
/// pattern of that many bytes is a valid `T`. The unsafe code in `bytes.rs`
/// relies on this to copy runs of values in one piece.
///
/// Safe code cannot make a false one: primitives and arrays are set here,
/// and a struct's comes from [`Layout::structure`], an `unsafe fn` that the
/// derive calls with facts from `size_of` and `offset_of!`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    memcpy: bool,
}

impl Layout {
    /// Not known to match memory.
    pub const OPAQUE: Layout = Layout { memcpy: false };

    /// A primitive whose little-endian wire bytes are its memory on a
    /// little-endian target, and every bit pattern of which is valid.
    pub(crate) const fn primitive() -> Layout {
        Layout {
            memcpy: cfg!(target_endian = "little"),
        }
    }

    /// `[T; N]`: elements are laid out back to back with no padding.
    pub(crate) const fn array(element: Layout) -> Layout {
        element
    }

    /// A zero-sized type that writes nothing.
    pub(crate) const fn empty() -> Layout {
        Layout { memcpy: true }
    }

    /// A derived struct of `size` bytes whose encoded fields, in wire order,
    /// sit at `fields[i].0` with `fields[i].1` bytes and layout `fields[i].2`.
    /// It matches memory when every field does and they tile `0..size`
    /// exactly in wire order.
    ///
    /// # Safety
    ///
    /// `size` must be `size_of` of the struct, and `fields` must list every
    /// field of the struct, in wire order, each with its `offset_of!`, its
    /// type's `size_of`, and its type's `__LAYOUT` for the trait being
    /// implemented. The derive passes exactly these.
    #[must_use]
    pub const unsafe fn structure(size: usize, fields: &[(usize, usize, Layout)]) -> Layout {
        let mut next = 0;
        let mut i = 0;
        while i < fields.len() {
            let (offset, len, layout) = fields[i];
            if !layout.memcpy || offset != next {
                return Layout::OPAQUE;
            }
            next += len;
            i += 1;
        }
        Layout {
            memcpy: next == size,
        }
    }

    /// Whether the wire bytes are the memory bytes.
    #[must_use]
    pub const fn is_memcpy(self) -> bool {
        self.memcpy
    }
}

// Bulk copies of types whose wire bytes are their memory. Their soundness
// rests on the contract of `Layout::is_memcpy` (see `layout.rs`): such a
// type has no padding, its bytes are its wire encoding, and every byte
// pattern of its size is a valid value. Only this crate and `unsafe` calls
// to `Layout::structure` can produce such a layout.

/// The bytes of `items` in memory, when they are their wire encoding.
#[inline]
pub(crate) fn memory_of<T: crate::Marshal>(items: &[T]) -> Option<&[u8]> {
    if !T::__LAYOUT.is_memcpy() {
        return None;
    }
    let ptr = items.as_ptr().cast::<u8>();
    // SAFETY: `from_raw_parts` requires `ptr` to be non-null, aligned and
    // valid for reads of `len` initialized bytes of one allocation, not
    // mutated for the returned lifetime, with `len <= isize::MAX` (std,
    // `slice::from_raw_parts`). `ptr` is `items`' own pointer (non-null,
    // and `u8` needs alignment 1), `size_of_val(items)` is exactly the bytes
    // `items` covers (at most `isize::MAX`, as for any slice), the shared
    // borrow of `items` keeps them unmutated, and they are initialized
    // because `T` has no padding (the `is_memcpy` contract).
    Some(unsafe { core::slice::from_raw_parts(ptr, core::mem::size_of_val(items)) })
}

/// The values whose memory is `bytes`, when their wire bytes are their
/// memory; `bytes.len()` is a multiple of `size_of::<T>()`.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn vec_from_memory<'de, T: crate::Unmarshal<'de>>(bytes: &[u8]) -> alloc::vec::Vec<T> {
    let size = core::mem::size_of::<T>();
    assert!(
        <T as crate::Unmarshal>::__LAYOUT.is_memcpy()
            && size > 0
            && bytes.len().is_multiple_of(size),
        "vec_from_memory: not a run of memcpy-equivalent values"
    );
    let len = bytes.len() / size;
    let mut out = alloc::vec::Vec::<T>::with_capacity(len);
    // SAFETY: `copy_nonoverlapping` requires the source to be valid for
    // reads and the destination for writes of `bytes.len()` bytes, and the
    // two not to overlap (std, `ptr::copy_nonoverlapping`); `u8` copies
    // need no alignment. The source is `bytes`. The destination is `out`'s
    // buffer, allocated for `len` values, i.e. `len * size == bytes.len()`
    // bytes, and a fresh allocation cannot overlap `bytes`.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), bytes.len());
    }
    // SAFETY: `set_len` requires `len <= capacity()` and the first `len`
    // elements to be initialized (std, `Vec::set_len`). The capacity is at
    // least `len`, and the copy above filled all `len * size` bytes of them
    // with bytes that form valid values: every byte pattern of `T`'s size is
    // one (the `is_memcpy` contract, asserted above).
    unsafe { out.set_len(len) };
    out
}

/// The array whose memory is `bytes`, when `T`'s wire bytes are its memory;
/// `bytes.len()` is `N * size_of::<T>()`.
#[inline]
pub(crate) fn array_from_memory<'de, T: crate::Unmarshal<'de>, const N: usize>(
    bytes: &[u8],
) -> [T; N] {
    assert!(
        <T as crate::Unmarshal>::__LAYOUT.is_memcpy()
            && bytes.len() == core::mem::size_of::<[T; N]>(),
        "array_from_memory: not a run of memcpy-equivalent values"
    );
    let mut out = MaybeUninit::<[T; N]>::uninit();
    // SAFETY: as in `vec_from_memory`: `bytes` is valid for reads of
    // `bytes.len()` bytes, `out` for writes of `size_of::<[T; N]>()`, which
    // is the same number (asserted), a local cannot overlap `bytes`, and
    // `u8` copies need no alignment.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), bytes.len());
    }
    // SAFETY: `assume_init` requires the value to be initialized and valid
    // (std, `MaybeUninit::assume_init`). Every byte of it was written just
    // above, and any byte pattern is a valid `[T; N]` because it is one for
    // `T` (the `is_memcpy` contract, asserted above) and arrays have no
    // padding between elements.
    unsafe { out.assume_init() }
}

/// The first `len` bytes of `window` as a `&str`, or `None` if they are not
/// UTF-8 (or there are fewer than `len`).
///
/// Most strings on the wire are short and ASCII. `core::str::from_utf8`
/// spends most of its time on such a string getting its loop aligned, so
/// ASCII is checked first and only other strings take the full validation.
/// The bytes after the string may be read for that check: a string of at
/// most 16 bytes with 16 bytes of `window` from its start is checked with
/// two loads and a mask, no branch on its length. A decoder passes the rest
/// of its input, which usually goes on past the string.
#[inline]
pub(crate) fn str_at_start(window: &[u8], len: usize) -> Option<&str> {
    let bytes = window.get(..len)?;
    let ascii = match window.first_chunk::<16>() {
        Some(head) if len <= 16 => match head.as_chunks::<8>() {
            // Bytes `len..16` are not the string's: mask them off.
            ([lo, hi], _) => {
                let lo = u64::from_le_bytes(*lo) & low_bytes(len);
                let hi = u64::from_le_bytes(*hi) & low_bytes(len.saturating_sub(8));
                (lo | hi) & 0x8080_8080_8080_8080 == 0
            }
            // Not reached (16 bytes are two words); it would only cost the
            // full validation.
            _ => false,
        },
        _ => is_ascii(bytes),
    };
    if ascii {
        // SAFETY: `from_utf8_unchecked` requires valid UTF-8 (std,
        // `str::from_utf8_unchecked`); every byte of `bytes` is below 0x80
        // (checked just above: either all of `bytes`, or the 16 bytes
        // starting where `bytes` starts, `bytes.len() <= 16`, with the bytes
        // past `bytes.len()` masked off), and ASCII is valid UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(bytes) })
    } else {
        core::str::from_utf8(bytes).ok()
    }
}

/// A mask of the low `n` bytes of a little-endian word (all of it when
/// `n >= 8`): a table lookup, not a branch.
#[inline(always)]
fn low_bytes(n: usize) -> u64 {
    const MASKS: [u64; 9] = {
        let mut masks = [u64::MAX; 9];
        let mut n = 0;
        while n < 8 {
            masks[n] = (1 << (8 * n)) - 1;
            n += 1;
        }
        masks
    };
    MASKS[n.min(8)]
}

/// The first `len` bytes of `window` as an owned `String`, or `None` if
/// they are not UTF-8 (or there are fewer than `len`).
///
/// [`str_at_start`], then a copy. A string of 1 to 16 bytes with 16 bytes
/// of `window` from its start is copied as one 16-byte move, with no
/// branch on its length, into a buffer of capacity 16: what glibc rounds a
/// request for its length up to anyway (its smallest chunk holds 24
/// bytes). Allocators with an 8-byte size class (jemalloc, mimalloc) give
/// strings of 1 to 8 bytes 16 where 8 would do; a version with an 8-byte
/// class as well cost owned `logs` 8% (one more branch on the length).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn string_at_start(window: &[u8], len: usize) -> Option<alloc::string::String> {
    let s = str_at_start(window, len)?;
    // (An empty string allocates nothing, so it takes the general path.)
    let Some(head) = window
        .first_chunk::<16>()
        .filter(|_| (1..=16).contains(&len))
    else {
        return Some(string_from(s));
    };
    let mut bytes = alloc::vec::Vec::<u8>::with_capacity(16);
    if let Some(spare) = bytes.spare_capacity_mut().first_chunk_mut::<16>() {
        spare.write_copy_of_slice(head);
        // SAFETY: `set_len` requires `new_len <= capacity()` and the first
        // `new_len` elements to be initialized (std, `Vec::set_len`):
        // `len <= 16` and the 16 spare elements were just written.
        unsafe { bytes.set_len(len) };
    } else {
        bytes.extend_from_slice(s.as_bytes());
    }
    // SAFETY: `from_utf8_unchecked` requires valid UTF-8 (std,
    // `String::from_utf8_unchecked`). `bytes` is `head[..len]`, which is
    // `window[..len]`, the bytes of the `str` `s`.
    Some(unsafe { alloc::string::String::from_utf8_unchecked(bytes) })
}

/// An owned copy of `s`, copied inline when it is short (see
/// [`copy_short_or_long`]) rather than through a call to `memcpy`.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn string_from(s: &str) -> alloc::string::String {
    let mut bytes = alloc::vec::Vec::<u8>::with_capacity(s.len());
    copy_short_or_long(&mut bytes.spare_capacity_mut()[..s.len()], s.as_bytes());
    // SAFETY: `set_len` requires `new_len <= capacity()` and the first
    // `new_len` elements to be initialized (std, `Vec::set_len`). The
    // capacity is at least `s.len()`, and the copy just above wrote all
    // `s.len()` bytes.
    unsafe { bytes.set_len(s.len()) };
    // SAFETY: `from_utf8_unchecked` requires the bytes to be valid UTF-8
    // (std, `String::from_utf8_unchecked`); they are a copy of a `str`.
    unsafe { alloc::string::String::from_utf8_unchecked(bytes) }
}

/// Whether every byte is below 0x80. Up to 64 bytes: the words of the first
/// and of the last 8, 16 or 32 bytes (overlapping), so no loop whose exit
/// depends on the length; longer: every whole word, then the last again.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// The words of the first and of the last `N` bytes, OR-ed together
    /// (they overlap when there are fewer than `2 * N` bytes).
    #[inline(always)]
    fn ends<const N: usize>(bytes: &[u8]) -> u64 {
        let (Some(first), Some(last)) = (bytes.first_chunk::<N>(), bytes.last_chunk::<N>()) else {
            return HIGH;
        };
        let (a, _) = first.as_chunks::<8>();
        let (b, _) = last.as_chunks::<8>();
        a.iter()
            .chain(b)
            .fold(0, |any, w| any | u64::from_ne_bytes(*w))
    }
    let n = bytes.len();
    let any = match n {
        65.. => {
            let (words, _) = bytes.as_chunks::<8>();
            let any = words.iter().fold(0, |any, w| any | u64::from_ne_bytes(*w));
            any | ends::<8>(bytes)
        }
        33.. => ends::<32>(bytes),
        17.. => ends::<16>(bytes),
        8.. => ends::<8>(bytes),
        4.. => {
            let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
            else {
                return false;
            };
            u64::from(u32::from_ne_bytes(*first) | u32::from_ne_bytes(*last))
        }
        _ => bytes.iter().fold(0, |any, &b| any | u64::from(b)),
    };
    any & HIGH == 0
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

    #[cfg(feature = "alloc")]
    #[test]
    fn string_from_copies_every_length() {
        let text = "short, then long enough for memcpy: ßüñ and more, 0123456789";
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            let s = string_from(&text[..end]);
            assert_eq!(s, &text[..end]);
            assert!(s.capacity() >= end);
        }
    }

    #[test]
    fn str_at_start_agrees_with_core_at_every_length_and_position() {
        // Past 64 bytes, so the word loop of long strings is covered too.
        let text = "the quick brown fox jumps over the lazy dog, 0123456789 ".repeat(3);
        let text = text.as_str();
        for len in 0..=text.len() {
            let ascii = &text.as_bytes()[..len];
            assert!(is_ascii(ascii), "{len}");
            assert_eq!(str_at_start(ascii, ascii.len()), Some(&text[..len]));
            for at in 0..len {
                // A high byte at `at`: not ASCII, and on its own not UTF-8.
                let mut bad = ascii.to_vec();
                bad[at] |= 0x80;
                assert!(!is_ascii(&bad), "{len} {at}");
                assert_eq!(str_at_start(&bad, bad.len()), None, "{len} {at}");
                // A two-byte character ending at `at`: valid, not ASCII.
                if at > 0 {
                    let mut two = ascii.to_vec();
                    two[at - 1..=at].copy_from_slice("é".as_bytes());
                    assert!(!is_ascii(&two), "{len} {at}");
                    assert_eq!(
                        str_at_start(&two, two.len()),
                        core::str::from_utf8(&two).ok(),
                        "{len} {at}"
                    );
                    assert!(str_at_start(&two, two.len()).is_some());
                }
            }
        }
    }

    #[test]
    fn str_at_start_reads_only_the_string_whatever_follows_it() {
        let text = "the quick brown fox jumps over the lazy dog, 0123456789";
        for len in 0..=40 {
            for tail in [0, 1, 15, 16, 40] {
                // The string, then `tail` bytes that are not UTF-8 at all.
                let mut window = text.as_bytes()[..len].to_vec();
                window.extend(core::iter::repeat_n(0xFF, tail));
                assert_eq!(
                    str_at_start(&window, len),
                    Some(&text[..len]),
                    "{len} {tail}"
                );
                for at in 0..len {
                    let mut bad = window.clone();
                    bad[at] |= 0x80;
                    assert_eq!(str_at_start(&bad, len), None, "{len} {tail} {at}");
                    if at > 0 {
                        let mut two = window.clone();
                        two[at - 1..=at].copy_from_slice("é".as_bytes());
                        let expected = core::str::from_utf8(&two[..len]).ok();
                        assert_eq!(str_at_start(&two, len), expected, "{len} {tail} {at}");
                    }
                }
                assert_eq!(str_at_start(&window, len + tail + 1), None);
            }
        }
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn string_at_start_copies_only_the_string() {
        let text = "short, then long enough for memcpy: ßüñ and more, 0123456789";
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            for tail in [0, 1, 15, 16, 40] {
                let mut window = text.as_bytes()[..end].to_vec();
                window.extend(core::iter::repeat_n(0xFF, tail));
                let s = string_at_start(&window, end).unwrap();
                assert_eq!(s, &text[..end], "{end} {tail}");
                assert!(s.capacity() >= end);
                assert_eq!(string_at_start(&window, end + tail + 1), None);
                if end > 0 {
                    let mut bad = window.clone();
                    bad[end - 1] = 0xFF;
                    assert_eq!(string_at_start(&bad, end), None, "{end} {tail}");
                }
            }
        }
    }

    #[test]
    fn memory_of_is_the_wire_bytes_of_qualifying_types() {
        let items = [0x0102_0304u32, 0xa0b0_c0d0];
        let bytes = memory_of(&items);
        if cfg!(target_endian = "little") {
            assert_eq!(bytes, Some(&[4, 3, 2, 1, 0xd0, 0xc0, 0xb0, 0xa0][..]));
        } else {
            assert_eq!(bytes, None);
        }
        assert_eq!(memory_of(&[true, false]), None);
        assert_eq!(memory_of(&['a']), None);
        assert_eq!(memory_of(&[Some(1u8)]), None);
        assert_eq!(
            memory_of::<[i16; 2]>(&[[1, -1]]).map(<[u8]>::len),
            cfg!(target_endian = "little").then_some(4)
        );
    }

    #[cfg(all(feature = "alloc", target_endian = "little"))]
    #[test]
    fn values_from_memory() {
        let bytes = [1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f];
        assert_eq!(vec_from_memory::<i32>(&bytes), [1, i32::MAX]);
        assert_eq!(vec_from_memory::<u16>(&bytes), [1, 0, 0xffff, 0x7fff]);
        assert_eq!(vec_from_memory::<u64>(&[]), [] as [u64; 0]);
        assert_eq!(array_from_memory::<f32, 2>(&bytes[..8])[0].to_bits(), 1);
        assert_eq!(
            array_from_memory::<[u8; 2], 2>(&bytes[..4]),
            [[1, 0], [0, 0]]
        );
    }

    #[cfg(feature = "alloc")]
    #[test]
    #[should_panic(expected = "not a run of memcpy-equivalent values")]
    fn values_from_memory_reject_other_types() {
        let _ = vec_from_memory::<bool>(&[1, 0]);
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
        assert_eq!(c.exact(4, |_| Ok(())), Err(Overflow));
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
    fn exact_counts_what_the_sub_writer_wrote() {
        let mut buf = uninit::<8>();
        let mut c = Cursor::new_uninit(&mut buf);
        c.exact(4, |w| w.put_array([1, 2, 3, 4])).unwrap();
        // A sub-writer that writes less leaves the rest unwritten.
        c.exact(3, |w| w.put_u8(5)).unwrap();
        assert_eq!(c.written(), 5);
        // One that overruns its share fails.
        assert_eq!(c.exact(1, |w| w.put_array([0, 0])), Err(Overflow));
        // Reserving inside the region zeroes only there.
        c.exact(2, |w| {
            w.reserve(2)?[1] = 6;
            Ok(())
        })
        .unwrap();
        assert_eq!(c.into_written(), [1, 2, 3, 4, 5, 0, 6]);
    }

    #[test]
    #[should_panic(expected = "replaced the Writer")]
    fn exact_rejects_a_replaced_writer() {
        let mut buf = uninit::<8>();
        let mut c = Cursor::new_uninit(&mut buf);
        // `&mut []` is `'static`, so it may stand in for any writer.
        let _ = c.exact(4, |w| {
            *w = Writer::new(&mut []);
            Ok(())
        });
    }

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

    impl Cursor<'_> {
        fn put_u8_for_test(&mut self, b: u8) {
            self.put_array([b]).unwrap();
        }
    }
}
