//! Values written in place: a `Vec`'s spare capacity handed out as
//! [`Slots`], runs that tasks (on other threads too) fill with values, and
//! committing the values to the `Vec` only once every slot holds one.
//!
//! Soundness rests on three invariants of [`Slots`], whose fields are
//! private to this file:
//!
//! - the slots of one call of [`append_slots_to_vec`] are runs of that
//!   call's spare capacity that never overlap: they are made only by
//!   splitting the one run the call starts with, and joining two of them
//!   consumes both;
//! - a run's first `len` slots hold values it owns, and it drops them when
//!   it is dropped;
//! - a run is tied to its call by a lifetime brand: `fill` is generic over
//!   the brand `'s`, and `Slots` is invariant in it, so no run of another
//!   call (nor of a finished one) type-checks where this call's are
//!   expected.

use alloc::vec::Vec;
use core::marker::PhantomData;
use core::mem::ManuallyDrop;
use core::ptr::NonNull;

/// A run of slots in the spare capacity a call of [`append_slots_to_vec`]
/// hands out: values are [`push`](Slots::push)ed into it in order; it can
/// be split in two (for two tasks) and, once full, joined with the run
/// that follows it. Dropping it drops the values it holds.
///
/// `Send` when `T` is, like the values it owns.
pub struct Slots<'s, T> {
    /// The first slot of the call's whole spare run, with provenance over
    /// all of it.
    base: *mut T,
    /// This run: slots `start..start + cap` of the call's run.
    start: usize,
    cap: usize,
    /// Slots `start..start + len` hold values this run owns; `len <= cap`.
    len: usize,
    /// Invariant in `'s`: the brand of one call.
    brand: PhantomData<fn(&'s ()) -> &'s ()>,
    /// Owns `T`s, for the drop check.
    owns: PhantomData<T>,
}

// SAFETY: `Send` lets a value move to another thread. A `Slots` is the
// exclusive owner of its values and of its slots, which no other `Slots`
// overlaps (the invariants above), like a `Vec<T>` over borrowed memory:
// moving it moves the values (sound when `T: Send`) and the only access
// to those slots. Its raw pointer is used for nothing else.
unsafe impl<T: Send> Send for Slots<'_, T> {}

impl<'s, T> Slots<'s, T> {
    /// Slots `start..start + cap` of the spare run that starts at `base`,
    /// the first `len` holding values. Only [`append_slots_to_vec`] (the
    /// whole run), [`split_at`](Slots::split_at) and
    /// [`join`](Slots::join) make runs, and they keep the invariants.
    #[inline]
    fn run(base: *mut T, start: usize, cap: usize, len: usize) -> Self {
        Slots {
            base,
            start,
            cap,
            len,
            brand: PhantomData,
            owns: PhantomData,
        }
    }

