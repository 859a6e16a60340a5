//! Encoded lengths saturate: a value whose encoding is longer than
//! `usize::MAX` bytes reports `usize::MAX`, never a wrapped-around small
//! number, through every container and through derived code; and every
//! output target refuses such a length.
//!
//! The values are legitimate and small in memory: references to one
//! array, repeated. `Huge` is `[&[&[u8; 2^20]; 2^20]; 2^20]`, 17 MiB in
//! all, whose encoding is 2^60 bytes; sixteen of them are 2^64.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::OnceLock;

use marshal::frame::{Codec, FrameError};
use marshal::{BufferTooSmall, Marshal};

const N: usize = 1 << 20;

type A = [u8; N];
type B = [&'static A; N];
/// 2^60 encoded bytes.
type Huge = [&'static B; N];

/// Arrays of this size do not fit on a test thread's stack: they are built
/// on the heap, once, and leaked.
fn boxed_array<T: Clone, const M: usize>(item: T) -> &'static [T; M] {
    let boxed: Box<[T; M]> = vec![item; M]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!());
    Box::leak(boxed)
}

fn huge() -> &'static Huge {
    static HUGE: OnceLock<&'static Huge> = OnceLock::new();
    HUGE.get_or_init(|| {
        let a: &'static A = boxed_array(0u8);
        let b: &'static B = boxed_array(a);
        boxed_array(b)
    })
}

/// Sixteen references to `huge()`: 2^64 bytes of elements, so its length
/// with the prefix is 2^64 + 8.
fn sixteen() -> Vec<&'static Huge> {
    vec![huge(); 16]
}

/// Asserts the saturated outcomes of `value` through the targets that
/// return a `Result`.
#[track_caller]
fn assert_saturated<T: Marshal + ?Sized>(value: &T) {
    assert_eq!(value.encoded_len(), usize::MAX);
    let mut buf = [0u8; 64];
    assert_eq!(
        value.try_write_to(&mut buf),
        Err(BufferTooSmall {
            needed: usize::MAX,
            available: 64
        })
    );
    let mut uninit = [std::mem::MaybeUninit::<u8>::uninit(); 64];
    assert_eq!(
        value.try_write_to_uninit(&mut uninit),
        Err(BufferTooSmall {
            needed: usize::MAX,
            available: 64
        })
    );
    let codec = Codec::new();
    assert_eq!(codec.frame_len(value), usize::MAX);
    let too_large = FrameError::TooLarge {
        len: usize::MAX,
        max: codec.max_len(),
    };
    assert_eq!(codec.write_to(value, &mut buf), Err(too_large));
    let mut out = vec![1, 2, 3];
    assert_eq!(codec.encode_into_vec(value, &mut out), Err(too_large));
    assert_eq!(out, [1, 2, 3]);
    let (mut sink, mut scratch) = (Vec::new(), Vec::new());
    let err = codec.write_all(value, &mut sink, &mut scratch).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(err.into_inner().unwrap().downcast_ref(), Some(&too_large));
    assert!(sink.is_empty());
    let err = marshal::write_all(value, &mut sink, &mut scratch).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::OutOfMemory);
    assert!(sink.is_empty());
}

// ---------------------------------------------------------------------------
// The reproducer.

#[test]
fn the_huge_array_is_2_to_the_60_bytes() {
    assert_eq!(<Huge as Marshal>::FIXED_LEN, Some(1 << 60));
    assert_eq!(huge().encoded_len(), 1 << 60);
    // Fifteen still fit in `usize`: 8 + 15 * 2^60.
    let fifteen = vec![huge(); 15];
    assert_eq!(fifteen.encoded_len(), 8 + 15 * (1 << 60));
}

#[test]
fn a_slice_whose_elements_fill_usize_saturates_with_its_prefix() {
    // Was 7: the elements saturated to usize::MAX, then the 8-byte prefix
    // wrapped around.
    let v = sixteen();
    assert_saturated(&v);
    assert_saturated(v.as_slice());
    assert_saturated(&VecDeque::from(v.clone()));
}

#[test]
fn sums_of_saturated_lengths_stay_saturated() {
    let v = sixteen();
    // Items without a fixed length, summed one by one.
    assert_saturated(&vec![v.clone(), v.clone()]);
    assert_saturated(&[v.clone(), v.clone()]);
    assert_saturated(&(1u8, v.clone()));
    assert_saturated(&(v.clone(), v.clone(), 7u64));
    assert_saturated(&Some(v.clone()));
    assert_saturated(&Box::new(v.clone()));
    // A fixed length too large for `usize`: no FIXED_LEN, saturated length.
    let arr: [&Huge; 16] = [huge(); 16];
    assert_eq!(<[&Huge; 16] as Marshal>::FIXED_LEN, None);
    assert_saturated(&arr);
    assert_saturated(&(arr, 1u8));
}

#[test]
fn collections_saturate() {
    let v = sixteen();
    assert_saturated(&BTreeMap::from([(1u8, v.clone())]));
    assert_saturated(&BTreeMap::from([(v.clone(), 1u8)]));
    assert_saturated(&HashMap::from([(1u8, v.clone())]));
    assert_saturated(&BTreeSet::from([v.clone()]));
    // (A hash set would hash 2^64 bytes; sets share one length function.)
    assert_saturated(
        &HashSet::from([(1u8, 2u8)])
            .iter()
            .map(|_| v.clone())
            .collect::<Vec<_>>(),
    );
    // Fixed-size items: the count times the item length saturates, then
    // the prefix.
    let halves = vec![huge(); 8];
    let fixed_items: BTreeSet<[&Huge; 2]> = BTreeSet::from([[huge(); 2]]);
    assert_eq!(fixed_items.encoded_len(), 8 + (1 << 61));
    let map: BTreeMap<u8, &Huge> = (0..16).map(|k| (k, huge())).collect();
    assert_saturated(&map);
    assert_eq!(halves.encoded_len(), 8 + 8 * (1 << 60));
    let set: BTreeSet<(u8, &Huge)> = (0..16).map(|k| (k, huge())).collect();
    assert_saturated(&set);
}

