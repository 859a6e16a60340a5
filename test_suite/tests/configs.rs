//! The configurations (`marshal::config`) against the reference encoders,
//! on seeded random values of every type row below:
//!
//! - bincode 2.0.1 (its own `Encode`/`Decode` derives) under `standard()`,
//!   `standard().with_big_endian()` and `legacy().with_big_endian()`:
//!   identical bytes, each side decodes the other's bytes back to the
//!   value, and on every truncation and on damaged copies (each byte set
//!   to 0, 0xff and 251 to 255, and flipped) both accept the same inputs,
//!   giving the same value and length, and reject the rest;
//! - bincode 1.3's `DefaultOptions` (through serde) and its big-endian
//!   form: identical bytes, each side decodes the other's (its reader is
//!   looser: see `bincode1_accepts_wide_markers`);
//! - `encoded_len_with` is the length written, `encode_into_slice` writes
//!   the same bytes into an exact buffer and fails on one a byte short;
//! - the serde route (`marshal::serde`'s `encode_to_vec`,
//!   `encode_into_slice`, `encoded_len_with` and `decode_from_slice`)
//!   writes the derive route's bytes in every configuration, and against
//!   bincode 2's `serde` module each decodes the other's bytes and damaged
//!   input is accepted alike, to the same value, or refused alike.
//!
//! Values are compared by their re-encoding, so NaNs compare equal.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI64, NonZeroU32, Wrapping};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bincode::Options as _;
use marshal::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal::{BufferTooSmall, DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::dialects::{InEvery, Standard};
use marshal_test_suite::properties;
use marshal_test_suite::strategies::config_with_cases;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;
use serde::{Deserialize, Serialize};

/// A struct of every integer width, signed and unsigned.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
struct Ints {
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    i: u128,
    j: i128,
    k: usize,
    l: isize,
}

/// A struct of containers.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
struct Record {
    id: u64,
    name: String,
    tags: Vec<String>,
    scores: BTreeMap<u32, i64>,
    note: Option<String>,
    grid: [u16; 3],
    ratio: f64,
    flag: bool,
    letter: char,
}

/// Floats and bytes in declaration order: a run of them is copied as its
/// memory in the little-endian configurations.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
#[repr(C)]
struct Vertex {
    position: [f32; 3],
    weight: f32,
    color: [u8; 4],
}

/// Every variant shape.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
enum Shape {
    Empty,
    Point(i32, i32),
    Circle { radius: f32, filled: bool },
    Path(Vec<(i16, i16)>),
    Label { text: String, at: Option<(u8, u8)> },
}

/// A struct holding structs and enums.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
struct Scene {
    shapes: Vec<Shape>,
    origin: (i64, i64),
    record: Record,
    layer: Option<Box<Shape>>,
}

/// A tuple struct and a unit struct.
#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
struct Pair(u32, String);

#[derive(
    Debug,
    Clone,
    Marshal,
    Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    Serialize,
    Deserialize,
    Arbitrary,
)]
#[bincode(crate = "bincode2")]
struct Unit;

/// A recursive enum.
#[derive(
    Debug, Clone, Marshal, Unmarshal, bincode2::Encode, bincode2::Decode, Serialize, Deserialize,
)]
#[bincode(crate = "bincode2")]
enum Tree {
    Leaf(u16),
    Node(Vec<Tree>),
}

fn arb_tree() -> impl Strategy<Value = Tree> {
    any::<u16>()
        .prop_map(Tree::Leaf)
        .prop_recursive(4, 32, 4, |inner| {
            proptest::collection::vec(inner, 0..4).prop_map(Tree::Node)
        })
}

mod sixteen {
    // The tuple spelled out (not an alias) is what the derive is tested
    // on; its derives' code names it too.
    #![allow(clippy::type_complexity)]
    use super::*;

    /// The widest tuple bincode 2 and `legacy()` carry, in a derived struct
    /// (the standard library formats tuples of up to 12).
    #[derive(
        Clone, Marshal, Unmarshal, bincode2::Encode, bincode2::Decode, Serialize, Deserialize,
    )]
    #[bincode(crate = "bincode2")]
    pub(crate) struct Sixteen(
        (
            u8,
            i8,
            u16,
            i16,
            u32,
            i32,
            u64,
            i64,
            u128,
            i128,
            bool,
            char,
            String,
            f32,
            f64,
            Option<u8>,
        ),
    );

    impl Debug for Sixteen {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            let t = &self.0;
            let (a, b) = (
                (t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7),
                (t.8, t.9, t.10, t.11, &t.12, t.13, t.14, t.15),
            );
            f.debug_tuple("Sixteen").field(&a).field(&b).finish()
        }
    }

    pub(crate) fn arb() -> impl Strategy<Value = Sixteen> {
        let halves = (
            any::<(u8, i8, u16, i16, u32, i32, u64, i64)>(),
            any::<(u128, i128, bool, char, String, f32, f64, Option<u8>)>(),
        );
        halves.prop_map(|(a, b)| {
            Sixteen((
                a.0, a.1, a.2, a.3, a.4, a.5, a.6, a.7, b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7,
            ))
        })
    }
}
use sixteen::Sixteen;

