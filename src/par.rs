//! Encoding and decoding batches of values on every core, with rayon
//! (feature `rayon`).
//!
//! Exact sizes make a batch parallel with no shared state: the batch is
//! split into a few ranges of items per thread; each range's items are
//! sized and summed in parallel, the ranges' totals give each range its
//! place in the output (the one sequential step, a few additions per
//! thread), and rayon's threads write the ranges into disjoint parts of
//! the output at the same time. The bytes are those of encoding the items one after
//! another. Decoding takes the same end offsets and decodes every range in
//! parallel, each straight into its part of the one `Vec` it returns.
//!
//! Everything runs on the current rayon pool: the global one, or the pool
//! of an enclosing `ThreadPool::install`. [`encode_batch_with`],
//! [`to_vec_with`] and [`decode_batch_with`] do the same in any
//! [configuration](crate::config).
//!
//! ```
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Log { code: u16, path: String }
//!
//! let logs: Vec<Log> = (0..1000).map(|i| Log { code: 200, path: format!("/{i}") }).collect();
//!
//! let (mut out, mut ends) = (Vec::new(), Vec::new());
//! marshal::par::encode_batch(&logs, &mut out, &mut ends);
//! assert_eq!(ends.len(), 1000);
//! assert_eq!(&out[..ends[0]], marshal::to_vec(&logs[0]));
//!
//! let back: Vec<Log> = marshal::par::decode_batch(&out, &ends)?;
//! assert_eq!(back, logs);
//!
//! // One buffer in the format of a `Vec<Log>`, written in parallel.
//! assert_eq!(marshal::par::to_vec(&logs), marshal::to_vec(&logs));
//! # Ok::<(), marshal::DecodeError>(())
//! ```

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use marshal_core::__facade::{
    Filled, Slots, alloc_refused, append_filled_to_vec, append_slots_to_vec, append_to_vec,
    assert_allocatable, encode_exact_in, len_len_in, length_mismatch, put_len_in,
};
use marshal_core::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal_core::{DecodeError, Marshal, Reader, Unmarshal, Writer};
use rayon::prelude::*;

/// The fewest items a task sizes, writes or decodes: below this, splitting
/// costs more than it saves.
const MIN_ITEMS: usize = 64;

/// Ranges per thread: a few, so that a thread that finishes early can take
/// over part of a slower one's work.
const RANGES_PER_THREAD: usize = 4;

/// The most items one task takes from a batch of `n`: a few ranges per
/// thread of the current pool, and not fewer than [`MIN_ITEMS`].
fn grain(n: usize) -> usize {
    let ranges = rayon::current_num_threads().saturating_mul(RANGES_PER_THREAD);
    n.div_ceil(ranges.max(1)).max(MIN_ITEMS)
}

/// Appends the encodings of `items` back to back to `out`, and each item's
/// end offset in `out` to `ends`, encoding in parallel on the current
/// rayon pool.
///
/// The items are sized in parallel (each `encoded_len` is called once), a
/// few ranges of them per thread, each range's lengths summed on its own;
/// the ranges' totals give each range its place (the one sequential step,
/// a few additions per thread), and the ranges are written in parallel
/// straight into `out`'s spare capacity, never zeroed first. The bytes are those of calling
/// [`encode_into_vec`](crate::encode_into_vec) for each item in order, and
/// item `i` is `out[start..ends[i]]`, where `start` is `ends[i - 1]` (for
/// the first item, `out.len()` before the call). It makes at most one
/// allocation for `out` (none when its spare capacity suffices) and one
/// for `ends`; besides those, marshal allocates nothing, and rayon only
/// what its scheduler needs.
///
/// # Panics
///
/// Like `encode_into_vec`: when the items are too large to encode together
/// (their lengths sum to more than a `Vec` can hold after `out`'s
/// contents), and when an item's `encode` does not write exactly its
/// `encoded_len` bytes (a broken manual [`Marshal`] implementation: the
/// message names the [`LengthMismatch`](crate::LengthMismatch)). Whatever
/// panics, `out` and `ends` keep their lengths and contents. A panic in an
/// item's own `encoded_len` or `encode` propagates too, with the same
/// guarantee.
///
/// ```
/// let (mut out, mut ends) = (vec![0xff], Vec::new());
/// marshal::par::encode_batch(&["a", "bc"], &mut out, &mut ends);
/// assert_eq!(ends, [10, 20]);
/// assert_eq!(out[1..10], marshal::to_vec("a"));
/// assert_eq!(out[10..20], marshal::to_vec("bc"));
///
/// // On a pool of two threads.
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let items: Vec<u64> = (0..10_000).collect();
/// let (mut out, mut ends) = (Vec::new(), Vec::new());
/// pool.install(|| marshal::par::encode_batch(&items, &mut out, &mut ends));
/// assert_eq!(out, marshal::to_vec(&items)[8..]);
/// ```
#[track_caller]
pub fn encode_batch<T: Marshal + Sync>(items: &[T], out: &mut Vec<u8>, ends: &mut Vec<usize>) {
    encode_batch_with(items, out, ends, config::legacy());
}

