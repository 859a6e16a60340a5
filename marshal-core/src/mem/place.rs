//! Values built in place: a [`Place`] is memory that will hold one `T`
//! (a stack slot, a `Vec`'s next spare slot, a `Box`'s allocation, a field
//! of a value being built), and a [`Built`] is the proof that it does.
//! Decoders write each value straight into the memory that keeps it,
//! instead of assembling it elsewhere and moving it there.
//!
//! Soundness rests on these invariants, whose types' fields are private to
//! this file:
//!
//! - a `Place<'p, T>` points at memory valid for writing one `T`, aligned,
//!   that nothing else reads or writes while the place lives; it is not
//!   `Copy` or `Clone`, and [`Place::write`] consumes it, so it is written
//!   at most once;
//! - a `Built<'p, T>` exists only once its place holds a `T`: only
//!   [`Place::write`] and [`AllFields::build`] (whose fields are all of
//!   the `T`'s: the contract of [`all_fields`], its only maker) make one;
//! - `'p` is a brand: every function here that hands out a place takes a
//!   closure generic over `'p` (`for<'p>`), and both types are invariant in
//!   it, so the only `Built<'p, T>` a closure can return is the one its own
//!   place gave; nor can the place outlive the call.
//!
//! A value whose building fails or panics is never visible: the memory is
//! handed back (or the `Vec`'s length set) only with a `Built`, and the
//! fields a struct wrote before one failed are dropped, once, by the guards
//! of [`AllFields::build`].

use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

/// Invariant in `'p`: the brand of one place.
type Brand<'p> = PhantomData<fn(&'p ()) -> &'p ()>;

/// Memory for one `T`, not yet written, that a decoder builds a value in:
/// [`write`](Place::write) it, or hand it to a decoder that does
/// (`Unmarshal::__decode_in`). Only this module makes places, for the
/// duration of a closure.
pub struct Place<'p, T> {
    /// Valid for writing one `T`, aligned; nothing else uses it while the
    /// place lives.
    ptr: NonNull<T>,
    brand: Brand<'p>,
}

/// The proof that a [`Place`] of brand `'p` holds a `T`: what a decoder
/// that builds in place returns.
pub struct Built<'p, T> {
    brand: Brand<'p>,
    value: PhantomData<fn() -> T>,
}

impl<'p, T> Place<'p, T> {
    /// A place over `ptr`, which is valid for writing one `T`, aligned, and
    /// used by nothing else while the place lives; the brand `'p` is the
    /// caller's closure's.
    #[inline(always)]
    pub(super) fn new(ptr: NonNull<T>) -> Self {
        Place {
            ptr,
            brand: PhantomData,
        }
    }

    /// Writes `value` into the place: its one write.
    #[inline(always)]
    pub fn write(self, value: T) -> Built<'p, T> {
        // SAFETY: `ptr::write` needs `ptr` valid for writes and aligned
        // (https://doc.rust-lang.org/1.85.0/core/ptr/fn.write.html): a
        // place's pointer is both (the invariants above), and the place is
        // consumed, so nothing is overwritten twice.
        unsafe { self.ptr.as_ptr().write(value) };
        Built::new()
    }
}

impl<'p, T> Place<'p, T> {
    /// Writes `bytes` into the place as the value's memory, when `layout`,
    /// `T`'s, says its wire bytes are its memory (every byte pattern a
    /// value, no padding, little-endian) and `bytes` is exactly one `T`'s
    /// worth: one copy instead of a field at a time. Otherwise the place
    /// comes back unwritten.
    #[inline(always)]
    pub fn copy_from_memory(
        self,
        layout: super::layout::Layout<T>,
        bytes: &[u8],
    ) -> Result<Built<'p, T>, Self> {
        if !layout.is_memcpy() || bytes.len() != core::mem::size_of::<T>() {
            return Err(self);
        }
        // SAFETY: `copy_nonoverlapping` needs the source valid for reads of
        // `count` bytes, the destination valid for writes of as many, both
        // aligned (bytes need none) and not overlapping
        // (https://doc.rust-lang.org/1.85.0/core/ptr/fn.copy_nonoverlapping.html):
        // `bytes` is a slice of exactly `size_of::<T>()` bytes (checked
        // above), the place is valid for writing one `T` and used by nothing
        // else (the invariants above), so it overlaps no input. The bytes
        // written are a valid `T`: every byte pattern of the right length is
        // one (the `is_memcpy` contract, checked above).
        unsafe {
            core::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.ptr.as_ptr().cast::<u8>(),
                bytes.len(),
            );
        }
        Ok(Built::new())
    }
}