/// What every value here is: encodable and decodable by marshal in every
/// configuration and by both bincodes.
trait Value:
    Debug
    + bincode2::Encode
    + bincode2::Decode<()>
    + Serialize
    + for<'de> Deserialize<'de>
    + MarshalIn<config::Legacy>
    + for<'de> UnmarshalIn<'de, config::Legacy>
    + InEvery
{
}

impl<T> Value for T where
    T: Debug
        + bincode2::Encode
        + bincode2::Decode<()>
        + Serialize
        + for<'de> Deserialize<'de>
        + MarshalIn<config::Legacy>
        + for<'de> UnmarshalIn<'de, config::Legacy>
        + InEvery
{
}

/// A bincode 2 limit that no value here reaches, so that a damaged length
/// is refused before bincode 2 allocates for it (without a limit, it would
/// try to).
const LIMIT: usize = 1 << 20;

/// Every check, under every configuration.
fn check<T: Value>(value: &T) -> Result<(), TestCaseError> {
    against_bincode2(
        value,
        config::standard(),
        bincode2::config::standard().with_limit::<LIMIT>(),
    )?;
    against_bincode2(
        value,
        config::standard().with_big_endian(),
        bincode2::config::standard()
            .with_big_endian()
            .with_limit::<LIMIT>(),
    )?;
    against_bincode2(
        value,
        config::legacy().with_big_endian(),
        bincode2::config::legacy()
            .with_big_endian()
            .with_limit::<LIMIT>(),
    )?;
    against_bincode2(
        value,
        config::legacy(),
        bincode2::config::legacy().with_limit::<LIMIT>(),
    )?;
    // A fixed-width configuration's sizes are `legacy()`'s (the sizes
    // `FIXED_LEN` and `MAX_LEN` describe), whatever the byte order.
    prop_assert_eq!(
        marshal::encoded_len_with(value, config::legacy().with_big_endian()),
        marshal::encoded_len_with(value, config::legacy())
    );
    let options = bincode::DefaultOptions::new();
    against_bincode1(value, config::standard(), options)?;
    against_bincode1(
        value,
        config::standard().with_big_endian(),
        options.with_big_endian(),
    )?;
    Ok(())
}

/// marshal's bytes of `value` in `c`, checked against `encoded_len_with`
/// and `encode_into_slice`.
fn ours<T, C>(value: &T, c: C) -> Result<Vec<u8>, TestCaseError>
where
    T: MarshalIn<C::Dialect> + ?Sized,
    C: Config,
{
    let bytes = marshal::encode_to_vec(value, c);
    prop_assert_eq!(marshal::encoded_len_with(value, c), bytes.len());
    let mut exact = vec![0u8; bytes.len()];
    prop_assert_eq!(
        marshal::encode_into_slice(value, &mut exact, c),
        Ok(bytes.len())
    );
    prop_assert_eq!(&exact, &bytes);
    if let Some(short) = bytes.len().checked_sub(1) {
        let mut buf = vec![0u8; short];
        prop_assert_eq!(
            marshal::encode_into_slice(value, &mut buf, c),
            Err(BufferTooSmall {
                needed: bytes.len(),
                available: short
            })
        );
    }
    Ok(bytes)
}

/// What marshal decodes from `input` in `c`, as its re-encoding and the
/// bytes it took.
fn decoded<T, C>(input: &[u8], c: C) -> Option<(Vec<u8>, usize)>
where
    T: for<'de> UnmarshalIn<'de, C::Dialect> + MarshalIn<C::Dialect>,
    C: Config,
{
    let (value, used) = marshal::decode_from_slice::<T, _>(input, c).ok()?;
    Some((marshal::encode_to_vec(&value, c), used))
}

/// Positions below `len`: all of them, or for a long encoding both ends in
/// full and evenly spaced ones in between.
fn positions(len: usize) -> Vec<usize> {
    const EDGE: usize = 24;
    if len <= 3 * EDGE {
        return (0..len).collect();
    }
    let middle = (1..EDGE).map(|k| EDGE + k * (len - 2 * EDGE) / EDGE);
    (0..EDGE).chain(middle).chain(len - EDGE..len).collect()
}

