//! Randomized cross-check against the real `bincode` 1.3 crate.
//!
//! Each test of the first part generates random values of one type, encodes
//! each with `marshal::to_vec` and with `bincode::serialize` (default
//! options, serde derive), and asserts that the bytes are identical. Floats
//! are compared by their bytes, so NaNs of every payload are fine.
//!
//! Hash maps and sets are encoded from the same instance by both encoders, so
//! both see the same iteration order.
//!
//! The last part decodes with both: it checks that marshal's reader and
//! `bincode::deserialize` accept the same bytes and give the same values,
//! and has one test per row of WIRE_FORMAT.md's table "Deviations from
//! bincode 1.3", each failing if its row stopped being true.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::marker::PhantomData;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI128, NonZeroIsize, NonZeroU8,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU128, NonZeroUsize, Saturating, Wrapping,
};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use marshal::{DecodeErrorKind, Marshal, Reader, Unmarshal};
use marshal_test_suite::damage;
use marshal_test_suite::fixtures::be_u32;
use marshal_test_suite::properties;
use marshal_test_suite::strategies::{
    Tuple12, arb_duration, arb_ip_addr, arb_ipv6, arb_multibyte_string, arb_socket_addr,
    arb_socket_v6, arb_tuple12, arb_wrapped_deque, config,
};
use proptest::collection::{btree_map, btree_set, hash_map, hash_set, vec};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize, Serializer};

/// Encodes `value` with both encoders and compares the bytes, and checks
/// that `encoded_len` agrees with bincode's length.
fn check<T: Marshal + Serialize + ?Sized>(value: &T) -> Result<(), TestCaseError> {
    let ours = marshal::to_vec(value);
    let theirs = bincode::serialize(value).expect("bincode cannot fail on these types");
    prop_assert_eq!(&ours, &theirs, "marshal and bincode disagree");
    prop_assert_eq!(value.encoded_len(), theirs.len());
    Ok(())
}

// ---------------------------------------------------------------------------
// Strategies.

/// Any Unicode scalar value, uniformly over the code-point range.
fn arb_any_scalar() -> impl Strategy<Value = char> {
    (0u32..=0x10_FFFF).prop_filter_map("surrogate", char::from_u32)
}

/// Characters outside ASCII: 2 to 4 UTF-8 bytes each.
fn arb_multibyte_char() -> impl Strategy<Value = char> {
    (0x80u32..=0x10_FFFF).prop_filter_map("surrogate", char::from_u32)
}

// ---------------------------------------------------------------------------
// Derived types: each derives both `Marshal` and `Serialize`.

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct Named {
    id: u64,
    flag: bool,
    #[proptest(strategy = "arb_multibyte_string()")]
    name: String,
    samples: Vec<i16>,
    initial: Option<char>,
    ratio: f64,
    pair: (u8, i128),
}

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct Tuple(i32, String, bool, [u16; 3]);

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct Newtype(u64);

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct Unit;

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct EmptyBraced {}

#[derive(Debug, Clone, Marshal, Serialize)]
struct Generic<T, U> {
    head: T,
    rest: Vec<U>,
    maybe: Option<T>,
}

fn arb_generic<T: Debug + Clone, U: Debug>(
    t: impl Strategy<Value = T> + Clone,
    u: impl Strategy<Value = U>,
) -> impl Strategy<Value = Generic<T, U>> {
    (t.clone(), vec(u, 0..8), proptest::option::of(t)).prop_map(|(head, rest, maybe)| Generic {
        head,
        rest,
        maybe,
    })
}

/// Type, lifetime and const generic parameters at once. The strategy below
/// builds the owned parts; the test borrows from them.
#[derive(Debug, Marshal, Serialize)]
#[serde(bound = "T: Serialize")]
struct Mixed<'a, T, const N: usize> {
    label: &'a str,
    bytes: &'a [u8],
    cow: Cow<'a, str>,
    items: Vec<T>,
    #[serde(serialize_with = "serialize_array")]
    fixed: [T; N],
    tail: u8,
}

