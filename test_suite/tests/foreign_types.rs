//! Other crates' types (features `uuid`, `indexmap`, `smallvec`,
//! `arrayvec`, `heapless`, `bytes`, `hashbrown`, `rust_decimal`,
//! `compact_str`, `smol_str`) against the real `bincode` 1.3 crate, with
//! each crate's own `serde` support.
//!
//! For random values of each type, and of a derived struct holding all of
//! them: `marshal::to_vec` gives exactly `bincode::serialize`'s bytes,
//! `encoded_len` their length (and never more than `MAX_LEN`), each reads
//! the other's bytes back as the value, and damaged copies of the bytes are
//! accepted by both or by neither, as the same values. The same in every
//! other configuration (`marshal::config`) against bincode 2's `serde`
//! module: `standard()`, and it and `legacy()` big-endian. Then what the
//! decoders promise beside the bytes: capacities, the allocation budget
//! (counted by a global allocator, `src/counting.rs`), the depth limit,
//! and `FIXED_LEN`/`MAX_LEN` with a `max_size` contract.

use std::fmt::Debug;

use arrayvec::{ArrayString, ArrayVec};
use bincode::Options;
use bytes::{Bytes, BytesMut};
use compact_str::CompactString;
use indexmap::{IndexMap, IndexSet};
use marshal::config::{self, MarshalIn, UnmarshalIn};
use marshal::{DecodeErrorKind, Marshal, Reader, Unmarshal};
use marshal_test_suite::dialects::InEvery;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use smol_str::SmolStr;
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

/// A bincode 2 limit that no value here reaches, so that a damaged length
/// is refused before bincode 2 allocates for it.
const BINCODE2_LIMIT: usize = 1 << 20;

/// [`check`] in configuration `c`, against bincode 2's `serde` module in
/// `b`: the same bytes, each reads the other's, and damaged copies are
/// read alike (the same value and length) or refused by both.
fn check_in<T, C, B>(value: &T, damage: &[(usize, u8)], c: C, b: B) -> Result<(), TestCaseError>
where
    T: MarshalIn<C::Dialect>
        + for<'de> UnmarshalIn<'de, C::Dialect>
        + Serialize
        + DeserializeOwned
        + PartialEq
        + Debug,
    C: config::Config,
    B: bincode2::config::Config,
{
    let theirs = bincode2::serde::encode_to_vec(value, b).expect("bincode 2 serializes");
    let ours = marshal::encode_to_vec(value, c);
    prop_assert_eq!(&ours, &theirs, "{:?}", value);
    prop_assert_eq!(marshal::encoded_len_with(value, c), ours.len());
    prop_assert_eq!(
        marshal::decode_from_slice::<T, _>(&theirs, c).ok(),
        Some((value, theirs.len())).map(|(v, n)| (v.clone_via_serde(), n))
    );
    let (back, used) = bincode2::serde::decode_from_slice::<T, _>(&ours, b)
        .map_err(|e| TestCaseError::fail(format!("bincode 2 reads marshal's bytes: {e}")))?;
    prop_assert_eq!((&back, used), (value, ours.len()));
    for input in damaged_copies(&theirs, damage) {
        let ours = marshal::decode_from_slice::<T, _>(&input, c).ok();
        let theirs = bincode2::serde::decode_from_slice::<T, _>(&input, b).ok();
        prop_assert_eq!(ours, theirs, "input {:?}", input);
    }
    Ok(())
}

/// A value's copy, through its own bytes: for types that are not `Clone`.
trait CloneViaSerde: Sized {
    fn clone_via_serde(&self) -> Self;
}

impl<T: Serialize + DeserializeOwned> CloneViaSerde for T {
    fn clone_via_serde(&self) -> Self {
        bincode::deserialize(&bincode::serialize(self).unwrap()).unwrap()
    }
}