/// Damaged copies of `bytes`: prefixes, and bytes replaced by the values
/// that mean the most to a decoder (0, 1, the varint markers, 0xff) and by
/// their complement (every position of a short encoding; see
/// [`positions`]).
fn damaged(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = positions(bytes.len())
        .into_iter()
        .map(|k| bytes[..k].to_vec())
        .collect();
    for i in positions(bytes.len()) {
        for b in [0, 1, 2, 250, 251, 252, 253, 254, 255, !bytes[i]] {
            if b != bytes[i] {
                let mut copy = bytes.to_vec();
                copy[i] = b;
                out.push(copy);
            }
        }
    }
    out
}

fn against_bincode2<T, C, B>(value: &T, c: C, b: B) -> Result<(), TestCaseError>
where
    T: Value + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    C: Config,
    B: bincode2::config::Config,
{
    let bytes = ours(value, c)?;
    let theirs = bincode2::encode_to_vec(value, b).expect("bincode 2 encodes");
    prop_assert_eq!(&bytes, &theirs, "bytes of {:?}", value);
    prop_assert_eq!(
        decoded::<T, C>(&theirs, c),
        Some((bytes.clone(), bytes.len()))
    );
    serde_against_bincode2(value, c, b, &bytes)?;
    let (back, used) = bincode2::decode_from_slice::<T, _>(&bytes, b).expect("bincode 2 decodes");
    prop_assert_eq!(
        (marshal::encode_to_vec(&back, c), used),
        (bytes.clone(), bytes.len())
    );
    // Damaged input: accepted alike, to the same value, or refused alike;
    // but for the deviations WIRE_FORMAT.md lists: bincode 2 carries
    // nanoseconds of 10^9 or more into a `Duration`'s seconds, marshal
    // refuses them; marshal reads instants before 1970, which bincode 2
    // can neither write nor read.
    for input in damaged(&bytes) {
        match marshal::decode_from_slice::<T, _>(&input, c) {
            Err(e) if matches!(e.kind(), DecodeErrorKind::InvalidNanos(_)) => continue,
            Ok((v, _)) if bincode2::encode_to_vec(&v, b).is_err() => continue,
            _ => {}
        }
        let ours = decoded::<T, C>(&input, c);
        let theirs = bincode2::decode_from_slice::<T, _>(&input, b)
            .ok()
            .map(|(v, used)| (marshal::encode_to_vec(&v, c), used));
        prop_assert_eq!(&ours, &theirs, "input {:?}", input);
    }
    Ok(())
}