/// Serializes `[T; N]` for any `N` the way serde's built-in array impls do:
/// as a tuple of `N` elements.
fn serialize_array<S: Serializer, T: Serialize, const N: usize>(
    arr: &[T; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeTuple;
    let mut t = s.serialize_tuple(N)?;
    for x in arr {
        t.serialize_element(x)?;
    }
    t.end()
}

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
enum Shape {
    Empty,
    Point(i32, i32),
    Circle {
        center: (f32, f32),
        radius: f32,
    },
    Label(#[proptest(strategy = "arb_multibyte_string()")] String),
    Polygon {
        points: Vec<(i16, i16)>,
        closed: bool,
    },
    Wrapped(Option<Box<u32>>),
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Marshal, Serialize, Arbitrary,
)]
enum Color {
    Red,
    Green,
    Blue,
    Other,
}

/// Enums nested in sequences, options and maps.
#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
enum Outer {
    One(Shape),
    Many(#[proptest(strategy = "vec(any::<Shape>(), 0..6)")] Vec<Shape>),
    Maybe(Option<Color>),
    Keyed {
        #[proptest(strategy = "btree_map(any::<String>(), any::<Shape>(), 0..5)")]
        by_name: BTreeMap<String, Shape>,
        #[proptest(strategy = "hash_map(any::<u8>(), vec(any::<Color>(), 0..4), 0..5)")]
        by_id: HashMap<u8, Vec<Color>>,
    },
    Nothing,
}

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct Scene {
    #[proptest(strategy = "vec(any::<Outer>(), 0..4)")]
    layers: Vec<Outer>,
    background: Option<Color>,
    #[proptest(strategy = "btree_map(any::<u16>(), any::<Option<Shape>>(), 0..4)")]
    index: BTreeMap<u16, Option<Shape>>,
}

/// Skipped fields are in neither encoding.
#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct WithSkip {
    a: u8,
    #[marshal(skip)]
    #[serde(skip)]
    _cache: Vec<u64>,
    b: String,
    #[marshal(skip)]
    #[serde(skip)]
    _scratch: Option<String>,
    c: i32,
}

#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
enum EnumWithSkip {
    Tuple(
        u8,
        #[marshal(skip)]
        #[serde(skip)]
        String,
        u16,
    ),
    Struct {
        #[marshal(skip)]
        #[serde(skip)]
        hidden: u64,
        shown: String,
    },
    Plain,
}

/// A field encoded through a `with` module on one side and a serde
/// `serialize_with` function on the other: a big-endian `u32`.
#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
struct WithModule {
    before: u8,
    #[marshal(with = be_u32)]
    #[serde(serialize_with = "be_u32::serialize")]
    value: u32,
    after: String,
}

/// A recursive type: recursion through `Box`, `Option<Box<_>>` and `Vec`.
#[derive(Debug, Clone, Marshal, Serialize)]
enum Expr {
    Lit(i64),
    Var(String),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Call {
        name: String,
        args: Vec<Expr>,
    },
    Let {
        name: String,
        value: Box<Expr>,
        body: Option<Box<Expr>>,
    },
}

fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Expr::Lit),
        arb_multibyte_string().prop_map(Expr::Var),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| Expr::Neg(Box::new(e))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (arb_multibyte_string(), vec(inner.clone(), 0..4))
                .prop_map(|(name, args)| Expr::Call { name, args }),
            (
                arb_multibyte_string(),
                inner.clone(),
                proptest::option::of(inner)
            )
                .prop_map(|(name, value, body)| Expr::Let {
                    name,
                    value: Box::new(value),
                    body: body.map(Box::new),
                }),
        ]
    })
}

/// Explicit tags equal to the declaration indexes, so serde agrees.
#[derive(Debug, Clone, Marshal, Serialize, Arbitrary)]
enum ExplicitIndexTags {
    #[marshal(tag = 0)]
    A(u8),
    #[marshal(tag = 1)]
    B { x: i64 },
    #[marshal(tag = 2)]
    C,
}

type Tuple10 = (
    char,
    char,
    String,
    u8,
    (),
    bool,
    [u8; 2],
    Option<i16>,
    f32,
    usize,
);
type Tuple16 = (
    u8,
    i16,
    u32,
    i64,
    u128,
    bool,
    char,
    String,
    f32,
    f64,
    (),
    Option<u8>,
    Vec<u8>,
    [u8; 2],
    i8,
    usize,
);

// ---------------------------------------------------------------------------
// One test per type, all through `check`.

