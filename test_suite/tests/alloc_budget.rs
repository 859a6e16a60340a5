//! The allocation budget: `Reader::with_max_alloc`,
//! `marshal::from_bytes_limited` and `Codec::with_max_alloc`.
//!
//! Every decode here runs under the shared counting allocator
//! (`src/counting.rs`), which tracks the bytes requested and the bytes
//! live at once. For each shape (`Vec<Option<[u64; 64]>>`,
//! `Vec<Vec<String>>`, `BTreeMap`, `HashMap`, `VecDeque`, `Box<[T]>`, `Rc`
//! and `Arc`):
//!
//! - the bytes requested, and so the peak of live bytes, stay within the
//!   budget, and a decode that fails leaves nothing allocated;
//! - an input one byte over the budget fails with `AllocLimit` at the
//!   offset of the charge that did not fit, worked out here from the wire
//!   layout and the charging rules (`Reader::with_max_alloc`'s docs);
//! - honest input within the budget decodes equal to the original;
//! - without a budget, decoding allocates exactly as before: ahead of items
//!   within four times the input, then growing.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::rc::Rc;
use std::sync::Arc;

use marshal::frame::{Codec, Decoded, FrameError};
use marshal::{DecodeError, DecodeErrorKind, Marshal, Reader, Unmarshal};
use marshal_test_suite::budget::least_budget;
use marshal_test_suite::counting::{Live, lock, measure, measure_live};
use marshal_test_suite::rng::XorShift;

marshal_test_suite::counting_allocator!();

/// How far the peak of live bytes may exceed the budget: nothing, because
/// every allocation a decode makes is charged before it is made.
const SLACK: usize = 0;

/// Decodes `bytes` as a `T` under `budget`, measuring what it allocates.
fn limited<T: for<'de> Unmarshal<'de>>(
    bytes: &[u8],
    budget: usize,
) -> (Result<T, DecodeError>, Live) {
    let guard = lock();
    measure_live(&guard, || marshal::from_bytes_limited::<T>(bytes, budget))
}

/// The bytes requested and live stayed within `budget`.
#[track_caller]
fn assert_within(live: Live, budget: usize) {
    assert!(
        live.total <= budget,
        "requested {} bytes under a budget of {budget}",
        live.total
    );
    assert!(
        live.peak <= budget + SLACK,
        "peaked at {} live bytes under a budget of {budget}",
        live.peak
    );
}

/// Decoding `bytes` as a `T` under `budget` fails with `AllocLimit` at
/// `offset`, within the budget, and frees everything it built.
#[track_caller]
fn assert_over_budget<T: for<'de> Unmarshal<'de> + Debug>(
    bytes: &[u8],
    budget: usize,
    offset: usize,
) -> Live {
    let (result, live) = limited::<T>(bytes, budget);
    let err = result.unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: budget }, offset),
        "budget {budget}"
    );
    assert_within(live, budget);
    assert_eq!(live.end, 0, "left allocated after the error");
    live
}

/// `value` encodes and decodes back under `budget`, within it.
#[track_caller]
fn assert_round_trip<T>(value: &T, budget: usize) -> Live
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    let bytes = marshal::to_vec(value);
    let (result, live) = limited::<T>(&bytes, budget);
    assert_eq!(result.as_ref(), Ok(value), "budget {budget}");
    assert_within(live, budget);
    live
}

/// The charges a decode makes, in order: where each is reported and how
/// many bytes it takes from the budget.
#[derive(Debug, Default)]
struct Charges(Vec<(usize, usize)>);

impl Charges {
    fn add(&mut self, offset: usize, bytes: usize) {
        self.0.push((offset, bytes));
    }

    fn total(&self) -> usize {
        self.0.iter().map(|&(_, bytes)| bytes).sum()
    }

    /// For every charge that takes something, a budget one byte short of
    /// it fails with `AllocLimit` at its offset, and the budget that covers
    /// every charge decodes `value` back.
    #[track_caller]
    fn check<T>(&self, value: &T)
    where
        T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
    {
        let bytes = marshal::to_vec(value);
        let mut spent = 0;
        for &(offset, charge) in &self.0 {
            if charge > 0 {
                assert_over_budget::<T>(&bytes, spent + charge - 1, offset);
            }
            spent += charge;
        }
        assert_round_trip(value, spent);
    }
}

