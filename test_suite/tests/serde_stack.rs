//! The serde bridge's depth limit keeps every decode within a spawned
//! thread's 2 MiB stack: recursive serde types of several shapes, nested as
//! deep as the default limit allows, decode on a 2 MiB thread taking at
//! most 1 MiB of stack, and one level more is `TooDeep`, never a stack
//! overflow. Among the shapes, two whose frames serde's derives make larger
//! than the values they build (a struct of 256 `()` fields, an enum of 64
//! newtype variants), which the bridge charges for each field and each
//! variant. Run in both profiles, like `stack_depth.rs`:
//!
//! ```sh
//! cargo test -p marshal-test-suite --test serde_stack -- --nocapture
//! cargo test --release -p marshal-test-suite --test serde_stack -- --nocapture
//! ```

use std::collections::BTreeMap;

use marshal::{DecodeErrorKind, Reader};
use marshal_test_suite::stack_probe::{NESTING_STACK, Probe, THREAD_STACK, decode_on_thread};
use serde::Deserialize;

/// 16 × 32 `u64`s: 4 KiB, as large an array as serde's own impls allow,
/// nested.
type Block = [[u64; 32]; 16];

#[derive(Deserialize)]
#[allow(dead_code)]
enum Chain {
    Leaf(Probe),
    Next(Box<Chain>),
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct List(Probe, Option<Box<List>>);

#[derive(Deserialize)]
#[allow(dead_code)]
struct Tree(Probe, Vec<Tree>);

#[derive(Deserialize)]
#[allow(dead_code)]
struct Map(Probe, BTreeMap<u8, Map>);

#[derive(Deserialize)]
// The large inline variant is what the test is about.
#[allow(dead_code, clippy::large_enum_variant)]
enum BigChain {
    Leaf(Probe),
    Big(Box<Block>),
    Inline(Block),
    Next(Box<BigChain>),
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct BigList(Probe, Block, Option<Box<BigList>>);

#[derive(Deserialize)]
#[allow(dead_code)]
struct Wrapped((Probe, Option<Box<Wrapped>>), u8);

#[derive(Deserialize)]
#[allow(dead_code)]
struct Fields {
    probe: Probe,
    a: u64,
    b: String,
    c: Vec<u8>,
    d: (u32, u32),
    next: Option<Box<Fields>>,
}

/// 64 newtype variants of 256 bytes each: small values, but serde's
/// derived visitor keeps a frame for every variant's arm.
#[derive(Deserialize)]
#[allow(dead_code)]
enum Wide {
    Leaf(Probe),
    V1([u64; 32]),
    V2([u64; 32]),
    V3([u64; 32]),
    V4([u64; 32]),
    V5([u64; 32]),
    V6([u64; 32]),
    V7([u64; 32]),
    V8([u64; 32]),
    V9([u64; 32]),
    V10([u64; 32]),
    V11([u64; 32]),
    V12([u64; 32]),
    V13([u64; 32]),
    V14([u64; 32]),
    V15([u64; 32]),
    V16([u64; 32]),
    V17([u64; 32]),
    V18([u64; 32]),
    V19([u64; 32]),
    V20([u64; 32]),
    V21([u64; 32]),
    V22([u64; 32]),
    V23([u64; 32]),
    V24([u64; 32]),
    V25([u64; 32]),
    V26([u64; 32]),
    V27([u64; 32]),
    V28([u64; 32]),
    V29([u64; 32]),
    V30([u64; 32]),
    V31([u64; 32]),
    V32([u64; 32]),
    V33([u64; 32]),
    V34([u64; 32]),
    V35([u64; 32]),
    V36([u64; 32]),
    V37([u64; 32]),
    V38([u64; 32]),
    V39([u64; 32]),
    V40([u64; 32]),
    V41([u64; 32]),
    V42([u64; 32]),
    V43([u64; 32]),
    V44([u64; 32]),
    V45([u64; 32]),
    V46([u64; 32]),
    V47([u64; 32]),
    V48([u64; 32]),
    V49([u64; 32]),
    V50([u64; 32]),
    V51([u64; 32]),
    V52([u64; 32]),
    V53([u64; 32]),
    V54([u64; 32]),
    V55([u64; 32]),
    V56([u64; 32]),
    V57([u64; 32]),
    V58([u64; 32]),
    V59([u64; 32]),
    V60([u64; 32]),
    V61([u64; 32]),
    V62([u64; 32]),
    V63([u64; 32]),
    V64([u64; 32]),
    Next(Box<Wide>),
}

/// 256 `()` fields: nothing to read, but serde's derived visitor keeps a
/// slot for every field.
#[derive(Deserialize)]
#[allow(dead_code)]
struct Many {
    probe: Probe,
    f0: (),
    f1: (),
    f2: (),
    f3: (),
    f4: (),
    f5: (),
    f6: (),
    f7: (),
    f8: (),
    f9: (),
    f10: (),
    f11: (),
    f12: (),
    f13: (),
    f14: (),
    f15: (),
    f16: (),
    f17: (),
    f18: (),
    f19: (),
    f20: (),
    f21: (),
    f22: (),
    f23: (),
    f24: (),
    f25: (),
    f26: (),
    f27: (),
    f28: (),
    f29: (),
    f30: (),
    f31: (),
    f32: (),
    f33: (),
    f34: (),
    f35: (),
    f36: (),
    f37: (),
    f38: (),
    f39: (),
    f40: (),
    f41: (),
    f42: (),
    f43: (),
    f44: (),
    f45: (),
    f46: (),
    f47: (),
    f48: (),
    f49: (),
    f50: (),
    f51: (),
    f52: (),
    f53: (),
    f54: (),
    f55: (),
    f56: (),
    f57: (),
    f58: (),
    f59: (),
    f60: (),
    f61: (),
    f62: (),
    f63: (),
    f64: (),
    f65: (),
    f66: (),
    f67: (),
    f68: (),
    f69: (),
    f70: (),
    f71: (),
    f72: (),
    f73: (),
    f74: (),
    f75: (),
    f76: (),
    f77: (),
    f78: (),
    f79: (),
    f80: (),
    f81: (),
    f82: (),
    f83: (),
    f84: (),
    f85: (),
    f86: (),
    f87: (),
    f88: (),
    f89: (),
    f90: (),
    f91: (),
    f92: (),
    f93: (),
    f94: (),
    f95: (),
    f96: (),
    f97: (),
    f98: (),
    f99: (),
    f100: (),
    f101: (),
    f102: (),
    f103: (),
    f104: (),
    f105: (),
    f106: (),
    f107: (),
    f108: (),
    f109: (),
    f110: (),
    f111: (),
    f112: (),
    f113: (),
    f114: (),
    f115: (),
    f116: (),
    f117: (),
    f118: (),
    f119: (),
    f120: (),
    f121: (),
    f122: (),
    f123: (),
    f124: (),
    f125: (),
    f126: (),
    f127: (),
    f128: (),
    f129: (),
    f130: (),
    f131: (),
    f132: (),
    f133: (),
    f134: (),
    f135: (),
    f136: (),
    f137: (),
    f138: (),
    f139: (),
    f140: (),
    f141: (),
    f142: (),
    f143: (),
    f144: (),
    f145: (),
    f146: (),
    f147: (),
    f148: (),
    f149: (),
    f150: (),
    f151: (),
    f152: (),
    f153: (),
    f154: (),
    f155: (),
    f156: (),
    f157: (),
    f158: (),
    f159: (),
    f160: (),
    f161: (),
    f162: (),
    f163: (),
    f164: (),
    f165: (),
    f166: (),
    f167: (),
    f168: (),
    f169: (),
    f170: (),
    f171: (),
    f172: (),
    f173: (),
    f174: (),
    f175: (),
    f176: (),
    f177: (),
    f178: (),
    f179: (),
    f180: (),
    f181: (),
    f182: (),
    f183: (),
    f184: (),
    f185: (),
    f186: (),
    f187: (),
    f188: (),
    f189: (),
    f190: (),
    f191: (),
    f192: (),
    f193: (),
    f194: (),
    f195: (),
    f196: (),
    f197: (),
    f198: (),
    f199: (),
    f200: (),
    f201: (),
    f202: (),
    f203: (),
    f204: (),
    f205: (),
    f206: (),
    f207: (),
    f208: (),
    f209: (),
    f210: (),
    f211: (),
    f212: (),
    f213: (),
    f214: (),
    f215: (),
    f216: (),
    f217: (),
    f218: (),
    f219: (),
    f220: (),
    f221: (),
    f222: (),
    f223: (),
    f224: (),
    f225: (),
    f226: (),
    f227: (),
    f228: (),
    f229: (),
    f230: (),
    f231: (),
    f232: (),
    f233: (),
    f234: (),
    f235: (),
    f236: (),
    f237: (),
    f238: (),
    f239: (),
    f240: (),
    f241: (),
    f242: (),
    f243: (),
    f244: (),
    f245: (),
    f246: (),
    f247: (),
    f248: (),
    f249: (),
    f250: (),
    f251: (),
    f252: (),
    f253: (),
    f254: (),
    f255: (),
    next: Option<Box<Many>>,
}

/// A recursive shape: how to decode it, and its bytes nested `n` levels.
struct Shape {
    name: &'static str,
    decode: fn(&mut Reader<'_>) -> Result<(), marshal::DecodeError>,
    input: fn(usize) -> Vec<u8>,
}

fn decode_as<T: for<'de> Deserialize<'de>>(r: &mut Reader<'_>) -> Result<(), marshal::DecodeError> {
    marshal::serde::decode::<T>(r).map(drop)
}

fn repeat(open: &[u8], n: usize, close: &[u8]) -> Vec<u8> {
    let mut v = open.repeat(n);
    v.extend_from_slice(close);
    v
}

fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "enum Chain { Leaf, Next(Box<Self>) }",
            decode: decode_as::<Chain>,
            input: |n| repeat(&[1, 0, 0, 0], n, &[0, 0, 0, 0]),
        },
        Shape {
            name: "struct List(Probe, Option<Box<Self>>)",
            decode: decode_as::<List>,
            input: |n| repeat(&[1], n, &[0]),
        },
        Shape {
            name: "struct Tree(Probe, Vec<Self>)",
            decode: decode_as::<Tree>,
            input: |n| repeat(&[1, 0, 0, 0, 0, 0, 0, 0], n, &[0; 8]),
        },
        Shape {
            name: "struct Map(Probe, BTreeMap<u8, Self>)",
            decode: decode_as::<Map>,
            input: |n| repeat(&[1, 0, 0, 0, 0, 0, 0, 0, 7], n, &[0; 8]),
        },
        Shape {
            name: "enum BigChain { Leaf, Big(Box<4 KiB>), Inline(4 KiB), Next(Box<Self>) }",
            decode: decode_as::<BigChain>,
            input: |n| repeat(&[3, 0, 0, 0], n, &[0, 0, 0, 0]),
        },
        Shape {
            name: "struct BigList(Probe, 4 KiB, Option<Box<Self>>)",
            decode: decode_as::<BigList>,
            input: |n| {
                let mut level = vec![0u8; 4096];
                level.push(1);
                let mut last = vec![0u8; 4096];
                last.push(0);
                repeat(&level, n, &last)
            },
        },
        Shape {
            name: "struct Wrapped((Probe, Option<Box<Self>>), u8)",
            decode: decode_as::<Wrapped>,
            input: |n| {
                let mut v = vec![1u8; n];
                v.push(0);
                v.extend(std::iter::repeat_n(9u8, n + 1));
                v
            },
        },
        Shape {
            name: "enum Wide { Leaf, 64 × V([u64; 32]), Next(Box<Self>) }",
            decode: decode_as::<Wide>,
            input: |n| repeat(&[65, 0, 0, 0], n, &[0, 0, 0, 0]),
        },
        Shape {
            name: "struct Many { probe, 256 × (), next: Option<Box<Self>> }",
            decode: decode_as::<Many>,
            input: |n| repeat(&[1], n, &[0]),
        },
        Shape {
            name: "struct Fields { probe, a, b: String, c: Vec<u8>, d, next: Option<Box<Self>> }",
            decode: decode_as::<Fields>,
            input: |n| {
                let mut level = vec![0u8; 8 + 8 + 8 + 8];
                level.push(1);
                let mut last = vec![0u8; 8 + 8 + 8 + 8];
                last.push(0);
                repeat(&level, n, &last)
            },
        },
    ]
}

