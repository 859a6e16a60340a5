//! `marshal::par` (feature `rayon`): batches encoded and decoded on rayon
//! pools of 1 and 2 threads.
//!
//! - `encode_batch` writes the bytes of `encode_into_vec` per item, in
//!   order, with each item's end offset; `to_vec` the bytes of
//!   `marshal::to_vec` of the slice; `decode_batch` reads them back.
//! - Allocations, counted by the counting allocator (`src/counting.rs`),
//!   which counts those of the thread that measures: the measurement runs
//!   inside `pool.install`, on one of the pool's threads. On the 1-thread
//!   pool every part of the batch runs on that thread, so the count is
//!   everything the call allocates, marshal's and rayon's: exactly one
//!   allocation for `out` and one for `ends`, none when they have room. On
//!   the 2-thread pool the other thread's share is not counted (rayon's
//!   work-stealing bookkeeping lives there; marshal allocates nothing per
//!   item on either).
//! - Decoding errors: the first in input order, at its absolute offset;
//!   ends that run backwards or past the input; trailing bytes in a range;
//!   and, on any bytes and ends (a property test), what decoding the
//!   ranges one after another on one thread returns.
//! - Room made ahead of decoding follows the input, never the number of
//!   ends: for types whose `MIN_LEN` is 0, or too large for memory, too.
//! - A `Marshal` impl that lies about its length: a panic naming the
//!   mismatch, as `encode_into_vec`'s, and `out` and `ends` left as they
//!   were.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicIsize, Ordering};

use marshal::{DecodeErrorKind, Marshal, Overflow, Unmarshal, Writer};
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::fixtures::Liar;
use marshal_test_suite::rng::XorShift;
use rayon::{ThreadPool, ThreadPoolBuilder};

marshal_test_suite::counting_allocator!();

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Log {
    address: String,
    user: Option<String>,
    code: u16,
    size: u64,
    tags: Vec<String>,
}

fn logs(n: usize, seed: u64) -> Vec<Log> {
    let mut rng = XorShift(seed);
    (0..n)
        .map(|i| Log {
            address: format!("10.0.{}.{}", rng.below(256), rng.below(256)),
            user: (rng.below(3) == 0).then(|| "x".repeat(rng.below(40))),
            code: [200, 404, 500][rng.below(3)],
            size: rng.next(),
            tags: (0..rng.below(4)).map(|t| format!("t{t}-{i}")).collect(),
        })
        .collect()
}

/// `native` items, or at most 300 under Miri, still several ranges of
/// the smallest size on either pool.
fn n(native: usize) -> usize {
    if cfg!(miri) { native.min(300) } else { native }
}

fn pool(threads: usize) -> ThreadPool {
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
}

fn pools() -> [ThreadPool; 2] {
    [pool(1), pool(2)]
}

/// What calling `encode_into_vec` for each item appends, and the ends.
fn sequential<T: Marshal>(items: &[T], out: &mut Vec<u8>, ends: &mut Vec<usize>) {
    for item in items {
        marshal::encode_into_vec(item, out);
        ends.push(out.len());
    }
}

#[test]
fn encode_batch_writes_the_bytes_of_encode_into_vec_per_item() {
    for pool in pools() {
        for n in [0, 1, 2, 63, 64, 65, n(1000), n(5000)] {
            let items = logs(n, n as u64 + 1);
            let (mut want, mut want_ends) = (vec![7, 7, 7], vec![99]);
            sequential(&items, &mut want, &mut want_ends);
            let (mut out, mut ends) = (vec![7, 7, 7], vec![99]);
            pool.install(|| marshal::par::encode_batch(&items, &mut out, &mut ends));
            assert_eq!(out, want, "{n} items");
            assert_eq!(ends, want_ends, "{n} items");
            // Item `i` is `out[ends[i - 1]..ends[i]]`.
            if n > 0 {
                assert_eq!(out[3..ends[1]], marshal::to_vec(&items[0]));
                assert_eq!(out[ends[n]..], []);
            }
        }
    }
}