/// The bytes a `String` of `len` bytes is charged: `len`, but 16 for 1 to
/// 16 (the capacity short strings get).
fn string_charge(len: usize) -> usize {
    if len == 0 { 0 } else { len.max(16) }
}

/// A deterministic shuffle of `0..n`.
fn shuffled(n: u32) -> Vec<u32> {
    let mut items: Vec<u32> = (0..n).collect();
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
    items
}

/// `len` one-byte `None`s whose last byte is a bad tag, after the length.
fn nones_with_bad_last(len: usize) -> Vec<u8> {
    let mut bytes = (len as u64).to_le_bytes().to_vec();
    bytes.resize(8 + len, 0);
    bytes[8 + len - 1] = 2;
    bytes
}

type Wide = Option<[u64; 64]>;

// ---------------------------------------------------------------------------
// The shape from the issue: one-byte `None`s, 520 bytes each in memory.

#[test]
fn a_mebibyte_of_nones_over_the_budget_fails_before_allocating() {
    assert_eq!(size_of::<Wide>(), 520);
    let bytes = nones_with_bad_last((1 << 20) - 8);
    assert_eq!(bytes.len(), 1 << 20);
    for budget in [0, 1 << 20, 64 << 20] {
        let live = assert_over_budget::<Vec<Wide>>(&bytes, budget, 8);
        assert_eq!(live.total, 0);
        let live = assert_over_budget::<VecDeque<Wide>>(&bytes, budget, 8);
        assert_eq!(live.total, 0);
        let live = assert_over_budget::<Box<[Wide]>>(&bytes, budget, 8);
        assert_eq!(live.total, 0);
    }
}

#[test]
fn nones_within_the_budget_allocate_once_and_free_on_the_bad_byte() {
    let len = 4088;
    let bytes = nones_with_bad_last(len);
    // The whole vector fits: one allocation of exactly it, freed when the
    // last byte turns out bad.
    let (result, live) = limited::<Vec<Wide>>(&bytes, len * 520);
    let err = result.unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::InvalidTag {
                tag: 2,
                ty: "Option"
            },
            8 + len - 1
        )
    );
    assert_eq!(
        live,
        Live {
            peak: len * 520,
            end: 0,
            total: len * 520
        }
    );
    // One byte less and it is not allocated at all.
    let live = assert_over_budget::<Vec<Wide>>(&bytes, len * 520 - 1, 8);
    assert_eq!(live.peak, 0);
}

#[test]
fn nones_without_a_budget_preallocate_four_times_the_input_then_grow() {
    let len = 4088;
    let bytes = nones_with_bad_last(len);
    let guard = lock();
    for budget in [None, Some(usize::MAX)] {
        let (result, allocs) = measure(&guard, || match budget {
            None => marshal::from_bytes::<Vec<Wide>>(&bytes),
            Some(budget) => marshal::from_bytes_limited::<Vec<Wide>>(&bytes, budget),
        });
        assert_eq!(result.unwrap_err().offset(), 8 + len - 1);
        // 4 × 4096 bytes buy 31 items ahead; then the vector doubles.
        let capacities = [31, 62, 124, 248, 496, 992, 1984, 3968, 7936];
        let sizes: Vec<usize> = capacities.iter().map(|c| c * 520).collect();
        assert_eq!(allocs.sizes, sizes, "{budget:?}");
        assert_eq!(allocs.count, capacities.len());
        assert_eq!(allocs.total, 520 * 31 * 511);
    }
}

#[test]
fn honest_options_within_the_budget_decode_equal() {
    let value: Vec<Wide> = (0..100u64)
        .map(|i| (i % 3 == 0).then_some([i; 64]))
        .collect();
    let live = assert_round_trip(&value, 100 * 520);
    assert_eq!(live.total, 100 * 520);
    let bytes = marshal::to_vec(&value);
    assert_over_budget::<Vec<Wide>>(&bytes, 100 * 520 - 1, 8);
}

// ---------------------------------------------------------------------------
// Nested vectors and strings.

