//! Arenas: encoding into a `bumpalo` arena (size once, allocate once,
//! encode in place), and decoding into one (every owned part of a value
//! in one `Bump`).
//!
//! # Encoding
//!
//! [`encode`] makes exactly one bump allocation of exactly
//! [`encoded_len`](Marshal::encoded_len) bytes and writes the value into it,
//! without zeroing it first. [`encode_batch`] sizes a whole run of values in
//! one pass, then encodes them back to back into one contiguous block.
//!
//! Neither touches the global heap, except when the arena itself needs a
//! new chunk (size it up front with `Bump::with_capacity` to avoid that).
//!
//! ```
//! use bumpalo::Bump;
//! use marshal::Marshal;
//!
//! #[derive(Marshal)]
//! struct Tick<'a> { symbol: &'a str, price: f64 }
//!
//! let bump = Bump::new();
//! let bytes: &mut [u8] = marshal::arena::encode(&bump, &Tick { symbol: "ACME", price: 1.5 });
//! assert_eq!(bytes.len(), 8 + 4 + 8);
//!
//! let ticks = [Tick { symbol: "A", price: 1.0 }, Tick { symbol: "BB", price: 2.0 }];
//! let batch = marshal::arena::encode_batch(&bump, &ticks);
//! assert_eq!(batch.len(), 2);
//! assert_eq!(batch.get(1), Some(&marshal::to_vec(&ticks[1])[..]));
//! ```
//!
//! # Decoding
//!
//! bumpalo's `Vec<'b, T>`, `String<'b>` and `Box<'b, T>` are field types
//! like `Vec<T>`, `String` and `Box<T>`, with the same bytes both ways
//! (the standard types' and bincode 1.3's), the same size constants and
//! the same fingerprints. [`from_bytes_in`], [`from_bytes_in_limited`]
//! and [`read_from_in`] decode a value with every one of them, at any
//! depth, allocated in the `Bump` they are given: a derived type holding
//! them needs no attribute, and may also borrow `&str` and `&[u8]` from
//! the input. Dropping the value runs its destructors as usual (bumpalo's
//! `Vec` and `Box` drop their items); the arena's memory comes back when
//! it is reset or dropped.
//!
//! ```
//! use bumpalo::{Bump, collections::{String, Vec}};
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal)]
//! struct Batch<'b> {
//!     seq: u32,
//!     records: Vec<'b, Record<'b>>,
//! }
//!
//! #[derive(Marshal, Unmarshal)]
//! struct Record<'b> {
//!     name: String<'b>,
//!     values: Vec<'b, u32>,
//!     host: &'b str, // borrowed from the input
//! }
//!
//! // The bytes of the same shape made of standard types.
//! let bytes = marshal::to_vec(&(7u32, vec![("cpu".to_string(), vec![1u32, 2], "a")]));
//!
//! let bump = Bump::with_capacity(1024);
//! let batch: Batch = marshal::arena::from_bytes_in(&bump, &bytes)?;
//! let record = &batch.records[0];
//! assert_eq!((batch.seq, record.name.as_str(), &record.values[..]), (7, "cpu", &[1, 2][..]));
//! assert_eq!(record.host, "a");
//! // And back: the arena types write the standard types' bytes.
//! assert_eq!(marshal::to_vec(&batch), bytes);
//! # Ok::<(), marshal::DecodeError>(())
//! ```
//!
//! - **No global allocation.** Every `Vec`, `String` and `Box` of the
//!   value is allocated in the arena, so after `Bump::with_capacity` with
//!   room for the value, decoding asks the global allocator for nothing
//!   (`examples/arena_batch.rs` counts).
//! - **The same limits as on the heap.** A length prefix buys room ahead
//!   of the items only as far as the input can hold them, so a hostile
//!   length never grows the arena; the allocation budget of
//!   [`from_bytes_in_limited`] counts the bytes asked of the arena exactly
//!   as it counts heap bytes; the depth limit counts bumpalo's `Vec` and
//!   `Box` as it counts `Vec` and `Box`.
//! - **A full arena is an error.** When the arena cannot allocate (its
//!   `Bump::set_allocation_limit`, or the global allocator, refuses a new
//!   chunk), decoding stops with
//!   [`ArenaFull`](crate::DecodeErrorKind::ArenaFull), where bumpalo's own
//!   constructors would panic; what was decoded so far is dropped.
//! - **No arena is an error, never a panic.** Decoding a type that holds
//!   bumpalo's containers through an entry point without an arena
//!   ([`from_bytes`](crate::from_bytes), [`Unmarshal::read_from`], a
//!   [`Reader`] without [`with_arena`](Reader::with_arena)) fails with
//!   [`NoArena`](crate::DecodeErrorKind::NoArena), naming the type, at the
//!   offset where the first of them starts.
//!
//! ```
//! use bumpalo::{Bump, collections::{String, Vec}};
//! use marshal::DecodeErrorKind;
//!
//! let bytes = marshal::to_vec(&(1u8, vec!["x".to_string(); 100]));
//!
//! // No arena: an error where the arena type starts.
//! let err = marshal::from_bytes::<(u8, Vec<String>)>(&bytes).unwrap_err();
//! assert_eq!(err.kind(), DecodeErrorKind::NoArena { ty: "bumpalo::collections::Vec" });
//! assert_eq!(err.offset(), 1);
//!
//! // An arena that may not grow past 256 bytes: full, not a panic.
//! let small = Bump::new();
//! small.set_allocation_limit(Some(256));
//! let err = marshal::arena::from_bytes_in::<(u8, Vec<String>)>(&small, &bytes).unwrap_err();
//! assert_eq!(err.kind(), DecodeErrorKind::ArenaFull);
//!
//! // A hostile length: refused before the arena grows.
//! let mut hostile = bytes.clone();
//! hostile[1..9].copy_from_slice(&u64::MAX.to_le_bytes());
//! let bump = Bump::new();
//! let err = marshal::arena::from_bytes_in::<(u8, Vec<String>)>(&bump, &hostile).unwrap_err();
//! assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: u64::MAX });
//! assert_eq!(bump.allocated_bytes(), 0);
//! ```