properties! {
    check = |value| check(value);
    // Integers of every width.
    int_u8: u8;
    int_u16: u16;
    int_u32: u32;
    int_u64: u64;
    int_u128: u128;
    int_i8: i8;
    int_i16: i16;
    int_i32: i32;
    int_i64: i64;
    int_i128: i128;
    int_usize: usize;
    int_isize: isize;

    // Floats: the "interesting" values and arbitrary bit patterns (all NaNs).
    float_f32: f32;
    float_f64: f64;
    float_f32_bits: f32 = any::<u32>().prop_map(f32::from_bits);
    float_f64_bits: f64 = any::<u64>().prop_map(f64::from_bits);

    bool_: bool;
    char_any: char;
    char_scalar: char = arb_any_scalar();
    char_multibyte: char = arb_multibyte_char();
    unit: ();

    string_any: String;
    string_multibyte: String = arb_multibyte_string();
    vec_char: Vec<char> = vec(arb_multibyte_char(), 0..16);

    vec_u8: Vec<u8>;
    vec_i8: Vec<i8>;
    vec_bool: Vec<bool>;
    vec_u32: Vec<u32>;
    vec_string: Vec<String> = vec(arb_multibyte_string(), 0..10);
    vec_option_u16: Vec<Option<u16>>;
    vec_vec_vec_u8: Vec<Vec<Vec<u8>>> = vec(vec(vec(any::<u8>(), 0..5), 0..5), 0..5);
    vec_unit: Vec<()> = vec(any::<()>(), 0..100);

    deque_i32: VecDeque<i32> = arb_wrapped_deque(any::<i32>());
    deque_u8: VecDeque<u8> = arb_wrapped_deque(any::<u8>());
    deque_string: VecDeque<String> = arb_wrapped_deque(arb_multibyte_string());

    array_u8_0: [u8; 0];
    array_string_0: [String; 0] = Just([]);
    array_u16_3: [u16; 3];
    array_u8_32: [u8; 32];
    array_option_bool_32: [Option<bool>; 32];
    array_char_5: [char; 5];
    array_string_4: [String; 4] = [
        arb_multibyte_string(),
        arb_multibyte_string(),
        arb_multibyte_string(),
        arb_multibyte_string(),
    ];
    array_array_i16: [[i16; 2]; 3];

    tuple_1: (u8,);
    tuple_2: (u8, String);
    tuple_3: (i64, bool, char);
    tuple_4: (u16, Option<u8>, Vec<i8>, ());
    tuple_5: (f32, f64, u128, i128, isize);
    tuple_6: (u8, u8, u16, u32, String, bool);
    tuple_8: (u8, i8, u16, i16, u32, i32, u64, i64) =
        any::<(u8, i8, u16, i16, u32, i32, u64, i64)>();
    tuple_10: Tuple10;
    tuple_12: Tuple12 = arb_tuple12();
    option_u8: Option<u8>;
    option_unit: Option<()>;
    option_option_u32: Option<Option<u32>>;
    option_option_string: Option<Option<String>>;
    option_vec_option_char: Option<Vec<Option<char>>>;

    box_u32: Box<u32>;
    box_str: Box<str> = arb_multibyte_string().prop_map(String::into_boxed_str);
    box_slice_u16: Box<[u16]> = any::<Vec<u16>>().prop_map(Vec::into_boxed_slice);
    box_option_box_string: Box<Option<Box<String>>>;
    rc_string: Rc<String> = any::<String>().prop_map(Rc::new);
    rc_str: Rc<str> = arb_multibyte_string().prop_map(Rc::from);
    arc_vec_u8: Arc<Vec<u8>> = any::<Vec<u8>>().prop_map(Arc::new);
    arc_slice_i64: Arc<[i64]> = any::<Vec<i64>>().prop_map(Arc::from);
    cow_str_owned: Cow<'static, str> = arb_multibyte_string().prop_map(Cow::Owned);
    cow_slice_owned: Cow<'static, [u8]> = any::<Vec<u8>>().prop_map(Cow::Owned);

    btree_map_u8_u64: BTreeMap<u8, u64>;
    btree_map_string_vec: BTreeMap<String, Vec<u8>> =
        btree_map(arb_multibyte_string(), any::<Vec<u8>>(), 0..8);
    btree_map_tuple_key: BTreeMap<(i8, char), Option<String>> =
        btree_map(any::<(i8, char)>(), any::<Option<String>>(), 0..8);
    btree_set_i16: BTreeSet<i16>;
    btree_set_string: BTreeSet<String> = btree_set(arb_multibyte_string(), 0..16);
    hash_map_u16_string: HashMap<u16, String> = hash_map(any::<u16>(), arb_multibyte_string(), 0..16);
    hash_map_string_option_i8: HashMap<String, Option<i8>> =
        hash_map(arb_multibyte_string(), any::<Option<i8>>(), 0..16);
    hash_map_u64_u32: HashMap<u64, u32>;
    hash_set_u32: HashSet<u32>;
    hash_set_string: HashSet<String> = hash_set(arb_multibyte_string(), 0..16);
    hash_set_char: HashSet<char>;

    nonzero_u8: NonZeroU8;
    nonzero_u16: NonZeroU16;
    nonzero_u32: NonZeroU32;
    nonzero_u64: NonZeroU64;
    nonzero_u128: NonZeroU128;
    nonzero_usize: NonZeroUsize;
    nonzero_i8: NonZeroI8;
    nonzero_i16: NonZeroI16;
    nonzero_i32: NonZeroI32;
    nonzero_i64: NonZeroI64;
    nonzero_i128: NonZeroI128;
    nonzero_isize: NonZeroIsize;
    vec_option_nonzero_u32: Vec<Option<NonZeroU32>>;

    wrapping_u16: Wrapping<u16> = any::<u16>().prop_map(Wrapping);
    wrapping_i64: Wrapping<i64> = any::<i64>().prop_map(Wrapping);
    saturating_u32: Saturating<u32> = any::<u32>().prop_map(Saturating);
    phantom_data: PhantomData<String> = Just(PhantomData);
    phantom_in_tuple: (u8, PhantomData<Vec<u8>>, u8) =
        any::<(u8, u8)>().prop_map(|(a, b)| (a, PhantomData, b));

    duration: Duration = arb_duration();
    duration_arbitrary: Duration;

    ipv4_addr: Ipv4Addr;
    ipv6_addr: Ipv6Addr = arb_ipv6();
    ip_addr_: IpAddr = arb_ip_addr();
    socket_addr_v4: SocketAddrV4;
    socket_addr_v6: SocketAddrV6 = arb_socket_v6();
    socket_addr: SocketAddr = arb_socket_addr();
    vec_socket_addr: Vec<SocketAddr> = vec(arb_socket_addr(), 0..8);

    derived_named: Named;
    derived_tuple: Tuple;
    derived_newtype: Newtype;
    derived_unit: Unit;
    derived_empty_braced: EmptyBraced;
    derived_generic_u8_string: Generic<u8, String> =
        arb_generic(any::<u8>(), arb_multibyte_string());
    derived_generic_nested: Generic<Option<Named>, Tuple> =
        arb_generic(any::<Option<Named>>(), any::<Tuple>());
    derived_enum_shape: Shape;
    derived_enum_unit_only: Color;
    derived_enum_nested: Outer;
    derived_scene: Scene;
    derived_vec_enum: Vec<Shape> = vec(any::<Shape>(), 0..10);
    derived_option_enum: Option<Shape>;
    derived_btree_map_enum: BTreeMap<String, Color> = btree_map(arb_multibyte_string(), any::<Color>(), 0..16);
    derived_with_skip: WithSkip;
    derived_enum_with_skip: EnumWithSkip;
    derived_with_module: WithModule;
    derived_explicit_index_tags: ExplicitIndexTags;
    derived_recursive: Expr = arb_expr();
    derived_box_rc_arc: (Box<Shape>, Rc<Named>, Arc<Color>) =
        any::<(Shape, Named, Color)>().prop_map(|(s, n, c)| (Box::new(s), Rc::new(n), Arc::new(c)));
}