/// `outer` vectors of `inner` strings of `len` bytes each, and the charges
/// decoding them makes.
fn nested(outer: usize, inner: usize, len: usize) -> (Vec<Vec<String>>, Charges) {
    let value: Vec<Vec<String>> = (0..outer)
        .map(|i| {
            (0..inner)
                .map(|j| {
                    char::from(b'a' + ((i + j) % 26) as u8)
                        .to_string()
                        .repeat(len)
                })
                .collect()
        })
        .collect();
    let mut charges = Charges::default();
    charges.add(8, outer * 24);
    let mut at = 8;
    for _ in 0..outer {
        charges.add(at + 8, inner * 24);
        at += 8;
        for _ in 0..inner {
            charges.add(at + 8, string_charge(len));
            at += 8 + len;
        }
    }
    (value, charges)
}

#[test]
fn nested_vectors_fail_at_the_item_over_the_budget() {
    let (value, charges) = nested(4, 3, 20);
    assert_eq!(charges.total(), 96 + 4 * (72 + 60));
    // The last string's contents: three inner vectors of 92 bytes in, its
    // length, two strings of 28 bytes, its own length.
    assert_eq!(charges.0.last(), Some(&(8 + 3 * 92 + 8 + 2 * 28 + 8, 20)));
    charges.check(&value);

    let bytes = marshal::to_vec(&value);
    // The third inner vector's own allocation does not fit.
    let live = assert_over_budget::<Vec<Vec<String>>>(&bytes, 96 + 2 * 132 + 71, 8 + 2 * 92 + 8);
    assert_eq!(live.total, 96 + 2 * 132);
    // Exactly the budget: every allocation requested is what was charged.
    let live = assert_round_trip(&value, 624);
    assert_eq!(live.total, 624);
    assert_eq!(live.peak, 624);
}

#[test]
fn nested_vectors_of_short_and_empty_strings() {
    for (outer, inner, len) in [(3, 5, 1), (2, 2, 16), (5, 4, 0), (1, 7, 17), (0, 0, 0)] {
        let (value, charges) = nested(outer, inner, len);
        charges.check(&value);
    }
}