impl<T> Built<'_, T> {
    #[inline(always)]
    fn new() -> Self {
        Built {
            brand: PhantomData,
            value: PhantomData,
        }
    }
}

/// Builds a `T` in `slot` with `build`, which is handed the slot as a
/// place: on success the slot holds the value, returned; on an error it is
/// as it was (uninitialized), and so on a panic.
#[inline(always)]
pub(super) fn build_in<T, E>(
    slot: &mut MaybeUninit<T>,
    build: impl for<'p> FnOnce(Place<'p, T>) -> Result<Built<'p, T>, E>,
) -> Result<&mut T, E> {
    let ptr = NonNull::from(&mut *slot).cast::<T>();
    build(Place::new(ptr))?;
    // SAFETY: `assume_init_mut` needs the slot initialized
    // (https://doc.rust-lang.org/1.85.0/core/mem/union.MaybeUninit.html#method.assume_init_mut):
    // `build` returned the `Built` of the place over it, which only a write
    // of a `T` into that place makes (the brand is the closure's own).
    Ok(unsafe { slot.assume_init_mut() })
}

/// Builds a `T` at `ptr` with `build` (handed `ctx`), then asks `check`
/// (handed `ctx` again, and nothing of the value) whether to keep it: on
/// `Ok` the memory holds the value; on an error, or a panic, it holds
/// none (a value built but refused by `check`, or whose check panicked,
/// is dropped, once).
///
/// # Safety
///
/// `ptr` is valid for writing a `T`, aligned, and used by nothing else
/// during the call (what makes a [`Place`] of it).
#[inline(always)]
pub(super) unsafe fn build_checked<T, C, E>(
    ptr: NonNull<T>,
    ctx: &mut C,
    build: impl for<'p> FnOnce(&mut C, Place<'p, T>) -> Result<Built<'p, T>, E>,
    check: impl FnOnce(&mut C) -> Result<(), E>,
) -> Result<(), E> {
    /// Drops the value at its pointer when dropped, unless forgotten.
    struct DropBuilt<T>(NonNull<T>);
    impl<T> Drop for DropBuilt<T> {
        #[inline(always)]
        fn drop(&mut self) {
            // SAFETY: `drop_in_place` needs the pointer valid for reads and
            // writes, aligned, and the value valid to drop
            // (https://doc.rust-lang.org/1.85.0/core/ptr/fn.drop_in_place.html):
            // a `DropBuilt` is made only once `build` returned the `Built`
            // of the place at the pointer, which then holds a `T`, used by
            // nothing else (the caller's contract); it is dropped at most
            // once, and forgotten when the value is kept.
            unsafe { self.0.as_ptr().drop_in_place() };
        }
    }
    // The place is valid for a `T`, aligned and unshared: the contract.
    build(ctx, Place::new(ptr))?;
    let built = DropBuilt(ptr);
    check(ctx)?;
    core::mem::forget(built);
    Ok(())
}

/// Builds a `T` in `slot` with `build`, then keeps it only if `check`
/// agrees (see [`build_checked`]): on success the slot holds the value,
/// returned; otherwise it is as it was (uninitialized).
#[inline(always)]
pub(crate) fn build_in_checked<'s, T, C, E>(
    slot: &'s mut MaybeUninit<T>,
    ctx: &mut C,
    build: impl for<'p> FnOnce(&mut C, Place<'p, T>) -> Result<Built<'p, T>, E>,
    check: impl FnOnce(&mut C) -> Result<(), E>,
) -> Result<&'s mut T, E> {
    let ptr = NonNull::from(&mut *slot).cast::<T>();
    // SAFETY: `build_checked` needs `ptr` valid for writing a `T`, aligned
    // and unshared: it is `slot`'s, borrowed mutably for the call.
    unsafe { build_checked(ptr, ctx, build, check) }?;
    // SAFETY: `assume_init_mut` needs the slot initialized
    // (https://doc.rust-lang.org/1.85.0/core/mem/union.MaybeUninit.html#method.assume_init_mut):
    // `build_checked` returned `Ok`, which it does only with the value
    // built there and kept.
    Ok(unsafe { slot.assume_init_mut() })
}