/// The serde route in `c`: the derive route's `bytes`, and against bincode
/// 2's serde route in `b` as `against_bincode2` checks the derive route.
fn serde_against_bincode2<T, C, B>(value: &T, c: C, b: B, bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: Value + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    C: Config,
    B: bincode2::config::Config,
{
    let ours = marshal::serde::encode_to_vec(value, c).expect("the serde route encodes");
    prop_assert_eq!(&ours, bytes, "serde bytes of {:?}", value);
    prop_assert_eq!(
        marshal::serde::encoded_len_with(value, c).ok(),
        Some(bytes.len())
    );
    let mut exact = vec![0u8; bytes.len()];
    prop_assert_eq!(
        marshal::serde::encode_into_slice(value, &mut exact, c).ok(),
        Some(bytes.len())
    );
    prop_assert_eq!(&exact[..], bytes);
    let theirs = bincode2::serde::encode_to_vec(value, b).expect("bincode 2 serializes");
    prop_assert_eq!(&theirs[..], bytes, "bincode 2's serde bytes of {:?}", value);
    let serde_decoded = |input: &[u8]| {
        marshal::serde::decode_from_slice::<T, _>(input, c)
            .ok()
            .map(|(v, used)| (marshal::encode_to_vec(&v, c), used))
    };
    prop_assert_eq!(serde_decoded(bytes), Some((bytes.to_vec(), bytes.len())));
    for input in damaged(bytes) {
        let theirs = bincode2::serde::decode_from_slice::<T, _>(&input, b)
            .ok()
            .map(|(v, used)| (marshal::encode_to_vec(&v, c), used));
        prop_assert_eq!(serde_decoded(&input), theirs, "serde, input {:?}", input);
    }
    Ok(())
}

fn against_bincode1<T, C, O>(value: &T, c: C, options: O) -> Result<(), TestCaseError>
where
    T: Value + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    C: Config,
    O: bincode::Options + Copy,
{
    let bytes = ours(value, c)?;
    let theirs = options.serialize(value).expect("bincode 1 serializes");
    prop_assert_eq!(&bytes, &theirs, "bytes of {:?}", value);
    prop_assert_eq!(
        decoded::<T, C>(&theirs, c),
        Some((bytes.clone(), bytes.len()))
    );
    prop_assert_eq!(
        marshal::serde::encode_to_vec(value, c).ok(),
        Some(theirs.clone())
    );
    let (back, used) = marshal::serde::decode_from_slice::<T, _>(&theirs, c)
        .map_err(|e| TestCaseError::fail(format!("serde route: {e}")))?;
    prop_assert_eq!(
        (marshal::encode_to_vec(&back, c), used),
        (bytes.clone(), bytes.len())
    );
    let back: T = options.deserialize(&bytes).expect("bincode 1 deserializes");
    prop_assert_eq!(marshal::encode_to_vec(&back, c), bytes);
    Ok(())
}

properties! {
    config = config_with_cases(24);
    check = |value| check(value);
    a_u8: u8;
    a_i8: i8;
    a_u16: u16;
    a_i16: i16;
    a_u32: u32;
    a_i32: i32;
    a_u64: u64;
    a_i64: i64;
    a_u128: u128;
    a_i128: i128;
    a_usize: usize;
    a_isize: isize;
    a_f32: f32;
    a_f64: f64;
    a_bool: bool;
    a_char: char;
    a_unit: ();
    a_string: String;
    an_option: Option<u32>;
    a_vec: Vec<u16>;
    a_vec_of_floats: Vec<f64>;
    a_vec_of_i8: Vec<i8>;
    a_vec_of_vertices: Vec<Vertex>;
    a_vec_of_strings: Vec<String>;
    a_vec_deque: VecDeque<i32>;
    a_btree_map: BTreeMap<u32, String>;
    a_btree_set: BTreeSet<i16>;
    a_hash_map: HashMap<i64, bool> = proptest::collection::hash_map(any::<i64>(), any::<bool>(), 0..2);
    a_tuple: (u8, i32, String, Option<bool>);
    an_array: [u32; 4];
    a_byte_array: [u8; 3];
    a_box: Box<u64>;
    a_boxed_str: Box<str> = any::<String>().prop_map(Box::from);
    a_boxed_slice: Box<[u16]> = any::<Vec<u16>>().prop_map(Box::from);
    an_rc_str: Rc<str> = any::<String>().prop_map(Rc::from);
    an_rc_slice: Rc<[String]> = any::<Vec<String>>().prop_map(Rc::from);
    an_arc_str: Arc<str> = any::<String>().prop_map(Arc::from);
    an_arc_slice: Arc<[i32]> = any::<Vec<i32>>().prop_map(Arc::from);
    a_tuple_of_sixteen: Sixteen = sixteen::arb();
    a_duration: Duration;
    ints: Ints;
    a_record: Record;
    a_shape: Shape;
    a_scene: Scene;
    a_pair: Pair;
    a_unit_struct: Unit;
    a_tree: Tree = arb_tree();
    a_system_time: SystemTime = arb_system_time();
    a_non_zero_u32: NonZeroU32 = any::<u32>().prop_filter_map("zero", NonZeroU32::new);
    a_non_zero_i64: NonZeroI64 = any::<i64>().prop_filter_map("zero", NonZeroI64::new);
    a_wrapping: Wrapping<i16> = any::<i16>().prop_map(Wrapping);
    an_ipv4: Ipv4Addr;
    an_ipv6: Ipv6Addr;
    an_ip: IpAddr;
    a_socket_v4: SocketAddrV4;
    a_socket_v6: SocketAddrV6 = (any::<Ipv6Addr>(), any::<u16>()).prop_map(|(ip, port)| SocketAddrV6::new(ip, port, 0, 0));
    a_socket: SocketAddr = prop_oneof![
        any::<SocketAddrV4>().prop_map(SocketAddr::V4),
        (any::<Ipv6Addr>(), any::<u16>()).prop_map(|(ip, port)| SocketAddr::new(ip.into(), port)),
    ];
}

/// Instants from 1970 on, which bincode 2 encodes (it refuses earlier
/// ones; marshal writes those too, see `WIRE_FORMAT.md` section 29).
fn arb_system_time() -> impl Strategy<Value = SystemTime> {
    (0..1u64 << 40, 0..1_000_000_000u32)
        .prop_map(|(secs, nanos)| UNIX_EPOCH + Duration::new(secs, nanos))
}

/// Hash maps of many entries, whose order on the wire is their iteration
/// order: the same for both encoders, but not for a map decoded again, so
/// the maps decoded are compared, not their bytes.
#[test]
fn hash_maps() {
    let map: HashMap<i64, String> = (0..300)
        .map(|i| (i * 7919 - 1000, format!("{i}")))
        .collect();
    let standard = bincode2::config::standard();
    for (ours, theirs) in [
        (
            marshal::encode_to_vec(&map, config::standard()),
            bincode2::encode_to_vec(&map, standard).unwrap(),
        ),
        (
            marshal::encode_to_vec(&map, config::standard().with_big_endian()),
            bincode2::encode_to_vec(&map, standard.with_big_endian()).unwrap(),
        ),
    ] {
        assert_eq!(ours, theirs);
    }
    let bytes = marshal::encode_to_vec(&map, config::standard());
    let (back, used) =
        marshal::decode_from_slice::<HashMap<i64, String>, _>(&bytes, config::standard()).unwrap();
    assert_eq!((&back, used), (&map, bytes.len()));
    let (back, _): (HashMap<i64, String>, usize) =
        bincode2::decode_from_slice(&bytes, standard).unwrap();
    assert_eq!(back, map);
}

/// Integers at their boundaries, and around each varint width's edge.
#[test]
fn integers_at_their_boundaries() {
    let edges: Vec<u64> = [
        0,
        1,
        249,
        250,
        251,
        252,
        255,
        256,
        0xffff,
        0x1_0000,
        0xffff_ffff,
    ]
    .into_iter()
    .chain([0x1_0000_0000, u64::MAX - 1, u64::MAX])
    .collect();
    for &v in &edges {
        check(&v).unwrap();
        check(&(v as u32)).unwrap();
        check(&(v as u16)).unwrap();
        check(&(v as i64)).unwrap();
        check(&(v as i32)).unwrap();
        check(&(v as i16)).unwrap();
        check(&(v as i128)).unwrap();
        check(&(u128::from(v) << 64 | u128::from(v))).unwrap();
        check(&(v as usize)).unwrap();
        check(&(v as isize)).unwrap();
    }
    for v in [i64::MIN, i64::MIN + 1, -1, -125, -126, i64::MAX] {
        check(&v).unwrap();
    }
    check(&i128::MIN).unwrap();
    check(&u128::MAX).unwrap();
}

/// bincode 2's golden bytes for `standard()`, written out.
#[test]
fn standard_bytes() {
    let c = config::standard();
    assert_eq!(marshal::encode_to_vec(&250u64, c), [250]);
    assert_eq!(marshal::encode_to_vec(&251u64, c), [251, 251, 0]);
    assert_eq!(marshal::encode_to_vec(&65_536u64, c), [252, 0, 0, 1, 0]);
    assert_eq!(
        marshal::encode_to_vec(&(1u64 << 32), c),
        [253, 0, 0, 0, 0, 1, 0, 0, 0]
    );
    let mut big = vec![254];
    big.extend((1u128 << 64).to_le_bytes());
    assert_eq!(marshal::encode_to_vec(&(1u128 << 64), c), big);
    assert_eq!(marshal::encode_to_vec(&-1i8, c), [0xff]);
    assert_eq!(marshal::encode_to_vec(&-1i16, c), [1]);
    assert_eq!(marshal::encode_to_vec(&"hé", c), [3, b'h', 0xc3, 0xa9]);
    assert_eq!(
        marshal::encode_to_vec(&Some(1.0f32), c),
        [1, 0, 0, 0x80, 0x3f]
    );
    assert_eq!(
        marshal::encode_to_vec(
            &Shape::Circle {
                radius: 0.0,
                filled: true
            },
            c
        ),
        [2, 0, 0, 0, 0, 1]
    );
    let c = config::standard().with_big_endian();
    assert_eq!(marshal::encode_to_vec(&300u16, c), [251, 1, 44]);
    assert_eq!(marshal::encode_to_vec(&1.0f32, c), [0x3f, 0x80, 0, 0]);
}

/// Hostile varints: every truncation point, the marker 255, a marker too
/// wide for each type, and a length claiming 2^64 - 1.
#[test]
fn hostile_varints() {
    let c = config::standard();
    let kind = |input: &[u8], f: fn(&[u8]) -> Result<(), marshal::DecodeError>| {
        f(input).unwrap_err().kind()
    };
    fn of<T: for<'de> UnmarshalIn<'de, Standard>>(
        input: &[u8],
    ) -> Result<(), marshal::DecodeError> {
        marshal::decode_from_slice::<T, _>(input, config::standard()).map(|_| ())
    }
    for (bits, marker) in [
        (16, 252),
        (16, 253),
        (16, 254),
        (32, 253),
        (32, 254),
        (64, 254),
    ] {
        let mut input = vec![marker];
        input.extend([0u8; 16]);
        let f: fn(&[u8]) -> Result<(), marshal::DecodeError> = match bits {
            16 => of::<u16>,
            32 => of::<u32>,
            _ => of::<u64>,
        };
        assert_eq!(
            kind(&input, f),
            DecodeErrorKind::InvalidVarint {
                marker,
                bits: bits as u8
            }
        );
        let signed: fn(&[u8]) -> Result<(), marshal::DecodeError> = match bits {
            16 => of::<i16>,
            32 => of::<i32>,
            _ => of::<i64>,
        };
        assert_eq!(
            kind(&input, signed),
            DecodeErrorKind::InvalidVarint {
                marker,
                bits: bits as u8
            }
        );
    }
    for f in [
        of::<u16> as fn(&[u8]) -> _,
        of::<u32>,
        of::<u64>,
        of::<u128>,
        of::<i128>,
        of::<usize>,
    ] {
        let err = f(&[255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap_err();
        assert!(matches!(
            err.kind(),
            DecodeErrorKind::InvalidVarint { marker: 255, .. }
        ));
        assert_eq!(err.offset(), 0);
    }
    // A marker's offset is the marker's, inside a value.
    let err = marshal::decode_from_slice::<(u8, u32), _>(&[7, 255], c).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::InvalidVarint {
                marker: 255,
                bits: 32
            },
            1
        )
    );
    // Every truncation of every width is incomplete.
    for v in [250u64, 251, 65_536, 1 << 32] {
        let bytes = marshal::encode_to_vec(&v, c);
        for k in 0..bytes.len() {
            let err = marshal::decode_from_slice::<u64, _>(&bytes[..k], c).unwrap_err();
            assert!(err.is_incomplete(), "{v} cut at {k}: {err}");
        }
    }
    // Wider than needed is accepted.
    assert_eq!(
        marshal::decode_from_slice::<u32, _>(&[251, 5, 0], c),
        Ok((5, 3))
    );
    assert_eq!(
        marshal::decode_from_slice::<u16, _>(&[251, 0xff, 0xff], c),
        Ok((u16::MAX, 3))
    );
    // A length of 2^64 - 1, and one a little past the input.
    let mut input = vec![253];
    input.extend(u64::MAX.to_le_bytes());
    let err = marshal::decode_from_slice::<Vec<u8>, _>(&input, c).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::LengthOverflow { len: u64::MAX }, 0)
    );
    let err = marshal::decode_from_slice::<String, _>(&[3, b'a', b'b'], c).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 3 });
}