#[test]
fn encode_batch_of_fixed_size_and_empty_encodings() {
    for pool in pools() {
        let items: Vec<(u32, f64)> = (0..n(10_000) as u32)
            .map(|i| (i, f64::from(i) / 3.0))
            .collect();
        let (mut out, mut ends) = (Vec::new(), Vec::new());
        pool.install(|| marshal::par::encode_batch(&items, &mut out, &mut ends));
        assert_eq!(out, marshal::to_vec(&items)[8..]);
        assert!(ends.iter().enumerate().all(|(i, &e)| e == 12 * (i + 1)));

        // Values that encode to nothing: every end is the start.
        let units = vec![(); 1000];
        let (mut out, mut ends) = (vec![1], Vec::new());
        pool.install(|| marshal::par::encode_batch(&units, &mut out, &mut ends));
        assert_eq!((out, ends), (vec![1], vec![1; 1000]));
    }
}

#[test]
fn to_vec_writes_the_bytes_of_to_vec_of_the_slice() {
    for pool in pools() {
        for n in [0, 1, 100, n(3000)] {
            let items = logs(n, 7 * n as u64 + 3);
            let got = pool.install(|| marshal::par::to_vec(&items));
            assert_eq!(got, marshal::to_vec(&items), "{n} items");
            assert_eq!(got, marshal::to_vec(&items[..]), "{n} items");
            let back: Vec<Log> = marshal::from_bytes(&got).unwrap();
            assert_eq!(back, items);
        }
        let strs: Vec<&str> = vec!["a", "", "bcd"];
        assert_eq!(
            pool.install(|| marshal::par::to_vec(&strs)),
            marshal::to_vec(&strs)
        );
    }
}

#[test]
fn decode_batch_reads_back_what_encode_batch_wrote() {
    for pool in pools() {
        for n in [0, 1, 65, n(4000)] {
            let items = logs(n, n as u64 + 11);
            let (mut out, mut ends) = (Vec::new(), Vec::new());
            marshal::par::encode_batch(&items, &mut out, &mut ends);
            let back: Vec<Log> = pool
                .install(|| marshal::par::decode_batch(&out, &ends))
                .unwrap();
            assert_eq!(back, items, "{n} items");
        }
        // Empty ranges decode as values that encode to nothing.
        let units: Vec<()> = pool
            .install(|| marshal::par::decode_batch(&[], &[0, 0, 0]))
            .unwrap();
        assert_eq!(units.len(), 3);
    }
}

#[test]
fn encode_batch_allocates_once_for_out_and_once_for_ends() {
    let items = logs(n(3000), 5);
    let total: usize = items.iter().map(Marshal::encoded_len).sum();
    for (threads, pool) in [(1, pool(1)), (2, pool(2))] {
        pool.install(|| {
            let guard = lock();
            // Warm the pool's threads up: their first job allocates.
            let (mut out, mut ends) = (Vec::new(), Vec::new());
            marshal::par::encode_batch(&items, &mut out, &mut ends);

            let ((out, ends), allocs) = measure(&guard, || {
                let (mut out, mut ends) = (Vec::new(), Vec::new());
                marshal::par::encode_batch(&items, &mut out, &mut ends);
                (out, ends)
            });
            assert_eq!(out.len(), total);
            assert_eq!(ends.len(), items.len());
            // One for `ends`, one for `out`, each of exactly its size.
            assert_eq!(allocs.count, 2, "{threads} thread(s): {allocs:?}");
            let mut sizes = allocs.sizes.clone();
            sizes.sort_unstable();
            let mut want = vec![total, items.len() * size_of::<usize>()];
            want.sort_unstable();
            assert_eq!(sizes, want, "{threads} thread(s)");

            // With room in both, none.
            let (mut out, mut ends) = (Vec::with_capacity(total), Vec::with_capacity(items.len()));
            let ((), allocs) = measure(&guard, || {
                marshal::par::encode_batch(&items, &mut out, &mut ends);
            });
            assert_eq!(allocs.count, 0, "{threads} thread(s): {allocs:?}");
            assert_eq!(out.len(), total);
        });
    }
}

#[test]
fn decode_batch_returns_the_first_error_in_input_order() {
    let items = logs(n(2000), 9);
    let (early, late) = (items.len() / 3, items.len() * 3 / 4);
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch(&items, &mut out, &mut ends);
    // Make the `user` tags of a late item and an early one invalid (an
    // `Option` tag of 2): the early one comes first in the input.
    let user_tag = |i: usize| {
        let start = if i == 0 { 0 } else { ends[i - 1] };
        let address = items[i].address.len();
        start + 8 + address
    };
    for pool in pools() {
        let mut bad = out.clone();
        bad[user_tag(late)] = 2;
        bad[user_tag(early)] = 2;
        let err = pool
            .install(|| marshal::par::decode_batch::<Log>(&bad, &ends))
            .unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::InvalidTag { tag: 2, .. }),
            "{err}"
        );
        assert_eq!(err.offset(), user_tag(early));
    }
}