/// [`encode_batch`] in `config`'s dialect (see [`config`]):
/// each item's bytes are those of
/// [`encode_to_vec(item, config)`](crate::encode_to_vec).
///
/// # Panics
///
/// As [`encode_batch`].
///
/// ```
/// use marshal::config;
///
/// let (mut out, mut ends) = (Vec::new(), Vec::new());
/// marshal::par::encode_batch_with(&[1u32, 300, 70_000], &mut out, &mut ends, config::standard());
/// assert_eq!(ends, [1, 4, 9]);
/// assert_eq!(out[1..4], marshal::encode_to_vec(&300u32, config::standard()));
/// ```
#[track_caller]
pub fn encode_batch_with<T, C>(items: &[T], out: &mut Vec<u8>, ends: &mut Vec<usize>, config: C)
where
    T: MarshalIn<C::Dialect> + Sync,
    C: Config,
{
    let _ = config;
    let mut guard = Restore::new(out, ends);
    encode_appended::<T, C>(items, &mut *guard.out, &mut *guard.ends);
    guard.done = true;
}

/// Encodes `items` in the format of a slice (what `marshal::to_vec(items)`
/// writes: the length prefix, then the items back to back), in parallel on
/// the current rayon pool, as [`encode_batch`] does.
///
/// The output is allocated once, with exactly its length; the items'
/// offsets, needed to split it, take one more allocation, of one `usize`
/// per item, freed before it returns.
///
/// # Panics
///
/// Like [`encode_batch`] and [`to_vec`](crate::to_vec): when the items are
/// too large to encode, and when an item's `encode` does not write exactly
/// its `encoded_len` bytes.
///
/// ```
/// let items: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
/// assert_eq!(marshal::par::to_vec(&items), marshal::to_vec(&items));
/// assert_eq!(marshal::par::to_vec::<u8>(&[]), [0; 8]);
/// ```
#[must_use]
#[track_caller]
pub fn to_vec<T: Marshal + Sync>(items: &[T]) -> Vec<u8> {
    to_vec_with(items, config::legacy())
}

/// [`to_vec`] in `config`'s dialect (see [`config`]): the
/// bytes of [`encode_to_vec(items, config)`](crate::encode_to_vec).
///
/// # Panics
///
/// As [`to_vec`].
///
/// ```
/// use marshal::config;
///
/// let items: Vec<u64> = (0..1000).collect();
/// let standard = config::standard();
/// assert_eq!(marshal::par::to_vec_with(&items, standard), marshal::encode_to_vec(&items, standard));
/// ```
#[must_use]
#[track_caller]
pub fn to_vec_with<T, C>(items: &[T], config: C) -> Vec<u8>
where
    T: MarshalIn<C::Dialect> + Sync,
    C: Config,
{
    let _ = config;
    let mut ends = Vec::new();
    let prefix = len_len_in::<C::Ints>(items.len());
    let grain = grain(items.len());
    let lengths = size_into::<T, C>(items, &mut ends, grain);
    let mut out = Vec::new();
    assert_allocatable(prefix, lengths);
    out.reserve_exact(prefix + lengths);
    append_to_vec(&mut out, |w| {
        put_len_in::<C::ByteOrder, C::Ints>(w, items.len())
    })
    .unwrap_or_else(|_| unreachable!("`out` has room for the prefix"));
    write_sized::<T, C>(items, &mut ends, grain, &mut out);
    out
}