/// bincode 1.3's `DefaultOptions` reads a value written with a marker
/// wider than its type needs (a `u16` after the `u32` marker 252) where
/// bincode 2, and marshal, refuse it.
#[test]
fn bincode1_accepts_wide_markers() {
    let input = [252, 7, 0, 0, 0];
    let bincode1: u16 = bincode::DefaultOptions::new().deserialize(&input).unwrap();
    assert_eq!(bincode1, 7);
    assert!(bincode2::decode_from_slice::<u16, _>(&input, bincode2::config::standard()).is_err());
    let err = marshal::decode_from_slice::<u16, _>(&input, config::standard()).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::InvalidVarint {
            marker: 252,
            bits: 16
        }
    );
}

/// The depth limit and the allocation budget hold under a varint
/// configuration.
#[test]
fn limits_hold() {
    // 10,000 nested `Node`s, each one element long: far past the depth
    // limit, in 20 KB.
    let mut input = Vec::new();
    for _ in 0..10_000 {
        input.extend([1, 1]);
    }
    input.extend([0, 0]);
    let err = marshal::decode_from_slice::<Tree, _>(&input, config::standard()).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );

    let bytes = marshal::encode_to_vec(&vec![7u64; 1000], config::standard());
    let c = config::standard().with_limit::<7999>();
    let err = marshal::decode_from_slice::<Vec<u64>, _>(&bytes, c).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 7999 });
    let c = config::standard().with_limit::<8000>();
    assert_eq!(
        marshal::decode_from_slice::<Vec<u64>, _>(&bytes, c)
            .unwrap()
            .0
            .len(),
        1000
    );

    // A pointer to `str` or `[T]` is charged what converting into it
    // allocates, at its contents (after the one-byte length prefix), as
    // in `legacy()`.
    // The vector it decodes into, then the `Rc` (counters and items).
    const NEEDS: usize = 800 + 2 * size_of::<usize>() + 800;
    let value: Rc<[u64]> = (0..100).collect();
    let bytes = marshal::encode_to_vec(&value, config::standard());
    let c = config::standard().with_limit::<{ NEEDS - 1 }>();
    let err = marshal::decode_from_slice::<Rc<[u64]>, _>(&bytes, c).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: NEEDS - 1 }, 1)
    );
    let c = config::standard().with_limit::<NEEDS>();
    let (back, _) = marshal::decode_from_slice::<Rc<[u64]>, _>(&bytes, c).unwrap();
    assert_eq!(back, value);

    let value: Box<str> = "seventeen letters".into();
    let bytes = marshal::encode_to_vec(&value, config::standard().with_big_endian());
    let c = config::standard().with_big_endian().with_limit::<16>();
    let err = marshal::decode_from_slice::<Box<str>, _>(&bytes, c).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: 16 }, 1)
    );
    let c = config::standard().with_big_endian().with_limit::<17>();
    let (back, _) = marshal::decode_from_slice::<Box<str>, _>(&bytes, c).unwrap();
    assert_eq!(back, value);
}

