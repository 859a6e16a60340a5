//! Memcpy layouts and the bulk copies that trust them.

use core::fmt;
use core::marker::PhantomData;
use core::mem::{MaybeUninit, size_of};

/// Whether `T`'s wire encoding is exactly its in-memory representation on
/// this target, so a run of values can be copied in one piece.
///
/// A `Layout<T>` that [`is_memcpy`](Layout::is_memcpy) promises, of `T`: a
/// value's `size_of::<T>()` bytes are all initialized (no padding), they
/// are exactly its wire encoding, and every pattern of that many bytes is a
/// valid `T`. The bulk copies below rely on this.
///
/// Safe code cannot make a false one. The layout is typed by the type it
/// describes, so one type's layout is not another's (`Layout<u64>` is not a
/// `Layout<MyStruct>`), and the only constructors of a memcpy layout are
/// crate-private ones for types that qualify ([`Primitive`] integers and
/// floats, arrays of qualifying types, [`Transparent`] wrappers of them,
/// [`Empty`] unit types) and [`Layout::structure`], an `unsafe fn` that the
/// derive calls with facts from `size_of` and `offset_of!`.
#[doc(hidden)]
pub struct Layout<T: ?Sized> {
    memcpy: bool,
    /// Invariant in `T`: a layout describes exactly one type.
    ty: PhantomData<*mut T>,
}

impl<T: ?Sized> Clone for Layout<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Layout<T> {}

impl<T: ?Sized> fmt::Debug for Layout<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Layout")
            .field("memcpy", &self.memcpy)
            .finish()
    }
}

impl<T: ?Sized> Layout<T> {
    /// Not known to match memory.
    pub const OPAQUE: Layout<T> = Layout::new(false);

    const fn new(memcpy: bool) -> Self {
        Layout {
            memcpy,
            ty: PhantomData,
        }
    }

    /// A primitive whose little-endian wire bytes are its memory on a
    /// little-endian target when its size is its wire length, and every bit
    /// pattern of which is valid.
    pub(crate) const fn primitive() -> Self
    where
        T: Primitive,
    {
        Layout::new(cfg!(target_endian = "little") && size_of::<T>() == T::WIRE_LEN)
    }

    /// A zero-sized, inhabited type that writes nothing.
    pub(crate) const fn empty() -> Self
    where
        T: Empty,
    {
        Layout::new(true)
    }

    /// A `repr(transparent)` wrapper: its memory is its inner value's.
    pub(crate) const fn transparent(inner: Layout<T::Inner>) -> Self
    where
        T: Transparent,
    {
        Layout::new(inner.memcpy)
    }

    /// A derived struct whose encoded fields, in wire order, sit at
    /// `fields[i].0` with `fields[i].1` bytes, and are memcpy-equivalent
    /// when `fields[i].2`. It matches memory when every field does and they
    /// tile `0..size_of::<T>()` exactly in wire order.
    ///
    /// # Safety
    ///
    /// `fields` must list every field of the struct `T`, in wire order, each
    /// with its `offset_of!`, its type's `size_of`, and whether its type's
    /// layout for the trait being implemented is memcpy (`__LAYOUT` of
    /// `Marshal`/`Unmarshal`, `__LAYOUT_IN` of `MarshalIn`/`UnmarshalIn` in
    /// a configuration). The derive passes exactly these.
    #[must_use]
    pub const unsafe fn structure(fields: &[(usize, usize, bool)]) -> Self
    where
        T: Sized,
    {
        let mut next = 0;
        let mut i = 0;
        while i < fields.len() {
            let (offset, len, memcpy) = fields[i];
            if !memcpy || offset != next {
                return Layout::OPAQUE;
            }
            next += len;
            i += 1;
        }
        Layout::new(next == size_of::<T>())
    }

    /// Whether the wire bytes are the memory bytes.
    #[must_use]
    pub const fn is_memcpy(self) -> bool {
        self.memcpy
    }
}

impl<T, const N: usize> Layout<[T; N]> {
    /// `[T; N]`: elements are laid out back to back with no padding.
    pub(crate) const fn array(element: Layout<T>) -> Self {
        Layout::new(element.memcpy)
    }
}

