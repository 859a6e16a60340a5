//! The serde bridge (`marshal::serde`) against the real `bincode` 1.3
//! crate.
//!
//! The first part generates random values of 44 serde types and checks,
//! for each value, both directions: `marshal::serde::to_vec`,
//! `write_to` and `encoded_len` give exactly `bincode::serialize`'s bytes,
//! `marshal::serde::from_bytes` reads bincode's bytes back as the value and
//! bincode reads marshal's; then damaged copies of the bytes (truncated, a
//! byte changed, a byte added) are read by both, which must accept the same
//! ones and read the same values (bincode configured as
//! `bincode::deserialize` but rejecting trailing bytes, as `from_bytes`
//! does; `read_from` leaves them, as bincode does).
//!
//! The rest checks what the bridge promises beside the bytes: borrowing,
//! length checks before allocation, the allocation budget, the clear
//! errors of what the format cannot do, the error type's traits, no
//! allocation while encoding (a counting global allocator,
//! `src/counting.rs`), and `#[marshal(with = marshal::serde::field)]`.
//! The depth limit is `tests/serde_stack.rs`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroU32, Wrapping};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bincode::Options;
use marshal::serde::ErrorKind;
use marshal::{BufferTooSmall, DecodeErrorKind, Marshal, Unmarshal};
use proptest::collection::{btree_map, btree_set, hash_map, hash_set, vec, vec_deque};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

marshal_test_suite::counting_allocator!();

use marshal_test_suite::budget::least_budget_within;
use marshal_test_suite::checks::bincode_exact;
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::damage::{agree, damage, damaged_copies, same};
use marshal_test_suite::strategies::config_with_cases;

/// Cases per property.
const CASES: u32 = 96;

/// Both directions for one value, then damaged copies of its bytes.
fn check<T>(value: &T, damage: &[(usize, u8)]) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let theirs = bincode::serialize(value).expect("bincode serializes every type here");

    // Encoding: three ways, one set of bytes.
    let ours = marshal::serde::to_vec(value).expect("to_vec");
    prop_assert_eq!(&ours, &theirs, "to_vec differs from bincode::serialize");
    prop_assert_eq!(
        marshal::serde::encoded_len(value).expect("len"),
        theirs.len()
    );
    let mut buf = vec![0xa5u8; theirs.len() + 3];
    prop_assert_eq!(
        marshal::serde::write_to(value, &mut buf).expect("write_to"),
        theirs.len()
    );
    prop_assert_eq!(&buf[..theirs.len()], &theirs[..]);
    prop_assert_eq!(&buf[theirs.len()..], &[0xa5; 3]);
    if !theirs.is_empty() {
        let err = marshal::serde::try_write_to(value, &mut buf[..theirs.len() - 1]).unwrap_err();
        prop_assert_eq!(
            err.kind(),
            ErrorKind::BufferTooSmall(BufferTooSmall {
                needed: theirs.len(),
                available: theirs.len() - 1
            })
        );
    }

    // Decoding: each reads the other's bytes as the value.
    let back: T = marshal::serde::from_bytes(&theirs).expect("marshal reads bincode's bytes");
    prop_assert!(same(&back, value), "{:?} read back as {:?}", value, back);
    let back: T = bincode::deserialize(&ours).expect("bincode reads marshal's bytes");
    prop_assert!(same(&back, value));
    let (back, used) = marshal::serde::read_from::<T>(&[&theirs[..], &[7, 7]].concat()).unwrap();
    prop_assert!(same(&back, value));
    prop_assert_eq!(used, theirs.len());

    // Damaged bytes: both accept the same ones, as the same values.
    for input in damaged_copies(&theirs, damage) {
        let ours = marshal::serde::from_bytes::<T>(&input);
        agree(&input, ours, bincode_exact().deserialize::<T>(&input))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// serde types: std's, derived ones of every shape, and other crates'.

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Unit;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Newtype(u32);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct TupleStruct(u8, String, i64);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Named {
    id: u64,
    flag: bool,
    name: String,
    samples: Vec<i16>,
    initial: Option<char>,
    ratio: f64,
    pair: (u8, i128),
}

/// All four kinds of variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
enum Kinds {
    Unit,
    Newtype(String),
    Tuple(u16, bool, Option<u8>),
    Struct { x: f32, y: Vec<u8>, z: Newtype },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, Box<Tree>),
    Many(Vec<Tree>),
}