/// `legacy()` is every other function's bytes, for every type; and with
/// big-endian integers its sizes are still `FIXED_LEN`'s.
#[test]
fn legacy_is_to_vec() {
    let ints = Ints {
        a: 1,
        b: -1,
        c: 300,
        d: -300,
        e: 1 << 20,
        f: -(1 << 20),
        g: 1 << 40,
        h: -(1 << 40),
        i: 1 << 100,
        j: -(1 << 100),
        k: 7,
        l: -7,
    };
    let big = marshal::encode_to_vec(&ints, config::legacy().with_big_endian());
    assert_eq!(Some(big.len()), Ints::FIXED_LEN);
    assert_eq!(
        marshal::encoded_len_with(&ints, config::legacy().with_big_endian()),
        big.len()
    );
    let record = Record {
        id: 1,
        name: "a".into(),
        tags: vec!["t".into()],
        scores: BTreeMap::from([(1, -1)]),
        note: None,
        grid: [1, 2, 3],
        ratio: 0.5,
        flag: true,
        letter: 'é',
    };
    let bytes = marshal::encode_to_vec(&record, config::legacy());
    assert_eq!(bytes, marshal::to_vec(&record));
    let (back, used) = marshal::decode_from_slice::<Record, _>(&bytes, config::legacy()).unwrap();
    assert_eq!((marshal::to_vec(&back), used), (bytes.clone(), bytes.len()));
}

