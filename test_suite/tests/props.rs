//! Property tests of the `Marshal` contract, run on the same set of checks for
//! every type:
//!
//! - `write_to` returns exactly `encoded_len()`, and `try_write_to`,
//!   `to_vec` and `encode` through a `Writer` produce the same bytes;
//! - bytes past the returned length are left untouched;
//! - for every shorter buffer (sampled when the encoding is long),
//!   `try_write_to` returns `BufferTooSmall { needed, available }`, writes
//!   nothing past the end of the short slice, and writes at most a prefix of
//!   the encoding into it;
//! - `write_to` on a short buffer panics with both lengths in the message;
//! - `FIXED_LEN` and `MAX_LEN`, when set, agree with every value's length.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI128, NonZeroU16, NonZeroU32, Saturating, Wrapping};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use marshal::{BufferTooSmall, Marshal, Overflow, Writer};
use marshal_test_suite::properties;
use marshal_test_suite::strategies::{
    Tuple12, arb_f32_bits, arb_f64_bits, arb_ip_addr, arb_ipv6, arb_multibyte_string,
    arb_socket_addr, arb_socket_v6, arb_tuple12, arb_wrapped_deque, config,
};
use proptest::collection::{btree_map, hash_map, hash_set, vec};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;

/// The byte a buffer is pre-filled with, to see which bytes get written.
const SENTINEL: u8 = 0xA5;
/// Bytes of sentinel kept after the region under test.
const SLACK: usize = 16;

/// Values per test whose `write_to` panics are checked.
const PANIC_CHECKS_PER_TEST: usize = 24;

/// Whether the value a test is on is among its first
/// [`PANIC_CHECKS_PER_TEST`]; `seen` is the test's own counter.
fn first_few(seen: &AtomicUsize) -> bool {
    seen.fetch_add(1, Ordering::Relaxed) < PANIC_CHECKS_PER_TEST
}

fn untouched(bytes: &[u8], sentinel: u8) -> bool {
    bytes.iter().all(|&b| b == sentinel)
}

/// Every length below `len`, or a sample of them when `len` is large: both
/// ends in full and evenly spaced points in between.
fn short_lengths(len: usize) -> Vec<usize> {
    const EDGE: usize = 40;
    if len <= 3 * EDGE {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..EDGE).collect();
    let step = (len - 2 * EDGE) / EDGE + 1;
    out.extend((EDGE..len - EDGE).step_by(step));
    out.extend(len - EDGE..len);
    out
}

