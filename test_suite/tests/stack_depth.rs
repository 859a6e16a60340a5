//! The default depth limit keeps every decode within a spawned thread's
//! 2 MiB stack, whatever the type, in unoptimized and optimized builds.
//!
//! The stack a level of nesting takes grows with the values the level
//! holds, so each level is charged against the limit by the stack it may
//! take. For each shape below, the deepest input that decodes at the default
//! limit is decoded on a 2 MiB thread, one level more is `TooDeep`, and the
//! stack the deepest input took is measured: the address of a local in the
//! decoder of `Probe`, which sits at the bottom of every shape, against one
//! in the thread before decoding. Run in both profiles:
//!
//! ```sh
//! cargo test -p marshal-test-suite --test stack_depth -- --nocapture
//! cargo test --release -p marshal-test-suite --test stack_depth -- --nocapture
//! ```
//!
//! `--nocapture` prints each shape's levels and stack per level. The levels
//! expected are those of a 64-bit target: the sizes of pointers enter the
//! charges.
#![cfg(target_pointer_width = "64")]
// The shapes' fields are decoded, never read; their large variants are
// the point.
#![allow(dead_code, clippy::large_enum_variant)]

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use marshal::{DecodeError, DecodeErrorKind, Reader, Unmarshal};
use marshal_test_suite::stack_probe::{NESTING_STACK, Probe, THREAD_STACK, decode_on_thread};

/// The issue's reproducer: a level is always a `Next`, but in an
/// unoptimized build its frame held the temporaries of every variant.
#[derive(Unmarshal)]
enum Issue {
    Leaf,
    Big([u64; 2048]),
    Next(Box<Issue>),
}

#[derive(Unmarshal)]
enum Big2048 {
    Leaf(Probe),
    Big([u64; 2048]),
    Next(Box<Big2048>),
}

#[derive(Unmarshal)]
enum Big512 {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Box<Big512>),
}

#[derive(Unmarshal)]
enum Big64 {
    Leaf(Probe),
    Big([u64; 64]),
    Next(Box<Big64>),
}

#[derive(Unmarshal)]
enum Small {
    Leaf(Probe),
    Next(Box<Small>),
}

/// Sixteen large variants: in an unoptimized build they used to add up.
#[derive(Unmarshal)]
enum Many {
    Leaf(Probe),
    V1([u64; 512]),
    V2([u64; 512]),
    V3([u64; 512]),
    V4([u64; 512]),
    V5([u64; 512]),
    V6([u64; 512]),
    V7([u64; 512]),
    V8([u64; 512]),
    V9([u64; 512]),
    V10([u64; 512]),
    V11([u64; 512]),
    V12([u64; 512]),
    V13([u64; 512]),
    V14([u64; 512]),
    V15([u64; 512]),
    V16([u64; 512]),
    Next(Box<Many>),
}

/// The large value in the variant that recurses.
#[derive(Unmarshal)]
enum OnPath {
    Leaf(Probe),
    Next([u64; 512], Box<OnPath>),
}

#[derive(Unmarshal)]
enum InVec {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Vec<InVec>),
}

#[derive(Unmarshal)]
enum InDeque {
    Leaf(Probe),
    Big([u64; 512]),
    Next(VecDeque<InDeque>),
}

#[derive(Unmarshal, PartialEq, Eq, PartialOrd, Ord)]
enum InSet {
    Leaf(Probe),
    Big([u64; 512]),
    Next(BTreeSet<InSet>),
}

#[derive(Unmarshal)]
enum InBTreeMap {
    Leaf(Probe),
    Big([u64; 512]),
    Next(BTreeMap<u8, InBTreeMap>),
}

#[derive(Unmarshal)]
enum InHashMap {
    Leaf(Probe),
    Big([u64; 512]),
    Next(HashMap<u8, InHashMap>),
}

#[derive(Unmarshal)]
enum InRc {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Rc<InRc>),
}

#[derive(Unmarshal)]
enum InArc {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Arc<InArc>),
}

#[derive(Unmarshal, Clone)]
enum InCow<'a> {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Cow<'a, [InCow<'a>]>),
}