/// A struct borrowing from its input.
#[derive(Debug, PartialEq, Marshal, Unmarshal, bincode2::Encode, bincode2::BorrowDecode)]
#[bincode(crate = "bincode2")]
struct Borrowed<'a> {
    name: &'a str,
    id: u32,
}

/// A struct borrowing a byte array (a digest) and a string.
#[derive(Debug, PartialEq, Marshal, Unmarshal)]
struct Digest<'a> {
    sum: &'a [u8; 4],
    name: &'a str,
}

/// `digest` in `c`: the bytes of its owned form in bincode 2's `b`,
/// decoded in place in the input.
fn digest_in<C, B>(c: C, b: B)
where
    C: Config,
    for<'a> Digest<'a>: MarshalIn<C::Dialect> + UnmarshalIn<'a, C::Dialect>,
    B: bincode2::config::Config,
{
    let digest = Digest {
        sum: &[1, 2, 254, 255],
        name: "sha",
    };
    let bytes = marshal::encode_to_vec(&digest, c);
    let owned = (*digest.sum, digest.name.to_owned());
    assert_eq!(bytes, bincode2::encode_to_vec(&owned, b).unwrap());
    let (back, used) = marshal::decode_from_slice::<Digest, _>(&bytes, c).unwrap();
    assert_eq!((&back, used), (&digest, bytes.len()));
    assert!(std::ptr::eq(back.sum.as_ptr(), bytes.as_ptr()));
    // Cut anywhere, refused.
    for cut in 0..bytes.len() {
        assert!(marshal::decode_from_slice::<Digest, _>(&bytes[..cut], c).is_err());
    }
}

/// A borrowed byte array decodes in every configuration, from the input,
/// its bytes an owned array's.
#[test]
fn borrowed_byte_arrays_in_every_configuration() {
    use bincode2::config as b2;
    digest_in(config::standard(), b2::standard());
    digest_in(
        config::standard().with_big_endian(),
        b2::standard().with_big_endian(),
    );
    digest_in(
        config::legacy().with_big_endian(),
        b2::legacy().with_big_endian(),
    );
    digest_in(config::legacy(), b2::legacy());
}