/// Every check of the contract on one value.
fn check_all<T: Marshal + ?Sized>(value: &T, check_panics_too: bool) -> Result<(), TestCaseError> {
    let len = value.encoded_len();
    prop_assert_eq!(value.encoded_len(), len, "encoded_len is not stable");

    // (e) The size constants hold for this value.
    if let Some(n) = T::FIXED_LEN {
        prop_assert_eq!(len, n, "FIXED_LEN disagrees with encoded_len");
        prop_assert!(
            T::MAX_LEN.is_some_and(|m| m >= n),
            "FIXED_LEN is {:?} but MAX_LEN is {:?}",
            T::FIXED_LEN,
            T::MAX_LEN
        );
    }
    if let Some(m) = T::MAX_LEN {
        prop_assert!(len <= m, "encoded_len {} exceeds MAX_LEN {}", len, m);
    }

    // (a) and (b): the returned length, and nothing written past it; twice,
    // with complementary fill bytes, so that a written byte that happens to
    // equal the fill byte cannot hide.
    let mut buf = vec![SENTINEL; len + SLACK];
    prop_assert_eq!(value.write_to(&mut buf), len, "write_to return value");
    prop_assert!(
        untouched(&buf[len..], SENTINEL),
        "write_to wrote past encoded_len"
    );
    let expected = buf[..len].to_vec();
    let mut buf = vec![!SENTINEL; len + SLACK];
    prop_assert_eq!(value.write_to(&mut buf), len);
    prop_assert_eq!(
        &buf[..len],
        &expected[..],
        "encoding depends on buffer contents"
    );
    prop_assert!(
        untouched(&buf[len..], !SENTINEL),
        "write_to wrote past encoded_len"
    );

    // The other entry points agree: an exact-size buffer, `to_vec`, and
    // `encode` through a writer that already holds a byte.
    let mut exact = vec![0u8; len];
    prop_assert_eq!(value.try_write_to(&mut exact), Ok(len));
    prop_assert_eq!(&exact, &expected);
    prop_assert_eq!(&marshal::to_vec(value), &expected);
    let mut buf = vec![SENTINEL; 1 + len + SLACK];
    let mut w = Writer::new(&mut buf);
    w.put_u8(0x42).unwrap();
    prop_assert_eq!(value.encode(&mut w), Ok(()));
    prop_assert_eq!(w.written(), 1 + len);
    prop_assert_eq!(w.remaining(), SLACK);
    prop_assert_eq!(buf[0], 0x42);
    prop_assert_eq!(&buf[1..=len], &expected[..]);
    prop_assert!(untouched(&buf[1 + len..], SENTINEL));

    // (c) Every shorter buffer is an error, and nothing is written past its
    // end; what is written inside it is a prefix of the encoding.
    let mut big = vec![SENTINEL; len + SLACK];
    for short in short_lengths(len) {
        big.fill(SENTINEL);
        prop_assert_eq!(
            value.try_write_to(&mut big[..short]),
            Err(BufferTooSmall {
                needed: len,
                available: short,
            })
        );
        prop_assert!(
            untouched(&big[short..], SENTINEL),
            "try_write_to wrote past the end of a {}-byte buffer (needs {})",
            short,
            len
        );
        let common = big[..short]
            .iter()
            .zip(&expected)
            .take_while(|(a, b)| a == b)
            .count();
        prop_assert!(
            untouched(&big[common..short], SENTINEL),
            "try_write_to into {} bytes wrote something other than a prefix of the encoding",
            short
        );

        big.fill(SENTINEL);
        let mut w = Writer::new(&mut big[..short]);
        prop_assert_eq!(value.encode(&mut w), Err(Overflow));
        prop_assert!(w.written() <= short);
        prop_assert!(untouched(&big[short..], SENTINEL));
    }

    // (d) `write_to` on a short buffer panics, naming both lengths. Panics
    // are slow (especially with RUST_BACKTRACE set), so callers ask for this
    // on the first few values of each test only.
    if len > 0 && check_panics_too {
        check_panics(value, len, 0)?;
        if len > 1 {
            check_panics(value, len, len - 1)?;
        }
    }
    Ok(())
}