#[test]
fn decode_batch_allocates_its_result_once() {
    let items: Vec<u64> = (0..n(5000) as u64).collect();
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch(&items, &mut out, &mut ends);
    let pool = pool(1);
    pool.install(|| {
        let guard = lock();
        // Warm the pool's thread up: its first job allocates.
        let _ = marshal::par::decode_batch::<u64>(&out, &ends);
        let (back, allocs) = measure(&guard, || marshal::par::decode_batch::<u64>(&out, &ends));
        assert_eq!(back.unwrap(), items);
        // The values, written in place: no second vector to move them
        // out of.
        assert_eq!(allocs.count, 1, "{allocs:?}");
        assert_eq!(allocs.sizes, [items.len() * size_of::<u64>()]);
    });
}

#[test]
fn decode_batch_makes_room_only_for_values_the_input_can_hold() {
    // A million ends over 10 bytes: ranges too short for a `[u8; 1000]`
    // from the first. Room for one value, not a million (1 GB).
    let ends = vec![0; n(1_000_000)];
    let pool = pool(1);
    pool.install(|| {
        let guard = lock();
        let _ = marshal::par::decode_batch::<[u8; 1000]>(&[0; 10], &ends);
        let (got, allocs) = measure(&guard, || {
            marshal::par::decode_batch::<[u8; 1000]>(&[0; 10], &ends)
        });
        assert_eq!(
            got.unwrap_err().kind(),
            DecodeErrorKind::UnexpectedEnd { needed: 1000 }
        );
        assert!(allocs.sizes.iter().all(|&size| size <= 1000), "{allocs:?}");
        // Two values' ranges, then a short one: room for three.
        let input = [7u8; 2000];
        let (got, allocs) = measure(&guard, || {
            marshal::par::decode_batch::<[u8; 1000]>(&input, &[1000, 2000, 2000, 2000])
        });
        assert_eq!(
            (got.unwrap_err().kind(), allocs.sizes),
            (DecodeErrorKind::UnexpectedEnd { needed: 1000 }, vec![3000])
        );
    });
}

/// 4 KiB in memory, with the `MIN_LEN` of 0 that a manual impl keeps by
/// default, and no value in any input.
#[derive(Debug)]
struct Bulky(#[allow(dead_code)] [u8; 4130]);

impl<'de> Unmarshal<'de> for Bulky {
    fn decode(r: &mut marshal::Reader<'de>) -> Result<Self, marshal::DecodeError> {
        Err(marshal::DecodeError::custom(&"no Bulky here", r.position()))
    }
}

/// Reads nothing, and fails.
mod refuse {
    pub(crate) fn encoded_len<T>(_: &T) -> usize {
        0
    }
    pub(crate) fn encode<T>(_: &T, _: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        Ok(())
    }
    pub(crate) fn decode<T>(r: &mut marshal::Reader<'_>) -> Result<T, marshal::DecodeError> {
        Err(marshal::DecodeError::custom(&"refused", r.position()))
    }
}

/// A derived struct whose every field is read by a `with` module: its
/// `MIN_LEN` is 0.
#[derive(Marshal, Unmarshal, Debug)]
struct WithOnly {
    #[marshal(with = refuse)]
    a: [u64; 512],
    #[marshal(with = refuse)]
    b: [u8; 30],
}

#[test]
fn decode_batch_makes_room_by_the_input_when_min_len_is_0() {
    assert_eq!((Bulky::MIN_LEN, WithOnly::MIN_LEN), (0, 0));
    // 100,000 empty ranges over no input: room for one value, not
    // 100,000 (413 MB), before the first range fails.
    let ends = vec![0; n(100_000)];
    let pool = pool(1);
    pool.install(|| {
        let guard = lock();
        let _ = marshal::par::decode_batch::<Bulky>(&[], &ends);
        let (got, allocs) = measure(&guard, || marshal::par::decode_batch::<Bulky>(&[], &ends));
        let err = got.unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (DecodeErrorKind::Custom("no Bulky here"), 0)
        );
        assert!(allocs.total <= size_of::<Bulky>(), "{allocs:?}");

        let (got, allocs) = measure(&guard, || {
            marshal::par::decode_batch::<WithOnly>(&[], &ends)
        });
        assert_eq!(got.unwrap_err().kind(), DecodeErrorKind::Custom("refused"));
        assert!(allocs.total <= size_of::<WithOnly>(), "{allocs:?}");

        // The same ranges over 10 KiB of input: room within four times
        // the input, then the first range fails.
        let input = [0u8; 10 << 10];
        let (got, allocs) = measure(&guard, || {
            marshal::par::decode_batch::<Bulky>(&input, &ends)
        });
        assert!(got.is_err());
        assert!(allocs.total <= 4 * input.len(), "{allocs:?}");
    });
}

