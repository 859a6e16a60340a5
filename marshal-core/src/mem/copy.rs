//! The short-copy fast path shared by the writer and `String` construction,
//! and the plain copy into uninitialized bytes under it.

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
            write_copy(d, s);
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            write_copy(d, s);
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
        _ => write_copy(dst, src),
    }
}

/// [`copy_short_or_long`], saying whether every byte of `src` is below 0x80
/// (ASCII) from the same loads: a string is read once, to copy it and to
/// check it. Past 64 bytes, blocks of 32 bytes (two 16-byte chunks each),
/// then the last 32 again.
///
/// # Contract
///
/// As [`copy_short_or_long`]'s: when `dst.len() == src.len()`, every byte
/// of `dst` is initialized afterwards, to the byte of `src` at the same
/// index (each arm covers `0..len` as that function's does, and the block
/// loop covers every whole block before the last 32 bytes).
#[cfg(feature = "alloc")]
#[inline(always)]
pub(super) fn copy_ascii(dst: &mut [MaybeUninit<u8>], src: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    debug_assert_eq!(dst.len(), src.len(), "copy_ascii: lengths differ");
    /// Copies the `N` bytes and ORs their words (`N` a multiple of 8).
    #[inline(always)]
    fn chunk<const N: usize>(d: &mut [MaybeUninit<u8>; N], s: &[u8; N]) -> u64 {
        let bytes = *s;
        write_copy(d, &bytes);
        let mut any = 0;
        let mut words: &[u8] = &bytes;
        while let Some((word, rest)) = words.split_first_chunk::<8>() {
            any |= u64::from_ne_bytes(*word);
            words = rest;
        }
        any
    }
    /// The first and the last `N` bytes (overlapping when fewer than `2N`).
    #[inline(always)]
    fn ends<const N: usize>(dst: &mut [MaybeUninit<u8>], src: &[u8]) -> u64 {
        let mut any = 0;
        if let (Some(d), Some(s)) = (dst.first_chunk_mut::<N>(), src.first_chunk::<N>()) {
            any |= chunk(d, s);
        }
        if let (Some(d), Some(s)) = (dst.last_chunk_mut::<N>(), src.last_chunk::<N>()) {
            any |= chunk(d, s);
        }
        any
    }
    let n = src.len();
    let any = match n {
        0..8 => {
            copy_short_or_long(dst, src);
            src.iter().fold(0, |any, &b| any | u64::from(b))
        }
        8..16 => ends::<8>(dst, src),
        16..32 => ends::<16>(dst, src),
        32..=64 => {
            let mut any = 0;
            for range in [0..32, n - 32..n] {
                if let (Some(d), Some(s)) = (dst.get_mut(range.clone()), src.get(range)) {
                    any |= ends::<16>(d, s);
                }
            }
            any
        }
        _ => {
            let mut any = 0;
            for (d, s) in dst.chunks_exact_mut(32).zip(src.chunks_exact(32)) {
                any |= ends::<16>(d, s);
            }
            if let (Some(d), Some(s)) = (dst.get_mut(n - 32..), src.get(n - 32..)) {
                any |= ends::<16>(d, s);
            }
            any
        }
    };
    any & HIGH == 0
}

/// Copies `src` into `dst`, initializing every byte of it, or panics if the
/// lengths differ: `<[MaybeUninit<u8>]>::write_copy_of_slice`, which is
/// newer (Rust 1.93) than the crate's `rust-version`, as std writes it (a
/// `copy_from_slice` from `src` viewed as `MaybeUninit<u8>`s), so it
/// compiles to the same code: one load and one store for a constant length
/// of up to 16 bytes, a call to `memcpy` for the rest. A safe byte loop
/// does not always: it wrote a quote's 4-byte `flags` as four single bytes,
/// 18,043 instructions to 24,044 for 1,000 quotes encoded
/// (`messages-two-pass-marshal` in `benches/focus.rs`, callgrind).
#[inline(always)]
pub(super) fn write_copy(dst: &mut [MaybeUninit<u8>], src: &[u8]) {
    dst.copy_from_slice(as_uninit(src));
}