fn arb_tree() -> impl Strategy<Value = Tree> {
    any::<u8>()
        .prop_map(Tree::Leaf)
        .prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| Tree::Node(Box::new(a), Box::new(b))),
                vec(inner, 0..4).prop_map(Tree::Many),
            ]
        })
}

/// serde attributes that keep to the data model bincode supports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
#[serde(rename_all = "camelCase")]
struct Attributed {
    #[serde(rename = "other")]
    renamed: u8,
    #[serde(skip)]
    skipped: u32,
    #[serde(with = "serde_bytes")]
    bytes: Vec<u8>,
    #[serde(default)]
    defaulted: Option<String>,
    nested: Kinds,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Generic<T> {
    head: T,
    rest: Vec<T>,
}

fn arb_system_time() -> impl Strategy<Value = SystemTime> {
    (0u64..1 << 40, 0u32..1_000_000_000).prop_map(|(s, n)| UNIX_EPOCH + Duration::new(s, n))
}

fn arb_ip() -> impl Strategy<Value = IpAddr> {
    prop_oneof![
        any::<[u8; 4]>().prop_map(|o| IpAddr::V4(Ipv4Addr::from(o))),
        any::<[u8; 16]>().prop_map(|o| IpAddr::V6(Ipv6Addr::from(o))),
    ]
}

fn arb_socket() -> impl Strategy<Value = SocketAddr> {
    prop_oneof![
        any::<SocketAddrV4>().prop_map(SocketAddr::V4),
        (any::<[u8; 16]>(), any::<u16>()).prop_map(|(o, p)| SocketAddr::V6(SocketAddrV6::new(
            Ipv6Addr::from(o),
            p,
            0,
            0
        ))),
    ]
}

fn arb_chrono() -> impl Strategy<Value = chrono::DateTime<chrono::Utc>> {
    (-(1i64 << 37)..1 << 37, 0u32..1_000_000_000)
        .prop_map(|(s, n)| chrono::DateTime::from_timestamp(s, n).expect("in range"))
}

/// One proptest per type: `$name`, `$ty` and a strategy for it.
macro_rules! compare {
    ($($name:ident: $ty:ty = $strategy:expr;)*) => {
        /// How many serde types the first part compares.
        const TYPES: usize = [$(stringify!($name)),*].len();

        proptest! {
            #![proptest_config(config_with_cases(CASES))]
            $(
                #[test]
                fn $name(value in $strategy, damage in damage()) {
                    check::<$ty>(&value, &damage)?;
                }
            )*
        }
    };
}

compare! {
    u8_: u8 = any::<u8>();
    u16_: u16 = any::<u16>();
    u32_: u32 = any::<u32>();
    u64_: u64 = any::<u64>();
    u128_: u128 = any::<u128>();
    usize_: usize = any::<usize>();
    i8_: i8 = any::<i8>();
    i16_: i16 = any::<i16>();
    i32_: i32 = any::<i32>();
    i64_: i64 = any::<i64>();
    i128_: i128 = any::<i128>();
    f32_: f32 = any::<u32>().prop_map(f32::from_bits);
    f64_: f64 = any::<u64>().prop_map(f64::from_bits);
    bool_: bool = any::<bool>();
    char_: char = any::<char>();
    string: String = "[a-z é€😀]{0,12}";
    option: Option<u32> = any::<Option<u32>>();
    nested_option: Option<Option<Box<Named>>> = any::<Option<Option<Box<Named>>>>();
    unit: () = Just(());
    unit_struct: Unit = any::<Unit>();
    newtype_struct: Newtype = any::<Newtype>();
    tuple_struct: TupleStruct = any::<TupleStruct>();
    named_struct: Named = any::<Named>();
    every_variant_kind: Kinds = any::<Kinds>();
    recursive_enum: Tree = arb_tree();
    attributed: Attributed = any::<Attributed>();
    generic: Generic<Kinds> = any::<Generic<Kinds>>();
    seq_of_u16: Vec<u16> = vec(any::<u16>(), 0..16);
    seq_of_strings: Vec<String> = vec(".{0,6}", 0..6);
    seq_of_seqs: Vec<Vec<i8>> = vec(vec(any::<i8>(), 0..5), 0..5);
    deque: VecDeque<i16> = vec_deque(any::<i16>(), 0..8);
    tuple: (u8, bool, char, f64, String) = any::<(u8, bool, char, f64, String)>();
    array: [u32; 4] = any::<[u32; 4]>();
    byte_buf: serde_bytes::ByteBuf = vec(any::<u8>(), 0..32).prop_map(serde_bytes::ByteBuf::from);
    btree_map_: BTreeMap<String, Kinds> = btree_map(".{0,4}", any::<Kinds>(), 0..5);
    hash_map_: HashMap<u16, Vec<u8>> = hash_map(any::<u16>(), vec(any::<u8>(), 0..4), 0..5);
    btree_set_: BTreeSet<u64> = btree_set(any::<u64>(), 0..8);
    hash_set_: HashSet<i32> = hash_set(any::<i32>(), 0..8);
    cow: Cow<'static, str> = ".{0,8}".prop_map(Cow::Owned);
    result: Result<u8, String> = any::<Result<u8, String>>();
    non_zero: NonZeroU32 = any::<NonZeroU32>();
    wrapping: Wrapping<i64> = any::<i64>().prop_map(Wrapping);
    duration: Duration = (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n));
    system_time: SystemTime = arb_system_time();
    ip: IpAddr = arb_ip();
    socket: SocketAddr = arb_socket();
    chrono_utc: chrono::DateTime<chrono::Utc> = arb_chrono();
    uuid_: uuid::Uuid = any::<u128>().prop_map(uuid::Uuid::from_u128);
}