// Types whose values borrow from the generated data, or are unsized.
proptest! {
    #![proptest_config(config())]

    #[test]
    fn str_ref(s in arb_multibyte_string()) {
        check::<&str>(&s.as_str())?;
        check::<str>(s.as_str())?;
    }

    #[test]
    fn slice_ref(v in any::<Vec<u16>>(), s in vec(arb_multibyte_string(), 0..8)) {
        check::<&[u16]>(&v.as_slice())?;
        check::<[String]>(s.as_slice())?;
    }

    #[test]
    fn mut_ref(v in any::<(u32, String)>()) {
        let mut v = v;
        let r = &mut v;
        check::<&mut (u32, String)>(&r)?;
    }

    #[test]
    fn cow_borrowed(s in arb_multibyte_string(), b in any::<Vec<u8>>()) {
        check::<Cow<'_, str>>(&Cow::Borrowed(s.as_str()))?;
        check::<Cow<'_, [u8]>>(&Cow::Borrowed(b.as_slice()))?;
    }

    #[test]
    fn derived_generic_lifetime_const(
        label in arb_multibyte_string(),
        bytes in any::<Vec<u8>>(),
        cow in arb_multibyte_string(),
        borrowed in any::<bool>(),
        items in vec(any::<Shape>(), 0..4),
        fixed3 in any::<[u16; 3]>(),
        fixed0 in any::<[String; 0]>(),
        fixed2 in any::<[Option<Color>; 2]>(),
        tail in any::<u8>(),
    ) {
        let cow = if borrowed { Cow::Borrowed(cow.as_str()) } else { Cow::Owned(cow.clone()) };
        let a: Mixed<'_, Shape, 3> = Mixed {
            label: &label,
            bytes: &bytes,
            cow: cow.clone(),
            items,
            fixed: fixed3.map(|x| Shape::Point(x.into(), -i32::from(x))),
            tail,
        };
        check(&a)?;
        let b: Mixed<'_, String, 0> = Mixed {
            label: &label,
            bytes: &bytes[..bytes.len() / 2],
            cow: cow.clone(),
            items: vec![label.clone()],
            fixed: fixed0,
            tail,
        };
        check(&b)?;
        let c: Mixed<'_, Option<Color>, 2> = Mixed {
            label: "",
            bytes: &[],
            cow,
            items: Vec::new(),
            fixed: fixed2,
            tail,
        };
        check(&c)?;
    }

    /// Hash maps of derived keys: the key type needs `Hash + Eq`, which
    /// `Color` has; built from a vector so sizes stay small.
    #[test]
    fn derived_hash_map_color_keys(entries in vec((any::<Color>(), vec(any::<Shape>(), 0..3)), 0..6)) {
        let map: HashMap<Color, Vec<Shape>> = entries.into_iter().collect();
        check(&map)?;
    }

    /// The largest tuple serde supports. Sixteen-tuples are not `Debug`, so
    /// the value is assembled from two generated halves.
    #[test]
    fn tuple_16(
        a in any::<(u8, i16, u32, i64, u128, bool, char, String)>(),
        b in any::<(f32, f64, (), Option<u8>, Vec<u8>, [u8; 2], i8, usize)>(),
    ) {
        let value: Tuple16 =
            (a.0, a.1, a.2, a.3, a.4, a.5, a.6, a.7, b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7);
        check(&value)?;
    }

    /// `[T; 32]` of a type without a fixed size, the largest array serde
    /// supports.
    #[test]
    fn array_string_32(v in vec(arb_multibyte_string(), 32)) {
        let arr: [String; 32] = v.try_into().expect("32 elements");
        check(&arr)?;
    }
}

/// The wrapped-deque strategy really produces split deques, so the two-slice
/// path of `VecDeque` is exercised.
#[test]
fn wrapped_deque_is_split() {
    let mut d = VecDeque::with_capacity(4);
    d.push_back(3u32);
    d.push_back(4);
    d.push_front(2);
    d.push_front(1);
    let (a, b) = d.as_slices();
    assert!(
        !a.is_empty() && !b.is_empty(),
        "expected a wrapped deque: {a:?} {b:?}"
    );
    check(&d).unwrap();
    let mut s: VecDeque<String> = VecDeque::with_capacity(4);
    s.push_back("ß".into());
    s.push_front("€".into());
    s.push_front("😀".into());
    check(&s).unwrap();
}

/// A few fixed values whose bytes are known, so a bug shared by both sides
/// (say, in the test harness) would still show.
#[test]
fn known_bytes() {
    assert_eq!(marshal::to_vec(&'é'), [0xc3, 0xa9]);
    assert_eq!(marshal::to_vec(&Color::Blue), [2, 0, 0, 0]);
    assert_eq!(
        marshal::to_vec(&Some("ab")),
        [1, 2, 0, 0, 0, 0, 0, 0, 0, b'a', b'b']
    );
    assert_eq!(
        marshal::to_vec(&SocketAddr::from(([1, 2, 3, 4], 0x0102))),
        [0, 0, 0, 0, 1, 2, 3, 4, 2, 1]
    );
    check(&(Color::Green, 'é', Some("ab"))).unwrap();
}