/// `src` viewed as `MaybeUninit<u8>`s, for [`write_copy`].
#[inline(always)]
fn as_uninit(src: &[u8]) -> &[MaybeUninit<u8>] {
    let ptr = src.as_ptr().cast::<MaybeUninit<u8>>();
    // SAFETY: `from_raw_parts` requires `ptr` to be non-null, aligned and
    // valid for reads of `len` elements of one allocation, the elements to
    // be properly initialized values of their type and not to be mutated
    // for the returned lifetime, and the total size to be at most
    // `isize::MAX` (std, `slice::from_raw_parts`). `ptr` and `len` are
    // those of the slice `src`, which meets all of it for `u8`;
    // `MaybeUninit<u8>` "is guaranteed to have the same size, alignment,
    // and ABI as `u8`" (std, `MaybeUninit`, "Layout"), so it is met for the
    // cast pointer too, and every byte is a valid `MaybeUninit<u8>`. The
    // result borrows `src`, so nothing mutates the bytes while it lives, and
    // a shared slice cannot store an uninitialized byte into them.
    unsafe { core::slice::from_raw_parts(ptr, src.len()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initializes_every_byte_of_the_destination() {
        let src: [u8; 100] = core::array::from_fn(|i| i as u8 ^ 0x5a);
        for len in 0..=src.len() {
            // Uninitialized: under Miri, reading a byte the copy missed is
            // an error.
            let mut dst = [MaybeUninit::<u8>::uninit(); 100];
            copy_short_or_long(&mut dst[..len], &src[..len]);
            for (i, byte) in dst[..len].iter().enumerate() {
                // SAFETY: `assume_init` requires the byte to be initialized
                // (std, `MaybeUninit::assume_init`); the contract under test
                // says the copy initialized all of `dst[..len]`, and Miri
                // checks it.
                assert_eq!(unsafe { byte.assume_init() }, src[i], "{len} {i}");
            }
        }
    }

    #[cfg(feature = "alloc")]
    #[test]
    fn copy_ascii_initializes_every_byte_and_finds_every_high_byte() {
        let src: [u8; 160] = core::array::from_fn(|i| (i as u8 % 95) + 32);
        // Every length to past two blocks of 32 after the first 64; under
        // Miri, every 13th (prime to the 8-byte words and 16-byte chunks,
        // so every offset within them is still met).
        let step = if cfg!(miri) { 13 } else { 1 };
        for len in (0..=src.len()).step_by(step) {
            let mut dst = [MaybeUninit::<u8>::uninit(); 160];
            assert!(copy_ascii(&mut dst[..len], &src[..len]), "{len}");
            for (i, byte) in dst[..len].iter().enumerate() {
                // SAFETY: `assume_init` requires the byte to be initialized
                // (std, `MaybeUninit::assume_init`); the contract under test
                // says the copy initialized all of `dst[..len]`, and Miri
                // checks it.
                assert_eq!(unsafe { byte.assume_init() }, src[i], "{len} {i}");
            }
            // A byte of 0x80 or more anywhere in the string is found, and
            // one just past it is not looked at.
            for at in (0..len).step_by(step) {
                let mut high = src;
                high[at] = 0x80 | (at as u8);
                let mut dst = [MaybeUninit::<u8>::uninit(); 160];
                assert!(!copy_ascii(&mut dst[..len], &high[..len]), "{len} {at}");
            }
            if len < src.len() {
                let mut after = src;
                after[len] = 0xff;
                let mut dst = [MaybeUninit::<u8>::uninit(); 160];
                assert!(copy_ascii(&mut dst[..len], &after[..len]), "{len}");
            }
        }
    }

    #[test]
    fn write_copy_initializes_every_byte() {
        let src: [u8; 100] = core::array::from_fn(|i| i as u8 ^ 0xa5);
        for len in [0, 1, 4, 16, 65, 100] {
            let mut dst = [MaybeUninit::<u8>::uninit(); 100];
            write_copy(&mut dst[..len], &src[..len]);
            for (i, byte) in dst[..len].iter().enumerate() {
                // SAFETY: `assume_init` requires the byte to be initialized
                // (std, `MaybeUninit::assume_init`); `write_copy` wrote all
                // of `dst[..len]`, and Miri checks it.
                assert_eq!(unsafe { byte.assume_init() }, src[i], "{len} {i}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "does not match destination slice length")]
    fn write_copy_rejects_different_lengths() {
        let mut dst = [MaybeUninit::<u8>::uninit(); 8];
        write_copy(&mut dst, &[1, 2, 3]);
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "destination and source lengths differ")]
    fn debug_builds_reject_different_lengths() {
        let mut dst = [MaybeUninit::<u8>::uninit(); 8];
        copy_short_or_long(&mut dst, &[1, 2, 3]);
    }
}