    /// The number of slots in the run.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// The number of values pushed into the run so far (its first slots).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no value has been pushed yet.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every slot holds a value.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == self.cap
    }

    /// Writes `value` into the next free slot; gives it back when the run
    /// is full.
    #[inline]
    pub fn push(&mut self, value: T) -> Result<(), T> {
        if self.len == self.cap {
            return Err(value);
        }
        let slot = self.base.wrapping_add(self.start + self.len);
        // SAFETY: `ptr::write` requires its destination to be valid for
        // writes and aligned (std, `ptr::write`). `slot` is slot
        // `start + len` of the call's spare run, within it (`len < cap`,
        // and this run is slots `start..start + cap` of it), so the
        // in-bounds offset from `base` keeps `base`'s provenance over the
        // whole spare run. It is aligned for `T` (a `Vec<T>`'s buffer) and
        // written by no one else (runs never overlap). It holds no value
        // (only the first `len` do), so nothing is overwritten without
        // being dropped.
        unsafe { slot.write(value) };
        self.len += 1;
        Ok(())
    }

    /// Builds a value in place in the next free slot, with `build`
    /// (handed `ctx`), and keeps it if `check` (handed `ctx` again) agrees:
    /// a value refused is dropped, and the slot stays free. `None` when
    /// the run is full (nothing built).
    #[inline]
    pub fn push_built<C, E>(
        &mut self,
        ctx: &mut C,
        build: impl for<'p> FnOnce(&mut C, super::Place<'p, T>) -> Result<super::Built<'p, T>, E>,
        check: impl FnOnce(&mut C) -> Result<(), E>,
    ) -> Option<Result<(), E>> {
        if self.len == self.cap {
            return None;
        }
        let slot = NonNull::new(self.base.wrapping_add(self.start + self.len))?;
        // SAFETY: `build_checked` needs `slot` valid for writing a `T`,
        // aligned and unshared (as `ptr::write` in `push`): it is slot
        // `start + len` of the call's spare run, within this run
        // (`len < cap`), aligned for `T` (a `Vec<T>`'s buffer), holding no
        // value (only the first `len` do) and written by no one else (runs
        // never overlap, and this one is borrowed mutably).
        if let Err(e) = unsafe { super::place::build_checked(slot, ctx, build, check) } {
            return Some(Err(e));
        }
        self.len += 1;
        Some(Ok(()))
    }

    /// Splits the run into its first `mid` slots and the rest; values
    /// already pushed go with the slots they are in.
    ///
    /// # Panics
    ///
    /// When `mid` is more than the run's [`capacity`](Slots::capacity).
    #[inline]
    #[track_caller]
    pub fn split_at(self, mid: usize) -> (Self, Self) {
        assert!(mid <= self.cap, "marshal: split past the end of the slots");
        let this = ManuallyDrop::new(self);
        (
            Slots::run(this.base, this.start, mid, this.len.min(mid)),
            Slots::run(
                this.base,
                this.start + mid,
                this.cap - mid,
                this.len.saturating_sub(mid),
            ),
        )
    }

    /// One run of `self`'s slots and then `next`'s, when `self` is full
    /// and `next` starts where it ends; else both back, unchanged.
    #[inline]
    pub fn join(self, next: Self) -> Result<Self, (Self, Self)> {
        if !self.is_full() || self.start + self.cap != next.start {
            return Err((self, next));
        }
        let (this, next) = (ManuallyDrop::new(self), ManuallyDrop::new(next));
        // Two disjoint runs of one spare run: neither sum overflows.
        Ok(Slots::run(
            this.base,
            this.start,
            this.cap + next.cap,
            this.cap + next.len,
        ))
    }
}

impl<T> Drop for Slots<'_, T> {
    fn drop(&mut self) {
        let first = self.base.wrapping_add(self.start);
        // SAFETY: `drop_in_place` requires the pointer to be valid for
        // reads and writes, aligned, and to point at values valid for
        // dropping, which are not used again (std, `ptr::drop_in_place`).
        // Slots `start..start + len` lie within the call's spare run, which
        // `base` has provenance over, are aligned for `T`, and hold values
        // this run alone owns (the invariants above); the run is being
        // dropped, so nothing reads them again, and the `Vec` does not own
        // them (its length was not set over them).
        unsafe { core::ptr::slice_from_raw_parts_mut(first, self.len).drop_in_place() };
    }
}

impl<T> core::fmt::Debug for Slots<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Slots")
            .field("start", &self.start)
            .field("capacity", &self.cap)
            .field("len", &self.len)
            .finish()
    }
}