/// Decodes the values that [`encode_batch`] wrote into `input`, whose end
/// offsets are `ends`, in parallel on the current rayon pool: value `i`
/// is decoded from `input[ends[i - 1]..ends[i]]` (the first from
/// `input[..ends[0]]`), and must fill its range exactly.
///
/// The values are decoded straight into the returned `Vec`, with no
/// intermediate collection. How much room it makes ahead of decoding
/// depends on the input, never on how many ends there are: room for the
/// ranges up to the first bad end or the first range shorter than
/// `T::MIN_LEN` (which cannot hold a value), within four times the input's
/// size in memory, as [`Reader::capacity_for`](crate::Reader::capacity_for)
/// allows a collection, and always for one value. When that does not cover
/// every range (a type whose `MIN_LEN` is 0, or whose values are more than
/// four times larger in memory than on the wire), the rest are decoded in
/// rounds, each making room for at most as many values as have decoded
/// before it. Honest input whose values are no more than four times
/// larger in memory than on the wire is allocated once. On an error every
/// value decoded is dropped.
///
/// # Errors
///
/// The first error in input order, with its offset counted from the start
/// of `input`: a range that does not decode, or has bytes left over after
/// its value ([`TrailingBytes`](crate::DecodeErrorKind::TrailingBytes));
/// an end offset smaller than the one before it (a
/// [`Custom`](crate::DecodeErrorKind::Custom) error at the range's start);
/// an end past the end of `input`
/// ([`UnexpectedEnd`](crate::DecodeErrorKind::UnexpectedEnd) at the
/// range's start, with how many bytes are missing); room for the values
/// that the allocator cannot give
/// ([`AllocLimit`](crate::DecodeErrorKind::AllocLimit) at the start of the
/// first range it was for, its `limit` the bytes asked for: a type so
/// large that not one more of it fits in memory). Never a panic.
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let (mut out, mut ends) = (Vec::new(), Vec::new());
/// marshal::par::encode_batch(&[1u16, 2, 3], &mut out, &mut ends);
/// assert_eq!(marshal::par::decode_batch::<u16>(&out, &ends)?, [1, 2, 3]);
///
/// // Read as `u8`s, every range has a byte left over: the first one is
/// // reported, at its offset in `out`.
/// let err = marshal::par::decode_batch::<u8>(&out, &ends).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::TrailingBytes { count: 1 }, 1));
///
/// // Ends that run backwards, or past the input.
/// assert!(marshal::par::decode_batch::<u16>(&out, &[4, 2]).is_err());
/// let err = marshal::par::decode_batch::<u16>(&out, &[2, 8]).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::UnexpectedEnd { needed: 2 }, 2));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub fn decode_batch<T>(input: &[u8], ends: &[usize]) -> Result<Vec<T>, DecodeError>
where
    T: for<'de> Unmarshal<'de> + Send,
{
    decode_batch_with(input, ends, config::legacy())
}

