//! `As<A, T>`: a `T` that the adapter `A` writes and reads (a field
//! `#[marshal(as = A)]`), with `T`'s layout, so that a borrowed field is
//! seen as one without a copy. The derive names an adapted field by this
//! type, and its `Marshal`/`Unmarshal` impls (the adapter's, in
//! `adapters`) are then reached the way any field type's are: one path,
//! and one compile error where an adapter does not fit, not one per use.

use core::marker::PhantomData;

/// A `T` written and read by the adapter `A`; see the module's docs.
#[repr(transparent)]
pub struct As<A: ?Sized, T> {
    adapter: PhantomData<fn() -> A>,
    value: T,
}

impl<A: ?Sized, T> As<A, T> {
    /// `value`, to be written by `A`.
    #[inline(always)]
    pub const fn new(value: T) -> Self {
        As {
            adapter: PhantomData,
            value,
        }
    }

    /// The value.
    #[inline(always)]
    pub fn into_inner(self) -> T {
        self.value
    }

    /// The value, borrowed.
    #[inline(always)]
    pub const fn get(&self) -> &T {
        &self.value
    }

    /// The value behind `value`, seen as written by `A`.
    #[inline(always)]
    pub const fn from_ref(value: &T) -> &Self {
        let ptr: *const T = value;
        // SAFETY: `As<A, T>` is `#[repr(transparent)]` and its one field
        // besides `value: T` is `PhantomData<fn() -> A>`, zero-sized with
        // alignment 1 as `repr(transparent)` requires of every other field
        // (the Reference, "Type layout", "The `transparent`
        // representation"): `As<A, T>` has `T`'s size, alignment and
        // layout, its `value` at offset 0. `ptr` comes from `&T`, so it is
        // non-null, aligned for `T` (and so for `As<A, T>`) and points to a
        // valid, initialized `T` for the reference's lifetime, which is a
        // valid `As<A, T>` (all of whose bytes are the `T`'s). The result
        // is a shared reference with the same lifetime, through which,
        // as through `value`, the `T` can only be read (or mutated through
        // an `UnsafeCell` inside it, at the same offsets): `ptr::as_ref`'s
        // and `&*`'s requirements (`core::ptr` docs, "Pointer to reference
        // conversion") hold.
        unsafe { &*ptr.cast::<Self>() }
    }
}

#[cfg(test)]
mod tests {
    use super::As;

    #[test]
    fn a_borrowed_value_is_the_same_value() {
        let values = [1u64, 2, 3];
        let seen = As::<str, u64>::from_ref(&values[1]);
        assert_eq!(*seen.get(), 2);
        assert!(core::ptr::eq(seen.get(), &values[1]));
        let cell = core::cell::Cell::new(5u8);
        As::<(), core::cell::Cell<u8>>::from_ref(&cell).get().set(6);
        assert_eq!(cell.get(), 6);
        assert_eq!(As::<u8, [u8; 3]>::new([7; 3]).into_inner(), [7; 3]);
        assert_eq!(size_of::<As<[u64; 4], u16>>(), 2);
        assert_eq!(align_of::<As<u64, u8>>(), 1);
    }
}