#[test]
fn many_small_vectors_past_the_budget_stop_with_the_budget_spent() {
    // A mebibyte of one-string vectors of empty strings (fewer under Miri,
    // which interprets every byte): 16 bytes each on the wire, 24 in the
    // outer vector and 24 in their own.
    let count = if cfg!(miri) {
        2000
    } else {
        ((1 << 20) - 8) / 16
    };
    let mut bytes = (count as u64).to_le_bytes().to_vec();
    for _ in 0..count {
        bytes.extend_from_slice(&1u64.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
    }
    let budget = count * 24 + 1000 * 24 + 23;
    // The 1001st inner vector's items do not fit.
    let live = assert_over_budget::<Vec<Vec<String>>>(&bytes, budget, 8 + 1000 * 16 + 8);
    assert_eq!(live.total, count * 24 + 1000 * 24);
}

// ---------------------------------------------------------------------------
// Maps and sets.

/// What `BTreeMap<u32, String>`'s `i`th entry is charged on a 64-bit
/// target: a leaf node is 320 bytes (a parent pointer, two `u16`s, 11 keys
/// and 11 values), an internal node 416.
#[cfg(target_pointer_width = "64")]
fn tree_charge(i: usize) -> usize {
    match i {
        0 => 320,
        11 => 320usize.div_ceil(6) + 416usize.div_ceil(30) + 416,
        _ => 320usize.div_ceil(6) + 416usize.div_ceil(30),
    }
}

#[cfg(target_pointer_width = "64")]
#[test]
fn btree_maps_are_charged_entry_by_entry() {
    for n in [0, 1, 11, 12, 13, 40] {
        let value: BTreeMap<u32, String> = (0..n).map(|k| (k, "x".repeat(20))).collect();
        let mut charges = Charges::default();
        for i in 0..n as usize {
            let at = 8 + i * 32;
            charges.add(at, tree_charge(i));
            charges.add(at + 12, 20);
        }
        charges.check(&value);
    }
}

/// The smallest budget under which `bytes` decodes as a `T`, which must
/// decode without one.
fn least_budget_of<T: for<'de> Unmarshal<'de>>(bytes: &[u8]) -> usize {
    assert!(marshal::from_bytes::<T>(bytes).is_ok());
    least_budget(1 << 32, |budget| {
        marshal::from_bytes_limited::<T>(bytes, budget).is_ok()
    })
}

/// At the least budget `bytes` decodes under, and at budgets below it,
/// what the decode requests stays within the budget: checks that the
/// charges for `T`'s allocations cover what std actually asks for.
#[track_caller]
fn assert_charges_cover<T: for<'de> Unmarshal<'de> + Debug>(bytes: &[u8]) -> usize {
    let least = least_budget_of::<T>(bytes);
    let (result, live) = limited::<T>(bytes, least);
    assert!(result.is_ok());
    assert_within(live, least);
    // Up to 300 budgets below it, fewer for long inputs, and four under
    // Miri.
    let budgets = if cfg!(miri) {
        4
    } else {
        (200_000 / bytes.len().max(1)).clamp(10, 300)
    };
    let step = (least / budgets).max(1);
    for budget in (0..least).step_by(step) {
        let (result, live) = limited::<T>(bytes, budget);
        assert!(
            matches!(result.map_err(|e| e.kind()), Err(DecodeErrorKind::AllocLimit { limit }) if limit == budget)
        );
        assert_within(live, budget);
        assert_eq!(live.end, 0);
    }
    least
}

/// `pairs` encoded as a map, in their order.
fn map_bytes<K: Marshal, V: Marshal>(pairs: &[(K, V)]) -> Vec<u8> {
    // A map's bytes are its length and its entries, as for a slice of
    // pairs.
    marshal::to_vec(pairs)
}

#[test]
fn btree_charges_cover_std_in_any_insertion_order() {
    // Under Miri, the sizes up to a few nodes deep.
    let sizes: &[u32] = if cfg!(miri) {
        &[1, 5, 11, 12, 13, 67]
    } else {
        &[1, 5, 11, 12, 13, 60, 67, 500, 3000]
    };
    for &n in sizes {
        let orders = [
            (0..n).collect::<Vec<_>>(),
            (0..n).rev().collect(),
            shuffled(n),
            // Every key twice.
            (0..2 * n).map(|k| k / 2).collect(),
        ];
        for keys in &orders {
            let small: Vec<(u32, u32)> = keys.iter().map(|&k| (k, k)).collect();
            assert_charges_cover::<BTreeMap<u32, u32>>(&map_bytes(&small));
            let wide: Vec<(u64, [u64; 9])> = keys.iter().map(|&k| (k.into(), [7; 9])).collect();
            assert_charges_cover::<BTreeMap<u64, [u64; 9]>>(&map_bytes(&wide));
            let bytes: Vec<u16> = keys.iter().map(|&k| k as u16).collect();
            assert_charges_cover::<BTreeSet<u16>>(&marshal::to_vec(&bytes));
            let strings: Vec<(u8, String)> =
                keys.iter().map(|&k| (k as u8, k.to_string())).collect();
            assert_charges_cover::<BTreeMap<u8, String>>(&map_bytes(&strings));
        }
    }
}

#[cfg(target_pointer_width = "64")]
#[test]
fn hash_maps_are_charged_their_table_up_front() {
    // 100 entries of 32 bytes: 128 buckets, 128 control bytes and 16 more.
    let value: HashMap<u64, String> = (0..100).map(|k| (k, "y".repeat(20))).collect();
    let mut charges = Charges::default();
    charges.add(8, 128 * 32 + 128 + 16);
    for i in 0..100 {
        charges.add(8 + i * 36 + 16, 20);
    }
    charges.check(&value);

    // Three: four buckets.
    let value: HashMap<u64, String> = (0..3).map(|k| (k, String::new())).collect();
    let mut charges = Charges::default();
    charges.add(8, 4 * 32 + 4 + 16);
    charges.check(&value);

    let value: HashSet<u64> = (0..100).collect();
    let mut charges = Charges::default();
    charges.add(8, 128 * 8 + 128 + 16);
    charges.check(&value);
}

#[test]
fn hash_charges_cover_std() {
    let sizes = (0..40).chain(if cfg!(miri) {
        vec![100]
    } else {
        vec![100, 1000, 5000]
    });
    for n in sizes {
        let keys: Vec<u32> = (0..n).collect();
        let pairs: Vec<(u32, u64)> = keys.iter().map(|&k| (k, k.into())).collect();
        assert_charges_cover::<HashMap<u32, u64>>(&map_bytes(&pairs));
        let wide: Vec<(u64, [u8; 100])> = keys.iter().map(|&k| (k.into(), [1; 100])).collect();
        assert_charges_cover::<HashMap<u64, [u8; 100]>>(&map_bytes(&wide));
        let bytes: Vec<u8> = keys.iter().map(|&k| k as u8).collect();
        assert_charges_cover::<HashSet<u8>>(&marshal::to_vec(&bytes));
        let shorts: Vec<u16> = keys.iter().map(|&k| k as u16).collect();
        assert_charges_cover::<HashSet<u16>>(&marshal::to_vec(&shorts));
        let triples: Vec<[u8; 3]> = keys.iter().map(|&k| [k as u8, (k >> 8) as u8, 0]).collect();
        assert_charges_cover::<HashSet<[u8; 3]>>(&marshal::to_vec(&triples));
        let aligned: Vec<u128> = keys.iter().map(|&k| k.into()).collect();
        assert_charges_cover::<HashSet<u128>>(&marshal::to_vec(&aligned));
    }
}

#[test]
fn hostile_maps_stop_at_the_budget() {
    // A mebibyte of distinct `u32` keys with empty values: a `BTreeMap`
    // grows node by node until the budget runs out; a `HashMap` is refused
    // its table outright.
    let count = if cfg!(miri) {
        4096
    } else {
        ((1 << 20) - 8) / 4
    };
    let pairs: Vec<(u32, ())> = (0..count as u32).map(|k| (k, ())).collect();
    let bytes = map_bytes(&pairs);
    for budget in [4096, 100_000] {
        let (result, live) = limited::<BTreeMap<u32, ()>>(&bytes, budget);
        let err = result.unwrap_err();
        assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: budget });
        assert_eq!((err.offset() - 8) % 4, 0, "at an entry");
        assert!(err.offset() > 8);
        assert_within(live, budget);
        assert_eq!(live.end, 0);
        let live = assert_over_budget::<HashMap<u32, ()>>(&bytes, budget, 8);
        assert_eq!(live.total, 0);
        let live = assert_over_budget::<HashSet<u32>>(&bytes, budget, 8);
        assert_eq!(live.total, 0);
    }
}