/// [`decode_batch`] in `config`'s dialect (see [`config`]):
/// each range is decoded as
/// [`decode_from_slice`](crate::decode_from_slice) would, and must be
/// filled exactly; the configuration's
/// [`with_limit`](crate::config::Configuration::with_limit) is the
/// allocation budget of each value.
///
/// # Errors
///
/// As [`decode_batch`].
///
/// ```
/// use marshal::config;
///
/// let standard = config::standard();
/// let (mut out, mut ends) = (Vec::new(), Vec::new());
/// marshal::par::encode_batch_with(&["a", "bc"], &mut out, &mut ends, standard);
/// assert_eq!(marshal::par::decode_batch_with::<String, _>(&out, &ends, standard)?, ["a", "bc"]);
///
/// let tight = standard.with_limit::<1>();
/// assert!(marshal::par::decode_batch_with::<String, _>(&out, &ends, tight).is_err());
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub fn decode_batch_with<T, C>(
    input: &[u8],
    ends: &[usize],
    config: C,
) -> Result<Vec<T>, DecodeError>
where
    T: for<'de> UnmarshalIn<'de, C::Dialect> + Send,
    C: Config,
{
    let _ = config;
    // The ranges before the first bad end decode; that end's error comes
    // after any of theirs. A range shorter than `T::MIN_LEN` cannot hold
    // a value, so its decode fails: no range after it needs room ahead of
    // decoding. Room for the ranges up to it is then at most one value per
    // `MIN_LEN` bytes of input, however many ends there are.
    let (valid, ahead, bad_end) = check_ends(input, ends, T::MIN_LEN_IN);
    let mut values = Vec::new();
    let mut done = 0;
    while done < valid {
        // The first round: what the input can hold, within the allowance,
        // and at least one value; each later one at most doubles what has
        // decoded.
        let room = if done == 0 {
            ahead.min(allowance::<T>(input.len())).max(1)
        } else {
            done
        }
        .min(valid - done);
        if values.try_reserve_exact(room).is_err() {
            return Err(refused::<T>(room, range_start(ends, done)));
        }
        decode_into::<T, C>(&mut values, input, &ends[..valid], done..done + room)?;
        done += room;
    }
    match bad_end {
        Some(e) => Err(e),
        None => Ok(values),
    }
}

/// Bytes of memory that each byte of input buys for room ahead of the
/// values, as [`Reader::capacity_for`] allows a collection.
const ROOM_PER_INPUT_BYTE: usize = 4;

/// How many values of `T` an input of `len` bytes buys room for ahead of
/// decoding them: however many, for a zero-sized `T`, which takes none.
fn allowance<T>(len: usize) -> usize {
    match size_of::<T>() {
        0 => usize::MAX,
        size => len.saturating_mul(ROOM_PER_INPUT_BYTE) / size,
    }
}

/// Where range `i` of the batch whose end offsets are `ends` starts.
fn range_start(ends: &[usize], i: usize) -> usize {
    if i == 0 { 0 } else { ends[i - 1] }
}

/// The error for room for `count` more values of `T` that the allocator
/// refused, for the ranges from offset `at` on.
#[cold]
fn refused<T>(count: usize, at: usize) -> DecodeError {
    alloc_refused(count.saturating_mul(size_of::<T>()), at)
}

/// Appends values `range` of the batch whose end offsets are `ends` (in
/// order and within `input`: [`check_ends`]) to `values`, which has room
/// for them, decoding them in parallel ([`decode_run`]). Returns the first
/// error in input order; `values` then keeps its length.
fn decode_into<T, C>(
    values: &mut Vec<T>,
    input: &[u8],
    ends: &[usize],
    range: core::ops::Range<usize>,
) -> Result<(), DecodeError>
where
    T: for<'de> UnmarshalIn<'de, C::Dialect> + Send,
    C: Config,
{
    let grain = grain(range.len());
    let filled = append_slots_to_vec(values, range.len(), |run| {
        decode_run::<T, C>(input, range.start, ends, run, grain)
    })?;
    if !filled {
        unreachable!("marshal: `decode_run` fills every slot or fails");
    }
    Ok(())
}