#[test]
fn at_least_thirty_serde_types_are_compared() {
    const { assert!(TYPES >= 30) };
    // The number the crate docs give ("Supported types").
    const { assert!(TYPES == 48) };
    println!("{TYPES} serde types compared with bincode 1.3");
}

// ---------------------------------------------------------------------------
// Borrowing.

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Borrowed<'a> {
    text: &'a str,
    #[serde(with = "serde_bytes")]
    bytes: &'a [u8],
    #[serde(borrow)]
    list: Vec<&'a str>,
}

fn inside(part: &[u8], whole: &[u8]) -> bool {
    let range = whole.as_ptr_range();
    range.start <= part.as_ptr() && part.as_ptr_range().end <= range.end
}

#[test]
fn str_and_serde_bytes_borrow_from_the_input() {
    let value = Borrowed {
        text: "héllo",
        bytes: b"\x00\x01\x02",
        list: vec!["a", "bc"],
    };
    let bytes = marshal::serde::to_vec(&value).unwrap();
    assert_eq!(bytes, bincode::serialize(&value).unwrap());
    let back: Borrowed = marshal::serde::from_bytes(&bytes).unwrap();
    assert_eq!(back, value);
    assert!(inside(back.text.as_bytes(), &bytes));
    assert!(inside(back.bytes, &bytes));
    assert!(back.list.iter().all(|s| inside(s.as_bytes(), &bytes)));
}

// ---------------------------------------------------------------------------
// Length prefixes, checked before anything is allocated.

#[test]
fn a_length_beyond_the_input_is_rejected_before_allocating() {
    let guard = lock();
    // 2^40 items, 16 bytes of them.
    let mut input = (1u64 << 40).to_le_bytes().to_vec();
    input.extend([0; 16]);
    let (result, allocs) = measure(&guard, || marshal::serde::from_bytes::<Vec<u64>>(&input));
    let err = result.unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::LengthOverflow { len: 1 << 40 }, 0)
    );
    assert_eq!(allocs.count, 0);
    let (result, allocs) = measure(&guard, || marshal::serde::from_bytes::<String>(&input));
    assert_eq!(
        result.unwrap_err().kind(),
        DecodeErrorKind::LengthOverflow { len: 1 << 40 }
    );
    assert_eq!(allocs.count, 0);
    let (result, allocs) = measure(&guard, || {
        marshal::serde::from_bytes::<HashMap<u8, u8>>(&input)
    });
    assert_eq!(
        result.unwrap_err().kind(),
        DecodeErrorKind::LengthOverflow { len: 1 << 40 }
    );
    assert_eq!(allocs.count, 0);
    // bincode rejects these too.
    assert!(bincode::deserialize::<Vec<u64>>(&input).is_err());
    assert!(bincode::deserialize::<String>(&input).is_err());
}

