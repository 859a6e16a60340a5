//! Other crates' types (features `uuid`, `indexmap`, `smallvec`,
//! `arrayvec`, `heapless`, `bytes`) against the real `bincode` 1.3 crate,
//! with each crate's own `serde` support.
//!
//! For random values of each type, and of a derived struct holding all of
//! them: `marshal::to_vec` gives exactly `bincode::serialize`'s bytes,
//! `encoded_len` their length (and never more than `MAX_LEN`), each reads
//! the other's bytes back as the value, and damaged copies of the bytes are
//! accepted by both or by neither, as the same values. Then what the
//! decoders promise beside the bytes: capacities, the allocation budget
//! (counted by a global allocator, `src/counting.rs`), the depth limit,
//! and `FIXED_LEN`/`MAX_LEN` with a `max_size` contract.

use std::fmt::Debug;

use arrayvec::{ArrayString, ArrayVec};
use bincode::Options;
use bytes::{Bytes, BytesMut};
use indexmap::{IndexMap, IndexSet};
use marshal::{DecodeErrorKind, Marshal, Reader, Unmarshal};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use uuid::Uuid;

marshal_test_suite::counting_allocator!();

use marshal_test_suite::budget::least_budget_within;
use marshal_test_suite::checks::bincode_exact;
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::damage::{agree, damage, damaged_copies};
use marshal_test_suite::stack_probe::{THREAD_STACK, decode_on_thread};
use marshal_test_suite::strategies::config_with_cases;

/// Cases per property.
const CASES: u32 = 128;

/// Both directions for one value, then damaged copies of its bytes.
fn check<T>(value: &T, damage: &[(usize, u8)]) -> Result<(), TestCaseError>
where
    T: Marshal + for<'de> Unmarshal<'de> + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let theirs = bincode::serialize(value).expect("bincode serializes every type here");
    let ours = marshal::to_vec(value);
    prop_assert_eq!(
        &ours,
        &theirs,
        "marshal::to_vec differs from bincode::serialize"
    );
    prop_assert_eq!(value.encoded_len(), theirs.len());
    if let Some(max) = T::MAX_LEN {
        prop_assert!(
            theirs.len() <= max,
            "{} bytes, MAX_LEN {}",
            theirs.len(),
            max
        );
    }
    if let Some(fixed) = T::FIXED_LEN {
        prop_assert_eq!(theirs.len(), fixed);
    }
    prop_assert_eq!(
        &marshal::from_bytes::<T>(&theirs).expect("marshal reads bincode's bytes"),
        value
    );
    prop_assert_eq!(
        &bincode::deserialize::<T>(&ours).expect("bincode reads marshal's bytes"),
        value
    );

    for input in damaged_copies(&theirs, damage) {
        let ours = marshal::from_bytes::<T>(&input);
        agree(&input, ours, bincode_exact().deserialize::<T>(&input))?;
    }
    Ok(())
}

fn arb_uuid() -> impl Strategy<Value = Uuid> {
    any::<u128>().prop_map(Uuid::from_u128)
}

fn arb_index_map() -> impl Strategy<Value = IndexMap<String, u32>> {
    vec((".{0,4}", any::<u32>()), 0..8).prop_map(|pairs| pairs.into_iter().collect())
}

fn arb_index_set() -> impl Strategy<Value = IndexSet<u16>> {
    vec(any::<u16>(), 0..12).prop_map(|items| items.into_iter().collect())
}

fn arb_small_vec() -> impl Strategy<Value = SmallVec<[u16; 4]>> {
    vec(any::<u16>(), 0..10).prop_map(SmallVec::from_vec)
}

fn arb_small_strings() -> impl Strategy<Value = SmallVec<[String; 2]>> {
    vec(".{0,4}", 0..5).prop_map(SmallVec::from_vec)
}

fn arb_array_vec() -> impl Strategy<Value = ArrayVec<u32, 8>> {
    vec(any::<u32>(), 0..=8).prop_map(|items| items.into_iter().collect())
}

fn arb_array_string() -> impl Strategy<Value = ArrayString<16>> {
    "[a-z é€😀]{0,8}".prop_filter_map("fits", |s| ArrayString::from(&s).ok())
}

fn arb_heapless_vec() -> impl Strategy<Value = heapless::Vec<u16, 8>> {
    vec(any::<u16>(), 0..=8).prop_map(|items| heapless::Vec::from_slice(&items).expect("fits"))
}