// ---------------------------------------------------------------------------
// Decoding: marshal's reader against `bincode::deserialize`.

/// Decodes `bytes` as a `T` with marshal, leaving any bytes after the value
/// as `bincode::deserialize` does, and with bincode, and asserts that both
/// give the same value or both fail.
fn agree<T>(bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: for<'de> Unmarshal<'de> + DeserializeOwned + Serialize + PartialEq + Debug,
{
    let ours = T::read_from(bytes).map(|(value, _)| value);
    damage::agree(bytes, ours, bincode::deserialize::<T>(bytes))
}

/// [`agree`] on damaged bytes of a `T`.
fn agree_on<T>(damaged: &Damaged<T>) -> Result<(), TestCaseError>
where
    T: for<'de> Unmarshal<'de> + DeserializeOwned + Serialize + PartialEq + Debug,
{
    agree::<T>(&damaged.bytes)
}

/// The encoding of a `T`, damaged (see [`damaged`]), to be decoded as a
/// `T`.
struct Damaged<T> {
    bytes: Vec<u8>,
    of: PhantomData<fn() -> T>,
}

impl<T> Debug for Damaged<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02x?}", self.bytes)
    }
}

/// Damaged encodings of any `T`.
impl<T: Arbitrary + Marshal + 'static> Arbitrary for Damaged<T> {
    type Parameters = ();
    type Strategy = BoxedStrategy<Self>;

    fn arbitrary_with((): ()) -> Self::Strategy {
        damaged(any::<T>()).boxed()
    }
}

/// The encoding of a value from `value`, damaged: up to two bytes
/// overwritten, then cut short or followed by a few more bytes, so decoding
/// meets bad tags, bad lengths, bad UTF-8 and short input as often as good
/// values.
fn damaged<T: Marshal + Debug>(
    value: impl Strategy<Value = T>,
) -> impl Strategy<Value = Damaged<T>> {
    use proptest::sample::Index;
    (
        value,
        vec((any::<Index>(), any::<u8>()), 0..3),
        proptest::option::of(any::<Index>()),
        vec(any::<u8>(), 0..4),
    )
        .prop_map(|(value, edits, cut, tail)| {
            let mut bytes = marshal::to_vec(&value);
            if !bytes.is_empty() {
                for (at, byte) in edits {
                    let at = at.index(bytes.len());
                    bytes[at] = byte;
                }
            }
            match cut {
                Some(cut) => bytes.truncate(cut.index(bytes.len() + 1)),
                None => bytes.extend(tail),
            }
            Damaged {
                bytes,
                of: PhantomData,
            }
        })
}

/// A derived enum and struct, decoded by both.
#[derive(Debug, Clone, PartialEq, Marshal, Unmarshal, Serialize, Deserialize, Arbitrary)]
enum Event {
    Ping,
    Move {
        #[proptest(strategy = "arb_multibyte_string()")]
        to: String,
        speed: Option<NonZeroU16>,
    },
    Batch(Vec<(bool, char)>, Wrapping<i8>),
}

#[derive(Debug, Clone, PartialEq, Marshal, Unmarshal, Serialize, Deserialize, Arbitrary)]
struct Envelope {
    id: u64,
    event: Event,
    tags: BTreeSet<u8>,
    peer: Option<Ipv4Addr>,
    retries: [NonZeroI8; 2],
}

// Damaged encodings of each type decode alike with both: every check of
// marshal's reader (bools, chars, option and enum tags, UTF-8, zero for
// `NonZero`, lengths, short input) rejects what bincode rejects and nothing
// else.
properties! {
    check = |bytes| agree_on(bytes);
    decode_bool: Damaged<bool>;
    decode_char: Damaged<char>;
    decode_option_u8: Damaged<Option<u8>>;
    decode_option_option_bool: Damaged<Option<Option<bool>>>;
    decode_u128_i128: Damaged<(u128, i128)>;
    decode_usize_isize: Damaged<(usize, isize)>;
    decode_nonzero: Damaged<(NonZeroU32, NonZeroI64, NonZeroU8)>;
    decode_string: Damaged<String> = damaged(arb_multibyte_string());
    decode_box_str: Damaged<Box<str>> = damaged(arb_multibyte_string().prop_map(String::into_boxed_str));
    decode_vec_char: Damaged<Vec<char>> = damaged(vec(arb_multibyte_char(), 0..8));
    decode_vec_option_bool: Damaged<Vec<Option<bool>>>;
    decode_vec_string: Damaged<Vec<String>> = damaged(vec(arb_multibyte_string(), 0..4));
    decode_vec_u8: Damaged<Vec<u8>>;
    decode_deque_u16: Damaged<VecDeque<u16>> = damaged(arb_wrapped_deque(any::<u16>()));
    decode_array_char: Damaged<[char; 3]>;
    decode_tuple: Damaged<(u8, char, bool, Option<u16>)>;
    decode_btree_map: Damaged<BTreeMap<u8, String>> = damaged(btree_map(any::<u8>(), arb_multibyte_string(), 0..4));
    decode_btree_set: Damaged<BTreeSet<char>> = damaged(btree_set(any::<char>(), 0..6));
    decode_hash_map: Damaged<HashMap<u16, bool>> = damaged(hash_map(any::<u16>(), any::<bool>(), 0..6));
    decode_ip_addr: Damaged<IpAddr> = damaged(arb_ip_addr());
    decode_socket_addr: Damaged<SocketAddr> = damaged(arb_socket_addr());
    decode_wrapping: Damaged<(Wrapping<u16>, Saturating<i32>)> =
        damaged(any::<(u16, i32)>().prop_map(|(a, b)| (Wrapping(a), Saturating(b))));
    decode_derived_enum: Damaged<Event>;
    decode_derived_struct: Damaged<Envelope>;
}