#[test]
fn a_sequence_allocates_nothing_ahead_of_its_items() {
    let guard = lock();
    // 1000 items claimed in 1000 bytes, of which 3 decode: the items of a
    // `Vec<[u64; 32]>` are 256 bytes each, on the wire and in memory. The
    // vector holds at most 8 of them before the input runs out, where
    // bincode's visitor would have made room for all 1000 first.
    let mut input = 1000u64.to_le_bytes().to_vec();
    input.extend([0u8; 1000]);
    let (result, allocs) = measure(&guard, || {
        marshal::serde::from_bytes::<Vec<[u64; 32]>>(&input)
    });
    assert_eq!(
        result.unwrap_err().kind(),
        DecodeErrorKind::UnexpectedEnd { needed: 8 }
    );
    assert!(allocs.largest <= 8 * 256, "{allocs:?}");
}

// ---------------------------------------------------------------------------
// The allocation budget.

#[test]
fn the_budget_bounds_strings_and_sequences() {
    let value = vec![String::from("twenty bytes of text"); 3];
    let bytes = marshal::serde::to_vec(&value).unwrap();
    let budget = 8 * 24 + 2 * 4 * 24 + 3 * 20;
    assert_eq!(
        marshal::serde::from_bytes_limited::<Vec<String>>(&bytes, budget).unwrap(),
        value
    );
    let err = marshal::serde::from_bytes_limited::<Vec<String>>(&bytes, budget - 1).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::AllocLimit { limit: budget - 1 }
    );

    // What the decode actually asked for stays within what was charged.
    let guard = lock();
    let (result, allocs) = measure(&guard, || {
        marshal::serde::from_bytes_limited::<Vec<String>>(&bytes, budget)
    });
    assert!(result.is_ok());
    assert!(allocs.total <= budget, "{allocs:?}");

    // Maps: each entry as a key and value side by side.
    let map: BTreeMap<u32, u64> = (0..10).map(|i| (i, u64::from(i))).collect();
    let bytes = marshal::serde::to_vec(&map).unwrap();
    let budget = 8 * 16 + 9 * 4 * 16;
    assert_eq!(
        marshal::serde::from_bytes_limited::<BTreeMap<u32, u64>>(&bytes, budget).unwrap(),
        map
    );
    let err =
        marshal::serde::from_bytes_limited::<BTreeMap<u32, u64>>(&bytes, budget - 1).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::AllocLimit { limit: budget - 1 }
    );
}

/// The least budget `bytes` decode as a `T` under, and that a decode
/// under it asks the allocator for no more than it.
fn within_least_budget<T: DeserializeOwned>(bytes: &[u8]) -> Result<(), TestCaseError> {
    least_budget_within(|budget| marshal::serde::from_bytes_limited::<T>(bytes, budget).is_ok())
        .map(drop)
}

proptest! {
    #![proptest_config(config_with_cases(CASES))]

    /// Vectors of any length and item size, and strings, ask the allocator
    /// for no more than the bridge charged.
    #[test]
    fn a_vector_asks_for_no_more_than_it_was_charged(
        small in vec(any::<u8>(), 0..300),
        large in vec(any::<[u64; 5]>(), 0..80),
        strings in vec(".{0,20}", 0..40),
        deque in vec_deque(any::<u32>(), 0..100),
    ) {
        within_least_budget::<Vec<u8>>(&marshal::serde::to_vec(&small).unwrap())?;
        within_least_budget::<Vec<[u64; 5]>>(&marshal::serde::to_vec(&large).unwrap())?;
        within_least_budget::<Vec<String>>(&marshal::serde::to_vec(&strings).unwrap())?;
        within_least_budget::<VecDeque<u32>>(&marshal::serde::to_vec(&deque).unwrap())?;
    }
}

// ---------------------------------------------------------------------------
// What the format cannot do: clear errors, never panics.