/// A terabyte in memory: not one fits, whatever the input.
#[derive(Debug)]
struct Terabyte(#[allow(dead_code)] [u8; 1 << 40]);

impl<'de> Unmarshal<'de> for Terabyte {
    fn decode(r: &mut marshal::Reader<'de>) -> Result<Self, marshal::DecodeError> {
        Err(marshal::DecodeError::custom(
            &"no Terabyte here",
            r.position(),
        ))
    }
}

#[test]
fn decode_batch_of_a_type_too_large_for_memory_is_an_error_not_a_panic() {
    // Room for one 1 TiB value is more than this machine's allocator gives
    // (Linux's heuristic overcommit refuses an allocation larger than its
    // memory and swap): an `AllocLimit` error before anything decodes,
    // where room for 100,000 of them once overflowed `Vec`'s capacity.
    for pool in pools() {
        let err = pool
            .install(|| marshal::par::decode_batch::<Terabyte>(&[1, 2, 3], &[0, 0, 3]))
            .unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (DecodeErrorKind::AllocLimit { limit: 1 << 40 }, 0)
        );
        assert!(!err.is_incomplete());
    }
}

/// Values of a type whose `MIN_LEN` is 0 that do decode from empty ranges:
/// every one, in rounds that make room for at most twice what decoded.
#[derive(Debug, PartialEq)]
struct Nothing(u64);

impl<'de> Unmarshal<'de> for Nothing {
    fn decode(r: &mut marshal::Reader<'de>) -> Result<Self, marshal::DecodeError> {
        Ok(Nothing(r.position() as u64))
    }
}

#[test]
fn decode_batch_of_values_that_take_no_bytes_decodes_every_range_in_rounds() {
    let count = n(10_000);
    let ends = vec![0; count];
    let pool = pool(1);
    pool.install(|| {
        let guard = lock();
        let _ = marshal::par::decode_batch::<Nothing>(&[], &ends);
        let (got, allocs) = measure(&guard, || marshal::par::decode_batch::<Nothing>(&[], &ends));
        let got = got.unwrap();
        assert_eq!(got.len(), count);
        assert!(got.iter().all(|v| *v == Nothing(0)));
        // 1, 2, 4, ...: room at most doubles each round.
        let mut room = 8;
        for &size in &allocs.sizes {
            assert!(size <= 2 * room, "{allocs:?}");
            room = size;
        }
        assert!(allocs.count <= 16, "{allocs:?}");
    });
    for pool in pools() {
        let got = pool.install(|| marshal::par::decode_batch::<Nothing>(&[], &ends));
        assert_eq!(got.unwrap().len(), count);
    }
}

/// Claims to need four bytes, and needs none.
#[derive(Debug, PartialEq)]
struct Overstated;

impl<'de> Unmarshal<'de> for Overstated {
    const MIN_LEN: usize = 4;
    fn decode(_: &mut marshal::Reader<'de>) -> Result<Self, marshal::DecodeError> {
        Ok(Overstated)
    }
}

#[test]
fn a_type_that_overstates_its_min_len_still_decodes_every_range() {
    for pool in pools() {
        let got = pool.install(|| marshal::par::decode_batch::<Overstated>(&[], &[0; 5]));
        assert_eq!(got.unwrap(), [const { Overstated }; 5]);
    }
}

/// Values alive: made by decoding, gone when dropped.
static LIVE: AtomicIsize = AtomicIsize::new(0);