// ---------------------------------------------------------------------------
// `VecDeque`, boxes, `Rc` and `Arc`.

#[test]
fn vec_deques_take_over_the_vectors_buffer() {
    let value: VecDeque<String> = (0..10).map(|i| "z".repeat(i * 3)).collect();
    let mut charges = Charges::default();
    charges.add(8, 10 * 24);
    let mut at = 8;
    for i in 0..10 {
        charges.add(at + 8, string_charge(i * 3));
        at += 8 + i * 3;
    }
    charges.check(&value);
    let live = assert_round_trip(&value, charges.total());
    // The conversion from `Vec` reallocates nothing.
    assert_eq!(
        live.total,
        10 * 24 + (1..10).map(|i| string_charge(i * 3)).sum::<usize>()
    );
}

#[test]
fn boxed_slices_are_charged_their_items_once() {
    let value: Box<[String]> = (0..5).map(|i| "w".repeat(30 + i)).collect();
    let mut charges = Charges::default();
    charges.add(8, 5 * 24);
    let mut at = 8;
    for i in 0..5 {
        charges.add(at + 8, 30 + i);
        at += 8 + 30 + i;
    }
    charges.check(&value);
    let live = assert_round_trip(&value, charges.total());
    assert_eq!(live.total, charges.total());

    // Bulk-copied items.
    let value: Box<[u64]> = (0..1000).collect();
    let live = assert_round_trip(&value, 8000);
    assert_eq!(live.total, 8000);
    let bytes = marshal::to_vec(&value);
    assert_over_budget::<Box<[u64]>>(&bytes, 7999, 8);
    let bytes = marshal::to_vec(&(0..1000).map(|i| i as u8).collect::<Box<[u8]>>());
    assert_over_budget::<Box<[u8]>>(&bytes, 999, 8);
    assert_eq!(limited::<Box<[u8]>>(&bytes, 1000).1.total, 1000);
}

#[test]
fn boxes_are_charged_before_their_value_decodes() {
    let value = (
        7u8,
        Box::new([3u64; 16]),
        Box::new(String::from("a boxed string, long")),
    );
    let mut charges = Charges::default();
    charges.add(1, 128); // the array's box
    charges.add(1 + 128, 24); // the string's box
    charges.add(1 + 128 + 8, 20); // its contents
    charges.check(&value);

    let value: Box<str> = "seventeen letters".into();
    let mut charges = Charges::default();
    charges.add(8, 17);
    charges.check(&value);
}

