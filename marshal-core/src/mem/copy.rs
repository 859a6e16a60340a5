//! The short-copy fast path shared by the writer and `String` construction.

use core::mem::MaybeUninit;

/// Copies `src` into `dst`, which must have the same length. Strings on
/// the wire are mostly short, and a call to `memcpy` for each costs more
/// than the copy: up to 64 bytes are moved inline, as possibly overlapping
/// loads and stores of at most 16 bytes each.
///
/// # Contract
///
/// When `dst.len() == src.len()`, every byte of `dst` is initialized
/// afterwards (to the byte of `src` at the same index). Callers rely on
/// this for soundness: the cursor counts the bytes as written, and string
/// construction calls `set_len` over them. Each arm below covers `0..len`:
/// the first, middle and last byte for lengths 1 to 3, and otherwise a
/// chunk at each end whose two halves overlap or meet. Debug builds check
/// the lengths.
#[inline(always)]
pub(super) fn copy_short_or_long(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    debug_assert_eq!(
        dst.len(),
        src.len(),
        "copy_short_or_long: destination and source lengths differ"
    );
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