use core::ops::Range;

use bumpalo::Bump;
use marshal_core::__facade::{alloc_uninit, assert_allocatable, encode_exact, length_mismatch};
use marshal_core::{DecodeError, LengthMismatch, Marshal, Reader, Unmarshal, Writer};

/// Encodes `value` into `bump` and returns its bytes: exactly one bump
/// allocation of exactly [`encoded_len`](Marshal::encoded_len) bytes,
/// written once (never zeroed first), and no global-heap allocation unless
/// the arena needs a new chunk.
///
/// # Panics
///
/// When the value is too large to encode (its `encoded_len`, which
/// saturates at `usize::MAX`, is more than an allocation can hold), when
/// its `encode` does not write exactly `encoded_len` bytes (a broken manual
/// [`Marshal`] implementation: the message names the [`LengthMismatch`]),
/// or when the arena cannot allocate.
///
/// ```
/// use bumpalo::Bump;
///
/// let bump = Bump::new();
/// let bytes = marshal::arena::encode(&bump, &(7u32, "hi"));
/// assert_eq!(bytes, &[7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
/// ```
#[inline]
#[track_caller]
pub fn encode<'b, T: Marshal + ?Sized>(bump: &'b Bump, value: &T) -> &'b mut [u8] {
    let len = value.encoded_len();
    assert_allocatable(0, len);
    let mut w = Writer::new_uninit(alloc_uninit(bump, len));
    if let Err(mismatch) = encode_exact(value, len, &mut w) {
        length_mismatch(mismatch);
    }
    w.into_written()
}

/// A run of values encoded back to back into one arena block, by
/// [`encode_batch`].
///
/// `bytes` holds every encoding in order, with nothing between them;
/// `ranges[i]` is where value `i` is in it. Both live in the arena.
///
/// ```
/// use bumpalo::Bump;
///
/// let bump = Bump::new();
/// let batch = marshal::arena::encode_batch(&bump, [1u16, 2, 3]);
/// assert_eq!(batch.bytes, &[1, 0, 2, 0, 3, 0]);
/// assert_eq!(batch.ranges, &[0..2, 2..4, 4..6]);
/// assert_eq!(batch.iter().collect::<Vec<_>>(), [&[1, 0], &[2, 0], &[3, 0]]);
/// ```
#[derive(Debug)]
pub struct Batch<'b> {
    /// Every value's encoding, back to back.
    pub bytes: &'b mut [u8],
    /// The byte range of each value in `bytes`, in order.
    pub ranges: &'b [Range<usize>],
}