#[test]
fn rc_and_arc_are_charged_their_counters_too() {
    let value: Rc<[u64]> = (0..100).collect();
    let mut charges = Charges::default();
    charges.add(8, 800); // the vector it decodes into
    charges.add(8, 2 * size_of::<usize>() + 800); // the `Rc` it moves into
    charges.check(&value);
    let live = assert_round_trip(&value, charges.total());
    assert_eq!(live.total, charges.total());

    let value: Arc<str> = "an arc".into();
    let mut charges = Charges::default();
    charges.add(
        8,
        (2 * size_of::<usize>() + 6).next_multiple_of(align_of::<usize>()),
    );
    charges.check(&value);

    let value = (Rc::new(5u32), Arc::new([1u8; 3]));
    let mut charges = Charges::default();
    charges.add(
        0,
        (2 * size_of::<usize>() + 4).next_multiple_of(align_of::<usize>()),
    );
    charges.add(
        4,
        (2 * size_of::<usize>() + 3).next_multiple_of(align_of::<usize>()),
    );
    charges.check(&value);
}

// ---------------------------------------------------------------------------
// Damaged input under random budgets.

/// A value of most of the allocating types at once.
type Mixed = (
    Vec<Vec<String>>,
    BTreeMap<u16, Box<[u32]>>,
    HashMap<u8, Rc<str>>,
    VecDeque<Option<Box<u64>>>,
    Arc<[String]>,
    BTreeSet<String>,
    HashSet<u64>,
    Box<[Wide]>,
);

fn mixed() -> Mixed {
    (
        (0..6)
            .map(|i| (0..i).map(|j| "s".repeat(j * 7)).collect())
            .collect(),
        (0..30)
            .map(|k| (k * 3, (0..u32::from(k)).collect()))
            .collect(),
        (0..20)
            .map(|k| (k, Rc::from("r".repeat(usize::from(k)).as_str())))
            .collect(),
        (0..15).map(|i| (i % 2 == 0).then(|| Box::new(i))).collect(),
        (0..5).map(|i| "a".repeat(i * 10)).collect(),
        (0..25).map(|i| format!("key {i:03}")).collect(),
        (0..40).collect(),
        (0..8).map(|i| (i % 3 == 0).then_some([i; 64])).collect(),
    )
}

#[test]
fn damaged_input_never_exceeds_the_budget() {
    let value = mixed();
    let honest = marshal::to_vec(&value);
    let least = least_budget_of::<Mixed>(&honest);
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut over) = (0, 0);
    for _ in 0..if cfg!(miri) { 30 } else { 3000 } {
        let mut bytes = honest.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                // A byte overwritten.
                0 => bytes[at] = rng.next() as u8,
                // A length (or anything) overwritten with a small number.
                1 => {
                    let end = (at + 8).min(bytes.len());
                    let n = (rng.below(1 << 12) as u64).to_le_bytes();
                    bytes[at..end].copy_from_slice(&n[..end - at]);
                }
                // Cut short.
                2 => bytes.truncate(at),
                // A run of `None` tags where the boxes and options are.
                _ => bytes
                    .splice(at..at, std::iter::repeat_n(0, rng.below(64)))
                    .for_each(drop),
            }
        }
        if bytes.is_empty() {
            continue;
        }
        let budget = rng.below(2 * least);
        let (result, live) = limited::<Mixed>(&bytes, budget);
        assert_within(live, budget);
        match result {
            Ok(_) => ok += 1,
            Err(e) => {
                assert_eq!(live.end, 0, "left allocated after {e}");
                if e.kind() == (DecodeErrorKind::AllocLimit { limit: budget }) {
                    over += 1;
                }
            }
        }
    }
    // Both outcomes were exercised.
    assert!(
        (ok > 100 && over > 100) || (cfg!(miri) && ok > 0 && over > 0),
        "{ok} decoded, {over} over the budget"
    );
}

// ---------------------------------------------------------------------------
// The entry points and the reader.

