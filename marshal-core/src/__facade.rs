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