impl<'b> Batch<'b> {
    /// The number of values.
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// assert_eq!(marshal::arena::encode_batch(&bump, ["a", "b"]).len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Whether the batch holds no values.
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// assert!(marshal::arena::encode_batch(&bump, Vec::<u8>::new()).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The encoding of value `i`, if there is one.
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let batch = marshal::arena::encode_batch(&bump, [true, false]);
    /// assert_eq!(batch.get(1), Some(&[0][..]));
    /// assert_eq!(batch.get(2), None);
    /// ```
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        self.bytes.get(self.ranges.get(i)?.clone())
    }

    /// Each value's encoding, in order.
    ///
    /// ```
    /// let bump = bumpalo::Bump::new();
    /// let batch = marshal::arena::encode_batch(&bump, ["a", "bc"]);
    /// let lens: Vec<usize> = batch.iter().map(<[u8]>::len).collect();
    /// assert_eq!(lens, [9, 10]);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.ranges.iter().map(|r| &self.bytes[r.clone()])
    }
}

/// Encodes every item back to back into one contiguous arena block, and
/// returns the block with each item's byte range.
///
/// The whole block is sized in one pass over `items` first, then allocated
/// once and filled in a second pass: two bump allocations in all (the
/// ranges, then the block of exactly the summed
/// [`encoded_len`](Marshal::encoded_len)s), no zeroing, and no global-heap
/// allocation unless the arena needs a new chunk.
///
/// `items` is anything iterable twice whose length is known up front: a
/// slice or array (of values or references), `vec.iter()`, or a `map` over
/// one. Items may be values or references (`&T` is [`Marshal`] when `T`
/// is). The iterator is cloned for the second pass, so it must yield the
/// same items both times.
///
/// # Panics
///
/// When the batch is too large to encode (the items' lengths sum to more
/// than an allocation can hold), when an item encodes to a different length
/// than it reported or the iterator yields a different number of items the
/// second time (a broken [`Marshal`] implementation or iterator: the
/// message names the item and the [`LengthMismatch`]), or when the arena
/// cannot allocate.
///
/// ```
/// use bumpalo::Bump;
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// struct Row { id: u32, name: String }
///
/// let rows: Vec<Row> = (0..3).map(|id| Row { id, name: "x".repeat(id as usize) }).collect();
/// let bump = Bump::new();
/// let batch = marshal::arena::encode_batch(&bump, &rows);
/// assert_eq!(batch.bytes.len(), rows.iter().map(Marshal::encoded_len).sum::<usize>());
/// for (row, bytes) in rows.iter().zip(batch.iter()) {
///     assert_eq!(bytes, marshal::to_vec(row));
/// }
/// ```
#[track_caller]
pub fn encode_batch<'b, I>(bump: &'b Bump, items: I) -> Batch<'b>
where
    I: IntoIterator,
    I::IntoIter: ExactSizeIterator + Clone,
    I::Item: Marshal,
{
    let items = items.into_iter();
    // Pass 1: size every item; the ranges go straight into the arena.
    let mut end = 0usize;
    let ranges: &'b [Range<usize>] = bump.alloc_slice_fill_iter(items.clone().map(|item| {
        let start = end;
        end = start.saturating_add(item.encoded_len());
        start..end
    }));
    // A saturated sum is `usize::MAX`, too large for any allocation.
    assert_allocatable(0, end);
    // Pass 2: one block of exactly `end` bytes, filled in order.
    let mut w = Writer::new_uninit(alloc_uninit(bump, end));
    let mut count = 0;
    for (item, range) in items.zip(ranges) {
        let encoded = item.encode(&mut w).is_ok();
        if !encoded || w.written() != range.end {
            item_mismatch(count, range, encoded.then(|| w.written()));
        }
        count += 1;
    }
    if count != ranges.len() {
        count_mismatch(count, ranges.len());
    }
    Batch {
        bytes: w.into_written(),
        ranges,
    }
}