#[test]
fn from_bytes_limited_rejects_trailing_bytes_like_from_bytes() {
    let mut bytes = marshal::to_vec(&vec![1u32, 2]);
    assert_eq!(
        marshal::from_bytes_limited::<Vec<u32>>(&bytes, 8),
        Ok(vec![1, 2])
    );
    bytes.push(0);
    assert_eq!(
        marshal::from_bytes_limited::<Vec<u32>>(&bytes, 8).map_err(|e| e.kind()),
        Err(DecodeErrorKind::TrailingBytes { count: 1 })
    );
}

#[test]
fn codec_decodes_every_frame_under_its_budget() {
    let (value, charges) = nested(3, 2, 18);
    let budget = charges.total();
    let mut stream = Vec::new();
    Codec::new().encode_into_vec(&value, &mut stream).unwrap();
    Codec::new().encode_into_vec(&value, &mut stream).unwrap();

    let codec = Codec::new().with_max_alloc(budget);
    assert_eq!(codec.max_alloc(), Some(budget));
    assert_eq!(Codec::new().max_alloc(), None);
    let guard = lock();
    let mut rest = &stream[..];
    for _ in 0..2 {
        let (decoded, live) = measure_live(&guard, || codec.decode::<Vec<Vec<String>>>(rest));
        let Ok(Decoded::Frame { value: back, len }) = decoded else {
            panic!("{decoded:?}")
        };
        assert_eq!(back, value);
        assert_within(live, budget);
        rest = &rest[len..];
    }
    drop(guard);

    // A byte short, the last string does not fit; the offset counts the
    // frame's header.
    let &(last, _) = charges.0.last().unwrap();
    let short = codec.with_max_alloc(budget - 1);
    assert_eq!(short.max_len(), codec.max_len());
    let Err(FrameError::Decode(err)) = short.decode::<Vec<Vec<String>>>(&stream) else {
        panic!()
    };
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: budget - 1 }, 4 + last)
    );

    // Without a budget, the codec decodes as `from_bytes` does.
    let Ok(Decoded::Frame { value: back, .. }) = Codec::new().decode::<Vec<Vec<String>>>(&stream)
    else {
        panic!()
    };
    assert_eq!(back, value);
}

#[test]
fn without_a_budget_allocations_are_unchanged() {
    let (nested_value, _) = nested(6, 5, 9);
    let map: BTreeMap<u32, String> = (0..50).map(|k| (k, k.to_string())).collect();
    let hash: HashMap<u32, Vec<u8>> = (0..50).map(|k| (k, vec![k as u8; 3])).collect();
    let inputs = [
        marshal::to_vec(&nested_value),
        marshal::to_vec(&map),
        marshal::to_vec(&hash),
    ];
    let guard = lock();
    for bytes in &inputs {
        let (a, plain) = measure(&guard, || {
            (
                marshal::from_bytes::<Vec<Vec<String>>>(bytes).is_ok(),
                marshal::from_bytes::<BTreeMap<u32, String>>(bytes).is_ok(),
                marshal::from_bytes::<HashMap<u32, Vec<u8>>>(bytes).is_ok(),
            )
        });
        let (b, unlimited) = measure(&guard, || {
            (
                marshal::from_bytes_limited::<Vec<Vec<String>>>(bytes, usize::MAX).is_ok(),
                marshal::from_bytes_limited::<BTreeMap<u32, String>>(bytes, usize::MAX).is_ok(),
                marshal::from_bytes_limited::<HashMap<u32, Vec<u8>>>(bytes, usize::MAX).is_ok(),
            )
        });
        assert_eq!(a, b);
        assert_eq!(plain, unlimited);
    }
    // A vector of 1000 strings in 16 KiB: 4 × 16 KiB buys all 1000 ahead.
    let strings: Vec<String> = (0..1000).map(|i| format!("{i:08}")).collect();
    let bytes = marshal::to_vec(&strings);
    let (back, allocs) = measure(&guard, || marshal::from_bytes::<Vec<String>>(&bytes));
    assert_eq!(back.unwrap(), strings);
    assert_eq!(allocs.count, 1001);
    assert_eq!(allocs.sizes[0], 1000 * 24);
    // Strings of 8 bytes get a capacity of 16, but the last: the input
    // ends too soon after it for the 16-byte copy.
    assert_eq!(allocs.sizes[1..16], [16; 15]);
    assert_eq!(allocs.total, 1000 * 24 + 999 * 16 + 8);
}

