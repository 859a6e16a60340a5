//! UTF-8 fast paths: borrowing and copying strings out of the input.

#[cfg(feature = "alloc")]
use super::copy::{copy_ascii, write_copy};

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
        Some(head) if len <= 16 => match (head.first_chunk::<8>(), head.last_chunk::<8>()) {
            // Bytes `len..16` are not the string's: mask them off.
            (Some(lo), Some(hi)) => {
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
/// Each byte is read once, to copy it and to check it: the copy and the
/// ASCII check of [`str_at_start`] use the same loads, and only a string
/// that is not all ASCII is validated again, by `core::str::from_utf8`. A
/// string of 1 to 16 bytes with 16 bytes of `window` from its start is
/// copied as one 16-byte move, with no branch on its length, into a buffer
/// of capacity 16: what glibc rounds a request for its length up to
/// anyway (its smallest chunk holds 24 bytes). Allocators with an 8-byte
/// size class (jemalloc, mimalloc) give strings of 1 to 8 bytes 16 where 8
/// would do; a version with an 8-byte class as well cost owned `logs` 8%
/// (one more branch on the length).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn string_at_start(window: &[u8], len: usize) -> Option<alloc::string::String> {
    let src = window.get(..len)?;
    // (An empty string allocates nothing, so it takes the general path.)
    if let Some(head) = window
        .first_chunk::<16>()
        .filter(|_| (1..=16).contains(&len))
    {
        let head = *head;
        let mut bytes = alloc::vec::Vec::<u8>::with_capacity(16);
        let spare = bytes.spare_capacity_mut().first_chunk_mut::<16>()?;
        write_copy(spare, &head);
        // Bytes `len..16` are not the string's: mask them off.
        let (lo, hi) = head.split_at(8);
        let lo = u64::from_le_bytes(lo.try_into().ok()?) & low_bytes(len);
        let hi = u64::from_le_bytes(hi.try_into().ok()?) & low_bytes(len.saturating_sub(8));
        if (lo | hi) & 0x8080_8080_8080_8080 != 0 {
            core::str::from_utf8(src).ok()?;
        }
        // SAFETY: `set_len` requires `new_len <= capacity()` and the first
        // `new_len` elements to be initialized (std, `Vec::set_len`): `len
        // <= 16` and the 16 spare elements were just written.
        unsafe { bytes.set_len(len) };
        // SAFETY: `from_utf8_unchecked` requires valid UTF-8 (std,
        // `String::from_utf8_unchecked`). `bytes` is `head[..len]`, which is
        // `src`, and `src` is UTF-8: all ASCII (every one of its bytes is
        // below 0x80, checked above with the bytes past `len` masked off),
        // or validated by `from_utf8`.
        return Some(unsafe { alloc::string::String::from_utf8_unchecked(bytes) });
    }
    let mut bytes = alloc::vec::Vec::<u8>::with_capacity(len);
    let spare = bytes.spare_capacity_mut().get_mut(..len)?;
    if !copy_ascii(spare, src) {
        core::str::from_utf8(src).ok()?;
    }
    // SAFETY: `set_len` requires `new_len <= capacity()` and the first
    // `new_len` elements to be initialized (std, `Vec::set_len`): the
    // capacity is at least `len`, and `copy_ascii` initialized all `len`
    // bytes of `spare` (its contract, with `spare.len() == src.len() ==
    // len`).
    unsafe { bytes.set_len(len) };
    // SAFETY: `from_utf8_unchecked` requires valid UTF-8 (std,
    // `String::from_utf8_unchecked`). `bytes` is a copy of `src`, which is
    // all ASCII (`copy_ascii` returned true: every byte below 0x80) or was
    // validated by `from_utf8`.
    Some(unsafe { alloc::string::String::from_utf8_unchecked(bytes) })
}

/// Whether every byte is below 0x80. Up to 64 bytes: the words of the first
/// and of the last 8, 16 or 32 bytes (overlapping), so no loop whose exit
/// depends on the length; longer: every whole 32-byte block, then the last
/// 32 bytes again.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// The 8-byte words of `bytes`, OR-ed together. Every caller passes a
    /// multiple of 8 bytes (8, 16 or 32), so no byte is left out. The words
    /// are what `as_chunks::<8>` gives, which is newer (Rust 1.88) than the
    /// crate's `rust-version`; this loop compiles to the same one or two
    /// 16-byte loads per 16 or 32 bytes (Rust 1.95's assembly).
    #[inline(always)]
    fn or_words(mut bytes: &[u8]) -> u64 {
        let mut any = 0;
        while let Some((word, rest)) = bytes.split_first_chunk::<8>() {
            any |= u64::from_ne_bytes(*word);
            bytes = rest;
        }
        any
    }
    /// The words of the first and of the last `N` bytes, OR-ed together
    /// (they overlap when there are fewer than `2 * N` bytes).
    #[inline(always)]
    fn ends<const N: usize>(bytes: &[u8]) -> u64 {
        let (Some(first), Some(last)) = (bytes.first_chunk::<N>(), bytes.last_chunk::<N>()) else {
            return HIGH;
        };
        or_words(first) | or_words(last)
    }
    let n = bytes.len();
    let any = match n {
        65.. => {
            // Blocks of 32 bytes, not a loop over all the words, which
            // without `as_chunks` cost an instruction a string for the
            // registers it kept; the blocks take 0.1% fewer instructions
            // than the `as_chunks` loop did for the serde `logs` and
            // `saves` decodes (`benches/focus.rs`, callgrind).
            let blocks = bytes
                .chunks_exact(32)
                .fold(0, |any, block| any | or_words(block));
            blocks | ends::<32>(bytes)
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
    fn str_at_start_agrees_with_core_at_every_length_and_position() {
        // Past 64 bytes, so the word loop of long strings is covered too.
        let text = "the quick brown fox jumps over the lazy dog, 0123456789 ".repeat(3);
        let text = text.as_str();
        for len in 0..=text.len() {
            let ascii = &text.as_bytes()[..len];
            assert!(is_ascii(ascii), "{len}");
            assert_eq!(str_at_start(ascii, ascii.len()), Some(&text[..len]));
            // Under Miri, every 13th position and the last (13 is prime to
            // the 8-byte words and 32-byte blocks, so every offset within
            // them is still met): all of them take it minutes.
            let step = if cfg!(miri) { 13 } else { 1 };
            let positions = (0..len).step_by(step).chain(len.checked_sub(1));
            for at in positions {
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
        // Past 64 bytes, with characters of 2 and 3 bytes in the middle and
        // at the end, so the copy's blocks and its last 32 bytes meet them.
        let text = "short, then long enough for memcpy: ßüñ and more, 0123456789, \
                    then on past two blocks of thirty-two bytes € and to the end ✓";
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
}
