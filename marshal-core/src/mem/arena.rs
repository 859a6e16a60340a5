//! bumpalo's `String` and `Box`, built in an arena without panicking when
//! it cannot allocate: bumpalo's own constructors (`String::from_str_in`,
//! `Box::new_in`) panic then, and a decode returns an error instead.

use bumpalo::Bump;
use bumpalo::boxed::Box;
use bumpalo::collections::{String, Vec};

/// A copy of `s` in `bump`, in one allocation of exactly its length, or
/// `None` when the arena cannot allocate it (its allocation limit, or the
/// global allocator, refuses a new chunk). `s` is not validated again.
#[inline]
pub(crate) fn string_in<'b>(s: &str, bump: &'b Bump) -> Option<String<'b>> {
    let mut bytes = Vec::new_in(bump);
    bytes.try_reserve_exact(s.len()).ok()?;
    bytes.extend_from_slice(s.as_bytes());
    // SAFETY: `String::from_utf8_unchecked` requires the bytes to be valid
    // UTF-8 (bumpalo 3.14, `collections::String::from_utf8_unchecked`:
    // "it does not check that the bytes passed to it are valid UTF-8");
    // `bytes` holds exactly the bytes of the `str` `s`, copied just above.
    Some(unsafe { String::from_utf8_unchecked(bytes) })
}

/// `value`, moved into `bump`, or `None` when the arena cannot allocate it
/// (and `value` is dropped).
#[inline]
pub(crate) fn box_in<T>(value: T, bump: &Bump) -> Option<Box<'_, T>> {
    let slot: &mut T = bump.try_alloc(value).ok()?;
    // SAFETY: `Box::from_raw` takes ownership of `raw`: the box drops the
    // `T` there and frees the memory, so the memory must have been
    // allocated with the layout `Box` uses, and no other owner may drop it
    // (bumpalo 3.14, `boxed::Box::from_raw`, whose example builds a box the
    // same way, from `Bump::alloc_layout(Layout::new::<T>())` holding a
    // value). `try_alloc` allocated `slot` in `bump` with
    // `Layout::new::<T>()` and moved `value` into it (`Bump::try_alloc`,
    // through `try_alloc_with`); `slot` is the only reference to it and is
    // consumed here, so the box is its one owner, for the lifetime of the
    // borrow of `bump`, as `slot` was.
    Some(unsafe { Box::from_raw(slot) })
}

#[cfg(test)]
mod tests {
    use core::cell::Cell;

    use super::*;

    /// A bump that cannot grow: its current chunk holds `room` more bytes,
    /// and its allocation limit refuses another chunk.
    fn fenced(room: usize) -> Bump {
        let bump = Bump::with_capacity(room);
        let extra = bump.chunk_capacity() - room;
        bump.alloc_slice_fill_copy(extra, 0u8);
        assert_eq!(bump.chunk_capacity(), room);
        bump.set_allocation_limit(Some(bump.allocated_bytes()));
        bump
    }

    #[test]
    fn string_in_copies_the_str_or_says_the_arena_is_full() {
        let text = "short, then long enough: ßüñ and more, 0123456789";
        let bump = Bump::new();
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            let s = string_in(&text[..end], &bump).unwrap();
            assert_eq!(s, &text[..end]);
            assert_eq!(s.capacity(), end);
        }
        // (Each string is kept: bumpalo takes back the last allocation
        // when it is freed.)
        let bump = fenced(16);
        let full = string_in(&text[..16], &bump).unwrap();
        assert_eq!(full, &text[..16]);
        assert!(string_in("x", &bump).is_none());
        assert_eq!(string_in("", &bump).unwrap(), "");
        assert_eq!(full, &text[..16]);
    }

    struct Counted<'a>(&'a Cell<usize>, u64);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    #[test]
    fn box_in_owns_its_value_or_drops_it_when_the_arena_is_full() {
        let drops = Cell::new(0);
        let bump = Bump::new();
        let boxed = box_in(Counted(&drops, 7), &bump).unwrap();
        assert_eq!(boxed.1, 7);
        assert_eq!(drops.get(), 0);
        drop(boxed);
        assert_eq!(drops.get(), 1);
        let unit = box_in((), &bump).unwrap();
        assert_eq!(*unit, ());
        let bump = fenced(2 * size_of::<Counted<'_>>());
        let first = box_in(Counted(&drops, 1), &bump).unwrap();
        let second = box_in(Counted(&drops, 2), &bump).unwrap();
        assert!(box_in(Counted(&drops, 3), &bump).is_none());
        assert_eq!(drops.get(), 2);
        assert_eq!((first.1, second.1), (1, 2));
        drop((first, second));
        assert_eq!(drops.get(), 4);
    }
}