/// String bytes built from the bytes UTF-8 validation turns on: ASCII,
/// continuation bytes, and the lead bytes at the edges of their ranges
/// (overlong `c0`/`c1`, surrogates behind `ed`, `f4` and beyond). Lengths
/// reach past 64 bytes, through each of the paths of marshal's check.
fn arb_utf8_edges() -> impl Strategy<Value = Vec<u8>> {
    let leads = [
        0xc0u8, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
    ];
    let byte = prop_oneof![
        6 => 0x00u8..0x80,
        3 => 0x80u8..0xc0,
        2 => proptest::sample::select(leads.to_vec()),
    ];
    let damaged_text = (
        "[a-z😀€é\u{10FFFF}\u{D7FF}\u{E000}]{0,40}",
        any::<proptest::sample::Index>(),
        any::<u8>(),
    )
        .prop_map(|(text, at, byte)| {
            let mut bytes = text.into_bytes();
            if !bytes.is_empty() {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            bytes
        });
    prop_oneof![vec(byte, 0..100), damaged_text]
}

proptest! {
    #![proptest_config(config())]

    /// Strings, owned and borrowed, are UTF-8 to both readers alike.
    #[test]
    fn decode_utf8_agrees(text in arb_utf8_edges()) {
        let mut bytes = (text.len() as u64).to_le_bytes().to_vec();
        bytes.extend_from_slice(&text);
        agree::<String>(&bytes)?;
        let ours = <&str>::read_from(&bytes).map(|(s, _)| s).ok();
        let theirs = bincode::deserialize::<&str>(&bytes).ok();
        prop_assert_eq!(ours, theirs);
        prop_assert_eq!(ours, std::str::from_utf8(&text).ok());
    }

    /// Floats come back with the bits they were written with, NaN payloads
    /// included, from both.
    #[test]
    fn decode_float_bits(bits32 in any::<u32>(), bits64 in any::<u64>()) {
        let (ours, _) = f32::read_from(&bits32.to_le_bytes()).unwrap();
        let theirs: f32 = bincode::deserialize(&bits32.to_le_bytes()).unwrap();
        prop_assert_eq!((ours.to_bits(), theirs.to_bits()), (bits32, bits32));
        let (ours, _) = f64::read_from(&bits64.to_le_bytes()).unwrap();
        let theirs: f64 = bincode::deserialize(&bits64.to_le_bytes()).unwrap();
        prop_assert_eq!((ours.to_bits(), theirs.to_bits()), (bits64, bits64));
    }
}

/// `char` decodes alike from every first and second byte, with third and
/// fourth bytes at the edges of the continuation range, and from every
/// prefix of those.
#[test]
fn decode_char_agrees_on_every_lead() {
    let edges = [0x00u8, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    let check = |bytes: &[u8]| {
        let ours = char::read_from(bytes).map(|(c, _)| c).ok();
        let theirs = bincode::deserialize::<char>(bytes).ok();
        assert_eq!(ours, theirs, "for {bytes:02x?}");
    };
    for a in 0..=u8::MAX {
        check(&[a]);
        for b in 0..=u8::MAX {
            check(&[a, b]);
            for c in edges {
                check(&[a, b, c]);
                for d in edges {
                    check(&[a, b, c, d]);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The deviations: one test per row of WIRE_FORMAT.md's table "Deviations
// from bincode 1.3", in its order.

/// The 12 bytes bincode reads as a `Duration` or `SystemTime` with these
/// fields: `u64` seconds, then `u32` nanoseconds.
fn secs_nanos(secs: u64, nanos: u32) -> Vec<u8> {
    let mut bytes = secs.to_le_bytes().to_vec();
    bytes.extend_from_slice(&nanos.to_le_bytes());
    bytes
}

const NANOS_PER_SEC: u32 = 1_000_000_000;

/// Row "`Duration` with nanoseconds of 10⁹ or more": bincode carries them
/// into the seconds, or fails when that overflows; marshal rejects them.
#[test]
fn deviation_duration_nanos_past_a_second() {
    let bytes = secs_nanos(1, 1_000_000_005);
    assert_eq!(
        bincode::deserialize::<Duration>(&bytes).unwrap(),
        Duration::new(2, 5)
    );
    let err = marshal::from_bytes::<Duration>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidNanos(1_000_000_005));
    assert_eq!(err.offset(), 8);

    let overflow = secs_nanos(u64::MAX, NANOS_PER_SEC);
    assert!(bincode::deserialize::<Duration>(&overflow).is_err());
    assert!(marshal::from_bytes::<Duration>(&overflow).is_err());
}

/// Row "`SystemTime` with nanoseconds of 10⁹ or more": the same.
#[test]
fn deviation_system_time_nanos_past_a_second() {
    let bytes = secs_nanos(1, 1_000_000_005);
    assert_eq!(
        bincode::deserialize::<SystemTime>(&bytes).unwrap(),
        UNIX_EPOCH + Duration::new(2, 5)
    );
    let err = marshal::from_bytes::<SystemTime>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidNanos(1_000_000_005));
    assert_eq!(err.offset(), 8);

    let overflow = secs_nanos(i64::MAX as u64, NANOS_PER_SEC);
    assert!(bincode::deserialize::<SystemTime>(&overflow).is_err());
    assert!(marshal::from_bytes::<SystemTime>(&overflow).is_err());
}

proptest! {
    #![proptest_config(config())]

    /// Both rows above, for any seconds; below 10⁹ nanoseconds both read
    /// the same `Duration` and `SystemTime`.
    #[test]
    fn deviation_nanos_past_a_second_any_seconds(secs in any::<u64>(), nanos in any::<u32>()) {
        let bytes = secs_nanos(secs, nanos);
        let carried = secs
            .checked_add(u64::from(nanos / NANOS_PER_SEC))
            .map(|secs| Duration::new(secs, nanos % NANOS_PER_SEC));
        if nanos < NANOS_PER_SEC {
            agree::<Duration>(&bytes)?;
        } else {
            prop_assert_eq!(
                marshal::from_bytes::<Duration>(&bytes).unwrap_err().kind(),
                DecodeErrorKind::InvalidNanos(nanos)
            );
            prop_assert_eq!(bincode::deserialize::<Duration>(&bytes).ok(), carried);
        }

        // `SystemTime`: seconds below 2⁶³, the next row's business.
        let secs = secs >> 1;
        let bytes = secs_nanos(secs, nanos);
        if nanos < NANOS_PER_SEC {
            agree::<SystemTime>(&bytes)?;
        } else {
            prop_assert_eq!(
                marshal::from_bytes::<SystemTime>(&bytes).unwrap_err().kind(),
                DecodeErrorKind::InvalidNanos(nanos)
            );
            let carried = Duration::from_secs(secs)
                .checked_add(Duration::from_nanos(u64::from(nanos)))
                .and_then(|since| UNIX_EPOCH.checked_add(since));
            prop_assert_eq!(bincode::deserialize::<SystemTime>(&bytes).ok(), carried);
        }
    }
}

/// Row "a `SystemTime` before 1970": serde refuses to write it; marshal
/// writes negative seconds and reads them back.
#[test]
fn deviation_system_time_before_1970_encodes() {
    let times = [
        UNIX_EPOCH - Duration::new(0, 1),
        UNIX_EPOCH - Duration::new(1, 0),
        UNIX_EPOCH - Duration::new(3_155_760_000, 250_000_000),
        UNIX_EPOCH - Duration::from_secs(1 << 63),
    ];
    for t in times {
        assert!(bincode::serialize(&t).is_err(), "bincode writes {t:?}");
        let ours = marshal::to_vec(&t);
        let secs = i64::from_le_bytes(ours[..8].try_into().unwrap());
        assert!(secs < 0, "{t:?} written as {ours:02x?}");
        assert_eq!(marshal::from_bytes::<SystemTime>(&ours).unwrap(), t);
    }
}

/// Row "a `SystemTime` whose seconds are 2⁶³ or more": bincode rejects it;
/// marshal reads the bytes it writes for an instant before 1970.
#[test]
fn deviation_system_time_seconds_past_i64_max() {
    let cases = [
        (1 << 63, 0),
        ((1 << 63) + 5, 7),
        (u64::MAX, 0),
        (u64::MAX, 999_999_999),
    ];
    for (secs, nanos) in cases {
        let bytes = secs_nanos(secs, nanos);
        assert!(
            bincode::deserialize::<SystemTime>(&bytes).is_err(),
            "bincode reads {bytes:02x?}"
        );
        let ours = marshal::from_bytes::<SystemTime>(&bytes).unwrap();
        let before = Duration::from_secs(secs.wrapping_neg()) - Duration::from_nanos(nanos.into());
        assert_eq!(ours, UNIX_EPOCH - before);
        assert_eq!(marshal::to_vec(&ours), bytes);
    }
}

/// A unit struct, which encodes to nothing.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Marshal, Unmarshal, Serialize, Deserialize,
)]
struct Nothing;

/// `T` holds three items that encode to nothing: bincode reads them from
/// the 8-byte length alone, marshal only with three more bytes of input,
/// which it leaves unread.
fn zero_size_items<T>(three: T)
where
    T: for<'de> Unmarshal<'de> + DeserializeOwned + PartialEq + Debug,
{
    let len = 3u64.to_le_bytes();
    assert_eq!(bincode::deserialize::<T>(&len).unwrap(), three);
    let err = T::read_from(&len).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 3 });
    assert_eq!(err.offset(), 0);

    let padded = [&len[..], &[0xaa; 3]].concat();
    assert_eq!(bincode::deserialize::<T>(&padded).unwrap(), three);
    assert_eq!(T::read_from(&padded).unwrap(), (three, 8));
}

/// Row "a sequence, map or set of items that can encode to zero bytes".
#[test]
fn deviation_zero_size_items_past_the_input() {
    zero_size_items(vec![(); 3]);
    zero_size_items(VecDeque::from([(), (), ()]));
    zero_size_items(vec![Nothing; 3]);
    zero_size_items(vec![PhantomData::<String>; 3]);
    zero_size_items(vec![[0u64; 0]; 3]);
    zero_size_items(vec![Box::new(()); 3]);
    zero_size_items(Box::<[()]>::from([(), (), ()]));
    zero_size_items(BTreeSet::from([()]));
    zero_size_items(HashSet::from([Nothing]));
    zero_size_items(BTreeMap::from([((), PhantomData::<u8>)]));
}

/// A chain of boxes, one nesting level each.
#[derive(Debug, PartialEq, Marshal, Unmarshal, Serialize, Deserialize)]
struct Chain {
    next: Option<Box<Chain>>,
}

fn chain(boxes: u32) -> Chain {
    (0..boxes).fold(Chain { next: None }, |inner, _| Chain {
        next: Some(Box::new(inner)),
    })
}

/// Row "values nested deeper than the reader's depth limit".
#[test]
fn deviation_nesting_past_the_depth_limit() {
    let limit = Reader::DEFAULT_MAX_DEPTH;
    let at_limit = marshal::to_vec(&chain(limit));
    assert_eq!(
        marshal::from_bytes::<Chain>(&at_limit).unwrap(),
        chain(limit)
    );
    assert_eq!(
        bincode::deserialize::<Chain>(&at_limit).unwrap(),
        chain(limit)
    );

    let deeper = chain(limit + 1);
    let bytes = marshal::to_vec(&deeper);
    assert_eq!(bytes, bincode::serialize(&deeper).unwrap());
    assert_eq!(bincode::deserialize::<Chain>(&bytes).unwrap(), deeper);
    let err = marshal::from_bytes::<Chain>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit });
    let mut r = Reader::new(&bytes).with_max_depth(limit + 1);
    assert_eq!(Chain::decode(&mut r).unwrap(), deeper);
}