#[test]
fn nest_carries_the_budget_and_split_gives_none() {
    let input = [0u8; 16];
    let mut r = Reader::new(&input).with_max_alloc(100);
    assert_eq!(r.max_alloc(), Some(100));
    r.nest(|r| r.charge_alloc(60)).unwrap();
    let err = r.charge_alloc(41).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 100 });
    r.charge_alloc(40).unwrap();

    let mut r = Reader::new(&input).with_max_alloc(100);
    let mut sub = r.split(8).unwrap();
    assert_eq!(sub.max_alloc(), Some(100));
    assert_eq!(
        sub.charge_alloc(1).map_err(|e| (e.kind(), e.offset())),
        Err((DecodeErrorKind::AllocLimit { limit: 100 }, 0))
    );
    sub.charge_alloc(0).unwrap();
    // Without a budget, a sub-reader charges nothing either.
    let mut sub = Reader::new(&input).split(8).unwrap();
    assert_eq!(sub.max_alloc(), None);
    sub.charge_alloc(usize::MAX).unwrap();

    // `usize::MAX` is no budget.
    assert_eq!(
        Reader::new(&input).with_max_alloc(usize::MAX).max_alloc(),
        None
    );
    let mut r = Reader::new(&input)
        .with_max_alloc(7)
        .with_max_alloc(usize::MAX);
    assert_eq!(r.capacity_for::<u64>(100), 8);
}

#[test]
fn try_capacity_for_charges_all_items_or_none() {
    let input = [0u8; 16];
    let mut r = Reader::new(&input).with_max_alloc(100);
    assert_eq!(r.try_capacity_for::<u64>(12), Ok(12));
    let err = r.try_capacity_for::<u32>(2).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 100 });
    assert_eq!(r.try_capacity_for::<u32>(1), Ok(1));
    assert_eq!(r.try_capacity_for::<()>(1000), Ok(1000));
    // Without a budget, it is `capacity_for`: 64 bytes ahead, then growth.
    let mut r = Reader::new(&input);
    assert_eq!(r.try_capacity_for::<u64>(12), Ok(8));
    assert_eq!(r.try_capacity_for::<u64>(12), Ok(0));
}

#[test]
fn the_error_says_what_to_raise() {
    let err = marshal::from_bytes_limited::<String>(&marshal::to_vec("hello"), 15).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 15 });
    assert_eq!(
        err.to_string(),
        "decoding needs more than the allocation budget of 15 bytes (raise it with \
         Reader::with_max_alloc) at byte 8"
    );
}

// ---------------------------------------------------------------------------
// What the budget and the depth limit do not reach.

/// A `with` module that reads a `Vec<Vec<u8>>` through the caller's reader.
mod own_reader {
    use marshal::{DecodeError, Marshal, Overflow, Reader, Unmarshal, Writer};

    pub(crate) fn encoded_len(v: &Vec<Vec<u8>>) -> usize {
        v.encoded_len()
    }

    pub(crate) fn encode(v: &Vec<Vec<u8>>, w: &mut Writer<'_>) -> Result<(), Overflow> {
        v.encode(w)
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Vec<Vec<u8>>, DecodeError> {
        Vec::<Vec<u8>>::decode(r)
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithField {
    #[marshal(with = own_reader)]
    rows: Vec<Vec<u8>>,
}

#[test]
fn fields_read_by_a_with_module_are_within_the_budget_and_the_depth_limit() {
    // Crate docs, "Decoding": a `with` module reads through the caller's reader, within the
    // outer decode's allocation budget and depth limit.
    let value = WithField {
        rows: vec![vec![1; 100]; 10],
    };
    let bytes = marshal::to_vec(&value);
    let err = marshal::from_bytes_limited::<WithField>(&bytes, 0).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 0 });
    assert_eq!(err.offset(), 8);
    assert_eq!(
        marshal::from_bytes_limited::<WithField>(&bytes, 10 * 24 + 10 * 100),
        Ok(value)
    );
    let nested = WithField {
        rows: vec![vec![1]],
    };
    let bytes = marshal::to_vec(&nested);
    let mut r = Reader::new(&bytes).with_max_depth(0);
    assert_eq!(
        WithField::decode(&mut r).unwrap_err().kind(),
        DecodeErrorKind::TooDeep { limit: 0 }
    );
    let mut r = Reader::new(&bytes).with_max_depth(8);
    assert_eq!(WithField::decode(&mut r), Ok(nested));
}