/// A `T` built on the stack with `build` and returned by value, as a
/// decoder that builds in place decodes a value on its own.
#[inline(always)]
pub(crate) fn build_value<T, E>(
    build: impl for<'p> FnOnce(Place<'p, T>) -> Result<Built<'p, T>, E>,
) -> Result<T, E> {
    let mut slot = MaybeUninit::<T>::uninit();
    build_in(&mut slot, build)?;
    // SAFETY: `assume_init` needs the slot initialized
    // (https://doc.rust-lang.org/1.85.0/core/mem/union.MaybeUninit.html#method.assume_init):
    // `build_in` returned `Ok`, which it does only once the slot holds a
    // `T`.
    Ok(unsafe { slot.assume_init() })
}

/// Appends `n` values built with `build` to `vec`, one after another, each
/// in place in the next spare slot; `vec` has room for them
/// (`n <= capacity - len`, else it panics before building any). Stops at
/// the first error, which it returns. The length is kept in a local while
/// the values are built and set once, when it returns or unwinds, to
/// count the values built: nothing half-built is ever in the `Vec`, and
/// every value built is in it (so dropped with it).
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn extend_built<T, E>(
    vec: &mut alloc::vec::Vec<T>,
    n: usize,
    mut build: impl for<'p> FnMut(Place<'p, T>) -> Result<Built<'p, T>, E>,
) -> Result<(), E> {
    /// Sets the `Vec`'s length to `len` when dropped.
    struct SetLen<'a, T> {
        vec: &'a mut alloc::vec::Vec<T>,
        /// The values in the `Vec`, the first ones of its buffer.
        len: usize,
    }
    impl<T> Drop for SetLen<'_, T> {
        #[inline(always)]
        fn drop(&mut self) {
            // SAFETY: `set_len` needs `new_len <= capacity` and the
            // elements up to it initialized
            // (https://doc.rust-lang.org/1.85.0/alloc/vec/struct.Vec.html#method.set_len):
            // `len` starts at the `Vec`'s own length and grows by one only
            // once a `Built` proves the slot at `len` holds a value, and
            // only while `len < start + n <= capacity` (asserted below).
            unsafe { self.vec.set_len(self.len) };
        }
    }
    assert!(
        n <= vec.capacity() - vec.len(),
        "extend_built: more values than spare slots"
    );
    let end = vec.len() + n;
    let mut set = SetLen {
        len: vec.len(),
        vec,
    };
    let Some(base) = NonNull::new(set.vec.as_mut_ptr()) else {
        unreachable!("a Vec's pointer is never null");
    };
    while set.len < end {
        // SAFETY: `NonNull::add` needs the offset in bounds of the
        // allocation
        // (https://doc.rust-lang.org/1.85.0/core/ptr/struct.NonNull.html#method.add):
        // `set.len < end <= capacity`, a slot of the `Vec`'s buffer (for a
        // zero-sized `T`, an offset of no bytes).
        let slot = unsafe { base.add(set.len) };
        // The slot is spare capacity: valid for a `T`, aligned, and used
        // by nothing else while `vec` is borrowed here.
        build(Place::new(slot))?;
        set.len += 1;
    }
    Ok(())
}

/// A `Box<T>` whose value is built in place, in its own allocation, with
/// `build`; on an error the allocation is freed and nothing was built.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn box_built<T, E>(
    build: impl for<'p> FnOnce(Place<'p, T>) -> Result<Built<'p, T>, E>,
) -> Result<alloc::boxed::Box<T>, E> {
    let mut boxed = alloc::boxed::Box::<T>::new_uninit();
    build_in(&mut boxed, build)?;
    // SAFETY: `assume_init` needs the value initialized
    // (https://doc.rust-lang.org/1.85.0/alloc/boxed/struct.Box.html#method.assume_init):
    // `build_in` returned `Ok`, which it does only once the box holds a
    // `T`.
    Ok(unsafe { boxed.assume_init() })
}