/// Decodes values `first..first + run.capacity()` of the batch whose end
/// offsets are `ends` (in order and within `input`: [`check_ends`]) into
/// `run`, one per slot: halves of them in parallel down to `grain` values,
/// then one after another. Returns `run`, full, or the first error in
/// input order; the values written are then dropped with the runs.
fn decode_run<'s, T, C>(
    input: &[u8],
    first: usize,
    ends: &[usize],
    run: Slots<'s, T>,
    grain: usize,
) -> Result<Slots<'s, T>, DecodeError>
where
    T: for<'de> UnmarshalIn<'de, C::Dialect> + Send,
    C: Config,
{
    let n = run.capacity();
    if n > grain {
        let mid = n / 2;
        let (left, right) = run.split_at(mid);
        let (left, right) = rayon::join(
            || decode_run::<T, C>(input, first, ends, left, grain),
            || decode_run::<T, C>(input, first + mid, ends, right, grain),
        );
        // The left half's error comes first in input order.
        let (left, right) = (left?, right?);
        return Ok(left
            .join(right)
            .unwrap_or_else(|_| unreachable!("a full run and the one after it join")));
    }
    let mut run = run;
    let mut start = range_start(ends, first);
    for &end in &ends[first..first + n] {
        // `check_ends` proved `start <= end <= input.len()`. Each value is
        // built straight in its slot (a derived struct's fields written
        // there), as `from_bytes` would decode it: all of its range, or
        // `TrailingBytes` (the value built then dropped).
        let range = &input[start..end];
        let mut r = reader::<C>(range);
        let pushed = run.push_built(
            &mut r,
            |r, place| T::__decode_in_place(r, place),
            |r| r.finish(),
        );
        match pushed {
            // With its site, as `from_bytes` finds it.
            Some(result) => {
                result.map_err(|e| T::__locate(|| reader::<C>(range), &r, e).shifted(start))?
            }
            None => unreachable!("a run has one slot per end"),
        }
        start = end;
    }
    Ok(run)
}

/// A reader over one range, with the configuration's allocation budget.
#[inline]
fn reader<C: Config>(range: &[u8]) -> Reader<'_> {
    match C::LIMIT {
        Some(limit) => Reader::new(range).with_max_alloc(limit),
        None => Reader::new(range),
    }
}

/// How many of `ends` are in order and within `input`, and the error of
/// the first that is not; and how many of those ranges to make room for:
/// up to and including the first shorter than `min_len`, or all of them.
fn check_ends(input: &[u8], ends: &[usize], min_len: usize) -> (usize, usize, Option<DecodeError>) {
    let mut start = 0;
    // The shortest range so far: one `min` per range keeps the loop
    // tight; which range is short is looked for only when one is.
    let mut shortest = usize::MAX;
    let mut bad_end = None;
    for (i, &end) in ends.iter().enumerate() {
        if end < start {
            let e = DecodeError::custom(&"a batch range ends before it starts", start);
            bad_end = Some((i, e));
            break;
        }
        if end > input.len() {
            // What `Reader::take` says of a range that runs past the input.
            let mut r = Reader::new(input);
            let e = r
                .take(start)
                .and_then(|_| r.take(end - start))
                .err()
                .unwrap_or(DecodeError::custom(
                    &"a batch range ends past the input",
                    input.len(),
                ));
            bad_end = Some((i, e));
            break;
        }
        shortest = shortest.min(end - start);
        start = end;
    }
    let (valid, bad_end) = match bad_end {
        Some((i, e)) => (i, Some(e)),
        None => (ends.len(), None),
    };
    let ahead = if shortest < min_len {
        first_short(&ends[..valid], min_len).map_or(valid, |i| i + 1)
    } else {
        valid
    };
    (valid, ahead, bad_end)
}

/// The index of the first range shorter than `min_len` among those that
/// end at `ends` (in order).
fn first_short(ends: &[usize], min_len: usize) -> Option<usize> {
    let mut start = 0;
    ends.iter().position(|&end| {
        let short = end - start < min_len;
        start = end;
        short
    })
}

/// [`encode_batch`] without the restoring guard.
#[track_caller]
fn encode_appended<T: MarshalIn<C::Dialect> + Sync, C: Config>(
    items: &[T],
    out: &mut Vec<u8>,
    ends: &mut Vec<usize>,
) {
    let first = ends.len();
    let grain = grain(items.len());
    let lengths = size_into::<T, C>(items, ends, grain);
    assert_allocatable(out.len(), lengths);
    out.reserve(lengths);
    write_sized::<T, C>(items, &mut ends[first..], grain, out);
}