/// Recursion through `Option` and `Box`, beside a large field.
#[derive(Unmarshal)]
struct InOption {
    big: [u64; 512],
    next: Option<Box<InOption>>,
    probe: Probe,
}

/// A generic node: the element's cost comes through its parameter.
#[derive(Unmarshal)]
struct Node<T> {
    value: T,
    next: Option<Box<Node<T>>>,
    probe: Probe,
}

/// A tuple holding the recursion between two large elements.
#[derive(Unmarshal)]
enum InTuple {
    Leaf(Probe),
    Next(([u64; 256], Option<Box<InTuple>>, [u64; 256])),
}

/// An array whose elements recurse.
#[derive(Unmarshal)]
enum InArray {
    Leaf(Probe),
    Next([ArrayItem; 2]),
}

#[derive(Unmarshal)]
struct ArrayItem {
    big: [u64; 64],
    next: Option<Box<InArray>>,
}

/// Mutual recursion through a struct that is not boxed.
#[derive(Unmarshal)]
struct Outer {
    inner: Inner,
    probe: Probe,
}

#[derive(Unmarshal)]
struct Inner {
    big: [u64; 64],
    next: Option<Box<Outer>>,
}

/// bumpalo's `Box` and `Vec`, decoded into the arena the reader carries.
#[derive(Unmarshal)]
enum ArenaBig2048<'b> {
    Leaf(Probe),
    Big([u64; 2048]),
    Next(bumpalo::boxed::Box<'b, ArenaBig2048<'b>>),
}

#[derive(Unmarshal)]
enum ArenaBig512<'b> {
    Leaf(Probe),
    Big([u64; 512]),
    Next(bumpalo::boxed::Box<'b, ArenaBig512<'b>>),
}

#[derive(Unmarshal)]
enum ArenaSmall<'b> {
    Leaf(Probe),
    Next(bumpalo::boxed::Box<'b, ArenaSmall<'b>>),
}

#[derive(Unmarshal)]
enum ArenaInVec<'b> {
    Leaf(Probe),
    Big([u64; 512]),
    Next(bumpalo::collections::Vec<'b, ArenaInVec<'b>>),
}

/// A tuple struct of `$ty` doubled once for each `x`, then the recursion:
/// a frame with many fields, each small or empty.
macro_rules! wide {
    ($name:ident; [$($ty:ty),*]; x $($more:tt)*) => {
        wide!($name; [$($ty,)* $($ty),*]; $($more)*);
    };
    ($name:ident; [$($ty:ty),*];) => {
        #[derive(Unmarshal)]
        struct $name($($ty,)* Option<Box<$name>>, Probe);
    };
}

wide!(Bytes256; [u8]; x x x x x x x x);
wide!(Empty256; [()]; x x x x x x x x);

/// A shape: how to decode it, and its input nesting `levels` deep.
struct Shape {
    name: &'static str,
    decode: fn(&mut Reader<'_>) -> Result<(), DecodeError>,
    /// `marshal::from_bytes` of the type, which after an error reads the
    /// input again to find its site (the trace, which nests as deep).
    whole: fn(&[u8]) -> Result<(), DecodeError>,
    /// Bytes that open each level, in order.
    open: Vec<u8>,
    /// The innermost value.
    leaf: Vec<u8>,
    /// Bytes that close each level, after the levels inside it.
    close: Vec<u8>,
    /// The innermost value, the largest the shape has, if not `leaf`.
    big_leaf: Option<Vec<u8>>,
    /// Bytes of `open` read when the level's box or collection starts,
    /// where its `TooDeep` error is reported.
    nest_at: usize,
    /// Levels that decode at the default limit (on a 64-bit target).
    levels: usize,
}

impl Shape {
    /// Where the level after `levels` starts.
    fn level_start(&self, levels: usize) -> usize {
        self.open.len() * levels + self.nest_at
    }

    fn input(&self, levels: usize) -> Vec<u8> {
        self.input_with(levels, &self.leaf)
    }