/// Each row of the facade's "From bincode 2, and bincode 1's
/// `DefaultOptions`" table, against the crate it replaces.
#[test]
fn coming_from_bincode2() {
    let record = Record {
        id: 70_000,
        name: "ACME".into(),
        tags: vec!["a".into(), "b".into()],
        scores: BTreeMap::from([(1, -300), (2, 1 << 40)]),
        note: Some("n".into()),
        grid: [1, 300, 70],
        ratio: -0.5,
        flag: true,
        letter: 'é',
    };
    let standard = bincode2::config::standard();
    let bytes = marshal::encode_to_vec(&record, config::standard());
    assert_eq!(bytes, bincode2::encode_to_vec(&record, standard).unwrap());
    let (mut ours, mut theirs) = ([0u8; 128], [0u8; 128]);
    let n = marshal::encode_into_slice(&record, &mut ours, config::standard()).unwrap();
    let m = bincode2::encode_into_slice(&record, &mut theirs, standard).unwrap();
    assert_eq!(ours[..n], theirs[..m]);
    let (back, used) = marshal::decode_from_slice::<Record, _>(&bytes, config::standard()).unwrap();
    let (b2, used2): (Record, usize) = bincode2::decode_from_slice(&bytes, standard).unwrap();
    assert_eq!((used, used2), (bytes.len(), bytes.len()));
    assert_eq!(marshal::to_vec(&back), marshal::to_vec(&b2));
    // The length, through bincode 2's `SizeWriter`.
    let mut size = bincode2::enc::write::SizeWriter::default();
    bincode2::encode_into_writer(&record, &mut size, standard).unwrap();
    assert_eq!(
        marshal::encoded_len_with(&record, config::standard()),
        size.bytes_written
    );
    // Borrowing.
    let borrowed = Borrowed { name: "hi", id: 9 };
    let bytes = marshal::encode_to_vec(&borrowed, config::standard());
    let (ours, _) = marshal::decode_from_slice::<Borrowed, _>(&bytes, config::standard()).unwrap();
    let (theirs, _): (Borrowed, usize) =
        bincode2::borrow_decode_from_slice(&bytes, standard).unwrap();
    assert_eq!(ours, theirs);
    assert!(std::ptr::eq(ours.name.as_ptr(), bytes[1..].as_ptr()));
    // The builder methods, each against bincode 2's of the same name.
    let value = (300u32, -2i64, 1.5f64);
    let pairs: [(Vec<u8>, Vec<u8>); 4] = [
        (
            marshal::encode_to_vec(&value, config::legacy().with_big_endian()),
            bincode2::encode_to_vec(value, bincode2::config::legacy().with_big_endian()).unwrap(),
        ),
        (
            marshal::encode_to_vec(
                &value,
                config::standard().with_big_endian().with_little_endian(),
            ),
            bincode2::encode_to_vec(value, standard.with_big_endian().with_little_endian())
                .unwrap(),
        ),
        (
            marshal::encode_to_vec(&value, config::standard().with_fixed_int_encoding()),
            bincode2::encode_to_vec(value, standard.with_fixed_int_encoding()).unwrap(),
        ),
        (
            marshal::encode_to_vec(&value, config::legacy().with_variable_int_encoding()),
            bincode2::encode_to_vec(
                value,
                bincode2::config::legacy().with_variable_int_encoding(),
            )
            .unwrap(),
        ),
    ];
    for (ours, theirs) in pairs {
        assert_eq!(ours, theirs);
    }
    // The serde route, against bincode 2's `serde` module.
    let ours = marshal::serde::encode_to_vec(&record, config::standard()).unwrap();
    assert_eq!(
        ours,
        bincode2::serde::encode_to_vec(&record, standard).unwrap()
    );
    let (mut a, mut b) = ([0u8; 128], [0u8; 128]);
    let n = marshal::serde::encode_into_slice(&record, &mut a, config::standard()).unwrap();
    let m = bincode2::serde::encode_into_slice(&record, &mut b, standard).unwrap();
    assert_eq!(a[..n], b[..m]);
    let (back, used) =
        marshal::serde::decode_from_slice::<Record, _>(&ours, config::standard()).unwrap();
    let (b2, used2): (Record, usize) = bincode2::serde::decode_from_slice(&ours, standard).unwrap();
    assert_eq!((used, used2), (ours.len(), ours.len()));
    assert_eq!(marshal::to_vec(&back), marshal::to_vec(&b2));
    let text = marshal::serde::encode_to_vec(&("hi", 3u8), config::standard()).unwrap();
    let (ours, _) =
        marshal::serde::borrow_decode_from_slice::<(&str, u8), _>(&text, config::standard())
            .unwrap();
    let (theirs, _): ((&str, u8), usize) =
        bincode2::serde::borrow_decode_from_slice(&text, standard).unwrap();
    assert_eq!(ours, theirs);
    assert!(std::ptr::eq(ours.0.as_ptr(), text[1..].as_ptr()));
    // Frames and batches carry the configuration's bytes.
    let codec = marshal::frame::Codec::new().with_config(config::standard());
    let mut frame = Vec::new();
    codec.encode_into_vec(&record, &mut frame).unwrap();
    assert_eq!(
        frame[4..],
        bincode2::encode_to_vec(&record, standard).unwrap()
    );
    let batch = [record.clone(), record.clone()];
    assert_eq!(
        marshal::par::to_vec_with(&batch, config::standard()),
        bincode2::encode_to_vec(batch.to_vec(), standard).unwrap()
    );
    // bincode 1.3's `DefaultOptions`, and its trailing bytes.
    let options = bincode::DefaultOptions::new();
    let bytes = marshal::encode_to_vec(&record, config::standard());
    assert_eq!(options.serialize(&record).unwrap(), bytes);
    let mut long = bytes.clone();
    long.push(0);
    assert!(options.deserialize::<Record>(&long).is_err());
    let (_, used) = marshal::decode_from_slice::<Record, _>(&long, config::standard()).unwrap();
    assert_ne!(used, long.len());
    assert_eq!(
        options.with_big_endian().serialize(&value).unwrap(),
        marshal::encode_to_vec(&value, config::standard().with_big_endian())
    );
    assert_eq!(
        options.with_fixint_encoding().serialize(&value).unwrap(),
        marshal::encode_to_vec(&value, config::legacy())
    );
}