#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum Untagged {
    Number(u32),
    Text(String),
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type")]
enum InternallyTagged {
    A { x: u8 },
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", content = "c")]
enum AdjacentlyTagged {
    A(u8),
}

#[derive(Debug, Serialize, Deserialize)]
struct Flattened {
    a: u8,
    #[serde(flatten)]
    rest: HashMap<String, u8>,
}

/// Reading what needs `deserialize_any` or `deserialize_identifier`
/// fails with a message saying so, where bincode fails too.
#[test]
fn self_describing_types_are_an_error() {
    fn unsupported<T: DeserializeOwned + Debug>(bytes: &[u8], what: &str) {
        let err = marshal::serde::from_bytes::<T>(bytes).unwrap_err();
        assert!(
            matches!(err.kind(), DecodeErrorKind::Custom(m) if m.starts_with(what)),
            "{err:?}"
        );
        assert!(bincode::deserialize::<T>(bytes).is_err());
    }
    let any = "deserialize_any is not supported";
    unsupported::<Untagged>(&[1, 0, 0, 0], any);
    unsupported::<InternallyTagged>(&[0; 16], any);
    // An adjacently tagged enum reads its tag's name, a flattened struct
    // its map's keys: names the format does not write.
    let identifier = "deserialize_identifier is not supported";
    unsupported::<AdjacentlyTagged>(&[0; 16], identifier);
    unsupported::<Flattened>(
        &[1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, b'a', 1],
        identifier,
    );
    let err = marshal::serde::from_bytes::<Untagged>(&[0; 4]).unwrap_err();
    assert!(
        err.to_string()
            .contains("untagged and internally tagged enums")
    );

    // Writing them works as bincode's does: untagged writes the variant's
    // contents alone; internally tagged and flattened ones write maps of
    // unknown length, which both refuse.
    assert_eq!(
        marshal::serde::to_vec(&Untagged::Number(7)).unwrap(),
        bincode::serialize(&Untagged::Number(7)).unwrap()
    );
    let flat = Flattened {
        a: 1,
        rest: HashMap::new(),
    };
    assert_eq!(
        marshal::serde::encoded_len(&flat).unwrap_err().kind(),
        ErrorKind::UnknownLength
    );
    assert!(bincode::serialize(&flat).is_err());
    let tagged = InternallyTagged::A { x: 1 };
    assert_eq!(
        marshal::serde::to_vec(&tagged).map_err(|e| e.kind()),
        bincode::serialize(&tagged).map_err(|_| ErrorKind::UnknownLength)
    );
}

/// A sequence of unknown length (an iterator without an exact size).
struct Filtered(Vec<u8>);

impl Serialize for Filtered {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().filter(|b| **b > 0))
    }
}

#[test]
fn a_sequence_of_unknown_length_is_an_error_everywhere() {
    let value = Filtered(vec![1, 0, 2]);
    let err = marshal::serde::encoded_len(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnknownLength);
    assert!(err.to_string().contains("unknown length"));
    assert_eq!(
        marshal::serde::to_vec(&value).unwrap_err().kind(),
        ErrorKind::UnknownLength
    );
    let mut buf = [0u8; 64];
    assert_eq!(
        marshal::serde::write_to(&value, &mut buf)
            .unwrap_err()
            .kind(),
        ErrorKind::UnknownLength
    );
    assert!(matches!(
        *bincode::serialize(&value).unwrap_err(),
        bincode::ErrorKind::SequenceMustHaveLength
    ));
}

/// What `Deserialize` implementations reject is an error at the item they
/// were reading, as for bincode.
#[test]
fn deserialize_errors_carry_the_items_offset() {
    // Variant index 9 of four.
    let mut bytes = marshal::serde::to_vec(&(1u32, Kinds::Unit)).unwrap();
    bytes[4] = 9;
    let err = marshal::serde::from_bytes::<(u32, Kinds)>(&bytes).unwrap_err();
    assert_eq!(err.offset(), 4);
    assert!(matches!(err.kind(), DecodeErrorKind::Custom(_)));
    assert!(bincode::deserialize::<(u32, Kinds)>(&bytes).is_err());

    // An `Option` byte other than 0 and 1, a bool, a char, UTF-8.
    let err = marshal::serde::from_bytes::<(u8, Option<u8>)>(&[0, 2, 0]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::InvalidTag {
                tag: 2,
                ty: "Option"
            },
            1
        )
    );
    let err = marshal::serde::from_bytes::<bool>(&[3]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(3));
    let err = marshal::serde::from_bytes::<char>(&[0xff]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidChar(0xff));
    let err = marshal::serde::from_bytes::<String>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xff]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::InvalidUtf8, 8)
    );
    let err = marshal::serde::from_bytes::<u8>(&[1, 2]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
}

/// A `u8` whose `Deserialize` reads a `bool` and, when that fails, swallows
/// the error and takes what follows as the value, as "default on error"
/// adapters do.
#[derive(Debug, PartialEq)]
struct Recovers(u8);