fn arb_heapless_strings() -> impl Strategy<Value = heapless::Vec<heapless::String<6>, 3>> {
    vec("[a-zé]{0,3}", 0..=3).prop_map(|items| {
        items
            .iter()
            .map(|s| heapless::String::try_from(s.as_str()).expect("fits"))
            .collect()
    })
}

fn arb_heapless_string() -> impl Strategy<Value = heapless::String<16>> {
    "[a-z é€😀]{0,8}".prop_filter_map("fits", |s| heapless::String::try_from(s.as_str()).ok())
}

fn arb_bytes() -> impl Strategy<Value = Bytes> {
    vec(any::<u8>(), 0..40).prop_map(Bytes::from)
}

fn arb_bytes_mut() -> impl Strategy<Value = BytesMut> {
    vec(any::<u8>(), 0..40).prop_map(|v| BytesMut::from(&v[..]))
}

/// Every foreign type in one derived struct, and its serde twin.
#[derive(Debug, PartialEq, Marshal, Unmarshal, Serialize, Deserialize)]
struct Everything {
    id: Uuid,
    prices: IndexMap<String, u32>,
    seen: IndexSet<u16>,
    hops: SmallVec<[u16; 4]>,
    names: SmallVec<[String; 2]>,
    readings: ArrayVec<u32, 8>,
    label: ArrayString<16>,
    samples: heapless::Vec<u16, 8>,
    words: heapless::Vec<heapless::String<6>, 3>,
    title: heapless::String<16>,
    body: Bytes,
    scratch: BytesMut,
    maybe: Option<Uuid>,
}

prop_compose! {
    fn arb_everything()(
        id in arb_uuid(),
        prices in arb_index_map(),
        seen in arb_index_set(),
        hops in arb_small_vec(),
        names in arb_small_strings(),
        readings in arb_array_vec(),
        label in arb_array_string(),
        samples in arb_heapless_vec(),
        words in arb_heapless_strings(),
        title in arb_heapless_string(),
        body in arb_bytes(),
        scratch in arb_bytes_mut(),
        maybe in proptest::option::of(arb_uuid()),
    ) -> Everything {
        Everything { id, prices, seen, hops, names, readings, label, samples, words, title, body, scratch, maybe }
    }
}