/// A `u32` that counts the values alive.
#[derive(Debug)]
struct Tracked(#[allow(dead_code)] u32);

impl<'de> Unmarshal<'de> for Tracked {
    const MIN_LEN: usize = 4;
    fn decode(r: &mut marshal::Reader<'de>) -> Result<Self, marshal::DecodeError> {
        let value = u32::decode(r)?;
        if value == u32::MAX {
            return Err(marshal::DecodeError::custom(&"the bad value", r.position()));
        }
        LIVE.fetch_add(1, Ordering::SeqCst);
        Ok(Tracked(value))
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn a_failed_decode_batch_drops_every_value_it_decoded() {
    let mut items: Vec<u32> = (0..n(4000) as u32).collect();
    let bad = items.len() / 2 + 7;
    items[bad] = u32::MAX;
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch(&items, &mut out, &mut ends);
    for pool in pools() {
        let err = pool
            .install(|| marshal::par::decode_batch::<Tracked>(&out, &ends))
            .unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (DecodeErrorKind::Custom("the bad value"), ends[bad])
        );
        // The values before the bad one and after it, on either thread,
        // were dropped.
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
        // And a good batch hands every value over, once.
        let good = pool
            .install(|| marshal::par::decode_batch::<Tracked>(&out[..ends[bad - 1]], &ends[..bad]))
            .unwrap();
        assert_eq!(LIVE.load(Ordering::SeqCst), bad as isize);
        drop(good);
        assert_eq!(LIVE.load(Ordering::SeqCst), 0);
    }
}

#[test]
fn decode_batch_rejects_bad_ends_without_panicking() {
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch(&[1u32, 2, 3, 4], &mut out, &mut ends);
    assert_eq!(ends, [4, 8, 12, 16]);
    for pool in pools() {
        pool.install(|| {
            // Running backwards.
            let err = marshal::par::decode_batch::<u32>(&out, &[4, 8, 6, 16]).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (
                    DecodeErrorKind::Custom("a batch range ends before it starts"),
                    8
                )
            );
            // Past the input.
            let err = marshal::par::decode_batch::<u32>(&out, &[4, 8, 12, 20]).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (DecodeErrorKind::UnexpectedEnd { needed: 4 }, 12)
            );
            let err = marshal::par::decode_batch::<u32>(&out, &[usize::MAX]).unwrap_err();
            assert_eq!(err.offset(), 0);
            assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedEnd { .. }));
            // A decode error before a bad end comes first.
            let err = marshal::par::decode_batch::<u32>(&out, &[4, 7, 6]).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 4)
            );
            // Trailing bytes in a range: an error at the range's value end.
            let err = marshal::par::decode_batch::<u32>(&out, &[4, 12, 16]).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (DecodeErrorKind::TrailingBytes { count: 4 }, 8)
            );
            // Fewer ends than values: only those ranges, and the rest of
            // the input is ignored.
            assert_eq!(
                marshal::par::decode_batch::<u32>(&out, &[4, 8]).unwrap(),
                [1, 2]
            );
        });
    }
}

/// One liar among honest items: `encode_batch` panics as
/// `encode_into_vec` does, and leaves `out` and `ends` as they were.
fn lie<L: Marshal + Sync + Clone>(liar: L, expected: &str) {
    #[derive(Clone)]
    enum Item<L> {
        Honest(u64),
        Liar(L),
    }
    impl<L: Marshal> Marshal for Item<L> {
        fn encoded_len(&self) -> usize {
            match self {
                Item::Honest(v) => v.encoded_len(),
                Item::Liar(l) => l.encoded_len(),
            }
        }
        fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
            match self {
                Item::Honest(v) => v.encode(w),
                Item::Liar(l) => l.encode(w),
            }
        }
    }
    let seq = catch_unwind(AssertUnwindSafe(|| {
        marshal::encode_into_vec(&liar, &mut Vec::new())
    }))
    .expect_err("encode_into_vec panics");
    let seq = seq.downcast_ref::<String>().expect("a message").clone();
    assert!(seq.contains(expected), "{seq}");

    let mut items: Vec<Item<L>> = (0..n(5000) as u64).map(Item::Honest).collect();
    items[n(5000) * 3 / 4] = Item::Liar(liar);
    for pool in pools() {
        let (mut out, mut ends) = (vec![1, 2, 3], vec![3]);
        let panic = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| marshal::par::encode_batch(&items, &mut out, &mut ends));
        }))
        .expect_err("encode_batch panics");
        let message = panic.downcast_ref::<String>().expect("a message");
        assert_eq!(*message, seq);
        assert_eq!((out, ends), (vec![1, 2, 3], vec![3]));
    }
}

#[test]
fn a_lying_impl_panics_as_encode_into_vec_does_and_leaves_the_buffers() {
    lie(Liar::<4, 8>, "more than the 4 bytes");
    lie(Liar::<12, 8>, "wrote 8 bytes, fewer than the 12");
}