impl<'de> Deserialize<'de> for Recovers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Recovers;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a bool, or a byte that is not one, then a u8")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Recovers, A::Error> {
                let flag = seq
                    .next_element::<bool>()
                    .map_or(99, |b| b.map_or(0, u8::from));
                match seq.next_element::<u8>()? {
                    Some(value) => Ok(Recovers(flag.saturating_add(value))),
                    None => Err(serde::de::Error::invalid_length(1, &self)),
                }
            }
        }
        d.deserialize_tuple(2, Visitor)
    }
}

/// An error a `Deserialize` implementation catches is gone: decoding goes
/// on, and a later error is reported as itself.
#[test]
fn a_caught_error_does_not_linger() {
    // A bool: the flag, then the value.
    assert_eq!(
        marshal::serde::from_bytes::<Recovers>(&[1, 5]).unwrap(),
        Recovers(6)
    );
    // Not a bool: `InvalidBool` raised, caught, and the next byte read.
    assert_eq!(
        marshal::serde::from_bytes::<Recovers>(&[7, 5]).unwrap(),
        Recovers(104)
    );
    assert_eq!(
        bincode::deserialize::<Recovers>(&[7, 5]).unwrap(),
        Recovers(104)
    );
    // Caught, then the input ends: the end is the error, at its offset.
    let err = marshal::serde::from_bytes::<(u8, Recovers)>(&[0, 7]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 2)
    );
    // Caught, then trailing bytes after a good value.
    let err = marshal::serde::from_bytes::<Recovers>(&[7, 5, 0]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
}

// ---------------------------------------------------------------------------
// The error type.

struct Refuses;

impl Serialize for Refuses {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom(format_args!("refused {}", 42)))
    }
}

#[test]
fn the_error_type_has_display_debug_and_the_error_traits() {
    fn is_error<E: std::error::Error + serde::ser::Error + Send + Sync + 'static>(_: &E) {}
    let err = marshal::serde::encoded_len(&Refuses).unwrap_err();
    is_error(&err);
    assert_eq!(err.kind(), ErrorKind::Custom);
    assert_eq!(err.to_string(), "refused 42");
    assert!(format!("{err:?}").contains("refused 42"));
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert_eq!(boxed.to_string(), "refused 42");

    let made = <marshal::serde::Error as serde::ser::Error>::custom("made by hand");
    assert_eq!(made.to_string(), "made by hand");

    let mut short = [0u8; 3];
    let err = marshal::serde::write_to(&"abc", &mut short).unwrap_err();
    assert_eq!(
        err.to_string(),
        "buffer too small: encoding needs 11 bytes, buffer has 3"
    );
}

/// A `Serialize` implementation that writes fewer bytes each time it runs:
/// `to_vec` measures, then writes, and notices.
struct Shrinking(std::cell::Cell<usize>);

impl Serialize for Shrinking {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.0.get();
        self.0.set(n.saturating_sub(1));
        s.collect_seq(vec![0u8; n])
    }
}

#[test]
fn a_value_that_serializes_differently_the_second_time_is_an_error() {
    let err = marshal::serde::to_vec(&Shrinking(std::cell::Cell::new(4))).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LengthMismatch(marshal::LengthMismatch::Short {
            encoded_len: 12,
            written: 11
        })
    );
}

// ---------------------------------------------------------------------------
// Encoding allocates nothing.

#[derive(Serialize)]
struct Catalog {
    name: String,
    items: Vec<Named>,
    by_id: HashMap<u32, Vec<String>>,
    index: BTreeMap<String, Kinds>,
    tree: Tree,
    at: chrono::DateTime<chrono::Utc>,
    id: uuid::Uuid,
    when: SystemTime,
    addrs: Vec<SocketAddr>,
    blob: serde_bytes::ByteBuf,
}