/// Item `i`, sized to `range`, did not end at `range.end`: the writer
/// ended at `end`, or (`None`) the item did not fit in the block.
#[cold]
#[inline(never)]
#[track_caller]
fn item_mismatch(i: usize, range: &Range<usize>, end: Option<usize>) -> ! {
    let encoded_len = range.len();
    let mismatch = match end {
        Some(end) if end < range.end => LengthMismatch::Short {
            encoded_len,
            written: end - range.start,
        },
        _ => LengthMismatch::Long { encoded_len },
    };
    panic!(
        "marshal: item {i} of the batch encoded differently from how it was sized: \
         {mismatch}, or an iterator that yields different items when cloned"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn count_mismatch(count: usize, sized: usize) -> ! {
    panic!(
        "marshal: the batch's iterator yielded {count} items to encode after {sized} to \
         size: an iterator that yields different items when cloned"
    )
}

/// Decodes a `T` from the whole of `input`, as
/// [`from_bytes`](crate::from_bytes) does, with bumpalo's `Vec`, `String`
/// and `Box` allocated in `bump`, wherever they are in the value.
///
/// ```
/// use bumpalo::{Bump, collections::String};
///
/// let bytes = marshal::to_vec(&(1u8, "arena"));
/// let bump = Bump::new();
/// let (n, s): (u8, String) = marshal::arena::from_bytes_in(&bump, &bytes)?;
/// assert_eq!((n, s.as_str()), (1, "arena"));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[inline]
pub fn from_bytes_in<'de, T: Unmarshal<'de>>(
    bump: &'de Bump,
    input: &'de [u8],
) -> Result<T, DecodeError> {
    decode_whole(Reader::new(input).with_arena(bump))
}

/// [`from_bytes_in`] with an allocation budget, as
/// [`from_bytes_limited`](crate::from_bytes_limited): the arena and the
/// heap are asked for at most `max_alloc` bytes in all, or decoding stops
/// with [`AllocLimit`](crate::DecodeErrorKind::AllocLimit).
///
/// ```
/// use bumpalo::{Bump, collections::Vec};
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::to_vec(&vec![7u32; 100]);
/// let bump = Bump::new();
/// let v: Vec<u32> = marshal::arena::from_bytes_in_limited(&bump, &bytes, 400)?;
/// assert_eq!(v.len(), 100);
///
/// let err = marshal::arena::from_bytes_in_limited::<Vec<u32>>(&bump, &bytes, 399).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 399 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[inline]
pub fn from_bytes_in_limited<'de, T: Unmarshal<'de>>(
    bump: &'de Bump,
    input: &'de [u8],
    max_alloc: usize,
) -> Result<T, DecodeError> {
    decode_whole(
        Reader::new(input)
            .with_max_alloc(max_alloc)
            .with_arena(bump),
    )
}

/// Decodes one `T` from the front of `input`, with bumpalo's containers
/// allocated in `bump`, and returns it with the number of bytes it took,
/// as [`Unmarshal::read_from`] does. Bytes after it are ignored.
///
/// ```
/// use bumpalo::{Bump, collections::Vec};
///
/// let mut bytes = marshal::to_vec(&vec![1u8, 2]);
/// bytes.push(0xff);
/// let bump = Bump::new();
/// let (v, used): (Vec<u8>, usize) = marshal::arena::read_from_in(&bump, &bytes)?;
/// assert_eq!((&v[..], used), (&[1, 2][..], 10));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
#[inline]
pub fn read_from_in<'de, T: Unmarshal<'de>>(
    bump: &'de Bump,
    input: &'de [u8],
) -> Result<(T, usize), DecodeError> {
    let mut r = Reader::new(input).with_arena(bump);
    let value = T::decode(&mut r)?;
    Ok((value, r.position()))
}

/// One `T` from all of what `r` reads, or `TrailingBytes` after it.
#[inline]
fn decode_whole<'de, T: Unmarshal<'de>>(mut r: Reader<'de>) -> Result<T, DecodeError> {
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}