/// One field of a struct built in place by [`AllFields::build`]: its
/// offset in the struct, and the function that builds it (handed `ctx`,
/// the decoder's reader, and the field's place).
pub struct Field<F, Ctx, E> {
    offset: usize,
    build: Builder<F, Ctx, E>,
}

/// A function that builds an `F` in a place, reading from a `Ctx`.
pub type Builder<F, Ctx, E> = for<'q> fn(&mut Ctx, Place<'q, F>) -> Result<Built<'q, F>, E>;

/// The field at `offset` (`offset_of!`) of a struct built in place, of
/// type `F`, built by `build`. Safe to make: [`all_fields`], which vouches
/// for a list of them, is where the offset and type must be the struct's.
#[inline(always)]
pub const fn field<F, Ctx, E>(offset: usize, build: Builder<F, Ctx, E>) -> Field<F, Ctx, E> {
    Field { offset, build }
}

/// Drops a written field when dropped: what [`AllFields::build`] keeps for
/// each field while the fields after it are built, so that a failure or a
/// panic drops the fields already written, once.
pub struct Written<F> {
    /// The written field.
    ptr: NonNull<F>,
}

impl<F> Drop for Written<F> {
    #[inline(always)]
    fn drop(&mut self) {
        // SAFETY: `drop_in_place` needs the pointer valid for reads and
        // writes, aligned, and the value valid to drop
        // (https://doc.rust-lang.org/1.85.0/core/ptr/fn.drop_in_place.html):
        // a `Written` is made only over a field its builder wrote (a
        // `Built` was returned for it), inside a struct that nothing else
        // uses while it is built, and it is dropped at most once: on
        // success `AllFields::build` forgets every guard.
        unsafe { self.ptr.as_ptr().drop_in_place() };
    }
}

mod sealed {
    pub trait Sealed {}
}

/// The fields of a struct built in place: a [`Field`], or a tuple of
/// `Fields` (nested for structs with many fields). Implemented here only.
///
/// # Safety
///
/// Implemented only in this module: `write` writes each field at its
/// offset from `base` and returns guards that drop exactly those fields.
pub unsafe trait Fields<Ctx, E>: sealed::Sealed {
    /// What drops the written fields: a [`Written`], or a tuple of them.
    type Written;

    /// Builds every field at its offset from `base`, in order; on an error
    /// (or a panic) the fields already written are dropped.
    ///
    /// # Safety
    ///
    /// `base` points at a value being built whose fields these are: each
    /// `Field<F, _>`'s offset is that of a field of type `F`, so that
    /// `base + offset` is valid for writing an `F`, aligned, and used by
    /// nothing else while the fields are built.
    unsafe fn write(&self, ctx: &mut Ctx, base: NonNull<u8>) -> Result<Self::Written, E>;
}

impl<F, Ctx, E> sealed::Sealed for Field<F, Ctx, E> {}

// SAFETY: `write` writes the one field at its offset (through a place of
// its own, whose `Built` proves the write) and returns the guard that
// drops it.
unsafe impl<F, Ctx, E> Fields<Ctx, E> for Field<F, Ctx, E> {
    type Written = Written<F>;

    // Inlined always in optimized builds, where the compiler otherwise
    // leaves some fields out of line (+11% instructions decoding
    // `updates`); only hinted in unoptimized ones (told apart by their
    // debug assertions), where `inline(always)` still inlines but no
    // stack slot is reused: a frame of its own per field, popped when the
    // field is written, rather than every field's temporaries in the
    // struct's frame at once (140 KiB instead of 27 KiB for 256 fields).
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    unsafe fn write(&self, ctx: &mut Ctx, base: NonNull<u8>) -> Result<Written<F>, E> {
        // SAFETY: `NonNull::add` needs the offset in bounds of the
        // allocation `base` points into
        // (https://doc.rust-lang.org/1.85.0/core/ptr/struct.NonNull.html#method.add):
        // by `write`'s contract `base + offset` is a field of the value
        // being built, inside its memory.
        let ptr = unsafe { base.add(self.offset) }.cast::<F>();
        // The place is valid for an `F`, aligned and unshared: `write`'s
        // contract.
        (self.build)(ctx, Place::new(ptr))?;
        Ok(Written { ptr })
    }
}