proptest! {
    #![proptest_config(config_with_cases(CASES))]

    #[test]
    fn uuid(v in arb_uuid(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn index_map(v in arb_index_map(), d in damage()) {
        check(&v, &d)?;
        // `IndexMap`'s `==` ignores the order; the bytes keep it.
        let back: IndexMap<String, u32> = marshal::from_bytes(&marshal::to_vec(&v)).unwrap();
        prop_assert!(back.keys().eq(v.keys()));
    }
    #[test]
    fn index_set(v in arb_index_set(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn small_vec(v in arb_small_vec(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn small_vec_of_strings(v in arb_small_strings(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn array_vec(v in arb_array_vec(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn array_string(v in arb_array_string(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn heapless_vec(v in arb_heapless_vec(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn heapless_vec_of_strings(v in arb_heapless_strings(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn heapless_string(v in arb_heapless_string(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn bytes_(v in arb_bytes(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn bytes_mut(v in arb_bytes_mut(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn all_in_a_derived_struct(v in arb_everything(), d in damage()) { check(&v, &d)?; }

    /// Lengths beyond a fixed capacity, whatever the input holds after
    /// them: marshal and bincode both reject them.
    #[test]
    fn a_length_beyond_the_capacity_is_rejected(
        items in vec(any::<u16>(), 9..20),
        text in "[a-z]{17,30}",
    ) {
        let bytes = marshal::to_vec(&items);
        let err = marshal::from_bytes::<heapless::Vec<u16, 8>>(&bytes).unwrap_err();
        prop_assert_eq!(
            (err.kind(), err.offset()),
            (DecodeErrorKind::OverCapacity { len: items.len() as u64, capacity: 8 }, 0)
        );
        prop_assert!(bincode::deserialize::<heapless::Vec<u16, 8>>(&bytes).is_err());
        let err = marshal::from_bytes::<ArrayVec<u16, 8>>(&bytes).unwrap_err();
        prop_assert_eq!(err.kind(), DecodeErrorKind::OverCapacity { len: items.len() as u64, capacity: 8 });
        prop_assert!(bincode::deserialize::<ArrayVec<u16, 8>>(&bytes).is_err());

        let bytes = marshal::to_vec(&text);
        let err = marshal::from_bytes::<heapless::String<16>>(&bytes).unwrap_err();
        prop_assert_eq!(err.kind(), DecodeErrorKind::OverCapacity { len: text.len() as u64, capacity: 16 });
        prop_assert!(bincode::deserialize::<heapless::String<16>>(&bytes).is_err());
        let err = marshal::from_bytes::<ArrayString<16>>(&bytes).unwrap_err();
        prop_assert_eq!(err.kind(), DecodeErrorKind::OverCapacity { len: text.len() as u64, capacity: 16 });
        prop_assert!(bincode::deserialize::<ArrayString<16>>(&bytes).is_err());
    }
}

#[test]
fn over_capacity_says_what_and_where() {
    let bytes = marshal::to_vec(&(1u8, [1u8, 2, 3].as_slice()));
    let err = marshal::from_bytes::<(u8, ArrayVec<u8, 2>)>(&bytes).unwrap_err();
    assert_eq!(err.offset(), 1);
    assert_eq!(
        err.to_string(),
        "length 3 exceeds the type's capacity of 2 at byte 1"
    );
}

#[test]
fn a_uuid_is_24_bytes_as_bincode_writes_it() {
    let id = Uuid::from_u128(0x0011_2233_4455_6677_8899_aabb_ccdd_eeff);
    let bytes = bincode::serialize(&id).unwrap();
    assert_eq!(bytes.len(), 24);
    assert_eq!(bytes[..8], 16u64.to_le_bytes());
    assert_eq!(bytes[8..], *id.as_bytes());
    assert_eq!(marshal::to_vec(&id), bytes);
    // Another length prefix: both reject it.
    for len in [0u8, 15, 17] {
        let mut bad = bytes.clone();
        bad[0] = len;
        assert!(marshal::from_bytes::<Uuid>(&bad).is_err());
        assert!(bincode_exact().deserialize::<Uuid>(&bad).is_err());
    }
}

// ---------------------------------------------------------------------------
// Sizes.

/// A bounded struct: the heapless vector keeps its `MAX_LEN`, so the
/// contract holds and the buffer is sized at compile time.
#[derive(Debug, PartialEq, Marshal, Unmarshal)]
#[marshal(max_size = 26)]
struct Frame {
    id: u16,
    samples: heapless::Vec<u16, 8>,
}

#[derive(Debug, PartialEq, Marshal, Unmarshal)]
#[marshal(max_size = 115)]
struct Bounded {
    tag: u8,
    readings: ArrayVec<u32, 4>,
    label: ArrayString<8>,
    name: heapless::String<10>,
    id: Uuid,
    ids: heapless::Vec<Uuid, 1>,
}

#[derive(Debug, PartialEq, Marshal, Unmarshal)]
#[marshal(size = 48)]
struct Ids {
    a: Uuid,
    b: Uuid,
}

#[test]
fn fixed_and_maximum_lengths() {
    assert_eq!(Uuid::FIXED_LEN, Some(24));
    assert_eq!(Ids::FIXED_LEN, Some(48));
    assert_eq!(<heapless::Vec<u16, 8>>::MAX_LEN, Some(8 + 16));
    assert_eq!(<heapless::Vec<u16, 8>>::FIXED_LEN, None);
    assert_eq!(Frame::MAX_LEN, Some(26));
    assert_eq!(<ArrayVec<char, 3>>::MAX_LEN, Some(8 + 12));
    assert_eq!(<ArrayVec<String, 3>>::MAX_LEN, None);
    assert_eq!(<ArrayString<5>>::MAX_LEN, Some(13));
    assert_eq!(<heapless::String<5>>::MAX_LEN, Some(13));
    // No item can add a byte: the length prefix is all there is.
    assert_eq!(<ArrayVec<(), 3>>::FIXED_LEN, Some(8));
    assert_eq!(<heapless::Vec<u8, 0>>::FIXED_LEN, Some(8));
    // Unbounded containers have no maximum.
    assert_eq!(<SmallVec<[u8; 4]>>::MAX_LEN, None);
    assert_eq!(<IndexMap<u8, u8>>::MAX_LEN, None);
    assert_eq!(Bytes::MAX_LEN, None);
    // Their fingerprints are those of the standard types with their bytes.
    assert_eq!(
        <heapless::Vec<u16, 8>>::FINGERPRINT,
        <Vec<u16>>::FINGERPRINT
    );
    assert_eq!(<SmallVec<[u16; 2]>>::FINGERPRINT, <Vec<u16>>::FINGERPRINT);
    assert_eq!(<ArrayString<3>>::FINGERPRINT, String::FINGERPRINT);
    assert_eq!(Bytes::FINGERPRINT, <Vec<u8>>::FINGERPRINT);
    assert_eq!(
        <IndexSet<u8>>::FINGERPRINT,
        <std::collections::BTreeSet<u8>>::FINGERPRINT
    );
    // A maximum sizes a stack buffer.
    let mut buf = [0u8; marshal::max_len::<Frame>()];
    let frame = Frame {
        id: 1,
        samples: heapless::Vec::from_slice(&[7; 8]).unwrap(),
    };
    assert_eq!(frame.write_to(&mut buf), 26);
    assert_eq!(marshal::from_bytes::<Frame>(&buf).unwrap(), frame);
    let full = Bounded {
        tag: 1,
        readings: [1, 2, 3, 4].into_iter().collect(),
        label: ArrayString::from("12345678").unwrap(),
        name: heapless::String::try_from("abcdefghij").unwrap(),
        id: Uuid::max(),
        ids: heapless::Vec::from_slice(&[Uuid::nil()]).unwrap(),
    };
    assert_eq!(full.encoded_len(), 115);
    let mut buf = [0u8; marshal::max_len::<Bounded>()];
    full.write_to(&mut buf);
    assert_eq!(marshal::from_bytes::<Bounded>(&buf).unwrap(), full);
}

// ---------------------------------------------------------------------------
// Allocation: in place where the type is, charged where it allocates.

#[test]
fn the_bounded_types_decode_without_allocating() {
    let frame = Frame {
        id: 1,
        samples: heapless::Vec::from_slice(&[7; 8]).unwrap(),
    };
    let bytes = marshal::to_vec(&frame);
    let guard = lock();
    let (result, allocs) = measure(&guard, || marshal::from_bytes::<Frame>(&bytes));
    assert_eq!(result.unwrap(), frame);
    assert_eq!(allocs.count, 0);
    let (result, allocs) = measure(&guard, || marshal::from_bytes_limited::<Frame>(&bytes, 0));
    assert_eq!(result.unwrap(), frame);
    assert_eq!(allocs.count, 0);
    let small: SmallVec<[u32; 4]> = SmallVec::from_slice(&[1, 2, 3]);
    let bytes = marshal::to_vec(&small);
    let (result, allocs) = measure(&guard, || {
        marshal::from_bytes_limited::<SmallVec<[u32; 4]>>(&bytes, 0)
    });
    assert_eq!(result.unwrap(), small);
    assert_eq!(allocs.count, 0);
    // Encoding allocates nothing either.
    let value = Everything {
        id: Uuid::max(),
        prices: (0..10).map(|i| (format!("k{i}"), i)).collect(),
        seen: (0..10).collect(),
        hops: SmallVec::from_slice(&[1; 9]),
        names: SmallVec::from_vec(vec!["a".into(); 3]),
        readings: [1; 8].into_iter().collect(),
        label: ArrayString::from("label").unwrap(),
        samples: heapless::Vec::from_slice(&[2; 8]).unwrap(),
        words: heapless::Vec::new(),
        title: heapless::String::try_from("title").unwrap(),
        body: Bytes::from_static(b"body"),
        scratch: BytesMut::from(&b"scratch"[..]),
        maybe: None,
    };
    let mut buf = vec![0u8; value.encoded_len()];
    let (n, allocs) = measure(&guard, || (value.encoded_len(), value.write_to(&mut buf)));
    assert_eq!(n.0, n.1);
    assert_eq!(allocs.count, 0);
    assert_eq!(buf, bincode::serialize(&value).unwrap());
}

/// The least budget `bytes` decode as a `T` under; a decode under it asks
/// the allocator for no more, and one byte less is `AllocLimit`.
fn least_budget_of<T: for<'de> Unmarshal<'de>>(bytes: &[u8]) -> Result<usize, TestCaseError> {
    let lo = least_budget_within(|budget| marshal::from_bytes_limited::<T>(bytes, budget).is_ok())?;
    if lo > 0 {
        let err = marshal::from_bytes_limited::<T>(bytes, lo - 1)
            .map(drop)
            .unwrap_err();
        prop_assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: lo - 1 });
    }
    Ok(lo)
}

proptest! {
    #![proptest_config(config_with_cases(CASES))]

    /// Whatever they hold, the allocating types ask the allocator for no
    /// more than they were charged.
    #[test]
    fn the_budget_bounds_what_they_allocate(
        map in vec((any::<u64>(), ".{0,20}"), 0..60),
        set in vec(any::<[u32; 3]>(), 0..60),
        small in vec(any::<u64>(), 0..20),
        body in vec(any::<u8>(), 0..100),
    ) {
        let map: IndexMap<u64, String> = map.into_iter().collect();
        least_budget_of::<IndexMap<u64, String>>(&marshal::to_vec(&map))?;
        let set: IndexSet<[u32; 3]> = set.into_iter().collect();
        least_budget_of::<IndexSet<[u32; 3]>>(&marshal::to_vec(&set))?;
        least_budget_of::<SmallVec<[u64; 4]>>(&marshal::to_vec(&small))?;
        least_budget_of::<Bytes>(&marshal::to_vec(&body))?;
        least_budget_of::<BytesMut>(&marshal::to_vec(&body))?;
    }
}

#[test]
fn a_hostile_length_allocates_nothing() {
    let mut input = (1u64 << 40).to_le_bytes().to_vec();
    input.extend([0; 64]);
    let guard = lock();
    for (name, decode) in [
        (
            "IndexMap",
            (|b: &[u8]| marshal::from_bytes::<IndexMap<u8, u8>>(b).map(drop))
                as fn(&[u8]) -> Result<(), marshal::DecodeError>,
        ),
        ("IndexSet", |b| {
            marshal::from_bytes::<IndexSet<u8>>(b).map(drop)
        }),
        ("SmallVec", |b| {
            marshal::from_bytes::<SmallVec<[u8; 4]>>(b).map(drop)
        }),
        ("Bytes", |b| marshal::from_bytes::<Bytes>(b).map(drop)),
        ("BytesMut", |b| marshal::from_bytes::<BytesMut>(b).map(drop)),
        ("heapless::Vec", |b| {
            marshal::from_bytes::<heapless::Vec<u8, 4>>(b).map(drop)
        }),
        ("ArrayVec", |b| {
            marshal::from_bytes::<ArrayVec<u8, 4>>(b).map(drop)
        }),
    ] {
        let (result, allocs) = measure(&guard, || decode(&input));
        assert_eq!(
            result.unwrap_err().kind(),
            DecodeErrorKind::LengthOverflow { len: 1 << 40 },
            "{name}"
        );
        assert_eq!(allocs.count, 0, "{name}");
    }
}

// ---------------------------------------------------------------------------
// The depth limit.

#[derive(Marshal, Unmarshal)]
struct MapTree(IndexMap<u8, MapTree>);

#[derive(Marshal, Unmarshal)]
struct SetTree(u8, SmallVec<[Box<SetTree>; 1]>);

/// `T` decoded from the whole input, as `from_bytes` does.
fn whole<T: for<'de> Unmarshal<'de>>(r: &mut Reader<'_>) -> Result<(), marshal::DecodeError> {
    T::decode(r)?;
    r.finish()
}

/// What decoding `input` with `decode` gave on a thread with a 2 MiB stack.
fn decode_on_2_mib_thread(
    decode: fn(&mut Reader<'_>) -> Result<(), marshal::DecodeError>,
    input: Vec<u8>,
) -> Result<(), DecodeErrorKind> {
    let (result, _) = decode_on_thread(decode, input, None, THREAD_STACK);
    result.map_err(|(kind, _)| kind)
}

#[test]
fn nesting_through_them_is_too_deep_not_a_stack_overflow() {
    let too_deep = Err(DecodeErrorKind::TooDeep {
        limit: Reader::DEFAULT_MAX_DEPTH,
    });
    // A map of one entry in each map, 100,000 deep.
    let mut input = [1, 0, 0, 0, 0, 0, 0, 0, 7].repeat(100_000);
    input.extend([0; 8]);
    assert_eq!(decode_on_2_mib_thread(whole::<MapTree>, input), too_deep);
    // A small vector of one box in each.
    let mut input = [9, 1, 0, 0, 0, 0, 0, 0, 0].repeat(100_000);
    input.extend([9, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(decode_on_2_mib_thread(whole::<SetTree>, input), too_deep);
    // Shallow enough, they decode.
    let mut input = [1, 0, 0, 0, 0, 0, 0, 0, 7].repeat(50);
    input.extend([0; 8]);
    assert_eq!(decode_on_2_mib_thread(whole::<MapTree>, input), Ok(()));
}