fn check_panics<T: Marshal + ?Sized>(
    value: &T,
    len: usize,
    short: usize,
) -> Result<(), TestCaseError> {
    let mut big = vec![SENTINEL; len + SLACK];
    let result = catch_unwind(AssertUnwindSafe(|| value.write_to(&mut big[..short])));
    let payload = match result {
        Ok(n) => {
            return Err(TestCaseError::fail(format!(
                "write_to into {short} bytes returned {n} instead of panicking (needs {len})"
            )));
        }
        Err(payload) => payload,
    };
    let message = if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else {
        return Err(TestCaseError::fail("panic payload is not a string"));
    };
    let numbers: Vec<usize> = message
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .collect();
    prop_assert!(
        numbers.contains(&len) && numbers.contains(&short),
        "panic message {:?} should mention {} and {}",
        message,
        len,
        short
    );
    prop_assert!(
        untouched(&big[short..], SENTINEL),
        "write_to wrote past the end of the buffer before panicking"
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// Derived types. Those with a fixed size say so in their name.

/// Every field has a fixed size: 1 + 8 + 8 + 12 + 4 + 6 + 6 + 0 + 0 + 2 + 4 + 1.
#[derive(Debug, Clone, Marshal, Arbitrary)]
struct FixedStruct {
    a: u8,
    b: i64,
    c: [u16; 4],
    d: Duration,
    ip: Ipv4Addr,
    sock: SocketAddrV4,
    grid: [[u8; 3]; 2],
    unit: (),
    phantom: PhantomData<String>,
    nz: NonZeroU16,
    wrapped: Wrapping<u32>,
    nothing: Option<()>,
}

#[derive(Debug, Clone, Marshal, Arbitrary)]
struct FixedTuple(u32, [i8; 5]);

/// Every variant is 4 bytes after the `u32` tag.
#[derive(Debug, Clone, Marshal, Arbitrary)]
enum FixedEnum {
    A(u32),
    B { x: i16, y: u16 },
    C([u8; 4]),
    D(f32),
    E(Wrapping<i32>),
}

#[derive(Debug, Clone, Marshal, Arbitrary)]
enum FixedAllUnit {
    X,
    Y,
    Z,
}

/// A one-byte tag with explicit values: every variant is 3 bytes.
#[derive(Debug, Clone, Marshal, Arbitrary)]
#[marshal(tag_type = u8)]
enum FixedU8Tags {
    #[marshal(tag = 200)]
    A(u16),
    B(i16),
    #[marshal(tag = 7)]
    C {
        x: u8,
        y: u8,
    },
}

/// A two-byte tag; variants of different sizes.
#[derive(Debug, Clone, Marshal, Arbitrary)]
#[marshal(tag_type = u16)]
enum BoundedU16Tags {
    #[marshal(tag = 65535)]
    Big(u64),
    Small(u8),
    Empty,
}

/// Variants of different but bounded sizes.
#[derive(Debug, Clone, Marshal, Arbitrary)]
enum BoundedEnum {
    A,
    B(u64),
    C(char),
    D(Option<u32>),
    E { c: [char; 2], ip: IpAddr },
}

/// Skipped fields do not count towards the size: 4 + 2.
#[derive(Debug, Clone, Marshal, Arbitrary)]
struct FixedWithSkip {
    a: u32,
    #[marshal(skip)]
    _note: String,
    c: [u8; 2],
}

#[derive(Debug, Clone, Marshal, Arbitrary)]
struct FixedEmpty {}

#[derive(Debug, Clone, Marshal, Arbitrary)]
struct FixedUnit;

#[derive(Debug, Clone, Marshal, Arbitrary)]
struct Pair<T> {
    a: T,
    b: T,
}

/// A const generic parameter: `N + 2` bytes.
#[derive(Debug, Clone, Marshal)]
struct ConstBuf<const N: usize> {
    data: [u8; N],
    len: u16,
}

fn arb_const_buf<const N: usize>() -> impl Strategy<Value = ConstBuf<N>> {
    (vec(any::<u8>(), N), any::<u16>()).prop_map(|(data, len)| ConstBuf {
        data: data.try_into().expect("N bytes"),
        len,
    })
}

/// A field encoded by a `with` module: no size is known at compile time.
#[derive(Debug, Clone, Marshal, Arbitrary)]
struct WithField {
    a: u8,
    #[marshal(with = varint)]
    b: u32,
    c: u16,
}

/// A LEB128-style variable-length integer, 1 to 5 bytes.
mod varint {
    pub(crate) fn encoded_len(v: &u32) -> usize {
        let bits = 32 - v.leading_zeros() as usize;
        bits.div_ceil(7).max(1)
    }

    pub(crate) fn encode(v: &u32, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        let n = encoded_len(v);
        let mut x = *v;
        for i in 0..n {
            let more = i + 1 < n;
            w.put_u8((x & 0x7f) as u8 | if more { 0x80 } else { 0 })?;
            x >>= 7;
        }
        Ok(())
    }
}

/// Fixed-size and bounded types nested inside each other.
#[derive(Debug, Clone, Marshal, Arbitrary)]
struct BoundedNested {
    fixed: [FixedEnum; 3],
    maybe: Option<BoundedEnum>,
    pair: (FixedAllUnit, FixedU8Tags),
    tagged: BoundedU16Tags,
}

/// No size bound at all.
#[derive(Debug, Clone, Marshal, Arbitrary)]
enum Unbounded {
    Text(#[proptest(strategy = "arb_multibyte_string()")] String),
    Many(#[proptest(strategy = "vec(any::<BoundedEnum>(), 0..6)")] Vec<BoundedEnum>),
    Nested {
        inner: Option<Box<FixedStruct>>,
        #[proptest(strategy = "btree_map(arb_multibyte_string(), any::<FixedEnum>(), 0..4)")]
        map: BTreeMap<String, FixedEnum>,
        #[marshal(skip)]
        _cache: u64,
    },
    Unit,
}

/// Variants mixing fixed-size fields with variable ones, a `with` field
/// and a generic one: the length is a per-variant fixed part plus the
/// variable fields, and must still add up.
#[derive(Debug, Clone, Marshal, Arbitrary)]
enum MixedVariants<T: Marshal + Arbitrary + 'static> {
    Fixed(u8, u16),
    Mixed {
        a: u32,
        #[proptest(strategy = "arb_multibyte_string()")]
        text: String,
        b: [u8; 3],
        maybe: Option<u64>,
    },
    Varint(u8, #[marshal(with = varint)] u32, u16),
    Generic(T, u8),
    Skips {
        #[marshal(skip)]
        _note: u64,
        kept: i16,
    },
    Unit,
}

/// Recursive through `Box` and `Option<Box<_>>`: no size bound.
#[derive(Debug, Clone, Marshal)]
struct Node {
    value: u16,
    left: Option<Box<Node>>,
    right: Option<Box<Node>>,
}

fn arb_node() -> impl Strategy<Value = Node> {
    any::<u16>()
        .prop_map(|value| Node {
            value,
            left: None,
            right: None,
        })
        .prop_recursive(5, 32, 2, |inner| {
            (
                any::<u16>(),
                proptest::option::of(inner.clone()),
                proptest::option::of(inner),
            )
                .prop_map(|(value, left, right)| Node {
                    value,
                    left: left.map(Box::new),
                    right: right.map(Box::new),
                })
        })
}

#[derive(Debug, Clone, Marshal, Arbitrary)]
struct Document {
    #[proptest(strategy = "arb_multibyte_string()")]
    title: String,
    #[proptest(strategy = "vec(any::<Unbounded>(), 0..4)")]
    sections: Vec<Unbounded>,
    #[proptest(strategy = "btree_map(arb_multibyte_string(), any::<BoundedEnum>(), 0..4)")]
    meta: BTreeMap<String, BoundedEnum>,
    #[proptest(strategy = "hash_set(arb_multibyte_string(), 0..4)")]
    tags: HashSet<String>,
    with: WithField,
    nested: BoundedNested,
}

// ---------------------------------------------------------------------------
// The same checks for every type.

properties! {
    check = |value| {
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        check_all(value, first_few(&SEEN))
    };
    u8_: u8;
    i8_: i8;
    u16_: u16;
    i32_: i32;
    u64_: u64;
    u128_: u128;
    i128_: i128;
    usize_: usize;
    isize_: isize;
    f32_: f32 = arb_f32_bits();
    f64_: f64 = arb_f64_bits();
    bool_: bool;
    char_: char;
    unit: ();

    string: String;
    string_multibyte: String = arb_multibyte_string();
    vec_u8: Vec<u8>;
    vec_u8_large: Vec<u8> = vec(any::<u8>(), 200..3000);
    vec_bool: Vec<bool>;
    vec_u32: Vec<u32>;
    vec_string: Vec<String> = vec(arb_multibyte_string(), 0..12);
    vec_option_char: Vec<Option<char>>;
    vec_vec_string: Vec<Vec<String>> = vec(vec(arb_multibyte_string(), 0..6), 0..6);
    vec_unit: Vec<()> = vec(any::<()>(), 0..50);
    deque_u16: VecDeque<u16> = arb_wrapped_deque(any::<u16>());
    deque_u8: VecDeque<u8> = arb_wrapped_deque(any::<u8>());
    deque_string: VecDeque<String> = arb_wrapped_deque(arb_multibyte_string());

    array_u8_0: [u8; 0];
    array_string_0: [String; 0] = Just([]);
    array_u32_4: [u32; 4];
    array_char_3: [char; 3];
    array_option_u8_32: [Option<u8>; 32];
    array_string_3: [String; 3] = [arb_multibyte_string(), arb_multibyte_string(), arb_multibyte_string()];

    tuple_fixed: (u8, u64);
    tuple_bounded: (char, bool, Option<i16>);
    tuple_unbounded: (String, u8);
    tuple_12: Tuple12 = arb_tuple12();

    option_u8: Option<u8>;
    option_unit: Option<()>;
    option_phantom: Option<PhantomData<u64>> = prop_oneof![Just(None), Just(Some(PhantomData))];
    option_option_char: Option<Option<char>>;
    option_string: Option<String>;

    box_u64: Box<u64>;
    box_str: Box<str> = arb_multibyte_string().prop_map(String::into_boxed_str);
    rc_str: Rc<str> = arb_multibyte_string().prop_map(Rc::from);
    arc_slice_u8: Arc<[u8]> = any::<Vec<u8>>().prop_map(Arc::from);
    cow_str: Cow<'static, str> = arb_multibyte_string().prop_map(Cow::Owned);

    btree_map_fixed: BTreeMap<u8, u32>;
    btree_map_unbounded: BTreeMap<String, Vec<u8>> = btree_map(arb_multibyte_string(), any::<Vec<u8>>(), 0..8);
    btree_set_char: BTreeSet<char>;
    hash_map_u32_string: HashMap<u32, String> = hash_map(any::<u32>(), arb_multibyte_string(), 0..24);
    hash_set_u64: HashSet<u64>;

    nonzero_u32: NonZeroU32;
    nonzero_i128: NonZeroI128;
    wrapping_u16: Wrapping<u16> = any::<u16>().prop_map(Wrapping);
    saturating_i8: Saturating<i8> = any::<i8>().prop_map(Saturating);
    phantom: PhantomData<String> = Just(PhantomData);
    duration: Duration;

    ipv4: Ipv4Addr;
    ipv6: Ipv6Addr = arb_ipv6();
    ip: IpAddr = arb_ip_addr();
    socket_v4: SocketAddrV4;
    socket_v6: SocketAddrV6 = arb_socket_v6();
    socket: SocketAddr = arb_socket_addr();

    derived_fixed_struct: FixedStruct;
    derived_fixed_tuple: FixedTuple;
    derived_fixed_enum: FixedEnum;
    derived_fixed_all_unit: FixedAllUnit;
    derived_fixed_u8_tags: FixedU8Tags;
    derived_bounded_u16_tags: BoundedU16Tags;
    derived_bounded_enum: BoundedEnum;
    derived_fixed_with_skip: FixedWithSkip;
    derived_fixed_empty: FixedEmpty;
    derived_fixed_unit: FixedUnit;
    derived_pair_fixed: Pair<u16>;
    derived_pair_unbounded: Pair<String>;
    derived_const_buf_0: ConstBuf<0> = arb_const_buf::<0>();
    derived_const_buf_7: ConstBuf<7> = arb_const_buf::<7>();
    derived_const_buf_300: ConstBuf<300> = arb_const_buf::<300>();
    derived_with_field: WithField;
    derived_bounded_nested: BoundedNested;
    derived_unbounded: Unbounded;
    derived_document: Document;
    derived_recursive: Node = arb_node();
    derived_mixed_variants_fixed: MixedVariants<u32>;
    derived_mixed_variants_unbounded: MixedVariants<Vec<u8>>;
    derived_vec_fixed_enum: Vec<FixedEnum> = vec(any::<FixedEnum>(), 0..20);
    derived_option_bounded_enum: Option<BoundedEnum>;
    derived_array_fixed_struct: [FixedStruct; 2];
    derived_map_of_enums: BTreeMap<u8, Unbounded> = btree_map(any::<u8>(), any::<Unbounded>(), 0..4);
}

// Unsized types, checked through a borrow of generated data.
proptest! {
    #![proptest_config(config())]

    #[test]
    fn str_(s in arb_multibyte_string()) {
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        let panics = first_few(&SEEN);
        check_all::<str>(&s, panics)?;
        check_all::<&str>(&s.as_str(), panics)?;
    }

    #[test]
    fn slice_u16(v in any::<Vec<u16>>()) {
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        check_all::<[u16]>(&v, first_few(&SEEN))?;
    }

    #[test]
    fn slice_string(v in vec(arb_multibyte_string(), 0..8)) {
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        check_all::<[String]>(&v, first_few(&SEEN))?;
    }

    #[test]
    fn cow_borrowed(s in arb_multibyte_string()) {
        static SEEN: AtomicUsize = AtomicUsize::new(0);
        check_all(&Cow::Borrowed(s.as_str()), first_few(&SEEN))?;
    }
}

/// The size constants of the types above, so that the per-value checks of
/// `FIXED_LEN` and `MAX_LEN` are known to run on both kinds of type.
#[test]
fn size_constants() {
    assert_eq!(FixedStruct::FIXED_LEN, Some(52));
    assert_eq!(FixedStruct::MAX_LEN, Some(52));
    assert_eq!(FixedTuple::FIXED_LEN, Some(9));
    assert_eq!(FixedEnum::FIXED_LEN, Some(8));
    assert_eq!(FixedAllUnit::FIXED_LEN, Some(4));
    assert_eq!(FixedU8Tags::FIXED_LEN, Some(3));
    assert_eq!(BoundedU16Tags::FIXED_LEN, None);
    assert_eq!(BoundedU16Tags::MAX_LEN, Some(2 + 8));
    assert_eq!(BoundedEnum::FIXED_LEN, None);
    assert_eq!(BoundedEnum::MAX_LEN, Some(4 + 8 + 20)); // tag + ([char; 2] + IpAddr)
    assert_eq!(FixedWithSkip::FIXED_LEN, Some(6));
    assert_eq!(FixedEmpty::FIXED_LEN, Some(0));
    assert_eq!(FixedUnit::FIXED_LEN, Some(0));
    assert_eq!(Pair::<u16>::FIXED_LEN, Some(4));
    assert_eq!(Pair::<String>::FIXED_LEN, None);
    assert_eq!(Pair::<String>::MAX_LEN, None);
    assert_eq!(Pair::<char>::MAX_LEN, Some(8));
    assert_eq!(ConstBuf::<0>::FIXED_LEN, Some(2));
    assert_eq!(ConstBuf::<300>::FIXED_LEN, Some(302));
    assert_eq!(WithField::FIXED_LEN, None);
    assert_eq!(WithField::MAX_LEN, None);
    assert_eq!(BoundedNested::FIXED_LEN, None);
    assert_eq!(
        BoundedNested::MAX_LEN,
        Some(3 * 8 + (1 + 32) + (4 + 3) + 10)
    );
    assert_eq!(Unbounded::MAX_LEN, None);
    assert_eq!(Document::MAX_LEN, None);
    assert_eq!(Node::FIXED_LEN, None);
    assert_eq!(Node::MAX_LEN, None);

    assert_eq!(<Option<()>>::FIXED_LEN, Some(1));
    assert_eq!(<Option<u8>>::FIXED_LEN, None);
    assert_eq!(<Option<u8>>::MAX_LEN, Some(2));
    assert_eq!(<[String; 0]>::FIXED_LEN, Some(0));
    assert_eq!(<[char; 3]>::MAX_LEN, Some(12));
    assert_eq!(<(u8, u64)>::FIXED_LEN, Some(9));
    assert_eq!(IpAddr::MAX_LEN, Some(20));
    assert_eq!(SocketAddr::MAX_LEN, Some(22));
}

/// The explicit tags are what goes on the wire.
#[test]
fn explicit_tags_on_the_wire() {
    assert_eq!(marshal::to_vec(&FixedU8Tags::A(0x0102)), [200, 2, 1]);
    assert_eq!(marshal::to_vec(&FixedU8Tags::B(-1)), [1, 0xff, 0xff]);
    assert_eq!(marshal::to_vec(&FixedU8Tags::C { x: 3, y: 4 }), [7, 3, 4]);
    assert_eq!(
        marshal::to_vec(&BoundedU16Tags::Big(1)),
        [0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(marshal::to_vec(&BoundedU16Tags::Small(9)), [1, 0, 9]);
    assert_eq!(marshal::to_vec(&BoundedU16Tags::Empty), [2, 0]);
    let w = WithField { a: 1, b: 300, c: 2 };
    assert_eq!(marshal::to_vec(&w), [1, 0xac, 0x02, 2, 0]);
}

/// The panic message of `write_to` on a short buffer, for a value that is
/// not a primitive.
#[test]
fn write_to_panic_message() {
    let value = (String::from("héllo"), 7u32);
    let len = value.encoded_len();
    assert_eq!(len, 8 + 6 + 4);
    let mut buf = [0u8; 5];
    let payload = catch_unwind(AssertUnwindSafe(|| value.write_to(&mut buf))).unwrap_err();
    let message = payload
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(message.contains("18"), "{message}");
    assert!(message.contains('5'), "{message}");
}