/// Appends `len` values to `vec`, written by `fill` straight into its spare
/// capacity: `fill` gets [`Slots`] over the first `len` spare slots, may
/// split them and fill the parts (on other threads too), and returns them
/// joined again. The values are appended when the returned run is all
/// `len` slots, full, and then it returns `Ok(true)`. Otherwise `vec`
/// keeps its length and contents and every value written is dropped: on
/// `fill`'s error (returned as it is), when the run it returns is not
/// all of them, full (`Ok(false)`), and when `fill` panics.
///
/// The caller reserves the capacity first; with fewer than `len` spare
/// slots, `fill` is not called and it returns `Ok(false)`.
#[inline]
pub fn append_slots_to_vec<T, E, F>(vec: &mut Vec<T>, len: usize, fill: F) -> Result<bool, E>
where
    F: for<'s> FnOnce(Slots<'s, T>) -> Result<Slots<'s, T>, E>,
{
    let old = vec.len();
    let Some(spare) = vec.spare_capacity_mut().get_mut(..len) else {
        return Ok(false);
    };
    let run = fill(Slots::run(spare.as_mut_ptr().cast::<T>(), 0, len, 0))?;
    // The brand makes `run` one of this call's runs; the only one that
    // starts at 0 and has `len` slots is the whole spare run.
    if run.start != 0 || run.cap != len || !run.is_full() {
        return Ok(false);
    }
    let _ = ManuallyDrop::new(run);
    // SAFETY: `set_len` requires `new_len <= capacity()` and the elements
    // at `old_len..new_len` to be initialized (std, `Vec::set_len`). The
    // spare capacity had at least `len` slots, so `old + len <= capacity`.
    // `run` was all `len` of them (it is one of this call's runs, by its
    // brand, and starts at 0 with `len` slots) and full: each holds a
    // value written by `push`, owned by `run` alone, whose ownership
    // passes to `vec` now that `run` will never drop them. The writes on
    // other threads happened before `run` came back to this one, since
    // moving a value between threads in safe code synchronizes.
    unsafe { vec.set_len(old + len) };
    Ok(true)
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use alloc::string::{String, ToString};
    use alloc::sync::Arc;
    use alloc::vec;
    use core::sync::atomic::{AtomicUsize, Ordering};

    /// A value that counts its drops.
    struct Counted(Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn fill_strings<'s>(mut run: Slots<'s, String>, from: usize) -> Slots<'s, String> {
        for i in from..from + run.capacity() {
            assert!(run.push(i.to_string()).is_ok());
        }
        run
    }

    #[test]
    fn appends_what_the_parts_filled_on_other_threads() {
        let mut v = vec![String::from("kept")];
        v.reserve(10);
        let done = append_slots_to_vec(&mut v, 10, |run| {
            let (a, rest) = run.split_at(3);
            let (b, c) = rest.split_at(4);
            let (a, b, c) = std::thread::scope(|s| {
                let b = s.spawn(|| fill_strings(b, 3));
                let c = s.spawn(|| fill_strings(c, 7));
                (fill_strings(a, 0), b.join().unwrap(), c.join().unwrap())
            });
            // Joined in input order, whatever order they finished in.
            let bc = b.join(c).map_err(|_| "b and c")?;
            a.join(bc).map_err(|_| "a and bc")
        });
        assert_eq!(done, Ok(true));
        assert_eq!(v[0], "kept");
        let rest: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(v[1..], rest);
    }

    #[test]
    fn values_already_pushed_go_with_their_slots() {
        let mut v: Vec<u32> = Vec::with_capacity(5);
        let done = append_slots_to_vec(&mut v, 5, |mut run| {
            for i in 0..3 {
                run.push(i).map_err(|_| "room")?;
            }
            let (a, mut b) = run.split_at(2);
            assert_eq!((a.len(), a.capacity(), a.is_full()), (2, 2, true));
            assert_eq!((b.len(), b.capacity()), (1, 3));
            b.push(3).map_err(|_| "room")?;
            b.push(4).map_err(|_| "room")?;
            assert_eq!(b.push(5), Err(5));
            a.join(b).map_err(|_| "join")
        });
        assert_eq!(done, Ok(true));
        assert_eq!(v, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn joins_only_a_full_run_with_the_next() {
        let mut v: Vec<u8> = Vec::with_capacity(4);
        let done = append_slots_to_vec(&mut v, 4, |run| {
            let (a, rest) = run.split_at(1);
            let (mut b, c) = rest.split_at(1);
            // `a` is not full yet.
            let (a, b2) = a.join(b).map(|_| ()).unwrap_err();
            b = b2;
            let mut a = a;
            a.push(1).unwrap();
            // Not adjacent: `a` ends where `b` starts, not `c`.
            let (a, c) = a.join(c).map(|_| ()).unwrap_err();
            // The wrong order.
            b.push(2).unwrap();
            let (b, a) = b.join(a).map(|_| ()).unwrap_err();
            let ab = a.join(b).map_err(|_| ())?;
            let (mut c, ab) = c.join(ab).map(|_| ()).unwrap_err();
            c.push(3).unwrap();
            c.push(4).unwrap();
            ab.join(c).map_err(|_| ())
        });
        assert_eq!(done, Ok(true));
        assert_eq!(v, [1, 2, 3, 4]);
    }

    #[test]
    fn commits_nothing_and_drops_every_value_unless_all_are_filled() {
        let drops = Arc::new(AtomicUsize::new(0));
        let counted = || Counted(Arc::clone(&drops));
        let mut v = vec![counted()];
        v.reserve(4);

        // A run not full.
        let done = append_slots_to_vec(&mut v, 4, |mut run| {
            for _ in 0..3 {
                run.push(counted()).map_err(|_| ())?;
            }
            Ok::<_, ()>(run)
        });
        assert_eq!(done, Ok(false));
        assert_eq!((v.len(), drops.load(Ordering::Relaxed)), (1, 3));

        // Part of the run, full: not all of it.
        let done = append_slots_to_vec(&mut v, 4, |run| {
            let (mut a, _b) = run.split_at(2);
            a.push(counted()).map_err(|_| ())?;
            a.push(counted()).map_err(|_| ())?;
            Ok::<_, ()>(a)
        });
        assert_eq!(done, Ok(false));
        assert_eq!((v.len(), drops.load(Ordering::Relaxed)), (1, 5));

        // An error from `fill`, after values were written in two parts.
        let done = append_slots_to_vec(&mut v, 4, |run| {
            let (mut a, mut b) = run.split_at(2);
            a.push(counted()).map_err(|_| "room")?;
            b.push(counted()).map_err(|_| "room")?;
            b.push(counted()).map_err(|_| "room")?;
            Err::<Slots<'_, Counted>, _>("bad input")
        });
        assert_eq!(done.unwrap_err(), "bad input");
        assert_eq!((v.len(), drops.load(Ordering::Relaxed)), (1, 8));

        // More than the spare capacity: `fill` is not called.
        let done = append_slots_to_vec(&mut v, 100, |_| -> Result<_, ()> { unreachable!() });
        assert_eq!(done, Ok(false));

        // Committed values are the `Vec`'s: dropped with it, once.
        let done = append_slots_to_vec(&mut v, 2, |mut run| {
            run.push(counted()).map_err(|_| ())?;
            run.push(counted()).map_err(|_| ())?;
            Ok::<_, ()>(run)
        });
        assert_eq!(done, Ok(true));
        assert_eq!((v.len(), drops.load(Ordering::Relaxed)), (3, 8));
        drop(v);
        assert_eq!(drops.load(Ordering::Relaxed), 11);
    }

    #[test]
    fn a_panic_in_fill_drops_what_was_written() {
        let drops = Arc::new(AtomicUsize::new(0));
        let mut v: Vec<Counted> = Vec::with_capacity(3);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            append_slots_to_vec(&mut v, 3, |mut run| {
                run.push(Counted(Arc::clone(&drops))).map_err(|_| ())?;
                run.push(Counted(Arc::clone(&drops))).map_err(|_| ())?;
                panic!("in fill");
                #[allow(unreachable_code)]
                Ok::<_, ()>(run)
            })
        }));
        assert!(caught.is_err());
        assert_eq!((v.len(), drops.load(Ordering::Relaxed)), (0, 2));
    }

    #[test]
    fn zero_sized_values_are_counted_too() {
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        struct Zst;
        impl Drop for Zst {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Ordering::Relaxed);
            }
        }
        fn halves(run: Slots<'_, Zst>, fail: bool) -> Result<Slots<'_, Zst>, ()> {
            let (mut a, mut b) = run.split_at(1);
            a.push(Zst).map_err(|_| ())?;
            b.push(Zst).map_err(|_| ())?;
            b.push(Zst).map_err(|_| ())?;
            if fail {
                return Err(());
            }
            a.join(b).map_err(|_| ())
        }
        let mut v: Vec<Zst> = Vec::new();
        assert_eq!(
            append_slots_to_vec(&mut v, 3, |run| halves(run, true)),
            Err(())
        );
        assert_eq!((v.len(), DROPS.load(Ordering::Relaxed)), (0, 3));
        assert_eq!(
            append_slots_to_vec(&mut v, 3, |run| halves(run, false)),
            Ok(true)
        );
        assert_eq!((v.len(), DROPS.load(Ordering::Relaxed)), (3, 3));
        drop(v);
        assert_eq!(DROPS.load(Ordering::Relaxed), 6);
    }

    #[test]
    #[should_panic(expected = "split past the end")]
    fn splits_only_within_the_run() {
        let mut v: Vec<u8> = Vec::with_capacity(2);
        let _ = append_slots_to_vec(&mut v, 2, |run| Ok::<_, ()>(run.split_at(3).0));
    }
}
