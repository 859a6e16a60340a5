//! bumpalo's `String` and `Box`, built in an arena without panicking when
//! it cannot allocate: bumpalo's own constructors (`String::from_str_in`,
//! `Box::new_in`) panic then, and a decode returns an error instead.

use bumpalo::Bump;
use bumpalo::boxed::Box;
use bumpalo::collections::{String, Vec};

/// A copy of `s` in `bump`, in one allocation of exactly its length, or
/// `None` when the arena cannot allocate it (its allocation limit, or the
/// global allocator, refuses a new chunk). `s` is not validated again.
///
/// One bump of the arena's pointer and one `memcpy`: building the string
/// in a vector reserved first (`try_reserve_exact`, then
/// `extend_from_slice`, which copies a byte at a time) took 146
/// instructions a string, half of decoding `logs` into an arena.
#[inline]
pub(crate) fn string_in<'b>(s: &str, bump: &'b Bump) -> Option<String<'b>> {
    let bytes: &'b mut [u8] = bump.try_alloc_slice_copy(s.as_bytes()).ok()?;
    let len = bytes.len();
    // SAFETY: `String::from_raw_parts_in` takes ownership of `len` bytes
    // at `ptr`, of which the first `length` are the string: the memory
    // must have been allocated by the allocator given (`bump`) with room
    // for `capacity` bytes, `length <= capacity`, `capacity` must be that
    // room, and nothing else may use the memory afterwards (bumpalo 3.17,
    // `collections::String::from_raw_parts_in`); the bytes must be UTF-8,
    // as every `String` holds ("it does not check that the bytes passed to
    // it are valid UTF-8", `String::from_utf8_unchecked`, which makes its
    // `String` the same way). `try_alloc_slice_copy` allocated exactly
    // `len` bytes in `bump` (`Layout::for_value`, the slice's own) and
    // copied the bytes of the `str` `s` into them, so they are UTF-8;
    // `length` and `capacity` are both `len`; `bytes`, the one reference
    // to the memory, is not used after this. A `String` of capacity 0
    // never frees its pointer, as for an empty `s`, whose slice is a
    // dangling pointer.
    Some(unsafe { String::from_raw_parts_in(bytes.as_mut_ptr(), len, len, bump) })
}

/// A box in `bump` of the value `make` returns, or `full()` when the arena
/// cannot allocate room for it (and `make` is not run).
///
/// While `make` runs, which is where a recursive type decodes its deeper
/// levels, this frame holds one `Result` of the value and no other copy
/// of it: the room is allocated first, in a call that has returned, and
/// the value is moved into it afterwards, in another. In an unoptimized
/// build a frame keeps a slot for every temporary it ever holds, and
/// `Box::new_in(value, bump)` after decoding kept six copies of a 16 KiB
/// value on the stack at every level, against two for `std`'s `Box`
/// (`test_suite/tests/stack_depth.rs`, `ArenaBig2048`).
///
/// The room is a vector of capacity one. When `make` fails the vector is
/// dropped, and bumpalo takes its bytes back when nothing was allocated
/// after them (an inner value that failed before allocating), so that a
/// box whose value is refused leaves the arena as it was.
#[inline]
pub(crate) fn box_with<'b, T, E>(
    bump: &'b Bump,
    full: impl FnOnce() -> E,
    make: impl FnOnce() -> Result<T, E>,
) -> Result<Box<'b, T>, E> {
    let mut room = Vec::new_in(bump);
    if room.try_reserve_exact(1).is_err() {
        return Err(full());
    }
    let made = make();
    made.map(|value| fill(room, value))
}

/// `value`, moved into `room`, as a box that owns it. `room` must be
/// empty, with room for one `T` (as [`box_with`] allocates it).
#[inline]
fn fill<T>(mut room: Vec<'_, T>, value: T) -> Box<'_, T> {
    debug_assert!(room.is_empty() && room.capacity() >= 1);
    room.push(value);
    let one: &mut [T] = room.into_bump_slice_mut();
    let value: *mut T = one.as_mut_ptr();
    // SAFETY: `Box::from_raw` takes ownership of `raw`: the box drops the
    // `T` there, so it must point to a valid `T` in memory allocated with
    // the layout `Box` uses, and no other owner may drop it (bumpalo 3.14,
    // `boxed::Box::from_raw`, whose example builds a box the same way: room
    // from `Bump::alloc_layout(Layout::new::<T>())`, a value written into
    // it). `room` had capacity for the value, so `push` wrote it into the
    // vector's allocation without growing it: a `Bump` allocation of
    // `Layout::array::<T>(capacity)`, whose first `T` is at its start
    // with `T`'s alignment (bumpalo's `RawVec`, as `std`'s); a `Box` of a
    // `T` never frees its memory (bumpalo, `impl Drop for Box`: it "owns
    // value of `T`, but not memory behind it"), so a larger capacity only
    // leaves bytes unused. `into_bump_slice_mut` forgot the vector, which
    // will neither drop the value nor give the memory back, and returned
    // the one `&mut` to it, which `value` is taken from and which is not
    // used again: the box is the value's one owner, for as long as the
    // vector borrowed the arena. A zero-sized `T` is at the vector's
    // dangling, aligned pointer, as `Box::new_in` puts one.
    unsafe { Box::from_raw(value) }
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
    fn box_with_owns_its_value_or_says_the_arena_is_full() {
        let drops = Cell::new(0);
        let bump = Bump::new();
        let made = || Ok::<_, ()>(Counted(&drops, 7));
        let boxed = box_with(&bump, || (), made).unwrap();
        assert_eq!(boxed.1, 7);
        assert_eq!(drops.get(), 0);
        drop(boxed);
        assert_eq!(drops.get(), 1);
        let unit = box_with(&bump, || (), || Ok::<_, ()>(())).unwrap();
        assert_eq!(*unit, ());
        // A value that fails to be made: nothing to drop.
        assert_eq!(
            box_with(&bump, || 0, || Err::<Counted<'_>, _>(1)).err(),
            Some(1)
        );
        // (Each box is kept: bumpalo takes back the last allocation when it
        // is freed.)
        let bump = fenced(2 * size_of::<Counted<'_>>());
        // A value refused gives its room back: two boxes still fit.
        let refused = box_with(&bump, || 0, || Err::<Counted<'_>, _>(1));
        assert_eq!(refused.err(), Some(1));
        let first = box_with(&bump, || (), || Ok(Counted(&drops, 1))).unwrap();
        let second = box_with(&bump, || (), || Ok(Counted(&drops, 2))).unwrap();
        let ran = Cell::new(false);
        let third = box_with(
            &bump,
            || "full",
            || {
                ran.set(true);
                Ok(Counted(&drops, 3))
            },
        );
        assert_eq!(third.err(), Some("full"));
        assert!(!ran.get());
        assert_eq!(drops.get(), 1);
        assert_eq!((first.1, second.1), (1, 2));
        drop((first, second));
        assert_eq!(drops.get(), 3);
    }
}