/// Row "bytes after the value".
#[test]
fn deviation_trailing_bytes() {
    use bincode::Options;

    let bytes = [7, 0, 0, 0, 0xff];
    assert_eq!(bincode::deserialize::<u32>(&bytes).unwrap(), 7);
    let err = marshal::from_bytes::<u32>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    assert_eq!(err.offset(), 4);
    assert_eq!(u32::read_from(&bytes).unwrap(), (7, 4));
    let strict = bincode::DefaultOptions::new()
        .with_fixint_encoding()
        .reject_trailing_bytes();
    assert!(strict.deserialize::<u32>(&bytes).is_err());
    assert_eq!(strict.deserialize::<u32>(&bytes[..4]).unwrap(), 7);
}

/// Asserts that `value`'s marshal bytes are `ours` and that the bytes its
/// serde implementation gives bincode are different.
fn serde_writes_other_bytes<T: Marshal + Serialize + Debug>(value: &T, ours: &[u8]) {
    assert_eq!(marshal::to_vec(value), ours, "{value:?}");
    let theirs = bincode::serialize(value).unwrap();
    assert_ne!(theirs, ours, "{value:?}");
}

/// bincode's bytes for a string.
fn bincode_str(s: &str) -> Vec<u8> {
    bincode::serialize(s).unwrap()
}

