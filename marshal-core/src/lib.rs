//! The runtime of [`marshalers`](https://docs.rs/marshalers) (library
//! `marshal`): the [`Marshal`] trait, its implementations for the standard
//! library's types, and the [`Writer`] that encoders write through.
//!
//! Most users depend on `marshalers`, which re-exports everything here
//! together with `#[derive(Marshal)]`, as `marshal`; the examples here use
//! those paths.
//!
//! `no_std`; the `alloc` feature adds owned containers and [`to_vec`], `std`
//! adds hash maps and sets, and `SystemTime`. The `chrono`, `time` and
//! `jiff` features add those crates' date and time types (see [`time`]).
//! Encoding never allocates.
//!
//! ```
//! use marshal::Marshal;
//!
//! let value = (7u32, "hi", [true, false]);
//! let mut buf = [0u8; 32];
//! let n = value.write_to(&mut buf);
//! assert_eq!(n, value.encoded_len());
//! assert_eq!(&buf[..n], &[7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i', 1, 0]);
//! ```
#![no_std]
// On docs.rs: "Available on crate feature X only" on every gated item.
#![cfg_attr(docsrs, feature(doc_cfg))]
// All unsafe code lives in `mem`; see POLICIES.md.
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[doc(hidden)]
pub mod __facade;
#[doc(hidden)]
pub mod __private;
pub mod adapters;
pub mod config;
mod contract;
#[cfg(feature = "alloc")]
pub mod cow;
mod error;
pub mod fingerprint;
mod impls;
mod len;
#[allow(unsafe_code)]
mod mem;
mod nesting;
mod output;
mod reader;
#[cfg(feature = "serde")]
pub mod serde;
mod stack;
pub mod time;
mod trace;
mod traits;
mod wire_hash;
mod writer;

pub use adapters::{MarshalAs, UnmarshalAs};
#[cfg(feature = "alloc")]
pub use config::encode_to_vec;
pub use config::{decode_from_slice, encode_into_slice, encoded_len_with};
pub use error::{BufferTooSmall, DecodeError, DecodeErrorKind, LengthMismatch, Overflow, Site};
pub use reader::Reader;
pub use trace::{ErrorPath, MAX_STEPS, Step, error_path};
pub use traits::{Marshal, Unmarshal, UnmarshalOwned};
pub use writer::Writer;

/// `T`'s fixed encoded length, as a constant: every value of `T` encodes to
/// exactly this many bytes. Use it to size stack buffers.
///
/// ```
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// struct Header { magic: [u8; 4], version: u16, len: u32 }
///
/// const N: usize = marshal::fixed_len::<Header>();
/// let mut buf = [0u8; N];
/// let header = Header { magic: *b"MRSH", version: 1, len: 0 };
/// assert_eq!(header.write_to(&mut buf), N);
/// ```
///
/// # Panics
///
/// When `T` has no fixed length, which in a const context is a compile
/// error:
///
/// ```compile_fail
/// const N: usize = marshal::fixed_len::<String>();
/// ```
#[must_use]
pub const fn fixed_len<T: Marshal + ?Sized>() -> usize {
    match T::FIXED_LEN {
        Some(n) => n,
        None => panic!("fixed_len: the type has no fixed encoded length (its FIXED_LEN is None)"),
    }
}

/// An upper bound on `T`'s encoded length, as a constant.
///
/// ```
/// const N: usize = marshal::max_len::<Option<(u32, char)>>();
/// assert_eq!(N, 1 + 4 + 4);
/// ```
///
/// # Panics
///
/// When `T` has no bound (a compile error in a const context).
#[must_use]
pub const fn max_len<T: Marshal + ?Sized>() -> usize {
    match T::MAX_LEN {
        Some(n) => n,
        None => panic!("max_len: the type's encoded length has no bound (its MAX_LEN is None)"),
    }
}

/// Whether `T`'s wire bytes are exactly its bytes in memory on this target,
/// so slices, vectors and arrays of it encode and decode with one copy.
///
/// The derive decides it at compile time: on a little-endian target, a
/// struct qualifies when every field does (integers, floats, arrays of
/// them, qualifying structs) and `size_of` and `offset_of!` show the fields
/// back to back in declaration order with no padding, whatever its `repr`.
/// `bool`, `char`, enums, `Option`, references and types with padding or
/// skipped fields never qualify.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal)]
/// struct Vec3 { x: f32, y: f32, z: f32 }
///
/// #[derive(Marshal, Unmarshal)]
/// struct Padded { a: u8, b: u32 }
///
/// assert_eq!(marshal::is_memcpy_equivalent::<Vec3>(), cfg!(target_endian = "little"));
/// assert!(!marshal::is_memcpy_equivalent::<Padded>());
/// assert!(!marshal::is_memcpy_equivalent::<bool>());
/// ```
#[must_use]
pub const fn is_memcpy_equivalent<T: Marshal + ?Sized>() -> bool {
    T::__LAYOUT.is_memcpy()
}

