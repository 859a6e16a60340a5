//! Decoding hostile input: truncated, corrupted and lying bytes.
//!
//! - Every strict prefix of a valid encoding is an error from both
//!   `from_bytes` and `read_from`, never a panic.
//! - Seeded random corruption (bit flips, overwritten, inserted and deleted
//!   bytes, truncation, length prefixes overwritten with huge values) never
//!   panics; whatever decodes re-encodes to bytes that decode to an equal
//!   value, and `from_bytes` and `read_from` agree with each other.
//! - A length prefix claiming 2^60 items in a 20-byte input is a
//!   `LengthOverflow` error, rejected without a single allocation (the
//!   shared counting global allocator in `src/counting.rs` measures
//!   this).
//! - Each error kind is reported with the right details, offset and message.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{NonZeroI64, NonZeroU8, NonZeroU32, NonZeroU128, Wrapping};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use marshal::{DecodeError, DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::checks::{assert_decode_error, decode_error};
use marshal_test_suite::counting;
use marshal_test_suite::fixtures::{Rgb, be_u32, rgb_hex};

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// Measuring allocations with the shared counting allocator.

/// Allocations made by the measured closure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Allocs {
    count: usize,
    largest: usize,
    /// Bytes asked for, summed over every allocation and reallocation.
    total: usize,
}

/// Runs `f`, counting the allocations it makes on this thread. Takes the
/// shared measurement lock itself.
fn measure<R>(f: impl FnOnce() -> R) -> (R, Allocs) {
    let guard = counting::lock();
    let (result, allocations) = counting::measure(&guard, || std::hint::black_box(f()));
    let allocs = Allocs {
        count: allocations.count,
        largest: allocations.largest,
        total: allocations.total,
    };
    (result, allocs)
}

#[test]
fn counting_allocator_counts() {
    let (v, allocs) = measure(|| Vec::<u8>::with_capacity(100));
    drop(v);
    assert_eq!(
        allocs,
        Allocs {
            count: 1,
            largest: 100,
            total: 100,
        }
    );

    let (_, allocs) = measure(|| 1 + 1);
    assert_eq!(allocs.count, 0);

    // A successful decode that must allocate is seen.
    let bytes = marshal::to_vec(&vec![1u64, 2, 3]);
    let (v, allocs) = measure(|| marshal::from_bytes::<Vec<u64>>(&bytes));
    assert_eq!(v, Ok(vec![1, 2, 3]));
    assert_eq!(
        allocs,
        Allocs {
            count: 1,
            largest: 24,
            total: 24,
        }
    );
}