/// `Fields` for tuples of `Fields`, each built in turn; the guards of the
/// ones written drop them if a later one fails.
macro_rules! tuple_fields {
    ($($name:ident)*) => {
        impl<$($name,)*> sealed::Sealed for ($($name,)*) {}

        // SAFETY: each element writes its own fields (its contract is the
        // tuple's), in order, and the tuple of their guards drops them all.
        unsafe impl<Ctx, E, $($name: Fields<Ctx, E>,)*> Fields<Ctx, E> for ($($name,)*) {
            type Written = ($($name::Written,)*);

            // As `Field::write`: always inlined only when optimized.
            #[cfg_attr(debug_assertions, inline)]
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[allow(non_snake_case, unused_variables)]
            unsafe fn write(&self, ctx: &mut Ctx, base: NonNull<u8>) -> Result<Self::Written, E> {
                let ($($name,)*) = self;
                $(
                    // SAFETY: the element's fields are the tuple's, whose
                    // `write` contract the caller keeps.
                    let $name = unsafe { $name.write(ctx, base) }?;
                )*
                Ok(($($name,)*))
            }
        }
    };
}

tuple_fields!();
tuple_fields!(A);
tuple_fields!(A B);
tuple_fields!(A B C);
tuple_fields!(A B C D);
tuple_fields!(A B C D G);
tuple_fields!(A B C D G H);
tuple_fields!(A B C D G H I);
tuple_fields!(A B C D G H I J);
tuple_fields!(A B C D G H I J K);
tuple_fields!(A B C D G H I J K L);
tuple_fields!(A B C D G H I J K L M);
tuple_fields!(A B C D G H I J K L M N);
tuple_fields!(A B C D G H I J K L M N O);
tuple_fields!(A B C D G H I J K L M N O P);
tuple_fields!(A B C D G H I J K L M N O P Q);
tuple_fields!(A B C D G H I J K L M N O P Q R);

/// The fields of a `T`, every one, as [`all_fields`] vouches: what builds
/// a `T` in place field by field ([`AllFields::build`]). Invariant in `T`,
/// so one type's fields are never taken for another's.
pub struct AllFields<T, M> {
    /// Makes the list of fields, a [`Field`] or nested tuples of them.
    make: M,
    of: PhantomData<fn(T) -> T>,
}

/// The fields of a `T` as `make` lists them (a [`Field`], or tuples of
/// `Fields`), vouched for as all of `T`'s: what [`AllFields::build`]
/// builds a `T` in place with. `make` is called once, when the `T` is
/// built (in an unoptimized build, the temporaries of its making are in a
/// frame of their own, popped before the fields are built).
///
/// # Safety
///
/// The list `make` returns is every field of `T`, each once: each
/// [`Field`]'s offset that of a field of `T` (`offset_of!`) whose type is
/// the `Field`'s `F`, and no field of `T` left out. `T` is not
/// `#[repr(packed)]` (its fields are aligned). `#[derive(Unmarshal)]`
/// builds a struct this way, the fields listed from the struct's own
/// definition (see the proofs beside the code that emits the call, in
/// `marshal-derive/src/decode.rs`, and in `marshal-derive/src/dialect.rs`
/// for the other configurations).
#[inline(always)]
pub const unsafe fn all_fields<T, M>(make: M) -> AllFields<T, M> {
    AllFields {
        make,
        of: PhantomData,
    }
}