/// Decodes a `T` from the whole of `input`; bytes left over after the value
/// are a [`TrailingBytes`](DecodeErrorKind::TrailingBytes) error.
///
/// ```
/// let bytes = marshal::to_vec(&(1u8, "hé"));
/// let (n, s): (u8, &str) = marshal::from_bytes(&bytes).unwrap();
/// assert_eq!((n, s), (1, "hé"));
///
/// let mut longer = bytes.clone();
/// longer.push(0);
/// assert!(marshal::from_bytes::<(u8, &str)>(&longer).is_err());
/// ```
#[inline]
pub fn from_bytes<'de, T: Unmarshal<'de>>(input: &'de [u8]) -> Result<T, DecodeError> {
    // A fixed-size value: one comparison says that the input holds it and
    // nothing after it, and the compiler, knowing the length, folds the
    // decoder's own checks and the one for trailing bytes (an
    // implementation that reads less than it claims still gets them).
    if T::MIN_LEN_IS_EXACT && input.len() == T::MIN_LEN {
        return decode_all(input, None);
    }
    decode_all(input, None)
}

/// One `T` from all of `input`, read under the budget `max_alloc` if any,
/// or `TrailingBytes` after it; after an error in the value, with its site
/// (see `trace::locate`). The reader is made here, where the compiler
/// sees the input's length and the budget.
#[inline(always)]
pub(crate) fn decode_all<'de, T: Unmarshal<'de>>(
    input: &'de [u8],
    max_alloc: Option<usize>,
) -> Result<T, DecodeError> {
    let mut r = reader(input, max_alloc);
    let value = match T::decode(&mut r) {
        Ok(value) => value,
        Err(e) => return Err(locate::<T>(input, max_alloc, r.left(), e)),
    };
    r.finish()?;
    Ok(value)
}

/// One `T` from the front of `input`, read under the budget `max_alloc` if
/// any, and the bytes it took; after an error, with its site, as
/// [`decode_all`].
#[inline]
pub(crate) fn decode_prefix<'de, T: Unmarshal<'de>>(
    input: &'de [u8],
    max_alloc: Option<usize>,
) -> Result<(T, usize), DecodeError> {
    let mut r = reader(input, max_alloc);
    match T::decode(&mut r) {
        Ok(value) => Ok((value, r.position())),
        Err(e) => Err(locate::<T>(input, max_alloc, r.left(), e)),
    }
}

/// [`from_bytes`] into memory the caller provides: the value is built in
/// `slot` and a reference to it returned (a derived struct's fields are
/// written straight into the slot, with no copy of the whole). On an error
/// the slot is left as it was, holding no value: whatever was built of it
/// has been dropped. The slot's value is never dropped by `marshal`: the
/// caller owns it (`MaybeUninit` drops nothing, see
/// [`MaybeUninit::assume_init_drop`](core::mem::MaybeUninit::assume_init_drop)).
///
/// ```
/// use std::mem::MaybeUninit;
///
/// let bytes = marshal::to_vec(&(7u32, String::from("seven")));
/// let mut slot = MaybeUninit::<(u32, String)>::uninit();
/// let value = marshal::from_bytes_into(&bytes, &mut slot).unwrap();
/// assert_eq!(value.1, "seven");
/// // SAFETY: `from_bytes_into` returned `Ok`, so the slot holds a value,
/// // dropped here once.
/// unsafe { slot.assume_init_drop() };
///
/// // Trailing bytes: an error, and the value decoded before them dropped.
/// let mut longer = bytes.clone();
/// longer.push(0);
/// assert!(marshal::from_bytes_into(&longer, &mut slot).is_err());
/// ```
#[inline]
pub fn from_bytes_into<'de, 's, T: Unmarshal<'de>>(
    input: &'de [u8],
    slot: &'s mut core::mem::MaybeUninit<T>,
) -> Result<&'s mut T, DecodeError> {
    let mut r = Reader::new(input);
    mem::build_in_checked(
        slot,
        &mut r,
        |r, place| T::__decode_in(r, place),
        |r| r.finish(),
    )
    // (Trailing bytes are after the value, which the trace reads
    // whole: they have no site.)
    .map_err(|e| locate::<T>(input, None, r.left(), e))
}

/// A reader of `input`, under the budget `max_alloc` if any.
#[inline(always)]
pub(crate) fn reader(input: &[u8], max_alloc: Option<usize>) -> Reader<'_> {
    match max_alloc {
        Some(max_alloc) => Reader::new(input).with_max_alloc(max_alloc),
        None => Reader::new(input),
    }
}

/// `error`, which decoding a `T` from all of `input` under the budget
/// `max_alloc` returned, leaving `left` of the reader's budget, with its
/// site (see `trace::locate`): out of line, after an error.
#[cold]
#[inline(never)]
fn locate<'de, T: Unmarshal<'de>>(
    input: &'de [u8],
    max_alloc: Option<usize>,
    left: usize,
    error: DecodeError,
) -> DecodeError {
    trace::locate::<T>(|| reader(input, max_alloc), left, error)
}