fn catalog() -> Catalog {
    let named = |i: u64| Named {
        id: i,
        flag: i.is_multiple_of(2),
        name: format!("item {i} ✓"),
        samples: (0..i as i16).collect(),
        initial: char::from_u32(0x1f600 + i as u32),
        ratio: i as f64 / 3.0,
        pair: (i as u8, -(i as i128)),
    };
    Catalog {
        name: "catalog".into(),
        items: (0..50).map(named).collect(),
        by_id: (0..20).map(|i| (i, vec![format!("{i}"); 3])).collect(),
        index: (0..20)
            .map(|i| {
                (
                    format!("k{i}"),
                    Kinds::Struct {
                        x: i as f32,
                        y: vec![1; 4],
                        z: Newtype(i),
                    },
                )
            })
            .collect(),
        tree: Tree::Many(vec![
            Tree::Node(
                Box::new(Tree::Leaf(1)),
                Box::new(Tree::Leaf(2))
            );
            10
        ]),
        at: chrono::DateTime::from_timestamp(1_700_000_000, 5).unwrap(),
        id: uuid::Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
        when: UNIX_EPOCH + Duration::new(1_700_000_000, 9),
        addrs: vec!["10.0.0.1:80".parse().unwrap(), "[::1]:443".parse().unwrap()],
        blob: serde_bytes::ByteBuf::from(vec![7; 300]),
    }
}

#[test]
fn encoded_len_and_write_to_allocate_nothing() {
    let value = catalog();
    let theirs = bincode::serialize(&value).unwrap();
    let mut buf = vec![0u8; theirs.len()];
    let guard = lock();
    let (len, allocs) = measure(&guard, || marshal::serde::encoded_len(&value).unwrap());
    assert_eq!(len, theirs.len());
    assert_eq!(allocs.count, 0, "encoded_len allocated: {allocs:?}");
    let (written, allocs) = measure(&guard, || {
        marshal::serde::write_to(&value, &mut buf).unwrap()
    });
    assert_eq!(written, theirs.len());
    assert_eq!(allocs.count, 0, "write_to allocated: {allocs:?}");
    let (written, allocs) = measure(&guard, || {
        marshal::serde::try_write_to(&value, &mut buf).unwrap()
    });
    assert_eq!(written, theirs.len());
    assert_eq!(allocs.count, 0, "try_write_to allocated: {allocs:?}");
    assert_eq!(buf, theirs);
    // A short buffer: the error, measured again, without allocating.
    let (result, allocs) = measure(&guard, || {
        marshal::serde::try_write_to(&value, &mut buf[..100]).map_err(|e| e.kind())
    });
    assert_eq!(
        result,
        Err(ErrorKind::BufferTooSmall(BufferTooSmall {
            needed: theirs.len(),
            available: 100
        }))
    );
    assert_eq!(allocs.count, 0);
    // to_vec: one allocation of exactly the length.
    let (out, allocs) = measure(&guard, || marshal::serde::to_vec(&value).unwrap());
    assert_eq!(out, theirs);
    assert_eq!((allocs.count, allocs.largest), (1, theirs.len()));
}

// ---------------------------------------------------------------------------
// `#[marshal(with = marshal::serde::field)]`.

/// A type with serde support only, as from another crate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Settings {
    retries: u8,
    name: String,
    limits: Option<(u32, u32)>,
    mode: Kinds,
}

#[derive(Debug, Clone, PartialEq, Marshal, Unmarshal, Arbitrary)]
struct Job {
    id: u32,
    #[marshal(with = marshal::serde::field)]
    settings: Settings,
    tags: Vec<String>,
    #[marshal(with = marshal::serde::field)]
    when: SystemTime,
}

/// The same fields, all through serde.
#[derive(Serialize, Deserialize)]
struct SerdeJob {
    id: u32,
    settings: Settings,
    tags: Vec<String>,
    when: SystemTime,
}

proptest! {
    #![proptest_config(config_with_cases(CASES))]

    #[test]
    fn a_with_field_has_bincodes_bytes(
        id in any::<u32>(),
        settings in any::<Settings>(),
        tags in vec(".{0,5}", 0..4),
        when in arb_system_time(),
    ) {
        let job = Job { id, settings: settings.clone(), tags: tags.clone(), when };
        let theirs = bincode::serialize(&SerdeJob { id, settings, tags, when }).unwrap();
        prop_assert_eq!(marshal::to_vec(&job), theirs.clone());
        prop_assert_eq!(job.encoded_len(), theirs.len());
        prop_assert_eq!(marshal::from_bytes::<Job>(&theirs).unwrap(), job);
    }
}

#[test]
fn a_with_field_error_is_at_the_fields_offset() {
    let job = Job {
        id: 1,
        settings: Settings {
            retries: 0,
            name: "n".into(),
            limits: None,
            mode: Kinds::Unit,
        },
        tags: vec![],
        when: UNIX_EPOCH,
    };
    let mut bytes = marshal::to_vec(&job);
    // `limits`: an `Option` byte of 2, after `id`, `retries` and `name`.
    let at = 4 + 1 + 9;
    bytes[at] = 2;
    let err = marshal::from_bytes::<Job>(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::InvalidTag {
                tag: 2,
                ty: "Option"
            },
            at
        )
    );
}