#[test]
fn a_batch_too_large_to_encode_panics_and_leaves_the_buffers() {
    let items = [Liar::<{ usize::MAX / 2 }, 0>, Liar::<{ usize::MAX / 2 }, 0>];
    let (mut out, mut ends) = (vec![1], vec![1]);
    let panic = catch_unwind(AssertUnwindSafe(|| {
        marshal::par::encode_batch(&items, &mut out, &mut ends);
    }))
    .expect_err("too large");
    let message = panic.downcast_ref::<String>().expect("a message");
    assert!(message.contains("too large to encode"), "{message}");
    assert_eq!((out, ends), (vec![1], vec![1]));
}

/// No range is too large, but together they are: the ranges' totals are
/// added with the same check.
#[test]
fn ranges_too_large_together_panic_and_leave_the_buffers() {
    // Every range of 64 items sums to less than `usize::MAX / 2`.
    let items = vec![Liar::<{ usize::MAX / 128 }, 0>; 200];
    for pool in pools() {
        let (mut out, mut ends) = (vec![1], vec![1]);
        let panic = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| marshal::par::encode_batch(&items, &mut out, &mut ends));
        }))
        .expect_err("too large");
        let message = panic.downcast_ref::<String>().expect("a message");
        assert!(message.contains("too large to encode"), "{message}");
        assert_eq!((out, ends), (vec![1], vec![1]));
    }
}

/// What `decode_batch` returns, one range after another on one thread:
/// the first bad end or failed range in input order.
fn decode_batch_sequentially<T: for<'de> Unmarshal<'de>>(
    input: &[u8],
    ends: &[usize],
) -> Result<Vec<T>, marshal::DecodeError> {
    let mut values = Vec::new();
    let mut start = 0;
    for &end in ends {
        if end < start {
            return Err(marshal::DecodeError::custom(
                &"a batch range ends before it starts",
                start,
            ));
        }
        let Some(range) = input.get(start..end) else {
            let mut r = marshal::Reader::new(input);
            r.take(start)?;
            return Err(r.take(end - start).unwrap_err());
        };
        values.push(marshal::from_bytes(range).map_err(|e| e.shifted(start))?);
        start = end;
    }
    Ok(values)
}

mod any_input {
    use super::*;
    use proptest::prelude::*;

    /// Arbitrary bytes and end offsets: sorted random ends (now and then
    /// one backwards or past the input), or ends a few bytes apart, so
    /// that short values fill whole batches.
    fn batch() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
        proptest::collection::vec(any::<u8>(), 0..600).prop_flat_map(|input| {
            let len = input.len();
            let end = prop_oneof![
                8 => 0..=len,
                1 => len..len + 40,
            ];
            let sorted = proptest::collection::vec(end, 0..120).prop_map(|mut ends| {
                // All but the first eighth in order.
                let keep = ends.len() / 8;
                ends[keep..].sort_unstable();
                ends
            });
            let stepped = proptest::collection::vec(0..4usize, 0..300).prop_map(|steps| {
                steps
                    .iter()
                    .scan(0, |end, step| {
                        *end += step;
                        Some(*end)
                    })
                    .collect()
            });
            (Just(input), prop_oneof![sorted, stepped])
        })
    }

    proptest! {
        #![proptest_config(marshal_test_suite::strategies::config())]

        /// On any bytes and ends: no panic, and the values or the error of
        /// decoding the ranges one after another, on either pool.
        #[test]
        fn decode_batch_agrees_with_decoding_range_by_range((input, ends) in batch()) {
            for pool in pools() {
                pool.install(|| {
                    let got = marshal::par::decode_batch::<Log>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<Log>(&input, &ends));
                    let got = marshal::par::decode_batch::<String>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<String>(&input, &ends));
                    let got = marshal::par::decode_batch::<u16>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<u16>(&input, &ends));
                    let got = marshal::par::decode_batch::<Option<u8>>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<Option<u8>>(&input, &ends));
                    let got = marshal::par::decode_batch::<u8>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<u8>(&input, &ends));
                    // `MIN_LEN` 0: the ranges are decoded in rounds.
                    let got = marshal::par::decode_batch::<Nothing>(&input, &ends);
                    prop_assert_eq!(got, decode_batch_sequentially::<Nothing>(&input, &ends));
                    Ok(())
                })?;
            }
        }
    }
}