/// [`from_bytes`] with an allocation budget: decoding asks the allocator
/// for at most `max_alloc` bytes in all, or stops with
/// [`AllocLimit`](DecodeErrorKind::AllocLimit) and drops what it built (see
/// [`Reader::with_max_alloc`]). For input from untrusted peers, whose small
/// messages could otherwise expand many times over in memory.
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::to_vec(&vec![String::from("a long enough string"); 3]);
/// // 3 × 24 bytes of `String`s, then 20 bytes for each string's contents.
/// let back: Vec<String> = marshal::from_bytes_limited(&bytes, 3 * 24 + 3 * 20)?;
/// assert_eq!(back, ["a long enough string"; 3]);
///
/// let err = marshal::from_bytes_limited::<Vec<String>>(&bytes, 3 * 24 + 3 * 20 - 1).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 131 });
/// assert_eq!(err.offset(), 8 + 2 * 28 + 8); // the third string's contents
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[inline]
pub fn from_bytes_limited<'de, T: Unmarshal<'de>>(
    input: &'de [u8],
    max_alloc: usize,
) -> Result<T, DecodeError> {
    decode_all(input, Some(max_alloc))
}

/// Encodes `value` into a new `Vec` with exactly one allocation of exactly
/// [`encoded_len`](Marshal::encoded_len) bytes, which are written once and
/// never zeroed first.
///
/// ```
/// let bytes = marshal::to_vec(&(1u8, 2u16));
/// assert_eq!(bytes, [1, 2, 0]);
/// ```
///
/// # Panics
///
/// When the value is too large to encode: its `encoded_len` (which
/// saturates at `usize::MAX`) is more than a `Vec` can hold. And when
/// `encode` does not write exactly `encoded_len` bytes (a broken manual
/// [`Marshal`] implementation), with the [`LengthMismatch`] in the message.
#[cfg(feature = "alloc")]
#[track_caller]
pub fn to_vec<T: Marshal + ?Sized>(value: &T) -> alloc::vec::Vec<u8> {
    let len = value.encoded_len();
    output::assert_allocatable(0, len);
    let mut out = alloc::vec::Vec::with_capacity(len);
    if let Err(mismatch) =
        output::try_append_to_vec(&mut out, |w| output::encode_exact(value, len, w))
    {
        output::length_mismatch(mismatch);
    }
    out
}

/// Appends the encoding of `value` to `out` and returns its length. The new
/// bytes are written once, straight into the spare capacity, never zeroed
/// first.
///
/// When `out`'s spare capacity holds the encoding, it takes one pass: the
/// value is written without being sized first, and nothing is allocated.
/// Only when it does not fit is it sized with
/// [`encoded_len`](Marshal::encoded_len), room made for exactly that many
/// bytes (one reallocation), and the value written again. Reusing one
/// vector for a stream of values allocates only while it grows, and once
/// it has, sizes nothing.
///
/// ```
/// let mut out = Vec::with_capacity(64);
/// out.push(0xff);
/// assert_eq!(marshal::encode_into_vec(&(1u8, 2u16), &mut out), 3);
/// assert_eq!(marshal::encode_into_vec("hi", &mut out), 10);
/// assert_eq!(out[..4], [0xff, 1, 2, 0]);
/// assert_eq!((out.len(), out.capacity()), (14, 64));
///
/// // Too long for the room left: sized, one reallocation, written.
/// assert_eq!(marshal::encode_into_vec(&[7u8; 100][..], &mut out), 108);
/// assert_eq!(out.len(), 122);
/// ```
///
/// # Panics
///
/// Like [`to_vec`]: when the value does not fit the spare capacity and is
/// too large to encode (here: after `out`'s contents), and when it does not
/// fit and `encode` does not write exactly `encoded_len` bytes. `out` keeps
/// its length and contents. In one pass `encoded_len` is not called, so a
/// value whose `encode` disagrees with it goes unnoticed, as in
/// [`Marshal::write_to`]: the length returned is the one written.
#[cfg(feature = "alloc")]
#[track_caller]
pub fn encode_into_vec<T: Marshal + ?Sized>(value: &T, out: &mut alloc::vec::Vec<u8>) -> usize {
    let start = out.len();
    if output::may_fit::<T>(out.capacity() - start)
        && output::try_append_to_vec(out, |w| value.encode(w)).is_ok()
    {
        return out.len() - start;
    }
    let len = value.encoded_len();
    output::assert_allocatable(start, len);
    out.reserve(len);
    match output::try_append_to_vec(out, |w| output::encode_exact(value, len, w)) {
        Ok(()) => len,
        Err(mismatch) => output::length_mismatch(mismatch),
    }
}