// ---------------------------------------------------------------------------
// A tiny seeded PRNG (splitmix64).

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`; `n` must be positive.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn byte(&mut self) -> u8 {
        self.next() as u8
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn string(&mut self, max_chars: usize) -> String {
        const PALETTE: &[char] = &[
            'a',
            'Z',
            '0',
            ' ',
            'é',
            'ß',
            'Ω',
            'ж',
            '€',
            '中',
            '😀',
            '🦀',
            '\u{10FFFF}',
            '\0',
        ];
        (0..self.below(max_chars + 1))
            .map(|_| self.pick(PALETTE))
            .collect()
    }

    fn bytes(&mut self, max: usize) -> Vec<u8> {
        (0..self.below(max + 1)).map(|_| self.byte()).collect()
    }
}

const STATIC_STRS: &[&str] = &[
    "",
    "a",
    "ACME",
    "héllo",
    "日本語",
    "🦀🦀",
    "\u{10FFFF}\u{0}",
];
const STATIC_BYTES: &[&[u8]] = &[b"", b"\x00", b"\xff\xfe", b"binary\x80data"];

// ---------------------------------------------------------------------------
// Types under test.

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
enum Side {
    Buy,
    Sell,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
enum Leg {
    Market,
    Limit { price: i64, qty: u32 },
    Stop(u64, Option<i64>),
    Named(String),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
#[marshal(tag_type = u8)]
enum Small {
    A,
    #[marshal(tag = 200)]
    B(u16),
    C {
        text: String,
    },
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
#[marshal(tag_type = u16)]
enum Medium {
    #[marshal(tag = 0x1234)]
    X(bool),
    Y,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
struct Order<'a> {
    id: u64,
    symbol: &'a str,
    raw: &'a [u8],
    price: Option<i64>,
    tags: Vec<String>,
    side: Side,
    legs: Vec<Leg>,
    note: Option<Box<str>>,
    flag: bool,
    initial: char,
    qty: NonZeroU32,
    ttl: Duration,
    peer: SocketAddr,
    #[marshal(with = rgb_hex)]
    color: Rgb,
    #[marshal(with = be_u32)]
    seq: u32,
    #[marshal(skip)]
    cache: Vec<u8>,
    small: Small,
    medium: Medium,
}

/// Maps and sets: decoding does not reject duplicate or unordered keys, so
/// their encoding is not canonical.
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
struct Registry {
    by_name: BTreeMap<String, Option<u32>>,
    by_id: HashMap<u16, Vec<String>>,
    seen: BTreeSet<char>,
    ids: HashSet<u64>,
}

type Shapes = Vec<(Leg, Small, Option<Medium>)>;
type NestedVecs = Vec<Vec<Option<(u8, String)>>>;
type Misc<'a> = (
    (Ipv4Addr, Ipv6Addr, IpAddr, SocketAddrV4, SocketAddrV6),
    (Duration, [char; 3], Option<Option<bool>>, Wrapping<i16>),
    (Cow<'a, str>, Cow<'a, [u8]>, Cow<'a, [u32]>, VecDeque<u16>),
    (
        Box<[i8]>,
        Rc<str>,
        Arc<[u64]>,
        NonZeroU8,
        NonZeroI64,
        NonZeroU128,
    ),
    (u128, i128, usize, isize, [u8; 5], &'a [u8; 3]),
);
type Floats = (f32, Vec<f64>, Option<f32>);

// ---------------------------------------------------------------------------
// Type families: one type at every input lifetime.

/// A type, generic over the lifetime of the input it decodes from.
trait Family {
    type T<'a>: Marshal + Unmarshal<'a> + Debug;
    /// Whether every value has exactly one encoding (no maps or sets).
    const CANONICAL: bool;
    /// Whether two values, decoded from different buffers, are equal.
    fn same<'x, 'y>(a: &Self::T<'x>, b: &Self::T<'y>) -> bool;
    /// A random valid value.
    fn generate(rng: &mut Rng) -> Self::T<'static>;
}

macro_rules! family {
    ($fam:ident<$l:lifetime> = $ty:ty, canonical = $c:expr, |$rng:ident| $gen:block) => {
        struct $fam;
        impl Family for $fam {
            type T<$l> = $ty;
            const CANONICAL: bool = $c;
            fn same<'x, 'y>(a: &Self::T<'x>, b: &Self::T<'y>) -> bool {
                a == b
            }
            fn generate($rng: &mut Rng) -> Self::T<'static> $gen
        }
    };
}

fn gen_leg(rng: &mut Rng) -> Leg {
    match rng.below(4) {
        0 => Leg::Market,
        1 => Leg::Limit {
            price: rng.next() as i64,
            qty: rng.next() as u32,
        },
        2 => Leg::Stop(rng.next(), rng.chance(50).then(|| rng.next() as i64)),
        _ => Leg::Named(rng.string(6)),
    }
}

fn gen_small(rng: &mut Rng) -> Small {
    match rng.below(3) {
        0 => Small::A,
        1 => Small::B(rng.next() as u16),
        _ => Small::C {
            text: rng.string(5),
        },
    }
}

fn gen_medium(rng: &mut Rng) -> Medium {
    if rng.chance(50) {
        Medium::X(rng.chance(50))
    } else {
        Medium::Y
    }
}

fn gen_char(rng: &mut Rng) -> char {
    loop {
        let limit = rng.pick(&[0x80u32, 0x800, 0x1_0000, 0x11_0000]);
        if let Some(c) = char::from_u32((rng.next() as u32) % limit) {
            return c;
        }
    }
}

fn gen_duration(rng: &mut Rng) -> Duration {
    Duration::new(
        rng.next() >> rng.below(64),
        (rng.next() % 1_000_000_000) as u32,
    )
}

fn gen_socket(rng: &mut Rng) -> SocketAddr {
    if rng.chance(50) {
        SocketAddr::V4(SocketAddrV4::new(
            Ipv4Addr::from(rng.next() as u32),
            rng.next() as u16,
        ))
    } else {
        SocketAddr::V6(SocketAddrV6::new(
            Ipv6Addr::from(u128::from(rng.next()) << 64 | u128::from(rng.next())),
            rng.next() as u16,
            0,
            0,
        ))
    }
}

family!(OrderFam<'a> = Order<'a>, canonical = true, |rng| {
    Order {
        id: rng.next(),
        symbol: rng.pick(STATIC_STRS),
        raw: rng.pick(STATIC_BYTES),
        price: rng.chance(50).then(|| rng.next() as i64),
        tags: (0..rng.below(4)).map(|_| rng.string(6)).collect(),
        side: if rng.chance(50) { Side::Buy } else { Side::Sell },
        legs: (0..rng.below(4)).map(|_| gen_leg(rng)).collect(),
        note: rng.chance(50).then(|| rng.string(8).into()),
        flag: rng.chance(50),
        initial: gen_char(rng),
        qty: NonZeroU32::new(rng.next() as u32).unwrap_or(NonZeroU32::MIN),
        ttl: gen_duration(rng),
        peer: gen_socket(rng),
        color: Rgb {
            r: rng.byte(),
            g: rng.byte(),
            b: rng.byte(),
        },
        seq: rng.next() as u32,
        cache: Vec::new(),
        small: gen_small(rng),
        medium: gen_medium(rng),
    }
});

family!(RegistryFam<'a> = Registry, canonical = false, |rng| {
    Registry {
        by_name: (0..rng.below(5))
            .map(|_| (rng.string(4), rng.chance(50).then(|| rng.next() as u32)))
            .collect(),
        by_id: (0..rng.below(5))
            .map(|_| (rng.next() as u16, (0..rng.below(3)).map(|_| rng.string(3)).collect()))
            .collect(),
        seen: (0..rng.below(5)).map(|_| gen_char(rng)).collect(),
        ids: (0..rng.below(5)).map(|_| rng.next() >> rng.below(64)).collect(),
    }
});

family!(ShapesFam<'a> = Shapes, canonical = true, |rng| {
    (0..rng.below(6))
        .map(|_| (gen_leg(rng), gen_small(rng), rng.chance(50).then(|| gen_medium(rng))))
        .collect()
});

family!(NestedVecsFam<'a> = NestedVecs, canonical = true, |rng| {
    (0..rng.below(4))
        .map(|_| {
            (0..rng.below(4))
                .map(|_| rng.chance(70).then(|| (rng.byte(), rng.string(5))))
                .collect()
        })
        .collect()
});

family!(MiscFam<'a> = Misc<'a>, canonical = true, |rng| {
    let v6 = SocketAddrV6::new(Ipv6Addr::from(u128::from(rng.next())), rng.next() as u16, 0, 0);
    (
        (
            Ipv4Addr::from(rng.next() as u32),
            Ipv6Addr::from(u128::from(rng.next()) << 64),
            if rng.chance(50) {
                IpAddr::V4(Ipv4Addr::from(rng.next() as u32))
            } else {
                IpAddr::V6(Ipv6Addr::from(u128::from(rng.next())))
            },
            SocketAddrV4::new(Ipv4Addr::from(rng.next() as u32), rng.next() as u16),
            v6,
        ),
        (
            gen_duration(rng),
            [gen_char(rng), gen_char(rng), gen_char(rng)],
            match rng.below(3) {
                0 => None,
                1 => Some(None),
                _ => Some(Some(rng.chance(50))),
            },
            Wrapping(rng.next() as i16),
        ),
        (
            Cow::Borrowed(rng.pick(STATIC_STRS)),
            Cow::Borrowed(rng.pick(STATIC_BYTES)),
            Cow::Owned((0..rng.below(4)).map(|_| rng.next() as u32).collect()),
            (0..rng.below(4)).map(|_| rng.next() as u16).collect(),
        ),
        (
            (0..rng.below(4)).map(|_| rng.next() as i8).collect(),
            Rc::from(rng.string(4)),
            (0..rng.below(3)).map(|_| rng.next()).collect(),
            NonZeroU8::new(rng.byte()).unwrap_or(NonZeroU8::MAX),
            NonZeroI64::new(rng.next() as i64).unwrap_or(NonZeroI64::MIN),
            NonZeroU128::new(u128::from(rng.next())).unwrap_or(NonZeroU128::MAX),
        ),
        (
            u128::from(rng.next()) << rng.below(64),
            -(i128::from(rng.next())),
            rng.next() as usize,
            rng.next() as isize,
            [rng.byte(), rng.byte(), rng.byte(), rng.byte(), rng.byte()],
            rng.pick(&[b"abc", b"\x00\x01\x02"]),
        ),
    )
});

/// Floats compare by their encoding, so NaNs compare equal to themselves.
struct FloatsFam;

impl Family for FloatsFam {
    type T<'a> = Floats;
    const CANONICAL: bool = true;
    fn same<'x, 'y>(a: &Floats, b: &Floats) -> bool {
        marshal::to_vec(a) == marshal::to_vec(b)
    }
    fn generate(rng: &mut Rng) -> Floats {
        (
            f32::from_bits(rng.next() as u32),
            (0..rng.below(4))
                .map(|_| f64::from_bits(rng.next()))
                .collect(),
            rng.chance(50).then(|| f32::from_bits(rng.next() as u32)),
        )
    }
}

fn full<'a, F: Family>(input: &'a [u8]) -> Result<F::T<'a>, DecodeError> {
    marshal::from_bytes(input)
}

fn prefix<'a, F: Family>(input: &'a [u8]) -> Result<(F::T<'a>, usize), DecodeError> {
    <F::T<'a> as Unmarshal<'a>>::read_from(input)
}

/// Checks `from_bytes` and `read_from` on arbitrary `input`: no panic,
/// errors within the input, the two entry points agreeing, and anything
/// that decodes re-encoding to bytes that decode to an equal value. Returns
/// whether `from_bytes` succeeded.
fn check_input<F: Family>(input: &[u8]) -> bool {
    let whole = full::<F>(input);
    let front = prefix::<F>(input);
    match &front {
        Ok((value, used)) => {
            assert!(
                *used <= input.len(),
                "read_from used {used} of {} bytes",
                input.len()
            );
            if *used == input.len() {
                assert!(
                    whole.as_ref().is_ok_and(|w| F::same(w, value)),
                    "read_from used all bytes but from_bytes gave {whole:?}"
                );
            } else {
                let err = whole
                    .as_ref()
                    .expect_err("from_bytes ignored trailing bytes");
                assert_eq!(
                    err.kind(),
                    DecodeErrorKind::TrailingBytes {
                        count: input.len() - used
                    }
                );
                assert_eq!(err.offset(), *used);
            }
            let again = full::<F>(&input[..*used]).expect("the used prefix decodes on its own");
            assert!(F::same(value, &again));
        }
        Err(e) => {
            assert_eq!(
                whole.as_ref().err(),
                Some(e),
                "from_bytes and read_from disagree"
            );
            assert!(
                e.offset() <= input.len(),
                "error {e} past the {}-byte input",
                input.len()
            );
            // Every error has a message.
            assert!(e.to_string().contains(" at byte "));
        }
    }
    let Ok(value) = &whole else { return false };
    let bytes = marshal::to_vec(value);
    assert_eq!(value.encoded_len(), bytes.len());
    if F::CANONICAL {
        assert_eq!(
            bytes, input,
            "a non-canonical encoding decoded to {value:?}"
        );
    }
    let again = full::<F>(&bytes)
        .unwrap_or_else(|e| panic!("re-encoding of {value:?} does not decode: {e}"));
    assert!(F::same(value, &again), "{value:?} re-decoded as {again:?}");
    true
}

// ---------------------------------------------------------------------------
// (a) Every strict prefix of a valid encoding is an error.

/// `n` normally, far fewer under Miri, which runs these loops thousands of
/// times slower; the inputs are seeded, so Miri checks a prefix of them.
fn scaled(n: usize) -> usize {
    if cfg!(miri) { (n / 200).max(1) } else { n }
}

fn check_prefixes<F: Family>(seed: u64, values: usize) {
    let mut rng = Rng(seed);
    for _ in 0..scaled(values) {
        let value = F::generate(&mut rng);
        let bytes = marshal::to_vec(&value);
        assert!(
            check_input::<F>(&bytes),
            "valid encoding of {value:?} rejected"
        );
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            let e = full::<F>(cut).expect_err("a strict prefix decoded with from_bytes");
            let p = prefix::<F>(cut)
                .map(|(_, used)| used)
                .expect_err("a strict prefix decoded with read_from");
            assert_eq!(e, p);
            assert!(
                matches!(
                    e.kind(),
                    DecodeErrorKind::UnexpectedEnd { .. } | DecodeErrorKind::LengthOverflow { .. }
                ),
                "prefix of {len} bytes: unexpected error {e}"
            );
            assert!(e.offset() <= len, "prefix of {len} bytes: error {e}");
            if let DecodeErrorKind::UnexpectedEnd { needed } = e.kind() {
                assert!(needed > 0);
            }
        }
    }
}

#[test]
fn prefixes_order() {
    check_prefixes::<OrderFam>(1, 40);
}

#[test]
fn prefixes_registry() {
    check_prefixes::<RegistryFam>(2, 40);
}

#[test]
fn prefixes_shapes() {
    check_prefixes::<ShapesFam>(3, 40);
}

#[test]
fn prefixes_nested_vecs() {
    check_prefixes::<NestedVecsFam>(4, 40);
}

#[test]
fn prefixes_misc() {
    check_prefixes::<MiscFam>(5, 40);
}

#[test]
fn prefixes_floats() {
    check_prefixes::<FloatsFam>(6, 40);
}

#[test]
fn prefixes_of_fixed_values() {
    let order = Order {
        id: 7,
        symbol: "ACME",
        raw: b"\x00\xff",
        price: Some(-5),
        tags: vec!["gtc".into(), "héllo".into()],
        side: Side::Sell,
        legs: vec![
            Leg::Market,
            Leg::Limit { price: 1, qty: 2 },
            Leg::Stop(3, None),
            Leg::Named("x".into()),
        ],
        note: Some("note".into()),
        flag: true,
        initial: '🦀',
        qty: NonZeroU32::new(9).unwrap(),
        ttl: Duration::new(1, 999_999_999),
        peer: "[::1]:80".parse().unwrap(),
        color: Rgb { r: 1, g: 2, b: 255 },
        seq: 0xDEAD_BEEF,
        cache: Vec::new(),
        small: Small::C { text: "t".into() },
        medium: Medium::X(false),
    };
    let bytes = marshal::to_vec(&order);
    assert_eq!(full::<OrderFam>(&bytes), Ok(order));
    for len in 0..bytes.len() {
        assert!(full::<OrderFam>(&bytes[..len]).is_err());
        assert!(prefix::<OrderFam>(&bytes[..len]).is_err());
    }
}

// ---------------------------------------------------------------------------
// (b) Seeded random corruption.

/// Values that make interesting lengths, tags and bytes.
const HUGE: &[u64] = &[
    u64::MAX,
    1 << 60,
    1 << 63,
    1 << 32,
    u32::MAX as u64,
    i64::MAX as u64,
    (1 << 60) + 1,
];

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..=rng.below(3) {
        let len = bytes.len();
        match rng.below(10) {
            0 if len > 0 => {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = rng.byte();
            }
            2 if len > 0 => {
                let i = rng.below(len);
                bytes[i] = rng.pick(&[0, 1, 2, 7, 0x7F, 0x80, 0xBF, 0xC0, 0xED, 0xF4, 0xF5, 0xFF]);
            }
            3 => {
                let i = rng.below(len + 1);
                bytes.insert(i, rng.byte());
            }
            4 if len > 0 => {
                bytes.remove(rng.below(len));
            }
            5 => bytes.truncate(rng.below(len + 1)),
            // A huge length anywhere.
            6 if len >= 8 => {
                let i = rng.below(len - 7);
                bytes[i..i + 8].copy_from_slice(&rng.pick(HUGE).to_le_bytes());
            }
            // Grow or shrink something that looks like a length prefix: a
            // small little-endian u64.
            7 | 8 if len >= 8 => {
                let prefixes: Vec<usize> = (0..=len - 8)
                    .filter(|&i| {
                        let n = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
                        n <= 64
                    })
                    .collect();
                if !prefixes.is_empty() {
                    let i = rng.pick(&prefixes);
                    let old = u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
                    let new = match rng.below(4) {
                        0 => rng.pick(HUGE),
                        1 => old + 1 + rng.below(4) as u64,
                        2 => old.saturating_sub(1),
                        _ => len as u64 + rng.below(3) as u64,
                    };
                    bytes[i..i + 8].copy_from_slice(&new.to_le_bytes());
                }
            }
            _ => {
                // Duplicate a slice in place.
                if len > 0 {
                    let start = rng.below(len);
                    let end = start + rng.below(len - start) + 1;
                    let chunk = bytes[start..end].to_vec();
                    let at = rng.below(len + 1);
                    bytes.splice(at..at, chunk);
                }
            }
        }
    }
}

/// Runs `copies` corrupted copies of random valid encodings through
/// [`check_input`]; returns how many still decoded.
fn fuzz<F: Family>(seed: u64, copies: usize) -> usize {
    let mut rng = Rng(seed);
    let mut decoded = 0;
    for _ in 0..scaled(copies) {
        let value = F::generate(&mut rng);
        let mut bytes = marshal::to_vec(&value);
        mutate(&mut rng, &mut bytes);
        if check_input::<F>(&bytes) {
            decoded += 1;
        }
    }
    decoded
}

#[test]
fn corruption_order() {
    let ok = fuzz::<OrderFam>(0x0DDE, 5_000);
    // Some corruptions (a flipped bit in an integer) still decode.
    assert!(
        ok > 0 || cfg!(miri),
        "no corrupted copy decoded: the fuzzer is too coarse"
    );
}

#[test]
fn corruption_registry() {
    let decoded = fuzz::<RegistryFam>(0x5EED, 3_000);
    assert!(decoded > 0 || cfg!(miri), "no corrupted copy decoded");
}

#[test]
fn corruption_shapes() {
    let decoded = fuzz::<ShapesFam>(0xB0B, 3_000);
    assert!(decoded > 0 || cfg!(miri), "no corrupted copy decoded");
}

#[test]
fn corruption_nested_vecs() {
    let decoded = fuzz::<NestedVecsFam>(0xCAFE, 3_000);
    assert!(decoded > 0 || cfg!(miri), "no corrupted copy decoded");
}

#[test]
fn corruption_misc() {
    let decoded = fuzz::<MiscFam>(0xF00D, 4_000);
    assert!(decoded > 0 || cfg!(miri), "no corrupted copy decoded");
}

#[test]
fn corruption_floats() {
    let decoded = fuzz::<FloatsFam>(0xF10A7, 2_000);
    assert!(decoded > 0 || cfg!(miri), "no corrupted copy decoded");
}

/// Pure noise, of every length up to 64.
#[test]
fn random_bytes() {
    let mut rng = Rng(42);
    for _ in 0..scaled(2_000) {
        let noise = rng.bytes(64);
        check_input::<OrderFam>(&noise);
        check_input::<RegistryFam>(&noise);
        check_input::<ShapesFam>(&noise);
        check_input::<NestedVecsFam>(&noise);
        check_input::<MiscFam>(&noise);
        check_input::<FloatsFam>(&noise);
    }
}

// ---------------------------------------------------------------------------
// (c) Huge and lying lengths.

/// `len` as a length prefix, then `junk` bytes: 20 bytes in all for 12.
fn claim(len: u64, junk: usize) -> Vec<u8> {
    let mut input = len.to_le_bytes().to_vec();
    input.extend(std::iter::repeat_n(0xAB, junk));
    input
}

/// Decodes `input` as `T` under the counting allocator; the result must be
/// `LengthOverflow { len }` at `offset`, with no allocation at all.
fn rejects_without_allocating<T: for<'de> Unmarshal<'de> + Debug>(
    input: &[u8],
    len: u64,
    offset: usize,
) {
    let ty = std::any::type_name::<T>();
    let (result, allocs) = measure(|| marshal::from_bytes::<T>(input).err());
    let err = result.unwrap_or_else(|| panic!("{ty}: a claim of {len} items decoded"));
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len }, "{ty}");
    assert_eq!(err.offset(), offset, "{ty}");
    assert_eq!(
        allocs.count, 0,
        "{ty} allocated {allocs:?} before rejecting the length"
    );
    let (result, allocs) = measure(|| T::read_from(input).err());
    assert_eq!(result, Some(err), "{ty}: read_from disagrees");
    assert_eq!(allocs.count, 0, "{ty}: read_from allocated {allocs:?}");
}

macro_rules! reject_all {
    ($input:expr, $len:expr, $offset:expr; $($ty:ty),* $(,)?) => {
        $(rejects_without_allocating::<$ty>(&$input, $len, $offset);)*
    };
}

#[test]
fn length_of_2_pow_60_is_rejected_without_allocating() {
    let input = claim(1 << 60, 12);
    assert_eq!(input.len(), 20);
    reject_all!(input, 1 << 60, 0;
        Vec<u64>, Vec<String>, String, BTreeMap<u32, String>, HashMap<String, u64>, Vec<()>,
        Vec<Vec<u8>>, Vec<u8>, Vec<i8>, Vec<bool>, VecDeque<u8>, BTreeSet<u8>, HashSet<u64>,
        Box<str>, Box<[u8]>, Box<[String]>, Rc<str>, Rc<[u32]>, Arc<str>, Arc<[()]>,
        Vec<Option<u64>>, HashMap<(), ()>, BTreeMap<(), ()>, Vec<Registry>, Vec<Leg>,
    );
}

#[test]
fn borrowed_claims_are_rejected_without_allocating() {
    let input = claim(1 << 60, 12);
    let (result, allocs) = measure(|| {
        (
            marshal::from_bytes::<&str>(&input).err(),
            marshal::from_bytes::<&[u8]>(&input).err(),
            marshal::from_bytes::<Vec<&str>>(&input).err(),
            marshal::from_bytes::<Cow<'_, str>>(&input).err(),
            marshal::from_bytes::<Cow<'_, [u8]>>(&input).err(),
            marshal::from_bytes::<Cow<'_, [u32]>>(&input).err(),
            marshal::from_bytes::<Vec<Order<'_>>>(&input).err(),
        )
    });
    let expected = Some(DecodeErrorKind::LengthOverflow { len: 1 << 60 });
    assert_eq!(result.0.map(|e| e.kind()), expected);
    assert_eq!(result.1.map(|e| e.kind()), expected);
    assert_eq!(result.2.map(|e| e.kind()), expected);
    assert_eq!(result.3.map(|e| e.kind()), expected);
    assert_eq!(result.4.map(|e| e.kind()), expected);
    assert_eq!(result.5.map(|e| e.kind()), expected);
    assert_eq!(result.6.map(|e| e.kind()), expected);
    assert_eq!(allocs.count, 0);
}

#[test]
fn other_huge_lengths_are_rejected_without_allocating() {
    for len in [u64::MAX, 1 << 63, 1 << 32, u64::from(u32::MAX), 13, 21] {
        let input = claim(len, 12);
        reject_all!(input, len, 0; Vec<u64>, String, Vec<()>, Vec<u8>, HashMap<u8, u8>);
    }
}

/// The claim sits inside a struct: it is reported at its own offset.
#[test]
fn nested_huge_length_is_rejected_at_its_offset() {
    let mut input = vec![1, 2, 3, 4];
    input.extend(claim(1 << 60, 12));
    reject_all!(input, 1 << 60, 4; (u32, Vec<String>), (u32, String), (u32, BTreeMap<u8, u8>));

    // Outer vector of one item, whose inner vector claims 2^60 bytes: the
    // outer vector's single slot may be allocated, nothing bigger.
    let mut input = 1u64.to_le_bytes().to_vec();
    input.extend(claim(1 << 60, 12));
    let (result, allocs) = measure(|| marshal::from_bytes::<Vec<Vec<u8>>>(&input).err());
    let err = result.expect("decoded");
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 1 << 60 });
    assert_eq!(err.offset(), 8);
    assert!(
        allocs.largest <= input.len(),
        "{allocs:?} for a {}-byte input",
        input.len()
    );
}

/// A length that is plausible but larger than what is present.
#[test]
fn lying_lengths_allocate_nothing() {
    let input = claim(1000, 10);
    reject_all!(input, 1000, 0;
        Vec<u8>, String, Box<str>, Box<[u8]>, Vec<i8>, Vec<u16>, Vec<String>, Vec<Vec<u8>>,
        BTreeMap<u8, u8>, HashMap<u8, u8>, HashSet<u8>, Vec<Option<u8>>,
    );
    // One more than present.
    let input = claim(11, 10);
    reject_all!(input, 11, 0; Vec<u8>, String, Vec<bool>);
    // Items of 8 bytes: 2 fit in 16 bytes, 3 do not.
    let input = claim(3, 16);
    reject_all!(input, 3, 0; Vec<u64>, Vec<String>, Vec<(u32, u32)>);
}

/// A length that passes the check, over items that turn out to be bad:
/// byte-like items allocate no more than the input holds.
#[test]
fn lying_length_over_bad_items_allocates_within_the_input() {
    // 10 bytes present, 10 claimed, but the 6th is not a bool.
    let mut input = claim(10, 0);
    input.extend([1, 0, 1, 0, 1, 9, 0, 0, 0, 0]);
    let (result, allocs) = measure(|| marshal::from_bytes::<Vec<bool>>(&input).err());
    let err = result.expect("decoded");
    assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(9));
    assert_eq!(err.offset(), 13);
    assert!(
        allocs.largest <= input.len(),
        "{allocs:?} for a {}-byte input",
        input.len()
    );

    // A string whose bytes are not UTF-8: they are copied and checked in
    // one pass, so the string's room (its length here, where the input
    // ends within 16 bytes of its start) is allocated once and freed with
    // the error.
    let mut input = claim(4, 0);
    input.extend([b'a', 0xFF, b'b', b'c']);
    let (result, allocs) = measure(|| marshal::from_bytes::<String>(&input).err());
    assert_eq!(result.map(|e| e.kind()), Some(DecodeErrorKind::InvalidUtf8));
    assert_eq!((allocs.count, allocs.largest), (1, 4));
    let mut input = claim(40, 0);
    input.extend([b'a'; 39]);
    input.push(0xFF);
    let (result, allocs) = measure(|| marshal::from_bytes::<String>(&input).err());
    assert_eq!(result.map(|e| e.kind()), Some(DecodeErrorKind::InvalidUtf8));
    assert_eq!((allocs.count, allocs.largest), (1, 40));
}

/// A lying length must not buy up-front allocations much larger than the
/// input: an item type much larger in memory than on the wire would
/// otherwise amplify a small input into a large allocation. Over a whole
/// decode, what is allocated ahead of items is at most four times the input
/// (`Reader::capacity_for`); capacity beyond that comes only from items that
/// actually decode.
#[test]
fn lying_lengths_allocate_at_most_four_times_the_input() {
    fn check<T: for<'de> Unmarshal<'de> + Debug>(input: &[u8]) {
        let ty = std::any::type_name::<T>();
        let (result, allocs) = measure(|| marshal::from_bytes::<T>(input).err());
        assert!(result.is_some(), "{ty} decoded");
        assert!(
            allocs.total <= 4 * input.len(),
            "{ty}: {allocs:?} for a {}-byte input",
            input.len()
        );
    }
    // Ten items claimed, ten bytes present, the first item is bad (tag 2).
    let mut input = claim(10, 0);
    input.extend([2; 10]);
    check::<Vec<Option<u64>>>(&input);
    check::<Vec<Option<[u64; 8]>>>(&input);
    // Five entries claimed, ten bytes present, the first value is bad.
    let mut input = claim(5, 0);
    input.extend([0, 2, 0, 2, 0, 2, 0, 2, 0, 2]);
    check::<HashMap<u8, Option<u128>>>(&input);
    // Hash tables large enough to be allocated up front.
    let mut input = claim(100, 0);
    input.extend([0, 2].repeat(100));
    check::<HashMap<u8, Option<u128>>>(&input);
    let mut input = claim(1000, 0);
    input.extend([2; 1000]);
    check::<HashSet<bool>>(&input);
    check::<HashMap<bool, ()>>(&input);
    // Two strings claimed, sixteen bytes present, the first claims too much.
    let mut input = claim(2, 0);
    input.extend(claim(1 << 40, 8));
    check::<Vec<String>>(&input);
    // 263 bytes in: 255 items of 4097 bytes claimed (a 1 MiB allocation).
    let mut input = claim(255, 0);
    input.extend([2; 255]);
    check::<Vec<Option<[u8; 4096]>>>(&input);
    // Nested claims share one allowance: every level claims all it can,
    // down to a bad tag at the bottom.
    let mut input = Vec::new();
    for _ in 0..6 {
        input.extend(claim(10, 0));
    }
    input.extend([2; 200]);
    check::<Vec<Vec<Vec<Vec<Vec<Vec<Option<[u64; 4]>>>>>>>>(&input);
}

/// Honest input whose items are at most four times larger in memory than
/// on the wire is allocated exactly, in one allocation per collection.
#[test]
fn honest_lengths_allocate_once() {
    // 100 records of 48 bytes on the wire and 64 in memory.
    let records: Vec<(String, u64, [u64; 4])> =
        (0..100).map(|i| (String::new(), i, [i; 4])).collect();
    let bytes = marshal::to_vec(&records);
    let (decoded, allocs) = measure(|| marshal::from_bytes::<Vec<(String, u64, [u64; 4])>>(&bytes));
    assert_eq!(decoded.as_ref(), Ok(&records));
    let size = std::mem::size_of::<(String, u64, [u64; 4])>();
    assert_eq!(
        allocs,
        Allocs {
            count: 1,
            largest: 100 * size,
            total: 100 * size,
        }
    );
}

// ---------------------------------------------------------------------------
// (d) Each error kind, with its details and offset.

#[test]
fn unexpected_end() {
    use DecodeErrorKind::UnexpectedEnd;
    assert_decode_error::<u32>(&[1, 2], UnexpectedEnd { needed: 2 }, 0);
    assert_decode_error::<u8>(&[], UnexpectedEnd { needed: 1 }, 0);
    assert_decode_error::<u128>(&[], UnexpectedEnd { needed: 16 }, 0);
    assert_decode_error::<(u16, u64)>(&[1, 0, 1, 2, 3], UnexpectedEnd { needed: 5 }, 2);
    assert_decode_error::<Duration>(&[0; 11], UnexpectedEnd { needed: 1 }, 0);
    assert_decode_error::<(u8, [u8; 4])>(&[9, 1, 2], UnexpectedEnd { needed: 2 }, 1);
    // An array whose wire bytes are its memory is read in one piece, so the
    // offset is where the array starts; other arrays are read element by
    // element.
    assert_decode_error::<(u8, [u32; 2])>(&[9, 1, 2, 3, 4, 5], UnexpectedEnd { needed: 3 }, 1);
    assert_decode_error::<(u8, [bool; 2])>(&[9, 1], UnexpectedEnd { needed: 1 }, 2);
    assert_decode_error::<&[u8; 16]>(&[0; 10], UnexpectedEnd { needed: 6 }, 0);
    assert_decode_error::<Ipv6Addr>(&[0; 15], UnexpectedEnd { needed: 1 }, 0);
    assert_decode_error::<Option<u32>>(&[1, 7], UnexpectedEnd { needed: 3 }, 1);
    assert_decode_error::<bool>(&[], UnexpectedEnd { needed: 1 }, 0);
    // A length prefix cut short.
    assert_decode_error::<String>(&[5, 0, 0], UnexpectedEnd { needed: 5 }, 0);
    assert_decode_error::<Vec<u8>>(&[], UnexpectedEnd { needed: 8 }, 0);
    // A string cut short: five bytes claimed, two present. The length
    // check catches it before the bytes are read.
    let mut input = claim(5, 0);
    input.extend(b"ab");
    assert_decode_error::<&str>(&input, DecodeErrorKind::LengthOverflow { len: 5 }, 0);
    // A char cut short after its lead byte.
    assert_decode_error::<char>(&[0xE2, 0x82], UnexpectedEnd { needed: 1 }, 1);
    assert_decode_error::<char>(&[0xF0], UnexpectedEnd { needed: 3 }, 1);
    assert_decode_error::<(u8, char)>(&[0, 0xC3], UnexpectedEnd { needed: 1 }, 2);
    // Inside a derived enum variant.
    assert_decode_error::<Leg>(&[1, 0, 0, 0, 1, 2, 3], UnexpectedEnd { needed: 5 }, 4);
    assert_decode_error::<Leg>(&[1, 0], UnexpectedEnd { needed: 2 }, 0);
    assert_decode_error::<Small>(&[200, 1], UnexpectedEnd { needed: 1 }, 1);
    // Inside a `with` module: the module's offset is moved to the field.
    let bytes = marshal::to_vec(&WithBe { a: 1, b: 2 });
    assert_decode_error::<WithBe>(&bytes[..3], UnexpectedEnd { needed: 2 }, 1);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithBe {
    a: u8,
    #[marshal(with = be_u32)]
    b: u32,
}

/// `from_bytes` reads a fixed-size value from an input of exactly its size
/// after one comparison; shorter and longer inputs, and bad bytes inside an
/// input of the right size, report what they always did.
#[test]
fn fixed_size_values_at_every_input_length() {
    type Fixed = (u32, bool, [u8; 2]);
    let bytes = marshal::to_vec(&(7u32, true, [1u8, 2]));
    assert_eq!(bytes.len(), <Fixed as Unmarshal>::MIN_LEN);
    for len in 0..=bytes.len() + 2 {
        let mut input = bytes.clone();
        input.resize(len, 0);
        let got = marshal::from_bytes::<Fixed>(&input);
        match len.cmp(&bytes.len()) {
            std::cmp::Ordering::Less => {
                let err = got.unwrap_err();
                assert!(
                    matches!(err.kind(), DecodeErrorKind::UnexpectedEnd { .. }),
                    "{len}: {err}"
                );
            }
            std::cmp::Ordering::Equal => assert_eq!(got, Ok((7, true, [1, 2]))),
            std::cmp::Ordering::Greater => {
                let err = got.unwrap_err();
                assert_eq!(
                    (err.kind(), err.offset()),
                    (
                        DecodeErrorKind::TrailingBytes {
                            count: len - bytes.len()
                        },
                        bytes.len()
                    )
                );
            }
        }
    }
    let mut bad = bytes.clone();
    bad[4] = 9;
    assert_decode_error::<Fixed>(&bad, DecodeErrorKind::InvalidBool(9), 4);
}

#[test]
fn invalid_bool() {
    assert_decode_error::<bool>(&[2], DecodeErrorKind::InvalidBool(2), 0);
    assert_decode_error::<bool>(&[0xFF], DecodeErrorKind::InvalidBool(0xFF), 0);
    assert_decode_error::<(u8, bool)>(&[1, 7], DecodeErrorKind::InvalidBool(7), 1);
    assert_decode_error::<Vec<bool>>(
        &[3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2],
        DecodeErrorKind::InvalidBool(2),
        10,
    );
    for b in 2..=255u8 {
        assert_decode_error::<bool>(&[b], DecodeErrorKind::InvalidBool(b), 0);
    }
}

#[test]
fn invalid_char() {
    use DecodeErrorKind::InvalidChar;
    // Bytes that can never start a UTF-8 sequence.
    for lead in (0x80..=0xC1).chain(0xF5..=0xFF) {
        assert_decode_error::<char>(&[lead, 0x80, 0x80, 0x80], InvalidChar(lead.into()), 0);
    }
    // Invalid continuation bytes.
    assert_decode_error::<char>(&[0xC3, 0x28], InvalidChar(0xC3), 0);
    assert_decode_error::<char>(&[0xE2, 0x28, 0xA1], InvalidChar(0xE2), 0);
    assert_decode_error::<char>(&[0xE2, 0x82, 0x28], InvalidChar(0xE2), 0);
    assert_decode_error::<char>(&[0xF0, 0x9F, 0x98, 0x41], InvalidChar(0xF0), 0);
    // Surrogates, U+D800 and U+DFFF.
    assert_decode_error::<char>(&[0xED, 0xA0, 0x80], InvalidChar(0xED), 0);
    assert_decode_error::<char>(&[0xED, 0xBF, 0xBF], InvalidChar(0xED), 0);
    // Overlong encodings.
    assert_decode_error::<char>(&[0xC0, 0x80], InvalidChar(0xC0), 0);
    assert_decode_error::<char>(&[0xC1, 0xBF], InvalidChar(0xC1), 0);
    assert_decode_error::<char>(&[0xE0, 0x80, 0x80], InvalidChar(0xE0), 0);
    assert_decode_error::<char>(&[0xE0, 0x9F, 0xBF], InvalidChar(0xE0), 0);
    assert_decode_error::<char>(&[0xF0, 0x80, 0x80, 0x80], InvalidChar(0xF0), 0);
    assert_decode_error::<char>(&[0xF0, 0x8F, 0xBF, 0xBF], InvalidChar(0xF0), 0);
    // Past U+10FFFF.
    assert_decode_error::<char>(&[0xF4, 0x90, 0x80, 0x80], InvalidChar(0xF4), 0);
    // At an offset, and inside a derived type.
    assert_decode_error::<(u32, char)>(&[0, 0, 0, 0, 0xED, 0xA0, 0x80], InvalidChar(0xED), 4);
    assert_decode_error::<[char; 2]>(&[b'a', 0xFF], InvalidChar(0xFF), 1);
    // The edges that are valid.
    for c in [
        '\0',
        '\u{7F}',
        '\u{80}',
        '\u{7FF}',
        '\u{800}',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{10FFFF}',
    ] {
        assert_eq!(marshal::from_bytes::<char>(&marshal::to_vec(&c)), Ok(c));
    }
}

/// Every 1 to 4 byte input, against the standard library's UTF-8 decoder.
#[test]
fn char_agrees_with_std() {
    fn expect(buf: &[u8]) {
        let ours = char::read_from(buf);
        let reference = (1..=buf.len().min(4)).find_map(|k| {
            std::str::from_utf8(&buf[..k])
                .ok()
                .and_then(|s| s.chars().next().map(|c| (c, k)))
        });
        match (ours, reference) {
            (Ok(got), Some(want)) => assert_eq!(got, want, "{buf:02x?}"),
            (Err(e), None) => match e.kind() {
                DecodeErrorKind::InvalidChar(lead) => {
                    assert_eq!(lead, u32::from(buf[0]));
                    assert_eq!(e.offset(), 0);
                }
                DecodeErrorKind::UnexpectedEnd { needed } => {
                    assert!(
                        buf.len() < 4 && needed > 0 && e.offset() == 1,
                        "{buf:02x?}: {e}"
                    );
                }
                _ => panic!("{buf:02x?}: unexpected {e}"),
            },
            (ours, reference) => panic!("{buf:02x?}: marshal {ours:?}, std {reference:?}"),
        }
    }
    let step = if cfg!(miri) { 37 } else { 1 };
    for a in (0..=255u8).step_by(step) {
        expect(&[a]);
        for b in (0..=255u8).step_by(step) {
            expect(&[a, b]);
        }
    }
    // Three and four bytes: every lead byte with random continuations,
    // biased towards the continuation range.
    let mut rng = Rng(7);
    for _ in 0..scaled(200_000) {
        let mut buf = [0u8; 4];
        buf[0] = 0xC0 | rng.byte();
        for b in &mut buf[1..] {
            *b = if rng.chance(85) {
                0x80 | (rng.byte() & 0x3F)
            } else {
                rng.byte()
            };
        }
        expect(&buf[..3]);
        expect(&buf);
    }
}

#[test]
fn invalid_utf8() {
    let mut input = claim(2, 0);
    input.extend([0xC3, 0x28]);
    assert_decode_error::<&str>(&input, DecodeErrorKind::InvalidUtf8, 8);
    assert_decode_error::<String>(&input, DecodeErrorKind::InvalidUtf8, 8);
    assert_decode_error::<Box<str>>(&input, DecodeErrorKind::InvalidUtf8, 8);
    assert_decode_error::<Cow<'_, str>>(&input, DecodeErrorKind::InvalidUtf8, 8);
    // Surrogates and overlongs are not UTF-8 in strings either.
    for bad in [
        &[0xED, 0xA0, 0x80][..],
        &[0xC0, 0x80],
        &[0xF4, 0x90, 0x80, 0x80],
        &[0xFF],
    ] {
        let mut input = claim(bad.len() as u64, 0);
        input.extend(bad);
        assert_decode_error::<&str>(&input, DecodeErrorKind::InvalidUtf8, 8);
        assert_decode_error::<String>(&input, DecodeErrorKind::InvalidUtf8, 8);
    }
    // A string cut in the middle of a character.
    let mut input = claim(1, 0);
    input.extend("é".as_bytes());
    assert_decode_error::<String>(&input[..9], DecodeErrorKind::InvalidUtf8, 8);
    // Inside a vector: the offset is that of the bad string's bytes.
    let mut input = marshal::to_vec(&vec!["ok", "ab"]);
    let last = input.len() - 1;
    input[last] = 0xFF;
    assert_decode_error::<Vec<String>>(&input, DecodeErrorKind::InvalidUtf8, 8 + 8 + 2 + 8);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Fill<'a> {
    id: u64,
    venue: &'a str,
    qty: u32,
    price: i64,
    flags: [u8; 5],
    side: Side,
}

#[test]
fn invalid_tag() {
    let fill = Fill {
        id: 1,
        venue: "ACMEXYZ!",
        qty: 100,
        price: -3,
        flags: [0; 5],
        side: Side::Sell,
    };
    let mut bytes = marshal::to_vec(&fill);
    assert_eq!(bytes[41..], [1, 0, 0, 0], "the tag of `side` is at byte 41");
    assert_eq!(marshal::from_bytes::<Fill<'_>>(&bytes), Ok(fill));
    bytes[41] = 7;
    let e = decode_error::<Fill<'_>>(&bytes);
    assert_eq!(e.kind(), DecodeErrorKind::InvalidTag { tag: 7, ty: "Side" });
    assert_eq!(e.offset(), 41);
    assert_eq!(e.to_string(), "invalid tag 7 for enum Side at byte 41");

    // Tags past the last variant, in every tag width.
    assert_decode_error::<Side>(
        &[2, 0, 0, 0],
        DecodeErrorKind::InvalidTag { tag: 2, ty: "Side" },
        0,
    );
    assert_decode_error::<Side>(
        &[0xFF; 4],
        DecodeErrorKind::InvalidTag {
            tag: u32::MAX,
            ty: "Side",
        },
        0,
    );
    assert_decode_error::<Small>(
        &[1],
        DecodeErrorKind::InvalidTag {
            tag: 1,
            ty: "Small",
        },
        0,
    );
    assert_decode_error::<Small>(
        &[0xFF],
        DecodeErrorKind::InvalidTag {
            tag: 255,
            ty: "Small",
        },
        0,
    );
    assert_decode_error::<Medium>(
        &[0, 0],
        DecodeErrorKind::InvalidTag {
            tag: 0,
            ty: "Medium",
        },
        0,
    );
    assert_decode_error::<Medium>(
        &[0x35, 0x12, 0],
        DecodeErrorKind::InvalidTag {
            tag: 0x1235,
            ty: "Medium",
        },
        0,
    );
    assert_decode_error::<(u8, Leg)>(
        &[0, 4, 0, 0, 0],
        DecodeErrorKind::InvalidTag { tag: 4, ty: "Leg" },
        1,
    );

    // `Option` with tag 2, and the address enums.
    assert_decode_error::<Option<u8>>(
        &[2, 0],
        DecodeErrorKind::InvalidTag {
            tag: 2,
            ty: "Option",
        },
        0,
    );
    assert_decode_error::<(u8, Option<String>)>(
        &[0, 0xFF],
        DecodeErrorKind::InvalidTag {
            tag: 255,
            ty: "Option",
        },
        1,
    );
    assert_decode_error::<Option<Option<u8>>>(
        &[1, 2],
        DecodeErrorKind::InvalidTag {
            tag: 2,
            ty: "Option",
        },
        1,
    );
    assert_decode_error::<IpAddr>(
        &[2, 0, 0, 0, 1, 2, 3, 4],
        DecodeErrorKind::InvalidTag {
            tag: 2,
            ty: "IpAddr",
        },
        0,
    );
    assert_decode_error::<SocketAddr>(
        &[0, 0, 0, 1, 1, 2, 3, 4, 0, 0],
        DecodeErrorKind::InvalidTag {
            tag: 1 << 24,
            ty: "SocketAddr",
        },
        0,
    );
}

#[test]
fn zero_non_zero() {
    assert_decode_error::<NonZeroU32>(&[0; 4], DecodeErrorKind::ZeroNonZero, 0);
    assert_decode_error::<NonZeroU8>(&[0], DecodeErrorKind::ZeroNonZero, 0);
    assert_decode_error::<NonZeroU128>(&[0; 16], DecodeErrorKind::ZeroNonZero, 0);
    assert_decode_error::<(u16, NonZeroI64)>(
        &[1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        DecodeErrorKind::ZeroNonZero,
        2,
    );
    assert_decode_error::<Option<NonZeroU8>>(&[1, 0], DecodeErrorKind::ZeroNonZero, 1);
    assert_decode_error::<Vec<NonZeroU8>>(
        &[2, 0, 0, 0, 0, 0, 0, 0, 5, 0],
        DecodeErrorKind::ZeroNonZero,
        9,
    );
}

#[test]
fn length_overflow() {
    assert_decode_error::<Vec<u32>>(&claim(3, 11), DecodeErrorKind::LengthOverflow { len: 3 }, 0);
    assert_eq!(
        marshal::from_bytes::<Vec<u32>>(&claim(3, 12)).map(|v| v.len()),
        Ok(3)
    );
    assert_decode_error::<String>(
        &claim(u64::MAX, 0),
        DecodeErrorKind::LengthOverflow { len: u64::MAX },
        0,
    );
    assert_decode_error::<(bool, Vec<u8>)>(
        &[1, 9, 0, 0, 0, 0, 0, 0, 0],
        DecodeErrorKind::LengthOverflow { len: 9 },
        1,
    );
}

#[test]
fn trailing_bytes() {
    let e = decode_error::<u32>(&[1, 0, 0, 0, 9, 9]);
    assert_eq!(e.kind(), DecodeErrorKind::TrailingBytes { count: 2 });
    assert_eq!(e.offset(), 4);
    assert_eq!(u32::read_from(&[1, 0, 0, 0, 9, 9]), Ok((1, 4)));

    assert_decode_error::<()>(&[0], DecodeErrorKind::TrailingBytes { count: 1 }, 0);
    assert_decode_error::<Option<u8>>(&[0, 0], DecodeErrorKind::TrailingBytes { count: 1 }, 1);
    let mut bytes = marshal::to_vec("hi");
    bytes.extend([0; 100]);
    assert_decode_error::<&str>(&bytes, DecodeErrorKind::TrailingBytes { count: 100 }, 10);
    assert_eq!(<&str>::read_from(&bytes), Ok(("hi", 10)));
    // read_from ignores even trailing bytes that are not a valid anything.
    assert_eq!(Side::read_from(&[1, 0, 0, 0, 0xFF]), Ok((Side::Sell, 4)));
}

#[test]
fn invalid_nanos() {
    let mut input = 5u64.to_le_bytes().to_vec();
    input.extend(1_000_000_000u32.to_le_bytes());
    assert_decode_error::<Duration>(&input, DecodeErrorKind::InvalidNanos(1_000_000_000), 8);
    let mut input = vec![0xAA];
    input.extend(0u64.to_le_bytes());
    input.extend(u32::MAX.to_le_bytes());
    assert_decode_error::<(u8, Duration)>(&input, DecodeErrorKind::InvalidNanos(u32::MAX), 9);
    // The largest valid value decodes.
    let max = marshal::to_vec(&Duration::MAX);
    assert_eq!(marshal::from_bytes::<Duration>(&max), Ok(Duration::MAX));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Paint {
    a: u8,
    b: u32,
    #[marshal(with = rgb_hex)]
    color: Rgb,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Brush {
    Plain,
    Colored(u16, #[marshal(with = rgb_hex)] Rgb),
}

#[test]
fn custom_error_offset_is_moved_to_the_field() {
    let paint = Paint {
        a: 1,
        b: 2,
        color: Rgb {
            r: 0x12,
            g: 0x34,
            b: 0x56,
        },
    };
    let bytes = marshal::to_vec(&paint);
    assert_eq!(marshal::from_bytes::<Paint>(&bytes), Ok(paint));
    // `color` starts at byte 5; its text at 5 + 8; the digit `3` at 5 + 8 + 3.
    let mut bad = bytes.clone();
    bad[5 + 8 + 3] = b'z';
    let e = decode_error::<Paint>(&bad);
    assert_eq!(e.kind(), DecodeErrorKind::Custom("bad hex digit"));
    assert_eq!(e.offset(), 16);
    assert_eq!(e.to_string(), "bad hex digit at byte 16");
    // An error at the module's offset 0 is at the field's start.
    let mut bad = bytes.clone();
    bad[5 + 8] = b'!';
    assert_decode_error::<Paint>(&bad, DecodeErrorKind::Custom("expected #rrggbb"), 5);
    // Errors from inside the module's own reads are moved too.
    let mut bad = bytes.clone();
    bad[5 + 8 + 1] = 0xFF;
    assert_decode_error::<Paint>(&bad, DecodeErrorKind::InvalidUtf8, 13);
    assert_decode_error::<Paint>(
        &bytes[..bytes.len() - 1],
        DecodeErrorKind::LengthOverflow { len: 7 },
        5,
    );

    // In an enum variant, after the tag and a `u16`.
    let brush = Brush::Colored(7, Rgb { r: 0, g: 0, b: 0 });
    let mut bytes = marshal::to_vec(&brush);
    assert_eq!(marshal::from_bytes::<Brush>(&bytes), Ok(brush));
    bytes[4 + 2 + 8 + 6] = b'G';
    assert_decode_error::<Brush>(
        &bytes,
        DecodeErrorKind::Custom("bad hex digit"),
        4 + 2 + 8 + 6,
    );
    // And the with-module result in a larger structure.
    let mut input = vec![0u8; 3];
    input.extend(&bytes);
    assert_decode_error::<([u8; 3], Brush)>(
        &input,
        DecodeErrorKind::Custom("bad hex digit"),
        3 + 4 + 2 + 8 + 6,
    );
}

// ---------------------------------------------------------------------------
// (e) and (f): the error type.

#[test]
fn decode_error_is_small() {
    assert!(std::mem::size_of::<DecodeError>() <= 24);
    assert!(std::mem::size_of::<Result<(), DecodeError>>() <= 24);
}

#[test]
fn decode_error_is_an_error_with_a_message_for_every_kind() {
    fn is_error<E: std::error::Error + Send + Sync + Copy + 'static>(_: &E) {}

    let mut nanos = 0u64.to_le_bytes().to_vec();
    nanos.extend(1_000_000_000u32.to_le_bytes());
    let mut paint = marshal::to_vec(&Paint {
        a: 0,
        b: 0,
        color: Rgb { r: 0, g: 0, b: 0 },
    });
    paint[5 + 8 + 2] = b'x';
    let cases: Vec<(DecodeError, DecodeErrorKind, &str)> = vec![
        (
            decode_error::<u32>(&[1, 2]),
            DecodeErrorKind::UnexpectedEnd { needed: 2 },
            "unexpected end of input: 2 more bytes needed at byte 0",
        ),
        (
            decode_error::<(u8, bool)>(&[0, 7]),
            DecodeErrorKind::InvalidBool(7),
            "invalid bool byte 0x07 (expected 0 or 1) at byte 1",
        ),
        (
            decode_error::<char>(&[0xED, 0xA0, 0x80]),
            DecodeErrorKind::InvalidChar(0xED),
            "invalid UTF-8 char starting with byte 0xed at byte 0",
        ),
        (
            decode_error::<&str>(&[1, 0, 0, 0, 0, 0, 0, 0, 0xFF]),
            DecodeErrorKind::InvalidUtf8,
            "invalid UTF-8 in string at byte 8",
        ),
        (
            decode_error::<Option<u8>>(&[2]),
            DecodeErrorKind::InvalidTag {
                tag: 2,
                ty: "Option",
            },
            "invalid tag 2 for enum Option at byte 0",
        ),
        (
            decode_error::<NonZeroU32>(&[0; 4]),
            DecodeErrorKind::ZeroNonZero,
            "zero for a NonZero type at byte 0",
        ),
        (
            decode_error::<Vec<u64>>(&claim(1 << 60, 12)),
            DecodeErrorKind::LengthOverflow { len: 1 << 60 },
            "length 1152921504606846976 exceeds what the remaining input can hold at byte 0",
        ),
        (
            decode_error::<u8>(&[1, 2, 3]),
            DecodeErrorKind::TrailingBytes { count: 2 },
            "2 trailing bytes after the value at byte 1",
        ),
        (
            decode_error::<Duration>(&nanos),
            DecodeErrorKind::InvalidNanos(1_000_000_000),
            "nanoseconds 1000000000 out of range (must be below 1000000000) at byte 8",
        ),
        (
            decode_error::<Paint>(&paint),
            DecodeErrorKind::Custom("bad hex digit"),
            "bad hex digit at byte 15",
        ),
    ];
    for (e, kind, message) in cases {
        is_error(&e);
        assert_eq!(e.kind(), kind);
        assert_eq!(e.to_string(), message);
        let dynamic: &dyn std::error::Error = &e;
        assert_eq!(dynamic.to_string(), message);
        assert!(dynamic.source().is_none());
        let debug = format!("{e:?}");
        assert!(debug.starts_with("DecodeError"), "{debug}");
        assert!(debug.contains(&format!("{kind:?}")), "{debug}");
        assert!(
            debug.contains(&format!("offset: {}", e.offset())),
            "{debug}"
        );
        let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e);
        assert_eq!(boxed.to_string(), message);
    }
}

// ---------------------------------------------------------------------------
// (g) Deep nesting: recursive types decode by recursion, so hostile input
// that nests deeper than the reader's limit is an error, not a stack
// overflow that aborts the process.

/// A linked list: one `Box` per level.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum List {
    Nil,
    Cons(u8, Box<List>),
}

/// A tree: one `Vec` per level.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Tree {
    children: Vec<Tree>,
}

/// A document: maps, sets, deques, shared pointers and `Cow` slices.
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, PartialOrd, Ord, Eq, Hash)]
enum Doc<'a> {
    Leaf(u8),
    Map(BTreeMap<u8, Doc<'a>>),
    Set(BTreeSet<Doc<'a>>),
    Deque(VecDeque<Doc<'a>>),
    Rc(Rc<Doc<'a>>),
    Arc(Arc<Doc<'a>>),
    Cow(Cow<'a, [Doc<'a>]>),
}

/// `Cons` `levels` times, then `Nil`.
fn deep_list(levels: usize) -> Vec<u8> {
    let mut input = [1, 0, 0, 0, 7].repeat(levels);
    input.extend([0, 0, 0, 0]);
    input
}

/// A tree `levels` deep, one child per node.
fn deep_tree(levels: usize) -> Vec<u8> {
    let mut input = 1u64.to_le_bytes().repeat(levels - 1);
    input.extend(0u64.to_le_bytes());
    input
}

/// A document `levels` deep, cycling through every container.
fn deep_doc(levels: usize) -> Vec<u8> {
    let mut input = Vec::new();
    for level in 0..levels {
        let variant = 1 + level as u32 % 6;
        input.extend(variant.to_le_bytes());
        match variant {
            1 => input.extend(1u64.to_le_bytes().into_iter().chain([9])), // one entry, key 9
            2 | 3 | 6 => input.extend(1u64.to_le_bytes()),                // one item
            _ => {}                                                       // Rc, Arc
        }
    }
    input.extend([0, 0, 0, 0, 1]); // Leaf(1)
    input
}

fn depth_of_list(list: &List) -> usize {
    match list {
        List::Nil => 0,
        List::Cons(_, next) => 1 + depth_of_list(next),
    }
}

#[test]
fn nesting_up_to_the_limit_decodes() {
    let limit = marshal::Reader::DEFAULT_MAX_DEPTH as usize;
    assert_eq!(limit, 256);
    let list = marshal::from_bytes::<List>(&deep_list(limit)).unwrap();
    assert_eq!(depth_of_list(&list), limit);
    assert_eq!(marshal::to_vec(&list), deep_list(limit));
    let tree = marshal::from_bytes::<Tree>(&deep_tree(limit)).unwrap();
    assert_eq!(marshal::to_vec(&tree), deep_tree(limit));
    let input = deep_doc(limit);
    let doc = marshal::from_bytes::<Doc>(&input).unwrap();
    assert_eq!(marshal::to_vec(&doc), input);
}

#[test]
fn nesting_past_the_limit_is_too_deep() {
    let limit = marshal::Reader::DEFAULT_MAX_DEPTH as usize;
    // One level too many: the error is where that level's box or
    // collection starts.
    let e = marshal::from_bytes::<List>(&deep_list(limit + 1)).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    assert_eq!(e.offset(), 5 * limit + 5);
    let e = marshal::from_bytes::<Tree>(&deep_tree(limit + 1)).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    assert_eq!(e.offset(), 8 * limit);
    let input = deep_doc(limit + 1);
    let e = marshal::from_bytes::<Doc>(&input).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    assert_eq!(e.offset(), deep_doc(limit).len() - 5 + 4);
    assert_eq!(
        e.to_string(),
        format!(
            "collections and boxes nested more than 256 levels deep, a level of a large \
             value counting as several (raise the limit with Reader::with_max_depth) at byte {}, \
             in Doc::Cow.0",
            e.offset()
        )
    );
}

/// A million levels in a few megabytes: without the limit, each would be
/// a stack frame, and the process would abort. (Fewer under Miri, which
/// would take minutes to build the input.)
#[test]
fn a_million_levels_is_an_error_not_a_stack_overflow() {
    const LEVELS: usize = if cfg!(miri) { 2_000 } else { 1_000_000 };
    let (list, tree, doc) = (deep_list(LEVELS), deep_tree(LEVELS), deep_doc(LEVELS));
    for (input, e) in [
        (&list, marshal::from_bytes::<List>(&list).err()),
        (&tree, marshal::from_bytes::<Tree>(&tree).err()),
        (&doc, marshal::from_bytes::<Doc>(&doc).err()),
    ] {
        let e = e.expect("decoded");
        assert_eq!(e.kind(), DecodeErrorKind::TooDeep { limit: 256 });
        // The error comes where the 257th level starts, long before the end.
        assert!(e.offset() < input.len() / 5, "{e}");
    }
}

#[test]
fn the_depth_limit_can_be_raised_and_lowered() {
    use marshal::Reader;
    // Raised: 1,000 levels, on a thread with room for them.
    let decoded = std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(|| {
            let input = deep_list(1000);
            let mut r = Reader::new(&input).with_max_depth(1000);
            let list = List::decode(&mut r).map(|l| depth_of_list(&l));
            let mut r = Reader::new(&input).with_max_depth(999);
            (list, List::decode(&mut r).map(|_| ()))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(decoded.0, Ok(1000));
    assert_eq!(
        decoded.1.map_err(|e| e.kind()),
        Err(DecodeErrorKind::TooDeep { limit: 999 })
    );

    // Lowered to none: fixed-size items are not a level, anything else is.
    let bytes = marshal::to_vec(&vec![1u32, 2]);
    let mut r = Reader::new(&bytes).with_max_depth(0);
    assert_eq!(Vec::<u32>::decode(&mut r), Ok(vec![1, 2]));
    let bytes = marshal::to_vec(&Box::new([1u8; 4]));
    let mut r = Reader::new(&bytes).with_max_depth(0);
    assert_eq!(Box::<[u8; 4]>::decode(&mut r), Ok(Box::new([1; 4])));
    let bytes = marshal::to_vec(&vec![String::new()]);
    let mut r = Reader::new(&bytes).with_max_depth(0);
    assert_eq!(
        Vec::<String>::decode(&mut r).map_err(|e| (e.kind(), e.offset())),
        Err((DecodeErrorKind::TooDeep { limit: 0 }, 0))
    );

    // Siblings do not add up: the depth is restored after each.
    let wide = vec![vec![String::from("a")]; 1000];
    let bytes = marshal::to_vec(&wide);
    let mut r = Reader::new(&bytes).with_max_depth(2);
    assert_eq!(Vec::<Vec<String>>::decode(&mut r), Ok(wide));
    // And a sub-reader keeps the limit.
    let bytes = marshal::to_vec(&vec![vec![1u64]]);
    let mut r = Reader::new(&bytes).with_max_depth(1);
    let mut sub = r.split(bytes.len()).unwrap();
    assert_eq!(Vec::<Vec<u64>>::decode(&mut sub), Ok(vec![vec![1]]));
    let bytes = marshal::to_vec(&vec![vec![String::new()]]);
    let mut r = Reader::new(&bytes).with_max_depth(1);
    let mut sub = r.split(bytes.len()).unwrap();
    assert_eq!(
        Vec::<Vec<String>>::decode(&mut sub).map_err(|e| e.kind()),
        Err(DecodeErrorKind::TooDeep { limit: 1 })
    );
}
