//! Items for the `marshal` facade crate only, not for generated code (which
//! names `__private`) nor for users: the building blocks of the facade's
//! output targets (arenas, `BufMut`, `io::Write`, frames), which, living in
//! another crate, cannot reach this crate's `pub(crate)` modules. Not
//! public API: anything here may change in any release.

pub use crate::output::{assert_allocatable, encode_exact, length_mismatch, may_fit};

// Safe building blocks over the crate's unsafe module: a writer over a
// `Vec`'s spare capacity, a `BufMut` chunk or a fresh arena block.
#[cfg(feature = "bumpalo")]
pub use crate::mem::alloc_uninit;
#[cfg(feature = "alloc")]
pub use crate::mem::{Filled, Slots, append_filled_to_vec, append_slots_to_vec};
#[cfg(feature = "bytes")]
pub use crate::output::{append_to_buf_mut, try_append_to_buf_mut};
#[cfg(feature = "alloc")]
pub use crate::output::{append_to_vec, try_append_to_vec};

/// [`encode_exact`] in dialect `D`: writes `value` through `w`, checking
/// that it writes exactly `len` bytes.
#[inline]
pub fn encode_exact_in<T: crate::config::MarshalIn<D> + ?Sized, D: crate::config::Dialect>(
    value: &T,
    len: usize,
    w: &mut crate::Writer<'_>,
) -> Result<(), crate::LengthMismatch> {
    crate::config::encode_exact(value, len, w)
}

/// Writes a length prefix of `len` in byte order `E` and encoding `I`
/// (in bincode 1.3's default options, [`Writer::put_len`](crate::Writer::put_len)'s bytes).
#[inline]
pub fn put_len_in<E: crate::config::Endian, I: crate::config::IntEncoding>(
    w: &mut crate::Writer<'_>,
    len: usize,
) -> Result<(), crate::Overflow> {
    crate::impls::dialect::put_len::<E, I>(w, len)
}

/// The bytes of a length prefix of `len` in encoding `I`.
#[inline]
#[must_use]
pub fn len_len_in<I: crate::config::IntEncoding>(len: usize) -> usize {
    crate::impls::dialect::len_len::<I>(len)
}

/// [`may_fit`] in dialect `D`: whether a value of type `T` may fit in
/// `room` bytes.
#[inline]
#[must_use]
pub fn may_fit_in<T: crate::config::MarshalIn<D> + ?Sized, D: crate::config::Dialect>(
    room: usize,
) -> bool {
    match T::__FIXED_LEN {
        Some(len) => len <= room,
        None => room > 0,
    }
}

/// The [`AllocLimit`](crate::DecodeErrorKind::AllocLimit) error for room
/// of `bytes` that the allocator refused, at `at`: `par::decode_batch`'s,
/// whose limit is the bytes it asked for.
#[must_use]
pub const fn alloc_refused(bytes: usize, at: usize) -> crate::DecodeError {
    crate::DecodeError::alloc_limit(bytes, at)
}

/// `error`, which decoding a `T` with `spent` returned, with its site, as
/// the entry points on a slice find it (`trace::locate`): `start` makes a
/// reader at the same start, with the same limits. Only after an error.
#[cold]
#[inline(never)]
pub fn locate<'de, T: crate::Unmarshal<'de>>(
    start: impl FnOnce() -> crate::Reader<'de>,
    spent: &crate::Reader<'de>,
    error: crate::DecodeError,
) -> crate::DecodeError {
    crate::trace::locate::<T>(start, spent.left(), error)
}