/// Appends to `ends` one entry per item: within each range of `grain`
/// items, the length of the range's items up to and including that one.
/// Returns the items' total length (saturated).
///
/// Both steps run in parallel, a range per task: sizing the items, then
/// each range's running sum. What stays on one thread is the sum of the
/// ranges' totals, a few per thread; [`write_sized`] turns the running
/// sums into end offsets as it writes each range.
fn size_into<T: MarshalIn<C::Dialect> + Sync, C: Config>(
    items: &[T],
    ends: &mut Vec<usize>,
    grain: usize,
) -> usize {
    let first = ends.len();
    ends.par_extend(
        items
            .par_iter()
            .with_min_len(grain)
            .map(MarshalIn::encoded_len_in),
    );
    ends[first..].par_chunks_mut(grain).for_each(|range| {
        let mut sum = 0usize;
        for e in range {
            sum = sum.saturating_add(*e);
            *e = sum;
        }
    });
    ranges_total(&ends[first..], grain)
}

/// The total length of the ranges whose running sums are `sums`: the sum
/// of each range's last entry (saturated).
fn ranges_total(sums: &[usize], grain: usize) -> usize {
    sums.chunks(grain)
        .filter_map(<[usize]>::last)
        .fold(0, |total, &range| total.saturating_add(range))
}

/// Appends `items` to `out`, writing in parallel straight into its spare
/// capacity, which the caller reserved for them. `ends` holds the running
/// sums [`size_into`] made with the same `grain`; each becomes its item's
/// end offset in `out`.
#[track_caller]
fn write_sized<T: MarshalIn<C::Dialect> + Sync, C: Config>(
    items: &[T],
    ends: &mut [usize],
    grain: usize,
    out: &mut Vec<u8>,
) {
    let start = out.len();
    let len = ranges_total(ends, grain);
    let filled = append_filled_to_vec(out, len, |spare| {
        write_ranges::<T, C>(items, ends, spare, start, grain)
    });
    if !filled {
        unwritten(len);
    }
}

/// Writes `items` into `buf`, which starts at offset `start` and holds
/// exactly their encodings: ranges of `grain` items, halves of them in
/// parallel, then one item after another, each running sum in `ends`
/// becoming its item's end offset. Returns the proof that all of `buf`
/// was written.
#[track_caller]
fn write_ranges<'s, T: MarshalIn<C::Dialect> + Sync, C: Config>(
    items: &[T],
    ends: &mut [usize],
    buf: &'s mut [MaybeUninit<u8>],
    start: usize,
    grain: usize,
) -> Option<Filled<'s>> {
    if items.len() > grain {
        // Split between two ranges, so no range is split.
        let mid = items.len().div_ceil(grain) / 2 * grain;
        let (left_items, right_items) = items.split_at(mid);
        let (left_ends, right_ends) = ends.split_at_mut(mid);
        // The left half's ranges are still running sums here.
        let (left, right) = buf.split_at_mut(ranges_total(left_ends, grain));
        let split = start + left.len();
        let (left, right) = rayon::join(
            || write_ranges::<T, C>(left_items, left_ends, left, start, grain),
            || write_ranges::<T, C>(right_items, right_ends, right, split, grain),
        );
        return left?.join(right?);
    }
    let mut w = Writer::new_uninit(buf);
    let mut at = start;
    for (item, end) in items.iter().zip(ends) {
        // `size_into` checked that the batch fits after `out`'s contents,
        // so no end overflows.
        *end += start;
        if let Err(mismatch) = encode_exact_in(item, *end - at, &mut w) {
            length_mismatch(mismatch);
        }
        at = *end;
    }
    Some(Filled::new(w.into_written()))
}

/// Every item wrote exactly its length, so the ranges cover the batch:
/// this cannot happen.
#[cold]
#[inline(never)]
#[track_caller]
fn unwritten(len: usize) -> ! {
    panic!("marshal: the batch's {len} bytes were not all written")
}

/// Puts `out` and `ends` back to their lengths unless the encoding
/// finished: a panic leaves neither a partial batch nor zeroed bytes.
struct Restore<'a> {
    out: &'a mut Vec<u8>,
    ends: &'a mut Vec<usize>,
    lens: (usize, usize),
    done: bool,
}

impl<'a> Restore<'a> {
    fn new(out: &'a mut Vec<u8>, ends: &'a mut Vec<usize>) -> Self {
        let lens = (out.len(), ends.len());
        Restore {
            out,
            ends,
            lens,
            done: false,
        }
    }
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.out.truncate(self.lens.0);
            self.ends.truncate(self.lens.1);
        }
    }
}