/// The deepest nesting the default limit lets `shape` decode: found on a
/// large stack.
fn deepest_allowed(shape: &Shape) -> usize {
    let (mut lo, mut hi) = (0usize, 4096usize);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        let (result, _) = decode_on_thread(shape.decode, (shape.input)(mid), None, 256 << 20);
        match result {
            Ok(()) => lo = mid,
            Err((DecodeErrorKind::TooDeep { limit: 256 }, _)) => hi = mid,
            Err(other) => panic!("{}: {other:?} at depth {mid}", shape.name),
        }
    }
    lo
}

#[test]
fn every_shape_at_the_limit_fits_in_a_mib_and_one_more_is_too_deep() {
    for shape in shapes() {
        let levels = deepest_allowed(&shape);
        assert!(levels >= 8, "{}: only {levels} levels", shape.name);
        let (result, stack) =
            decode_on_thread(shape.decode, (shape.input)(levels), None, THREAD_STACK);
        assert_eq!(result, Ok(()), "{}", shape.name);
        println!(
            "{:<80} {levels:>4} levels, {stack:>8} bytes of stack, {:>6} a level",
            shape.name,
            stack / levels.max(1)
        );
        assert!(
            stack <= NESTING_STACK,
            "{}: {levels} levels took {stack} bytes of stack",
            shape.name
        );
        let (result, _) =
            decode_on_thread(shape.decode, (shape.input)(levels + 1), None, THREAD_STACK);
        assert!(
            matches!(result, Err((DecodeErrorKind::TooDeep { limit: 256 }, _))),
            "{}: {result:?}",
            shape.name
        );
    }
}

#[test]
fn a_hostile_nesting_of_any_depth_is_too_deep_on_a_2_mib_thread() {
    for shape in shapes() {
        let (result, _) =
            decode_on_thread(shape.decode, (shape.input)(100_000), None, THREAD_STACK);
        assert!(
            matches!(result, Err((DecodeErrorKind::TooDeep { limit: 256 }, _))),
            "{}: {result:?}",
            shape.name
        );
    }
}

#[test]
fn the_limit_is_the_readers() {
    let input = repeat(&[1], 40, &[0]);
    let (result, _) = decode_on_thread(decode_as::<List>, input.clone(), Some(8), THREAD_STACK);
    assert!(matches!(
        result,
        Err((DecodeErrorKind::TooDeep { limit: 8 }, _))
    ));
    let (result, _) = decode_on_thread(decode_as::<List>, input, Some(1024), THREAD_STACK);
    assert_eq!(result, Ok(()));
}
