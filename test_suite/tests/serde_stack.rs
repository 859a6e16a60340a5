//! The serde bridge's depth limit keeps every decode within a spawned
//! thread's 2 MiB stack: recursive serde types of several shapes, nested as
//! deep as the default limit allows, decode on a 2 MiB thread taking at
//! most 1 MiB of stack, and one level more is `TooDeep`, never a stack
//! overflow. Run in both profiles, like `stack_depth.rs`:
//!
//! ```sh
//! cargo test -p marshal-test-suite --test serde_stack -- --nocapture
//! cargo test --release -p marshal-test-suite --test serde_stack -- --nocapture
//! ```

use std::cell::Cell;
use std::collections::BTreeMap;

use marshal::{DecodeErrorKind, Reader};
use serde::{Deserialize, Deserializer};

/// The stack of a spawned thread unless it asks for another.
const THREAD_STACK: usize = 2 << 20;

/// The most stack the nesting the default limit allows may take.
const NESTING_STACK: usize = 1 << 20;

thread_local! {
    /// The lowest address of a local in `Probe::deserialize` since the last
    /// reset.
    static DEEPEST: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// A unit whose deserializer records how deep the stack is.
#[derive(Debug)]
struct Probe;

impl<'de> Deserialize<'de> for Probe {
    #[inline(never)]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let local = 0u8;
        let at = std::ptr::from_ref(std::hint::black_box(&local)).addr();
        DEEPEST.with(|c| c.set(c.get().min(at)));
        <()>::deserialize(d)?;
        Ok(Probe)
    }
}

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

/// Decodes on a thread of `stack_size` bytes: the result, and the stack
/// the deepest `Probe` found below the thread's frame.
fn decode_on_thread(
    decode: fn(&mut Reader<'_>) -> Result<(), marshal::DecodeError>,
    input: Vec<u8>,
    max_depth: Option<u32>,
    stack_size: usize,
) -> (Result<(), (DecodeErrorKind, usize)>, usize) {
    std::thread::Builder::new()
        .stack_size(stack_size)
        .spawn(move || {
            DEEPEST.with(|d| d.set(usize::MAX));
            let local = 0u8;
            let top = std::ptr::from_ref(std::hint::black_box(&local)).addr();
            let mut r = Reader::new(&input);
            if let Some(depth) = max_depth {
                r = r.with_max_depth(depth);
            }
            let result = decode(&mut r).map_err(|e| (e.kind(), e.offset()));
            (result, top.saturating_sub(DEEPEST.with(Cell::get)))
        })
        .expect("spawn")
        .join()
        .expect("the decoding thread panicked")
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