#[derive(Marshal)]
struct Holder {
    #[marshal(with = marshal::serde::field)]
    refuses: Refuses,
}

#[test]
#[should_panic(expected = "marshal::serde::field: refused 42")]
fn a_failing_serialize_in_a_with_field_panics_with_its_message() {
    let _ = Holder { refuses: Refuses }.encoded_len();
}

// ---------------------------------------------------------------------------
// WIRE_FORMAT.md's deviations from bincode 1.3 that the bridge adds, each
// checked against bincode.

/// Zero-sized items beyond the input: bincode loops once per item, the
/// bridge counts each item as a byte.
#[test]
fn deviation_zero_sized_items_beyond_the_input() {
    let mut input = 10u64.to_le_bytes().to_vec();
    assert_eq!(
        bincode::deserialize::<Vec<()>>(&input).unwrap(),
        vec![(); 10]
    );
    let err = marshal::serde::from_bytes::<Vec<()>>(&input).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::LengthOverflow { len: 10 }, 0)
    );
    let err = marshal::serde::from_bytes::<BTreeMap<(), ()>>(&input).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 10 });
    assert!(bincode::deserialize::<BTreeMap<(), ()>>(&input).is_ok());
    // With as many bytes left as items: the same value, those bytes left.
    input.extend([0xaa; 10]);
    let (value, used) = marshal::serde::read_from::<Vec<Unit>>(&input).unwrap();
    assert_eq!((value, used), (vec![Unit; 10], 8));
    assert_eq!(
        bincode::deserialize::<Vec<Unit>>(&input).unwrap(),
        vec![Unit; 10]
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Chain(Option<Box<Chain>>);

fn chain(depth: usize) -> Chain {
    (0..depth).fold(Chain(None), |inner, _| Chain(Some(Box::new(inner))))
}

/// Nesting deeper than the reader's limit: bincode reads it by recursion,
/// the bridge rejects it, and reads it with a higher limit.
#[test]
fn deviation_nesting_deeper_than_the_limit() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let value = chain(200);
            let bytes = bincode::serialize(&value).unwrap();
            assert_eq!(marshal::serde::to_vec(&value).unwrap(), bytes);
            assert_eq!(bincode::deserialize::<Chain>(&bytes).unwrap(), value);
            // Each level is a newtype and an `Option`'s `Some`: two levels.
            let err = marshal::serde::from_bytes::<Chain>(&bytes).unwrap_err();
            assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 256 });
            let mut r = marshal::Reader::new(&bytes).with_max_depth(1024);
            assert_eq!(marshal::serde::decode::<Chain>(&mut r).unwrap(), value);
            // Within the limit, the same value.
            let shallow = bincode::serialize(&chain(100)).unwrap();
            assert_eq!(
                marshal::serde::from_bytes::<Chain>(&shallow).unwrap(),
                chain(100)
            );
        })
        .unwrap()
        .join()
        .unwrap();
}

/// chrono's, time's and jiff's serde forms: the derive route writes
/// marshal's layouts, the bridge bincode's bytes.
#[test]
fn timestamps_through_the_bridge_have_their_serde_bytes() {
    let at = chrono::DateTime::from_timestamp(1_709_164_800, 0).unwrap();
    let theirs = bincode::serialize(&at).unwrap();
    assert_eq!(marshal::serde::to_vec(&at).unwrap(), theirs);
    assert_eq!(theirs[8..], *b"2024-02-29T00:00:00Z");
    assert_ne!(marshal::to_vec(&at), theirs);
    let date = time::Date::from_calendar_date(2024, time::Month::February, 29).unwrap();
    assert_eq!(
        marshal::serde::to_vec(&date).unwrap(),
        bincode::serialize(&date).unwrap()
    );
    let span = jiff::SignedDuration::from_millis(1500);
    assert_eq!(
        marshal::serde::to_vec(&span).unwrap(),
        bincode::serialize(&span).unwrap()
    );
    assert_eq!(
        marshal::serde::from_bytes::<jiff::SignedDuration>(&bincode::serialize(&span).unwrap())
            .unwrap(),
        span
    );
}