/// Both directions for one value, then damaged copies of its bytes; the
/// same in every other configuration ([`check_in`]).
fn check<T>(value: &T, damage: &[(usize, u8)]) -> Result<(), TestCaseError>
where
    T: Marshal
        + for<'de> Unmarshal<'de>
        + Serialize
        + DeserializeOwned
        + PartialEq
        + Debug
        + InEvery,
{
    let limit = bincode2::config::standard().with_limit::<BINCODE2_LIMIT>();
    check_in(value, damage, config::standard(), limit)?;
    check_in(
        value,
        damage,
        config::standard().with_big_endian(),
        limit.with_big_endian(),
    )?;
    check_in(
        value,
        damage,
        config::legacy().with_big_endian(),
        bincode2::config::legacy()
            .with_big_endian()
            .with_limit::<BINCODE2_LIMIT>(),
    )?;
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

fn arb_hash_map() -> impl Strategy<Value = hashbrown::HashMap<String, u32>> {
    vec((".{0,4}", any::<u32>()), 0..8).prop_map(|pairs| pairs.into_iter().collect())
}

fn arb_hash_set() -> impl Strategy<Value = hashbrown::HashSet<u16>> {
    vec(any::<u16>(), 0..12).prop_map(|items| items.into_iter().collect())
}

/// Any `Decimal`: a 96-bit mantissa or a small one, either sign, every
/// scale, negative zeros too.
fn arb_decimal() -> impl Strategy<Value = Decimal> {
    let mantissa = prop_oneof![any::<[u32; 3]>(), (0u32..1000).prop_map(|lo| [lo, 0, 0])];
    (mantissa, any::<bool>(), 0u32..=28).prop_map(|([lo, mid, hi], negative, scale)| {
        let d = Decimal::from_parts(lo, mid, hi, negative, scale);
        // `from_parts` makes a zero positive; negation keeps it negative.
        if negative && d.is_zero() { -d } else { d }
    })
}

/// Strings up to 40 bytes: inline, and on the heap.
fn arb_compact_string() -> impl Strategy<Value = CompactString> {
    "[a-z é€😀]{0,12}".prop_map(CompactString::from)
}

fn arb_smol_str() -> impl Strategy<Value = SmolStr> {
    "[a-z é€😀\n]{0,12}".prop_map(SmolStr::from)
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
    table: hashbrown::HashMap<String, u32>,
    tags: hashbrown::HashSet<u16>,
    price: Decimal,
    quotes: Vec<Decimal>,
    name: CompactString,
    ident: SmolStr,
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
        (table, tags, price, decimals, name, ident) in (
            arb_hash_map(),
            arb_hash_set(),
            arb_decimal(),
            vec(arb_decimal(), 0..3),
            arb_compact_string(),
            arb_smol_str(),
        ),
    ) -> Everything {
        Everything {
            id, prices, seen, hops, names, readings, label, samples, words, title, body, scratch, maybe,
            table, tags, price, quotes: decimals, name, ident,
        }
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
    fn hash_map(v in arb_hash_map(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn hash_set(v in arb_hash_set(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn decimal(v in arb_decimal(), d in damage()) {
        check(&v, &d)?;
        // `==` compares values (1.5 == 1.50); the scale and the sign of a
        // zero are read as bincode reads them too.
        let bytes = marshal::to_vec(&v);
        prop_assert_eq!(
            marshal::from_bytes::<Decimal>(&bytes).unwrap().serialize(),
            bincode::deserialize::<Decimal>(&bytes).unwrap().serialize()
        );
        prop_assert_eq!(marshal::from_bytes::<Decimal>(&bytes).unwrap().scale(), v.scale());
    }
    #[test]
    fn decimals(v in vec(arb_decimal(), 0..6), d in damage()) { check(&v, &d)?; }
    #[test]
    fn compact_string(v in arb_compact_string(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn smol_str(v in arb_smol_str(), d in damage()) { check(&v, &d)?; }
    #[test]
    fn all_in_a_derived_struct(v in arb_everything(), d in damage()) { check(&v, &d)?; }

    /// Strings of the characters decimals are written with, in and out of
    /// the forms rust_decimal parses: marshal reads the ones bincode reads
    /// through rust_decimal's `serde` support, to the same value, scale and
    /// sign, and rejects the others.
    #[test]
    fn decimal_strings_read_as_bincode_reads_them(
        s in prop_oneof![
            "[-+]?[0-9_]{0,31}(\\.[0-9_]{0,31})?([eE][-+]?[0-9]{0,3})?",
            "-?[0-9]{0,30}\\.?[0-9]{0,30}",
            "[-+0-9._eE a]{0,12}",
        ],
    ) {
        let bytes = marshal::to_vec(s.as_str());
        let ours = marshal::from_bytes::<Decimal>(&bytes).map(|d| d.serialize());
        let theirs = bincode_exact().deserialize::<Decimal>(&bytes).map(|d| d.serialize());
        prop_assert_eq!(ours.as_ref().ok(), theirs.as_ref().ok(), "{:?}", s);
        if let Err(err) = ours {
            prop_assert_eq!(
                (err.kind(), err.offset()),
                (DecodeErrorKind::Custom("not a decimal number rust_decimal parses"), 8)
            );
        }
    }

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

/// rust_decimal's other forms, read as bincode reads them through its
/// `serde` support, and the strings both reject.
#[test]
fn decimal_forms_read_as_bincode_reads_them() {
    let read = |s: &str| {
        let bytes = marshal::to_vec(s);
        let ours = marshal::from_bytes::<Decimal>(&bytes).map(|d| d.serialize());
        let theirs = bincode_exact()
            .deserialize::<Decimal>(&bytes)
            .map(|d| d.serialize());
        assert_eq!(ours.as_ref().ok(), theirs.as_ref().ok(), "{s:?}");
        ours.ok().map(Decimal::deserialize)
    };
    assert_eq!(read("1e3"), Some(Decimal::new(1000, 0)));
    assert_eq!(read("1.5E-2"), Some(Decimal::new(15, 3)));
    assert_eq!(read("+7"), Some(Decimal::new(7, 0)));
    assert_eq!(read("1_000.5"), Some(Decimal::new(10005, 1)));
    assert_eq!(read(".5"), Some(Decimal::new(5, 1)));
    assert_eq!(read("007.50"), Some(Decimal::new(750, 2)));
    // A negative zero reads as zero, in either parser.
    assert!(read("-0.00").unwrap().is_sign_positive());
    assert_eq!(read("-0.00").unwrap().scale(), 2);
    // 29 digits after the point: rounded to 28.
    assert_eq!(
        read("0.00000000000000000000000000015"),
        Some(Decimal::new(2, 28))
    );
    // 2⁹⁶ − 1, and one more.
    assert_eq!(read("79228162514264337593543950335"), Some(Decimal::MAX));
    for bad in [
        "79228162514264337593543950336",
        "",
        "-",
        "1.2.3",
        " 1",
        "1 ",
        "0x10",
        "NaN",
        "1e",
    ] {
        assert_eq!(read(bad), None, "{bad:?}");
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

/// A `Decimal` has a maximum length: a struct of them keeps one.
#[derive(Debug, PartialEq, Marshal, Unmarshal)]
#[marshal(max_size = 82)]
struct Quote {
    qty: u32,
    bid: Decimal,
    ask: Decimal,
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
    assert_eq!(<hashbrown::HashMap<u8, u8>>::MAX_LEN, None);
    assert_eq!(CompactString::MAX_LEN, None);
    assert_eq!(SmolStr::MAX_LEN, None);
    // A `Decimal`'s string is at most 31 bytes; its longest ones reach it.
    assert_eq!(Decimal::MAX_LEN, Some(39));
    assert_eq!(Decimal::FIXED_LEN, None);
    assert_eq!(Quote::MAX_LEN, Some(82));
    let longest = [
        Decimal::from_parts(u32::MAX, u32::MAX, u32::MAX, true, 28),
        -Decimal::from_parts(0, 0, 0, false, 28),
        Decimal::from_parts(1, 0, 0, true, 28),
    ];
    for d in longest {
        assert_eq!(d.encoded_len(), 39, "{d}");
        assert_eq!(bincode::serialize(&d).unwrap().len(), 39, "{d}");
    }
    let quote = Quote {
        qty: 1,
        bid: longest[0],
        ask: longest[1],
    };
    let mut buf = [0u8; marshal::max_len::<Quote>()];
    assert_eq!(quote.write_to(&mut buf), 82);
    assert_eq!(marshal::from_bytes::<Quote>(&buf).unwrap(), quote);
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
    assert_eq!(
        <hashbrown::HashMap<String, u8>>::FINGERPRINT,
        <std::collections::HashMap<String, u8>>::FINGERPRINT
    );
    assert_eq!(
        <hashbrown::HashSet<u8>>::FINGERPRINT,
        <std::collections::HashSet<u8>>::FINGERPRINT
    );
    assert_eq!(CompactString::FINGERPRINT, String::FINGERPRINT);
    assert_eq!(SmolStr::FINGERPRINT, String::FINGERPRINT);
    // A `Decimal` is a string on the wire, but not any string.
    assert_ne!(Decimal::FINGERPRINT, String::FINGERPRINT);
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
    // Inline strings, and decimals in the form they are written in.
    let bytes = marshal::to_vec(&("twenty-three, on stack!", "twenty-three, on stack!"));
    let (result, allocs) = measure(&guard, || {
        marshal::from_bytes_limited::<(CompactString, SmolStr)>(&bytes, 0)
            .map(|(c, s)| (c.is_heap_allocated(), s.is_heap_allocated()))
    });
    assert_eq!(result.unwrap(), (false, false));
    assert_eq!(allocs.count, 0);
    let decimals = [
        Decimal::MAX,
        Decimal::MIN,
        Decimal::new(-5, 28),
        -Decimal::ZERO,
    ];
    let bytes = marshal::to_vec(&(decimals[0], decimals[1], decimals[2], decimals[3]));
    let (result, allocs) = measure(&guard, || {
        marshal::from_bytes_limited::<(Decimal, Decimal, Decimal, Decimal)>(&bytes, 0)
    });
    assert_eq!(
        result.unwrap(),
        (decimals[0], decimals[1], decimals[2], decimals[3])
    );
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
        table: (0..10).map(|i| (format!("k{i}"), i)).collect(),
        tags: (0..10).collect(),
        price: Decimal::new(-1250, 2),
        quotes: vec![Decimal::MAX, Decimal::MIN, Decimal::new(5, 28)],
        name: CompactString::from("a name longer than 24 bytes"),
        ident: SmolStr::new("ident"),
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

    /// hashbrown's tables, charged as std's are.
    #[test]
    fn the_budget_bounds_what_hash_tables_allocate(
        map in vec((any::<u64>(), ".{0,20}"), 0..60),
        set in vec(any::<[u32; 3]>(), 0..60),
        bytes in vec(any::<u8>(), 0..40),
    ) {
        let map: hashbrown::HashMap<u64, String> = map.into_iter().collect();
        least_budget_of::<hashbrown::HashMap<u64, String>>(&marshal::to_vec(&map))?;
        let set: hashbrown::HashSet<[u32; 3]> = set.into_iter().collect();
        least_budget_of::<hashbrown::HashSet<[u32; 3]>>(&marshal::to_vec(&set))?;
        let set: hashbrown::HashSet<u8> = bytes.into_iter().collect();
        least_budget_of::<hashbrown::HashSet<u8>>(&marshal::to_vec(&set))?;
    }

    /// An inline string is charged nothing, a longer one what it
    /// allocates.
    #[test]
    fn the_budget_bounds_what_strings_allocate(s in "[a-z é€😀\\n]{0,40}") {
        let bytes = marshal::to_vec(s.as_str());
        let compact = least_budget_of::<CompactString>(&bytes)?;
        prop_assert_eq!(compact == 0, s.len() <= 24, "{} bytes, charged {}", s.len(), compact);
        let smol = least_budget_of::<SmolStr>(&bytes)?;
        prop_assert_eq!(smol == 0, s.len() <= 23, "{} bytes, charged {}", s.len(), smol);
    }

    /// A `Decimal` in the form it is written in is charged nothing;
    /// another string, which goes through rust_decimal's parser, at most
    /// 192 bytes, and that parser asks the allocator for no more.
    #[test]
    fn the_budget_bounds_what_decimals_allocate(
        d in arb_decimal(),
        s in "[-+0-9._eE a]{0,40}",
    ) {
        prop_assert_eq!(least_budget_of::<Decimal>(&marshal::to_vec(&d))?, 0);
        let bytes = marshal::to_vec(s.as_str());
        let guard = lock();
        let (result, allocs) = measure(&guard, || {
            marshal::from_bytes_limited::<Decimal>(&bytes, 192).map(drop)
        });
        prop_assert!(allocs.total <= 192, "{:?} for {:?}", allocs, s);
        if let Err(err) = result {
            prop_assert!(
                !matches!(err.kind(), DecodeErrorKind::AllocLimit { .. }),
                "{:?} for {:?}", err, s
            );
        }
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
        ("hashbrown::HashMap", |b| {
            marshal::from_bytes::<hashbrown::HashMap<u8, u8>>(b).map(drop)
        }),
        ("hashbrown::HashSet", |b| {
            marshal::from_bytes::<hashbrown::HashSet<u8>>(b).map(drop)
        }),
        ("Decimal", |b| marshal::from_bytes::<Decimal>(b).map(drop)),
        ("CompactString", |b| {
            marshal::from_bytes::<CompactString>(b).map(drop)
        }),
        ("SmolStr", |b| marshal::from_bytes::<SmolStr>(b).map(drop)),
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

#[derive(Marshal, Unmarshal)]
struct HashTree(hashbrown::HashMap<u8, HashTree>);

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
    // A hashbrown map of one entry in each.
    let mut input = [1, 0, 0, 0, 0, 0, 0, 0, 7].repeat(100_000);
    input.extend([0; 8]);
    assert_eq!(decode_on_2_mib_thread(whole::<HashTree>, input), too_deep);
    // Shallow enough, they decode.
    let mut input = [1, 0, 0, 0, 0, 0, 0, 0, 7].repeat(50);
    input.extend([0; 8]);
    assert_eq!(
        decode_on_2_mib_thread(whole::<MapTree>, input.clone()),
        Ok(())
    );
    assert_eq!(decode_on_2_mib_thread(whole::<HashTree>, input), Ok(()));
}