/// Integers and floats: every bit pattern is a value, and on a
/// little-endian target the wire bytes are the memory when the size is the
/// wire length (`usize` is 8 bytes on the wire on every target).
pub(crate) trait Primitive: Sized {
    /// Bytes on the wire.
    const WIRE_LEN: usize;
}

/// Zero-sized types with exactly one value.
pub(crate) trait Empty {}

/// `repr(transparent)` wrappers of one value.
pub(crate) trait Transparent {
    /// The wrapped type.
    type Inner;
}

macro_rules! primitives {
    ($($ty:ty => $wire:expr),* $(,)?) => {$(
        impl Primitive for $ty {
            const WIRE_LEN: usize = $wire;
        }
    )*};
}

primitives! {
    u8 => 1, i8 => 1, u16 => 2, i16 => 2, u32 => 4, i32 => 4, u64 => 8, i64 => 8,
    u128 => 16, i128 => 16, f32 => 4, f64 => 8, usize => 8, isize => 8,
}

impl Empty for () {}
impl<T: ?Sized> Empty for PhantomData<T> {}

// `Wrapping` and `Saturating` are documented `repr(transparent)`.
impl<T> Transparent for core::num::Wrapping<T> {
    type Inner = T;
}
impl<T> Transparent for core::num::Saturating<T> {
    type Inner = T;
}

// Bulk copies of types whose wire bytes are their memory. Each is given
// the layout of its type (a `Marshal` or `Unmarshal` implementation's
// `__LAYOUT`, or a `MarshalIn` or `UnmarshalIn` one's `__LAYOUT_IN`), and
// copies only when it `is_memcpy`. Their soundness rests on
// the contract of `Layout::is_memcpy` (above): such a type has no padding,
// its bytes are its wire encoding, and every byte pattern of its size is a
// valid value. Only the constructors above can produce such a layout, and
// only `unsafe` calls to `Layout::structure` can produce one outside this
// crate.

/// The bytes of `items` in memory, when `layout`, their type's, says they
/// are their wire encoding.
#[inline]
pub(crate) fn memory_of<T>(layout: Layout<T>, items: &[T]) -> Option<&[u8]> {
    if !layout.is_memcpy() {
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
    // because `T` has no padding (the `is_memcpy` contract of `layout`, a
    // `Layout<T>`).
    Some(unsafe { core::slice::from_raw_parts(ptr, core::mem::size_of_val(items)) })
}

/// The value whose memory is `bytes`, when `layout`, `T`'s, says its wire
/// bytes are its memory and `bytes` is exactly one `T`'s worth; else
/// `None`. Read as a value, which the compiler keeps in registers, rather
/// than copied through memory.
#[inline(always)]
pub(crate) fn value_from_memory<T>(layout: Layout<T>, bytes: &[u8]) -> Option<T> {
    if !layout.is_memcpy() || bytes.len() != core::mem::size_of::<T>() {
        return None;
    }
    // SAFETY: `read_unaligned` requires `src` valid for reads of
    // `size_of::<T>()` bytes and the bytes there a valid `T`; it needs no
    // alignment (std, `ptr::read_unaligned`). `bytes` is exactly that many
    // bytes (checked above), and every byte pattern of `T`'s size is a
    // valid `T` (the `is_memcpy` contract of `layout`, a `Layout<T>`,
    // checked above).
    Some(unsafe { bytes.as_ptr().cast::<T>().read_unaligned() })
}

/// The values whose memory is `bytes`, when `layout`, their type's, says
/// their wire bytes are their memory; `bytes.len()` is a multiple of
/// `size_of::<T>()`.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn vec_from_memory<T>(layout: Layout<T>, bytes: &[u8]) -> alloc::vec::Vec<T> {
    let size = core::mem::size_of::<T>();
    assert!(
        layout.is_memcpy() && size > 0 && bytes.len() % size == 0,
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

/// The array whose memory is `bytes`, when `layout`, `T`'s, says its wire
/// bytes are its memory; `bytes.len()` is `N * size_of::<T>()`.
#[inline]
pub(crate) fn array_from_memory<T, const N: usize>(layout: Layout<T>, bytes: &[u8]) -> [T; N] {
    assert!(
        layout.is_memcpy() && bytes.len() == core::mem::size_of::<[T; N]>(),
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