impl<T, M> AllFields<T, M> {
    /// Builds a `T` in `place` field by field, each field straight into
    /// its place in the `T`, in order, each handed `ctx`. On an error, or
    /// a panic, the fields written so far are dropped, once, and the error
    /// returned; nothing half-built is ever visible.
    #[inline(always)]
    pub fn build<'p, Ctx, E, L>(self, place: Place<'p, T>, ctx: &mut Ctx) -> Result<Built<'p, T>, E>
    where
        M: FnOnce() -> L,
        L: Fields<Ctx, E>,
    {
        let base = place.ptr.cast::<u8>();
        let fields = (self.make)();
        // SAFETY: `Fields::write` needs each field's offset to be that of
        // a field of its type in the value at `base`, valid, aligned and
        // unshared: `base` is the place's (valid for a `T`, unshared), and
        // the fields are `T`'s with their own offsets and types, aligned
        // since `T` is not packed (the contract of `all_fields`, the only
        // maker of an `AllFields<T, _>`).
        let written = unsafe { fields.write(ctx, base) }?;
        // Every field of `T` is written (the contract: no field left out),
        // so the place holds a `T`; its fields are now the `T`'s to drop.
        core::mem::forget(written);
        Ok(Built::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    /// Builds a `T` in `place` from `fields` (see [`all_fields`]). Each
    /// builder below declares its place's type: inferred from what it
    /// writes, an integer literal would make it an `i32` field.
    ///
    /// # Safety
    ///
    /// As [`all_fields`]: `fields` are every field of `T`, which is not
    /// packed.
    unsafe fn build_fields<'p, T, Ctx, E, L: Fields<Ctx, E>>(
        place: Place<'p, T>,
        ctx: &mut Ctx,
        fields: L,
    ) -> Result<Built<'p, T>, E> {
        // SAFETY: this function's contract is `all_fields`'.
        unsafe { all_fields(move || fields) }.build(place, ctx)
    }

    /// Counts the values alive.
    struct Counted<'a>(&'a Cell<isize>, u32);

    impl<'a> Counted<'a> {
        fn new(live: &'a Cell<isize>, v: u32) -> Self {
            live.set(live.get() + 1);
            Counted(live, v)
        }
    }

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() - 1);
        }
    }

    struct Three<'a> {
        a: Counted<'a>,
        b: u8,
        c: Counted<'a>,
    }

    /// What the builders of `Three`'s fields read: the counter, and which
    /// field fails.
    struct Ctx<'a> {
        live: &'a Cell<isize>,
        fail: usize,
    }

    /// Builds a `Three` whose field number `fail` (0, 1 or 2) fails, or
    /// none when it is 3.
    fn three(live: &Cell<isize>, fail: usize) -> Result<Three<'_>, &'static str> {
        let mut ctx = Ctx { live, fail };
        build_value(|place: Place<'_, Three<'_>>| {
            // SAFETY: the fields of `Three`, each with its offset and type,
            // none left out; `Three` is not packed.
            unsafe {
                build_fields(
                    place,
                    &mut ctx,
                    (
                        field(
                            core::mem::offset_of!(Three<'_>, a),
                            |ctx: &mut Ctx<'_>, p: Place<'_, Counted<'_>>| {
                                if ctx.fail == 0 {
                                    return Err("a");
                                }
                                Ok(p.write(Counted::new(ctx.live, 1)))
                            },
                        ),
                        field(
                            core::mem::offset_of!(Three<'_>, b),
                            |ctx: &mut Ctx<'_>, p: Place<'_, u8>| {
                                if ctx.fail == 1 {
                                    return Err("b");
                                }
                                Ok(p.write(2))
                            },
                        ),
                        field(
                            core::mem::offset_of!(Three<'_>, c),
                            |ctx: &mut Ctx<'_>, p: Place<'_, Counted<'_>>| {
                                if ctx.fail == 2 {
                                    return Err("c");
                                }
                                Ok(p.write(Counted::new(ctx.live, 3)))
                            },
                        ),
                    ),
                )
            }
        })
    }

    #[test]
    fn builds_every_field_in_place() {
        let live = Cell::new(0);
        let t = three(&live, 3).unwrap();
        assert_eq!((t.a.1, t.b, t.c.1), (1, 2, 3));
        assert_eq!(live.get(), 2);
        drop(t);
        assert_eq!(live.get(), 0);
    }

    #[test]
    fn a_failing_field_drops_the_fields_before_it_once() {
        for fail in 0..3 {
            let live = Cell::new(0);
            assert!(three(&live, fail).is_err());
            assert_eq!(live.get(), 0, "field {fail} failed");
        }
    }

    #[test]
    #[cfg(feature = "std")]
    fn a_panicking_field_drops_the_fields_before_it_once() {
        extern crate std;
        let live = Cell::new(0);
        let mut ctx = Ctx {
            live: &live,
            fail: 1,
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build_value(|place: Place<'_, (Counted<'_>, Counted<'_>)>| {
                // SAFETY: the two fields of the pair, with their offsets
                // and types; a tuple is not packed.
                unsafe {
                    build_fields(
                        place,
                        &mut ctx,
                        (
                            field(
                                core::mem::offset_of!((Counted<'_>, Counted<'_>), 0),
                                |ctx: &mut Ctx<'_>, p: Place<'_, Counted<'_>>| {
                                    Ok::<_, ()>(p.write(Counted::new(ctx.live, 1)))
                                },
                            ),
                            field(
                                core::mem::offset_of!((Counted<'_>, Counted<'_>), 1),
                                |_: &mut Ctx<'_>,
                                 _: Place<'_, Counted<'_>>|
                                 -> Result<Built<'_, _>, ()> {
                                    panic!("the second field")
                                },
                            ),
                        ),
                    )
                }
            })
        }));
        assert!(result.is_err());
        assert_eq!(live.get(), 0);
    }

    #[test]
    #[cfg(feature = "alloc")]
    fn extends_and_boxes_only_what_was_built() {
        let live = Cell::new(0);
        let mut v = alloc::vec::Vec::with_capacity(8);
        let mut i = 0;
        extend_built(&mut v, 5, |p| {
            i += 1;
            Ok::<_, ()>(p.write(Counted::new(&live, i - 1)))
        })
        .unwrap();
        // The third fails: two more built, kept.
        let mut k = 0;
        let failed = extend_built(&mut v, 3, |p: Place<'_, Counted<'_>>| {
            k += 1;
            if k == 3 {
                return Err(());
            }
            Ok(p.write(Counted::new(&live, 4 + k)))
        });
        assert_eq!(failed, Err(()));
        assert_eq!(v.len(), 7);
        assert_eq!(
            v.iter().map(|c| c.1).collect::<alloc::vec::Vec<_>>(),
            [0, 1, 2, 3, 4, 5, 6]
        );
        let b = box_built(|p| Ok::<_, ()>(p.write(Counted::new(&live, 9)))).unwrap();
        assert_eq!(b.1, 9);
        assert!(box_built(|_: Place<'_, Counted<'_>>| Err::<Built<'_, _>, _>(())).is_err());
        assert_eq!(live.get(), 8);
        drop((v, b));
        assert_eq!(live.get(), 0);
    }

    #[test]
    fn zero_sized_fields_and_values() {
        let unit: () = build_value(|p| Ok::<_, ()>(p.write(()))).unwrap();
        assert_eq!(unit, ());
        // A struct of no fields: nothing to write.
        struct Empty;
        // SAFETY: `Empty` has no fields.
        let _: Empty =
            build_value(|p| unsafe { build_fields::<_, _, (), _>(p, &mut (), ()) }).unwrap();
        let pair: ((), u8) = build_value(|p: Place<'_, ((), u8)>| {
            // SAFETY: the two fields of the pair, with their offsets and
            // types; a tuple is not packed.
            unsafe {
                build_fields(
                    p,
                    &mut (),
                    (
                        field(
                            core::mem::offset_of!(((), u8), 0),
                            |_: &mut (), p: Place<'_, ()>| Ok::<_, ()>(p.write(())),
                        ),
                        field(
                            core::mem::offset_of!(((), u8), 1),
                            |_: &mut (), p: Place<'_, u8>| Ok(p.write(7)),
                        ),
                    ),
                )
            }
        })
        .unwrap();
        assert_eq!(pair, ((), 7));
    }
}