/// Row "chrono's, time's and jiff's types": their serde implementations
/// write strings or tuples of calendar fields, marshal the layouts of
/// sections 19 to 23.
#[test]
fn deviation_date_time_crates() {
    // 2024-02-29T00:00:00.000000005Z, and that date and time of day.
    let secs: i64 = 1_709_164_800;
    let instant = [&secs.to_le_bytes()[..], &5u32.to_le_bytes()].concat();
    let date = 19_782i32.to_le_bytes();
    let time_of_day = 5u64.to_le_bytes();
    let offset = [&instant[..], &0i32.to_le_bytes()].concat();

    let utc = chrono::DateTime::from_timestamp(secs, 5).unwrap();
    assert_eq!(
        bincode::serialize(&utc).unwrap(),
        bincode_str("2024-02-29T00:00:00.000000005Z")
    );
    serde_writes_other_bytes(&utc, &instant);
    serde_writes_other_bytes(&utc.fixed_offset(), &offset);
    serde_writes_other_bytes(&utc.naive_utc(), &instant);
    serde_writes_other_bytes(&utc.date_naive(), &date);
    serde_writes_other_bytes(&utc.time(), &time_of_day);

    let odt = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(secs) * 1_000_000_000 + 5)
        .unwrap();
    // time writes (year: i32, ordinal day: u16, ...) for binary formats.
    assert_eq!(
        bincode::serialize(&odt.date()).unwrap(),
        [0xe8, 0x07, 0, 0, 60, 0]
    );
    serde_writes_other_bytes(&odt, &offset);
    serde_writes_other_bytes(&odt.to_utc(), &instant);
    serde_writes_other_bytes(
        &time::PrimitiveDateTime::new(odt.date(), odt.time()),
        &instant,
    );
    serde_writes_other_bytes(&odt.date(), &date);
    serde_writes_other_bytes(&odt.time(), &time_of_day);

    let ts = jiff::Timestamp::new(secs, 5).unwrap();
    assert_eq!(
        bincode::serialize(&ts).unwrap(),
        bincode_str("2024-02-29T00:00:00.000000005Z")
    );
    let civil = jiff::civil::date(2024, 2, 29).at(0, 0, 0, 5);
    serde_writes_other_bytes(&ts, &instant);
    serde_writes_other_bytes(&civil, &instant);
    serde_writes_other_bytes(&civil.date(), &date);
    serde_writes_other_bytes(&civil.time(), &time_of_day);
    let span = jiff::SignedDuration::new(1, 500_000_000);
    assert_eq!(bincode::serialize(&span).unwrap(), bincode_str("PT1.5S"));
    serde_writes_other_bytes(&span, &marshal::to_vec(&Duration::new(1, 500_000_000)));
}