// ---------------------------------------------------------------------------
// Derived code.

#[derive(Marshal)]
struct Holder<'a> {
    head: u32,
    items: Vec<&'a Huge>,
    tail: String,
}

#[derive(Marshal)]
struct FixedFields<'a> {
    a: &'a Huge,
    b: [&'a Huge; 8],
    c: [&'a Huge; 7],
    d: u8,
}

#[derive(Marshal)]
struct Tuple<'a>(u8, [&'a Huge; 16]);

#[derive(Marshal)]
enum Message<'a> {
    Small(u8),
    Variable(u32, Vec<&'a Huge>),
    Fixed {
        a: [&'a Huge; 16],
    },
    // Its fields' fixed lengths alone (the table's entry) exceed `usize`.
    ManyFixed(
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
        &'a Huge,
    ),
    // A fixed part and a variable part that only overflow together.
    Both([&'a Huge; 15], Vec<&'a Huge>),
}

#[test]
fn derived_structs_saturate() {
    let holder = Holder {
        head: 1,
        items: sixteen(),
        tail: "tail".into(),
    };
    assert_saturated(&holder);
    // Sixteen fixed lengths of 2^60: no FIXED_LEN, a saturated sum.
    assert_eq!(<FixedFields as Marshal>::FIXED_LEN, None);
    let fixed = FixedFields {
        a: huge(),
        b: [huge(); 8],
        c: [huge(); 7],
        d: 0,
    };
    assert_saturated(&fixed);
    assert_saturated(&Tuple(0, [huge(); 16]));
    // And inside other containers.
    assert_saturated(&vec![Tuple(0, [huge(); 16])]);
    assert_saturated(&Some(holder));
}

#[test]
fn derived_enums_saturate() {
    let h = huge();
    assert_eq!(Message::Small(1).encoded_len(), 5);
    assert_saturated(&Message::Variable(1, sixteen()));
    assert_saturated(&Message::Fixed { a: [h; 16] });
    assert_saturated(&Message::ManyFixed(
        h, h, h, h, h, h, h, h, h, h, h, h, h, h, h, h,
    ));
    assert_eq!(
        Message::Both([h; 15], Vec::new()).encoded_len(),
        4 + 15 * (1 << 60) + 8
    );
    assert_saturated(&Message::Both([h; 15], vec![h]));
    assert_saturated(&vec![Message::Small(0), Message::Variable(0, sixteen())]);
}

// ---------------------------------------------------------------------------
// The infallible targets panic, saying why.

#[test]
#[should_panic(expected = "too large to encode")]
fn to_vec_refuses_a_saturated_length() {
    let _ = marshal::to_vec(&sixteen());
}

#[test]
#[should_panic(expected = "too large to encode")]
fn encode_into_vec_refuses_a_saturated_length() {
    let mut out = Vec::new();
    marshal::encode_into_vec(&sixteen(), &mut out);
}

#[test]
#[should_panic(expected = "too large to encode")]
fn to_vec_refuses_a_length_over_isize_max() {
    // 2^63 + 8 bytes: fits `usize`, not a `Vec`.
    let eight = vec![huge(); 8];
    assert_eq!(eight.encoded_len(), (1 << 63) + 8);
    let _ = marshal::to_vec(&eight);
}

#[test]
#[should_panic(expected = "too large to encode")]
fn encode_into_vec_refuses_a_length_that_does_not_fit_after_the_contents() {
    // 2^63 - 6 bytes: fits a `Vec` on its own, not after 16 bytes.
    // 8 + 7 * 2^60, then (2^20 - 1) * 2^40, (2^20 - 1) * 2^20 and 2^20 - 14.
    let bs: &'static [&'static B; N - 1] = boxed_array(huge()[0]);
    let as_: &'static [&'static A; N - 1] = boxed_array(huge()[0][0]);
    let bytes: &'static [u8; N - 14] = boxed_array(0u8);
    let value = (vec![huge(); 7], bs, as_, bytes);
    assert_eq!(value.encoded_len(), (1 << 63) - 6);
    let mut out = vec![0u8; 16];
    marshal::encode_into_vec(&value, &mut out);
}

#[test]
#[should_panic(expected = "buffer too small: encoding needs 18446744073709551615 bytes")]
fn write_to_refuses_a_saturated_length() {
    sixteen().write_to(&mut [0u8; 64]);
}

#[test]
#[should_panic(expected = "too large to encode")]
fn arena_encode_refuses_a_saturated_length() {
    let bump = bumpalo::Bump::new();
    marshal::arena::encode(&bump, &sixteen());
}

#[test]
#[should_panic(expected = "too large to encode")]
fn arena_batch_refuses_a_saturated_length() {
    let bump = bumpalo::Bump::new();
    marshal::arena::encode_batch(&bump, [sixteen()]);
}

#[test]
#[should_panic(expected = "too large to encode")]
fn bytes_mut_refuses_a_saturated_length() {
    let mut buf = bytes::BytesMut::new();
    marshal::buf::encode_to_bytes_mut(&sixteen(), &mut buf);
}

#[test]
#[should_panic(expected = "too large to encode")]
fn to_bytes_refuses_a_saturated_length() {
    let _ = marshal::buf::to_bytes(&sixteen());
}