    fn input_with(&self, levels: usize, leaf: &[u8]) -> Vec<u8> {
        let mut input = self.open.repeat(levels);
        input.extend(leaf);
        input.extend(self.close.repeat(levels));
        input
    }
}

macro_rules! decoder {
    ($ty:ty) => {
        |r| <$ty>::decode(r).map(drop)
    };
}

macro_rules! whole {
    ($ty:ty) => {
        |bytes| marshal::from_bytes::<$ty>(bytes).map(drop)
    };
}

fn le32(tag: u32) -> Vec<u8> {
    tag.to_le_bytes().to_vec()
}

/// `tag` as a `u32`, then `rest`.
fn tagged(tag: u32, rest: &[u8]) -> Vec<u8> {
    let mut out = le32(tag);
    out.extend(rest);
    out
}

/// A length prefix of one, then `rest`.
fn one(rest: &[u8]) -> Vec<u8> {
    let mut out = 1u64.to_le_bytes().to_vec();
    out.extend(rest);
    out
}

fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}

/// `Leaf(Probe)`, `Big(zeros)` and `Next(...)` at tags 0, 1 and 2, the
/// `Next` holding `prefix` before the next level.
fn enum_shape(
    name: &'static str,
    decode: fn(&mut Reader<'_>) -> Result<(), DecodeError>,
    whole: fn(&[u8]) -> Result<(), DecodeError>,
    big: usize,
    prefix: &[u8],
    levels: usize,
) -> Shape {
    Shape {
        name,
        decode,
        whole,
        open: tagged(2, prefix),
        nest_at: 4,
        leaf: le32(0),
        close: vec![],
        big_leaf: Some(tagged(1, &zeros(big))),
        levels,
    }
}

fn shapes() -> Vec<Shape> {
    let mut shapes = vec![
        enum_shape(
            "Big2048",
            decoder!(Big2048),
            whole!(Big2048),
            16384,
            &[],
            19,
        ),
        enum_shape("Big512", decoder!(Big512), whole!(Big512), 4096, &[], 64),
        enum_shape("Big64", decoder!(Big64), whole!(Big64), 512, &[], 256),
        enum_shape("InVec", decoder!(InVec), whole!(InVec), 4096, &one(&[]), 36),
        enum_shape(
            "InDeque",
            decoder!(InDeque),
            whole!(InDeque),
            4096,
            &one(&[]),
            36,
        ),
        enum_shape("InSet", decoder!(InSet), whole!(InSet), 4096, &one(&[]), 36),
        enum_shape("InCow", decoder!(InCow), whole!(InCow), 4096, &one(&[]), 36),
        enum_shape(
            "InBTreeMap",
            decoder!(InBTreeMap),
            whole!(InBTreeMap),
            4096,
            &one(&[7]),
            32,
        ),
        enum_shape(
            "InHashMap",
            decoder!(InHashMap),
            whole!(InHashMap),
            4096,
            &one(&[7]),
            32,
        ),
        enum_shape("InRc", decoder!(InRc), whole!(InRc), 4096, &[], 64),
        enum_shape("InArc", decoder!(InArc), whole!(InArc), 4096, &[], 64),
        enum_shape(
            "ArenaBig2048",
            decoder!(ArenaBig2048),
            whole!(ArenaBig2048),
            16384,
            &[],
            19,
        ),
        enum_shape(
            "ArenaBig512",
            decoder!(ArenaBig512),
            whole!(ArenaBig512),
            4096,
            &[],
            64,
        ),
        enum_shape(
            "ArenaInVec",
            decoder!(ArenaInVec),
            whole!(ArenaInVec),
            4096,
            &one(&[]),
            36,
        ),
    ];
    shapes.extend([
        Shape {
            name: "Small",
            decode: decoder!(Small),
            whole: whole!(Small),
            open: le32(1),
            leaf: le32(0),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 256,
        },
        Shape {
            name: "ArenaSmall",
            decode: decoder!(ArenaSmall),
            whole: whole!(ArenaSmall),
            open: le32(1),
            leaf: le32(0),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 256,
        },
        Shape {
            name: "Many",
            decode: decoder!(Many),
            whole: whole!(Many),
            open: le32(17),
            leaf: le32(0),
            close: vec![],
            big_leaf: Some(tagged(16, &zeros(4096))),
            nest_at: usize::MAX,
            levels: 64,
        },
        Shape {
            name: "OnPath",
            decode: decoder!(OnPath),
            whole: whole!(OnPath),
            open: tagged(1, &zeros(4096)),
            leaf: le32(0),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 32,
        },
        Shape {
            name: "InOption",
            decode: decoder!(InOption),
            whole: whole!(InOption),
            open: [zeros(4096), vec![1]].concat(),
            leaf: [zeros(4096), vec![0]].concat(),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 32,
        },
        Shape {
            name: "Node<[u64; 512]>",
            decode: decoder!(Node<[u64; 512]>),
            whole: whole!(Node<[u64; 512]>),
            open: [zeros(4096), vec![1]].concat(),
            leaf: [zeros(4096), vec![0]].concat(),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 32,
        },
        Shape {
            name: "InTuple",
            decode: decoder!(InTuple),
            whole: whole!(InTuple),
            open: [le32(1), zeros(2048), vec![1]].concat(),
            leaf: le32(0),
            close: zeros(2048),
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 21,
        },
        Shape {
            name: "InArray",
            decode: decoder!(InArray),
            whole: whole!(InArray),
            open: [le32(1), zeros(512), vec![1]].concat(),
            leaf: le32(0),
            close: [zeros(512), vec![0]].concat(),
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 25,
        },
        Shape {
            name: "Outer",
            decode: decoder!(Outer),
            whole: whole!(Outer),
            open: [zeros(512), vec![1]].concat(),
            leaf: [zeros(512), vec![0]].concat(),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 85,
        },
        Shape {
            name: "Bytes256",
            decode: decoder!(Bytes256),
            whole: whole!(Bytes256),
            open: [zeros(256), vec![1]].concat(),
            leaf: [zeros(256), vec![0]].concat(),
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 28,
        },
        Shape {
            name: "Empty256",
            decode: decoder!(Empty256),
            whole: whole!(Empty256),
            open: vec![1],
            leaf: vec![0],
            close: vec![],
            big_leaf: None,
            nest_at: usize::MAX,
            levels: 28,
        },
    ]);
    // Boxes and options: the level starts after all of `open`.
    for shape in &mut shapes {
        shape.nest_at = shape.nest_at.min(shape.open.len());
    }
    shapes
}

fn too_deep(limit: u32) -> DecodeErrorKind {
    DecodeErrorKind::TooDeep { limit }
}

/// The issue's input, 1 KiB: 256 `Next`s, then a `Leaf`. It overflowed a
/// 2 MiB stack; now the limit stops it early, where the 20th level starts.
#[test]
fn the_reproducer_is_too_deep_not_a_stack_overflow() {
    let mut input = le32(2).repeat(256);
    input.extend(le32(0));
    assert_eq!(input.len(), 1028);
    let (result, _) = decode_on_thread(decoder!(Issue), input, None, THREAD_STACK);
    assert_eq!(result, Err((too_deep(256), 4 * 20)));
}

/// The reproducer's type at its deepest, ending in its largest variant.
#[test]
fn the_reproducer_decodes_up_to_its_limit() {
    for leaf in [le32(0), tagged(1, &zeros(16384))] {
        let mut input = le32(2).repeat(19);
        input.extend(&leaf);
        let (result, _) = decode_on_thread(decoder!(Issue), input.clone(), None, THREAD_STACK);
        assert_eq!(result, Ok(()));
        let mut deeper = le32(2);
        deeper.extend(input);
        let (result, _) = decode_on_thread(decoder!(Issue), deeper, None, THREAD_STACK);
        assert_eq!(result, Err((too_deep(256), 4 * 20)));
    }
}

/// Every shape: the deepest input the default limit allows decodes on a
/// 2 MiB thread, taking at most 1 MiB of stack, whether it ends in the
/// smallest value or the largest; one level more is `TooDeep`, where that
/// level starts.
#[test]
fn every_shape_decodes_at_the_limit_within_a_2_mib_stack() {
    let mut failures = Vec::new();
    for shape in shapes() {
        let levels = shape.levels;
        // Found on a large stack, in case the charges are wrong.
        let found = (0..=256)
            .find(|&n| {
                let input = shape.input(n + 1);
                decode_on_thread(shape.decode, input, None, 64 << 20)
                    .0
                    .is_err()
            })
            .unwrap_or(usize::MAX);
        if found != levels {
            failures.push(format!(
                "{}: {found} levels decode, not {levels}",
                shape.name
            ));
        }
        let (result, stack) =
            decode_on_thread(shape.decode, shape.input(levels), None, THREAD_STACK);
        println!(
            "{:18} {levels:3} levels: {stack:7} bytes of stack, {:6} a level",
            shape.name,
            stack / levels
        );
        if result.is_err() || stack > NESTING_STACK {
            failures.push(format!(
                "{}: {levels} levels gave {result:?} and took {stack} bytes of stack",
                shape.name
            ));
        }
        if let Some(big) = &shape.big_leaf {
            let input = shape.input_with(levels, big);
            let (result, _) = decode_on_thread(shape.decode, input, None, THREAD_STACK);
            if result.is_err() {
                failures.push(format!(
                    "{}: ending in the largest value gave {result:?}",
                    shape.name
                ));
            }
        }
        let (result, _) =
            decode_on_thread(shape.decode, shape.input(levels + 1), None, THREAD_STACK);
        let at = shape.level_start(levels);
        if result != Err((too_deep(256), at)) {
            failures.push(format!(
                "{}: {} levels gave {result:?}, not TooDeep at {at}",
                shape.name,
                levels + 1
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// After an error at the limit, `from_bytes` reads the input again, as
/// deep, to find the error's site: that second reading too stays within a
/// spawned thread's 2 MiB stack, and fails as the decode did. (Shapes in an
/// arena fail at once: `from_bytes` has no arena.)
#[test]
fn the_search_for_an_error_s_site_fits_the_stack_too() {
    for shape in shapes() {
        let (whole, input) = (shape.whole, shape.input(shape.levels + 1));
        let result = std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn(move || whole(&input).map_err(|e| (e.kind(), e.offset(), e.site().is_some())))
            .expect("spawn")
            .join()
            .expect("the decoding thread panicked");
        if shape.name.starts_with("Arena") {
            assert!(result.is_err(), "{}", shape.name);
            continue;
        }
        // With a site: the second reading went all the way down.
        let at = shape.level_start(shape.levels);
        assert_eq!(result, Err((too_deep(256), at, true)), "{}", shape.name);
    }
}

/// Input claiming as much nesting as it can, a MiB of it, stops at the limit
/// for every shape.
#[test]
fn a_mib_of_nesting_is_too_deep_for_every_shape() {
    for shape in shapes() {
        let levels = (1 << 20) / shape.open.len();
        let (result, _) = decode_on_thread(shape.decode, shape.input(levels), None, THREAD_STACK);
        let at = shape.level_start(shape.levels);
        assert_eq!(result, Err((too_deep(256), at)), "{}", shape.name);
    }
}

/// A level's stack is covered by its charge: at twice the default limit, on
/// twice the stack, every shape nests twice as deep (give or take the
/// rounding of the levels a large value counts as) and still takes at most
/// half the stack.
#[test]
fn raising_the_limit_scales_the_levels_and_the_stack() {
    for shape in shapes() {
        let levels = shape.levels;
        let (lo, hi) = (2 * levels, 2 * levels + 1);
        let deepest = (lo..=hi)
            .rev()
            .find(|&n| {
                let input = shape.input(n);
                decode_on_thread(shape.decode, input, Some(512), 2 * THREAD_STACK)
                    .0
                    .is_ok()
            })
            .unwrap_or_else(|| panic!("{}: fewer than {lo} levels decode", shape.name));
        let (result, stack) = decode_on_thread(
            shape.decode,
            shape.input(deepest),
            Some(512),
            2 * THREAD_STACK,
        );
        assert_eq!(result, Ok(()), "{}", shape.name);
        assert!(stack <= 2 * NESTING_STACK, "{}: {stack} bytes", shape.name);
        let (result, _) = decode_on_thread(
            shape.decode,
            shape.input(deepest + 1),
            Some(512),
            2 * THREAD_STACK,
        );
        assert_eq!(
            result.map_err(|e| e.0),
            Err(too_deep(512)),
            "{}",
            shape.name
        );
    }
}

/// A small value's level is one unit of the limit, in every container.
#[test]
fn small_values_nest_as_deep_as_the_limit() {
    #[derive(Unmarshal, PartialEq, Eq, PartialOrd, Ord, Clone)]
    enum Doc<'a> {
        Leaf(u8),
        Vec(Vec<Doc<'a>>),
        Map(BTreeMap<String, Doc<'a>>),
        Set(BTreeSet<Doc<'a>>),
        Deque(VecDeque<Doc<'a>>),
        Box(Box<Doc<'a>>),
        Rc(Rc<Doc<'a>>),
        Arc(Arc<Doc<'a>>),
        Cow(Cow<'a, [Doc<'a>]>),
        Pair(Option<Box<Doc<'a>>>, String),
    }
    // Each container in turn, `levels` deep.
    let doc = |levels: usize| {
        let mut input = Vec::new();
        for level in 0..levels {
            let variant = 1 + level % 9;
            input.extend(le32(variant as u32));
            match variant {
                1 | 3 | 4 | 8 => input.extend(1u64.to_le_bytes()),
                2 => input.extend(one(&[1, 0, 0, 0, 0, 0, 0, 0, b'k'])),
                9 => input.push(1),
                _ => {}
            }
        }
        input.extend([0, 0, 0, 0, 7]);
        for level in (0..levels).rev() {
            if 1 + level % 9 == 9 {
                input.extend(0u64.to_le_bytes());
            }
        }
        input
    };
    let (result, _) = decode_on_thread(decoder!(Doc), doc(256), None, THREAD_STACK);
    assert_eq!(result, Ok(()));
    let (result, _) = decode_on_thread(decoder!(Doc), doc(257), None, THREAD_STACK);
    assert_eq!(result.map_err(|e| e.0), Err(too_deep(256)));
}

/// Extensible types: each level is read from a body, through
/// `Reader::take_body` and one more closure.
#[derive(Unmarshal)]
#[marshal(extensible)]
enum ExtBig512 {
    Leaf(Probe),
    Big([u64; 512]),
    Next(Box<ExtBig512>),
}

#[derive(Unmarshal)]
#[marshal(extensible)]
struct ExtOption {
    big: [u64; 512],
    next: Option<Box<ExtOption>>,
    probe: Probe,
    #[marshal(since = 2, default = no_words)]
    added: [u64; 64],
}

fn no_words() -> [u64; 64] {
    [0; 64]
}

/// `body` after its length, as an extensible type writes it.
fn with_len(head: &[u8], body: &[u8]) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend(u32::try_from(body.len()).unwrap().to_le_bytes());
    out.extend(body);
    out
}

/// `levels` of `ExtBig512::Next` around `leaf`.
fn ext_enum(levels: usize, leaf: &[u8]) -> Vec<u8> {
    (0..levels).fold(leaf.to_vec(), |inner, _| with_len(&le32(2), &inner))
}

/// `levels` of `ExtOption`, the innermost without `next`.
fn ext_struct(levels: usize) -> Vec<u8> {
    let leaf = with_len(&[], &[zeros(4096), vec![0]].concat());
    (0..levels).fold(leaf, |inner, _| {
        with_len(&[], &[zeros(4096), vec![1], inner].concat())
    })
}

#[test]
fn extensible_shapes_decode_at_the_limit_within_a_2_mib_stack() {
    let small_leaf = with_len(&le32(0), &[]);
    let big_leaf = with_len(&le32(1), &zeros(4096));
    type Decode = fn(&mut Reader<'_>) -> Result<(), DecodeError>;
    let shapes: [(&str, Decode, usize); 2] = [
        ("ExtBig512", decoder!(ExtBig512), 42),
        ("ExtOption", decoder!(ExtOption), 23),
    ];
    for (name, decode, levels) in shapes {
        let input = |n: usize| match name {
            "ExtBig512" => ext_enum(n, &small_leaf),
            _ => ext_struct(n),
        };
        let found = (0..=256)
            .find(|&n| {
                decode_on_thread(decode, input(n + 1), None, 64 << 20)
                    .0
                    .is_err()
            })
            .unwrap_or(usize::MAX);
        let (result, stack) = decode_on_thread(decode, input(levels), None, THREAD_STACK);
        println!(
            "{name:18} {found:3} levels: {stack:7} bytes of stack, {:6} a level",
            stack / levels
        );
        assert_eq!(found, levels, "{name}");
        assert_eq!(result, Ok(()), "{name}");
        assert!(stack <= NESTING_STACK, "{name}: {stack} bytes");
        let (result, _) = decode_on_thread(decode, input(levels + 1), None, THREAD_STACK);
        assert_eq!(result.map_err(|e| e.0), Err(too_deep(256)), "{name}");
    }
    let (result, _) = decode_on_thread(
        decoder!(ExtBig512),
        ext_enum(42, &big_leaf),
        None,
        THREAD_STACK,
    );
    assert_eq!(result, Ok(()));
}

/// A recursive enum with a large variant, decoded in `standard()`.
#[derive(Unmarshal)]
enum StdBig2048 {
    Leaf(Probe),
    Big([u64; 2048]),
    Next(Box<StdBig2048>),
}

/// A tree of `Vec`s, decoded in `standard()`.
#[derive(Unmarshal)]
enum StdTree {
    Leaf(Probe),
    Node(Vec<StdTree>),
}

/// A list through `Rc`s and `Option`s of a large struct, decoded in
/// `standard()`.
#[derive(Unmarshal)]
enum StdRc {
    Leaf(Probe),
    Next(Option<Rc<StdRc>>, [u32; 256]),
}

/// The configurations' decoders (`marshal::config`) keep within the same
/// stack at the default depth limit: for each shape, the deepest input
/// that decodes in `standard()` takes at most [`NESTING_STACK`] on a 2 MiB
/// thread, and one level more is `TooDeep`.
#[test]
fn configurations_fit_the_stack() {
    use marshal::config::{Encoding, LittleEndian, UnmarshalIn, Varint};
    type Standard = Encoding<LittleEndian, Varint>;
    fn decode<T: for<'de> UnmarshalIn<'de, Standard>>(
        r: &mut Reader<'_>,
    ) -> Result<(), DecodeError> {
        T::decode_in(r).map(drop)
    }
    /// A shape: its name, its decoder, and its input nested `n` levels deep.
    type Shape = (
        &'static str,
        fn(&mut Reader<'_>) -> Result<(), DecodeError>,
        fn(usize) -> Vec<u8>,
    );
    let shapes: [Shape; 3] = [
        ("StdBig2048", decode::<StdBig2048>, |n| {
            let mut input = vec![2u8; n];
            input.push(0);
            input
        }),
        ("StdTree", decode::<StdTree>, |n| {
            let mut input = [1u8, 1].repeat(n);
            input.push(0);
            input
        }),
        ("StdRc", decode::<StdRc>, |n| {
            let mut input = Vec::new();
            for _ in 0..n {
                input.extend([1u8, 1]);
            }
            input.push(0);
            input.extend(std::iter::repeat_n(0u8, 256 * n));
            input
        }),
    ];
    for (name, decode, input) in shapes {
        let levels = (0..=512)
            .find(|&n| {
                decode_on_thread(decode, input(n + 1), None, 64 << 20)
                    .0
                    .is_err()
            })
            .expect("a depth the limit refuses");
        let (result, stack) = decode_on_thread(decode, input(levels), None, THREAD_STACK);
        println!("{name:18} {levels:3} levels: {stack:7} bytes of stack");
        assert_eq!(result, Ok(()), "{name}");
        assert!(levels > 0, "{name}");
        assert!(stack <= NESTING_STACK, "{name}: {stack} bytes");
        let (result, _) = decode_on_thread(decode, input(levels + 1), None, THREAD_STACK);
        assert_eq!(result.map_err(|e| e.0), Err(too_deep(256)), "{name}");
    }
}
