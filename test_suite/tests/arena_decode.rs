//! Decoding into a bumpalo arena: `marshal::arena::from_bytes_in`,
//! `from_bytes_in_limited` and `read_from_in`, and bumpalo's `Vec`,
//! `String` and `Box` as field types at every depth.
//!
//! - Arena types write the bytes of their standard counterparts and of
//!   bincode 1.3, read bytes written from either, and have the same size
//!   constants and fingerprints.
//! - Every level of a decoded value lives in the arena, beside `&str` and
//!   `&[u8]` fields borrowed from the input; after `Bump::with_capacity`
//!   decoding makes no global allocation (the counting allocator).
//! - Without an arena (`marshal::from_bytes`) an arena type is a
//!   `NoArena` error, never a panic.
//! - Hostile lengths never grow the arena; under a budget the arena grows
//!   by no more than the budget; the depth limit holds as for `Box` and
//!   `Vec`.
//! - Destructors run once for everything decoded, whether the decode
//!   succeeds or fails part way.

use std::cell::Cell;
use std::fmt::Debug;

use bumpalo::Bump;
use bumpalo::boxed::Box as BBox;
use bumpalo::collections::{String as BString, Vec as BVec};
use marshal::{DecodeError, DecodeErrorKind, Marshal, Overflow, Reader, Unmarshal, Writer};
use marshal_test_suite::budget::least_budget;
use marshal_test_suite::checks::{bincode_exact, borrows_from};
use marshal_test_suite::counting::{lock, measure};
use serde::{Deserialize, Serialize};

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// The types: arena ones, and their standard mirrors.

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Batch<'b> {
    seq: u32,
    records: BVec<'b, Record<'b>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Record<'b> {
    id: u64,
    name: BString<'b>,
    values: BVec<'b, u32>,
    tags: BVec<'b, BString<'b>>,
    /// Borrowed from the input, beside the arena's fields.
    source: &'b str,
    raw: &'b [u8],
    detail: Option<BBox<'b, Detail<'b>>>,
    shape: Shape<'b>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Detail<'b> {
    note: BString<'b>,
    weights: BVec<'b, f64>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Shape<'b> {
    Empty,
    Text(BString<'b>),
    List(BVec<'b, Shape<'b>>),
    Boxed(BBox<'b, Shape<'b>>),
}

#[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct BatchStd {
    seq: u32,
    records: Vec<RecordStd>,
}

#[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct RecordStd {
    id: u64,
    name: String,
    values: Vec<u32>,
    tags: Vec<String>,
    source: String,
    raw: Vec<u8>,
    detail: Option<Box<DetailStd>>,
    shape: ShapeStd,
}

#[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq, Clone)]
struct DetailStd {
    note: String,
    weights: Vec<f64>,
}

#[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq, Clone)]
enum ShapeStd {
    Empty,
    Text(String),
    List(Vec<ShapeStd>),
    Boxed(Box<ShapeStd>),
}

/// A shape `depth` levels deep, every variant met on the way.
fn shape_std(seed: u64, depth: u32) -> ShapeStd {
    if depth == 0 {
        return match seed % 2 {
            0 => ShapeStd::Empty,
            _ => ShapeStd::Text(format!("leaf {seed} ünïcode")),
        };
    }
    match seed % 3 {
        0 => ShapeStd::Boxed(Box::new(shape_std(seed / 3, depth - 1))),
        1 => ShapeStd::List(vec![]),
        _ => ShapeStd::List((0..3).map(|i| shape_std(seed / 3 + i, depth - 1)).collect()),
    }
}

fn batch_std(records: u64) -> BatchStd {
    BatchStd {
        seq: 7,
        records: (0..records)
            .map(|i| RecordStd {
                id: i * 1_000_003,
                name: format!("record number {i}"),
                values: (0..i as u32 % 5).map(|v| v * 31 + 1).collect(),
                tags: (0..i % 4).map(|t| "t".repeat(t as usize * 9)).collect(),
                source: format!("host-{}", i % 3),
                raw: vec![i as u8; i as usize % 7],
                detail: (i % 2 == 0).then(|| {
                    Box::new(DetailStd {
                        note: format!("détail {i}"),
                        weights: vec![0.5, -1.25, i as f64],
                    })
                }),
                shape: shape_std(i * 7919, (i % 5) as u32),
            })
            .collect(),
    }
}

fn shape_in<'b>(bump: &'b Bump, s: &ShapeStd) -> Shape<'b> {
    match s {
        ShapeStd::Empty => Shape::Empty,
        ShapeStd::Text(t) => Shape::Text(BString::from_str_in(t, bump)),
        ShapeStd::List(items) => Shape::List(BVec::from_iter_in(
            items.iter().map(|i| shape_in(bump, i)),
            bump,
        )),
        ShapeStd::Boxed(inner) => Shape::Boxed(BBox::new_in(shape_in(bump, inner), bump)),
    }
}

/// `std`'s value as arena types, its `source` and `raw` borrowed from it.
fn batch_in<'b>(bump: &'b Bump, std: &'b BatchStd) -> Batch<'b> {
    let records = std.records.iter().map(|r| Record {
        id: r.id,
        name: BString::from_str_in(&r.name, bump),
        values: BVec::from_iter_in(r.values.iter().copied(), bump),
        tags: BVec::from_iter_in(r.tags.iter().map(|t| BString::from_str_in(t, bump)), bump),
        source: &r.source,
        raw: &r.raw,
        detail: r.detail.as_ref().map(|d| {
            BBox::new_in(
                Detail {
                    note: BString::from_str_in(&d.note, bump),
                    weights: BVec::from_iter_in(d.weights.iter().copied(), bump),
                },
                bump,
            )
        }),
        shape: shape_in(bump, &r.shape),
    });
    Batch {
        seq: std.seq,
        records: BVec::from_iter_in(records, bump),
    }
}

// ---------------------------------------------------------------------------
// The same bytes as the standard types and bincode 1.3.

#[test]
fn arena_types_write_the_bytes_of_std_types_and_bincode() {
    let std = batch_std(40);
    let bump = Bump::new();
    let arena = batch_in(&bump, &std);
    let bytes = marshal::to_vec(&arena);
    assert_eq!(bytes, marshal::to_vec(&std));
    assert_eq!(bytes, bincode::serialize(&std).unwrap());
    assert_eq!(arena.encoded_len(), bytes.len());
}

#[test]
fn std_and_bincode_bytes_read_back_into_arena_types_and_the_reverse() {
    let std = batch_std(40);
    let bytes = bincode::serialize(&std).unwrap();
    let bump = Bump::new();
    let arena: Batch = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
    let expected_bump = Bump::new();
    assert_eq!(arena, batch_in(&expected_bump, &std));
    // And back: the arena value's bytes read as the std types, by marshal
    // and by bincode.
    let again = marshal::to_vec(&arena);
    assert_eq!(again, bytes);
    assert_eq!(marshal::from_bytes::<BatchStd>(&again).unwrap(), std);
    use bincode::Options as _;
    assert_eq!(
        bincode_exact().deserialize::<BatchStd>(&again).unwrap(),
        std
    );
}

#[test]
fn read_from_in_reads_one_value_and_from_bytes_in_rejects_trailing_bytes() {
    let std = batch_std(3);
    let mut bytes = marshal::to_vec(&std);
    let len = bytes.len();
    bytes.extend([0xaa, 0xbb]);
    let bump = Bump::new();
    let (arena, used) = marshal::arena::read_from_in::<Batch>(&bump, &bytes).unwrap();
    assert_eq!(used, len);
    assert_eq!(marshal::to_vec(&arena), bytes[..len]);
    let err = marshal::arena::from_bytes_in::<Batch>(&bump, &bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::TrailingBytes { count: 2 }, len)
    );
}

#[test]
fn size_constants_and_fingerprints_are_the_std_types() {
    fn same<'de, A: Marshal + Unmarshal<'de>, S: Marshal + Unmarshal<'de>>() {
        assert_eq!(A::FIXED_LEN, S::FIXED_LEN);
        assert_eq!(A::MAX_LEN, S::MAX_LEN);
        assert_eq!(A::FINGERPRINT, S::FINGERPRINT);
        assert_eq!(<A as Unmarshal>::MIN_LEN, <S as Unmarshal>::MIN_LEN);
        assert_eq!(
            <A as Unmarshal>::MIN_LEN_IS_EXACT,
            <S as Unmarshal>::MIN_LEN_IS_EXACT
        );
    }
    same::<'static, BVec<'static, u32>, Vec<u32>>();
    same::<'static, BVec<'static, BString<'static>>, Vec<String>>();
    same::<'static, BString<'static>, String>();
    same::<'static, BBox<'static, u64>, Box<u64>>();
    same::<'static, BBox<'static, (u8, BString<'static>)>, Box<(u8, String)>>();
    same::<'static, Option<BBox<'static, Detail<'static>>>, Option<Box<DetailStd>>>();
    same::<'static, Shape<'static>, ShapeStd>();
    // A borrowed `&str` and `&[u8]` write what `String` and `Vec<u8>` do.
    assert_eq!(Record::FINGERPRINT, RecordStd::FINGERPRINT);
    assert_eq!(Batch::FINGERPRINT, BatchStd::FINGERPRINT);
    assert_eq!(
        <Record as Unmarshal>::MIN_LEN,
        <RecordStd as Unmarshal>::MIN_LEN
    );
}

// ---------------------------------------------------------------------------
// Every level in the arena, borrowed fields from the input.

/// Where a part of a value is: its address and length.
type Span = (usize, usize);

/// The address and length of every part of `batch` that lives outside it:
/// in the arena for the arena types, in the input for the borrowed fields.
fn parts(batch: &Batch<'_>) -> (Vec<Span>, Vec<Span>) {
    fn span<T>(s: &[T]) -> Span {
        (s.as_ptr().addr(), std::mem::size_of_val(s))
    }
    fn shape(s: &Shape<'_>, out: &mut Vec<Span>) {
        match s {
            Shape::Empty => {}
            Shape::Text(t) => out.push(span(t.as_bytes())),
            Shape::List(items) => {
                out.push(span(items));
                items.iter().for_each(|i| shape(i, out));
            }
            Shape::Boxed(inner) => {
                out.push(span(std::slice::from_ref(&**inner)));
                shape(inner, out);
            }
        }
    }
    let (mut arena, mut input) = (vec![span(&batch.records)], vec![]);
    for r in batch.records.iter() {
        arena.push(span(r.name.as_bytes()));
        arena.push(span(&r.values));
        arena.push(span(&r.tags));
        arena.extend(r.tags.iter().map(|t| span(t.as_bytes())));
        input.push(span(r.source.as_bytes()));
        input.push(span(r.raw));
        if let Some(d) = &r.detail {
            arena.push(span(std::slice::from_ref(&**d)));
            arena.push(span(d.note.as_bytes()));
            arena.push(span(&d.weights));
        }
        shape(&r.shape, &mut arena);
    }
    // Empty parts point nowhere in particular.
    arena.retain(|&(_, len)| len > 0);
    input.retain(|&(_, len)| len > 0);
    (arena, input)
}

#[test]
fn every_level_is_in_the_arena_and_borrowed_fields_in_the_input() {
    let std = batch_std(40);
    let bytes = marshal::to_vec(&std);
    let mut bump = Bump::new();
    let (in_arena, in_input) = {
        let batch: Batch = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
        let parts = parts(&batch);
        // Not dropped: bumpalo would take back the last allocation, which
        // `iter_allocated_chunks` would then no longer show.
        std::mem::forget(batch);
        parts
    };
    assert!(in_arena.len() > 200, "{}", in_arena.len());
    let input = bytes.as_ptr_range();
    for &(at, len) in &in_input {
        assert!(input.start.addr() <= at && at + len <= input.end.addr());
    }
    let chunks: Vec<(usize, usize)> = bump
        .iter_allocated_chunks()
        .map(|c| (c.as_ptr().addr(), c.len()))
        .collect();
    for &(at, len) in &in_arena {
        assert!(
            chunks
                .iter()
                .any(|&(start, n)| start <= at && at + len <= start + n),
            "{at:#x}+{len} is not in the arena"
        );
    }
}

#[test]
fn borrowed_str_beside_arena_fields_borrows_from_the_input() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    struct Mixed<'a> {
        key: &'a str,
        owned: BString<'a>,
        bytes: &'a [u8],
        list: BVec<'a, &'a str>,
    }
    let bytes = marshal::to_vec(&("key", "owned", b"raw".as_slice(), vec!["x", "yz"]));
    let bump = Bump::new();
    let m: Mixed = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
    assert_eq!(
        (m.key, m.owned.as_str(), m.bytes),
        ("key", "owned", &b"raw"[..])
    );
    assert_eq!(m.list, ["x", "yz"]);
    assert!(borrows_from(&bytes, m.key.as_bytes()));
    assert!(borrows_from(&bytes, m.bytes));
    assert!(m.list.iter().all(|s| borrows_from(&bytes, s.as_bytes())));
    assert!(!borrows_from(&bytes, m.owned.as_bytes()));
}

#[test]
fn decoding_after_with_capacity_makes_no_global_allocation() {
    let std = batch_std(200);
    let bytes = marshal::to_vec(&std);
    // What the decode takes, in a first arena.
    let needed = {
        let bump = Bump::new();
        let _batch: Batch = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
        bump.allocated_bytes()
    };
    let guard = lock();
    let bump = Bump::with_capacity(needed);
    let (batch, allocs) = measure(&guard, || {
        marshal::arena::from_bytes_in::<Batch>(&bump, &bytes).unwrap()
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert_eq!(marshal::to_vec(&batch), bytes);
    // The measurement sees allocations where there are some: a fresh
    // arena's chunks, and the std types' every string and vector.
    let fresh = Bump::new();
    let (_, allocs) = measure(&guard, || {
        marshal::arena::from_bytes_in::<Batch>(&fresh, &bytes).unwrap()
    });
    assert!(allocs.count > 0);
    let (_, allocs) = measure(&guard, || marshal::from_bytes::<BatchStd>(&bytes).unwrap());
    assert!(allocs.count > 1000, "{allocs:?}");
}

// ---------------------------------------------------------------------------
// Without an arena.

#[test]
fn without_an_arena_an_arena_type_is_a_no_arena_error() {
    let std = batch_std(3);
    let bytes = marshal::to_vec(&std);
    let vec = DecodeErrorKind::NoArena {
        ty: "bumpalo::collections::Vec",
    };
    // The batch's `records`, after its `seq`.
    let err = marshal::from_bytes::<Batch>(&bytes).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (vec, 4));
    assert_eq!(
        err.to_string(),
        "bumpalo::collections::Vec is allocated in an arena, and this decode has none \
         (decode it with marshal::arena::from_bytes_in) at byte 4"
    );
    assert_eq!(Batch::read_from(&bytes).unwrap_err(), err);
    assert_eq!(
        marshal::from_bytes_limited::<Batch>(&bytes, 1 << 20).unwrap_err(),
        err
    );
    let string = marshal::to_vec("s");
    let err = marshal::from_bytes::<BString>(&string).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::NoArena {
                ty: "bumpalo::collections::String"
            },
            0
        )
    );
    let boxed = marshal::to_vec(&(1u8, 2u64));
    let err = marshal::from_bytes::<(u8, BBox<u64>)>(&boxed).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::NoArena {
                ty: "bumpalo::boxed::Box"
            },
            1
        )
    );
    // Through the other entry points that have no arena.
    let err = marshal::iter::<Batch>(&bytes).next().unwrap().unwrap_err();
    assert_eq!(err.kind(), vec);
    assert!(!err.is_incomplete());
    // An arena type that the input never reaches (`None`) needs none.
    let none = marshal::to_vec(&None::<u8>);
    assert!(
        marshal::from_bytes::<Option<BBox<u64>>>(&none)
            .unwrap()
            .is_none()
    );
}

// ---------------------------------------------------------------------------
// Hostile lengths and the allocation budget.

/// A bump that cannot grow: its current chunk holds `room` more bytes
/// (`room` a multiple of 8, so an 8-aligned allocation needs no padding),
/// and its allocation limit refuses another chunk. A decode into it that
/// asks for more fails with `ArenaFull`.
fn fenced(room: usize) -> Bump {
    assert_eq!(room % 8, 0);
    let bump = Bump::with_capacity(room);
    let extra = bump.chunk_capacity() - room;
    assert_eq!(extra % 8, 0);
    bump.alloc_slice_fill_copy(extra, 0u8);
    assert_eq!(bump.chunk_capacity(), room);
    bump.set_allocation_limit(Some(bump.allocated_bytes()));
    bump
}

#[test]
fn a_full_arena_is_an_arena_full_error() {
    let full = DecodeErrorKind::ArenaFull;
    let bytes = marshal::to_vec(&vec![7u64; 100]);
    let err = marshal::arena::from_bytes_in::<BVec<u64>>(&fenced(792), &bytes).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (full, 8));
    assert!(!err.is_incomplete());
    assert_eq!(
        err.to_string(),
        "the arena could not allocate (its allocation limit, or the allocator, refused a new \
         chunk) at byte 8"
    );
    let bump = fenced(800);
    let v = marshal::arena::from_bytes_in::<BVec<u64>>(&bump, &bytes).unwrap();
    assert_eq!(v.len(), 100);
    // A string's contents, a box's value.
    let err =
        marshal::arena::from_bytes_in::<(u8, BString)>(&fenced(0), &marshal::to_vec(&(1u8, "abc")))
            .unwrap_err();
    assert_eq!((err.kind(), err.offset()), (full, 9));
    let err = marshal::arena::from_bytes_in::<(u8, BBox<u64>)>(&fenced(0), &[1; 9]).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (full, 1));
    // Growing past the room allocated ahead of the items: 252 of 1000
    // 16-byte items fit in four times the input, the 253rd needs more.
    let mut input = 1000u64.to_le_bytes().to_vec();
    input.extend([0; 1000]);
    let err =
        marshal::arena::from_bytes_in::<BVec<Option<u64>>>(&fenced(4 * 1008), &input).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (full, 8 + 252));
    let bump = Bump::new();
    let v = marshal::arena::from_bytes_in::<BVec<Option<u64>>>(&bump, &input).unwrap();
    assert_eq!(v.len(), 1000);
}

#[test]
fn a_hostile_length_never_grows_the_arena() {
    let huge = (1u64 << 40).to_le_bytes();
    let alone = [&huge[..], b"abcdefgh"].concat();
    // Inside an honest outer `Vec` of one item.
    let inside = [&1u64.to_le_bytes()[..], &huge, &[0; 8]].concat();
    // Room for the outer `Vec`'s one item, which 8 bytes of input justify;
    // asking for more would be `ArenaFull`.
    let bump = fenced(32);
    let overflow = DecodeErrorKind::LengthOverflow { len: 1 << 40 };
    for (err, at) in [
        (
            marshal::arena::from_bytes_in::<BVec<u64>>(&bump, &alone).map(drop),
            0,
        ),
        (
            marshal::arena::from_bytes_in::<BVec<()>>(&bump, &alone).map(drop),
            0,
        ),
        (
            marshal::arena::from_bytes_in::<BString>(&bump, &alone).map(drop),
            0,
        ),
        (
            marshal::arena::from_bytes_in::<BBox<BVec<u8>>>(&bump, &alone).map(drop),
            0,
        ),
        (
            marshal::arena::from_bytes_in::<BVec<BVec<u32>>>(&bump, &inside).map(drop),
            8,
        ),
        (
            marshal::arena::from_bytes_in::<BVec<BString>>(&bump, &inside).map(drop),
            8,
        ),
        (
            marshal::arena::from_bytes_in_limited::<BVec<BString>>(&bump, &inside, usize::MAX - 1)
                .map(drop),
            8,
        ),
    ]
    .map(|(result, at)| (result.unwrap_err(), at))
    {
        assert_eq!((err.kind(), err.offset()), (overflow, at), "{err}");
    }
}

#[test]
fn room_allocated_ahead_of_items_is_at_most_four_times_the_input() {
    // A length of 1000 items of 16 bytes in memory (one byte each on the
    // wire), and a bad first item: 1008 bytes of input.
    let mut input = 1000u64.to_le_bytes().to_vec();
    input.extend([2]);
    input.extend([0; 999]);
    let bad_tag = DecodeErrorKind::InvalidTag {
        tag: 2,
        ty: "Option",
    };
    let err =
        marshal::arena::from_bytes_in::<BVec<Option<u64>>>(&fenced(4 * 1008), &input).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (bad_tag, 8));
    // It does take that room: in less, the arena is full before the item.
    let err = marshal::arena::from_bytes_in::<BVec<Option<u64>>>(&fenced(4 * 1008 - 16), &input)
        .unwrap_err();
    assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::ArenaFull, 8));
    // Under a budget all 1000 items are charged up front, and nothing is
    // allocated when they do not fit.
    let err =
        marshal::arena::from_bytes_in_limited::<BVec<Option<u64>>>(&fenced(0), &input, 15_999)
            .unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: 15_999 }, 8)
    );
}

#[test]
fn the_budget_charges_what_the_arena_is_asked_for() {
    let strings = vec![String::from("a long enough string"); 3];
    let bytes = marshal::to_vec(&strings);
    // The vector's three `String<'b>`s, then each string's bytes, exactly.
    let need = 3 * std::mem::size_of::<BString>() + 3 * 20;
    let fits = |budget| {
        let bump = Bump::new();
        marshal::arena::from_bytes_in_limited::<BVec<BString>>(&bump, &bytes, budget).is_ok()
    };
    assert_eq!(least_budget(1 << 20, fits), need);
    // One byte less: the third string's contents do not fit, and the arena
    // had not been asked for more than the budget (rounded down to 8).
    let budget = need - 1;
    let err = marshal::arena::from_bytes_in_limited::<BVec<BString>>(
        &fenced(budget / 8 * 8),
        &bytes,
        budget,
    )
    .unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            DecodeErrorKind::AllocLimit { limit: budget },
            8 + 2 * 28 + 8
        )
    );
    // Boxes are charged their value's size.
    let boxed = marshal::to_vec(&(5u64, 6u64));
    let fits = |budget| {
        let bump = Bump::new();
        marshal::arena::from_bytes_in_limited::<(BBox<u64>, BBox<u64>)>(&bump, &boxed, budget)
            .is_ok()
    };
    assert_eq!(least_budget(1 << 20, fits), 16);
}

#[test]
fn under_a_budget_many_small_items_stop_before_the_arena_passes_it() {
    // 1000 one-byte `None`s, 520 bytes each in memory.
    let bytes = marshal::to_vec(&vec![None::<[u64; 64]>; 1000]);
    let budget = 64 << 10;
    let err = marshal::arena::from_bytes_in_limited::<BVec<Option<[u64; 64]>>>(
        &fenced(budget),
        &bytes,
        budget,
    )
    .unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::AllocLimit { limit: budget }, 8)
    );
    let bump = fenced(520 * 1000);
    let v: BVec<Option<[u64; 64]>> =
        marshal::arena::from_bytes_in_limited(&bump, &bytes, 520 * 1000).unwrap();
    assert_eq!(v.len(), 1000);
}

// ---------------------------------------------------------------------------
// The depth limit.

#[derive(Marshal, Unmarshal, Debug)]
enum Chain<'b> {
    End,
    Next(BBox<'b, Chain<'b>>),
}

#[derive(Marshal, Unmarshal, Debug)]
enum ChainStd {
    End,
    Next(Box<ChainStd>),
}

// The large variant is the point: it makes a level several units deep.
#[allow(clippy::large_enum_variant)]
#[derive(Marshal, Unmarshal, Debug)]
enum Tree<'b> {
    Leaf,
    Big([u64; 512]),
    Node(BVec<'b, Tree<'b>>),
}

#[allow(clippy::large_enum_variant)]
#[derive(Marshal, Unmarshal, Debug)]
enum TreeStd {
    Leaf,
    Big([u64; 512]),
    Node(Vec<TreeStd>),
}

#[test]
fn arena_boxes_and_vectors_nest_as_far_as_std_ones() {
    let bump = Bump::new();
    // 300 `Next`s, then `End`.
    let mut chain = 1u32.to_le_bytes().repeat(300);
    chain.extend(0u32.to_le_bytes());
    let std = marshal::from_bytes::<ChainStd>(&chain).unwrap_err();
    let arena = marshal::arena::from_bytes_in::<Chain>(&bump, &chain).unwrap_err();
    assert_eq!(std.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    assert_eq!(arena, std);
    let deepest = &chain[4 * (300 - 256)..];
    assert!(marshal::arena::from_bytes_in::<Chain>(&bump, deepest).is_ok());
    // Trees of one child a level, beside a large variant.
    let mut tree = [&2u32.to_le_bytes()[..], &1u64.to_le_bytes()]
        .concat()
        .repeat(60);
    tree.extend(0u32.to_le_bytes());
    let std = marshal::from_bytes::<TreeStd>(&tree).unwrap_err();
    let arena = marshal::arena::from_bytes_in::<Tree>(&bump, &tree).unwrap_err();
    assert_eq!(std.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    assert_eq!(arena, std);
}

// ---------------------------------------------------------------------------
// Destructors.

thread_local! {
    static MADE: Cell<usize> = const { Cell::new(0) };
    static DROPPED: Cell<usize> = const { Cell::new(0) };
}

/// A byte that counts its values made and dropped; 0xff refuses to decode.
#[derive(Debug, PartialEq)]
struct Counted(u8);

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.with(|d| d.set(d.get() + 1));
    }
}

impl Marshal for Counted {
    const FIXED_LEN: Option<usize> = Some(1);

    fn encoded_len(&self) -> usize {
        1
    }

    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(self.0)
    }
}

impl<'de> Unmarshal<'de> for Counted {
    const MIN_LEN: usize = 1;

    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match r.take_u8()? {
            0xff => Err(DecodeError::custom(&"refused", at)),
            b => {
                MADE.with(|m| m.set(m.get() + 1));
                Ok(Counted(b))
            }
        }
    }
}

/// Counted values of every arena container, nested.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Holder<'b> {
    one: BBox<'b, Counted>,
    many: BVec<'b, Counted>,
    nested: BVec<'b, BVec<'b, Counted>>,
    boxed: BVec<'b, (Counted, BBox<'b, Counted>)>,
    name: BString<'b>,
    tail: Counted,
}

fn counts() -> (usize, usize) {
    (MADE.with(Cell::get), DROPPED.with(Cell::get))
}

fn reset_counts() {
    MADE.with(|m| m.set(0));
    DROPPED.with(|d| d.set(0));
}

#[test]
fn every_value_decoded_is_dropped_once_whether_or_not_the_decode_succeeds() {
    let bump = Bump::new();
    let holder = Holder {
        one: BBox::new_in(Counted(1), &bump),
        many: BVec::from_iter_in((2..6).map(Counted), &bump),
        nested: BVec::from_iter_in(
            (0..3).map(|i| BVec::from_iter_in((0..i).map(|j| Counted(10 + j)), &bump)),
            &bump,
        ),
        boxed: BVec::from_iter_in(
            (0..3).map(|i| (Counted(20 + i), BBox::new_in(Counted(30 + i), &bump))),
            &bump,
        ),
        name: BString::from_str_in("holder", &bump),
        tail: Counted(40),
    };
    let bytes = marshal::to_vec(&holder);
    drop(holder);
    reset_counts();
    let decoded: Holder = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
    assert_eq!(counts(), (1 + 4 + 3 + 6 + 1, 0));
    assert_eq!(marshal::to_vec(&decoded), bytes);
    drop(decoded);
    assert_eq!(counts(), (15, 15));
    // Each counted byte refused in turn, and the input cut at every length:
    // what decoded before the error is dropped once, nothing more.
    let counted_at: Vec<usize> = (0..bytes.len())
        .filter(|&i| {
            let mut bad = bytes.clone();
            bad[i] = 0xff;
            reset_counts();
            let refused = marshal::arena::from_bytes_in::<Holder>(&bump, &bad)
                .is_err_and(|e| e.kind() == DecodeErrorKind::Custom("refused"));
            let (made, dropped) = counts();
            assert_eq!(made, dropped, "refused at {i}");
            refused
        })
        .collect();
    assert_eq!(counted_at.len(), 15);
    for len in 0..bytes.len() {
        reset_counts();
        assert!(marshal::arena::from_bytes_in::<Holder>(&bump, &bytes[..len]).is_err());
        let (made, dropped) = counts();
        assert_eq!(made, dropped, "cut at {len}");
    }
    // And the arena full at every point.
    let mut full = 0;
    for room in (0..=512).step_by(8) {
        reset_counts();
        match marshal::arena::from_bytes_in::<Holder>(&fenced(room), &bytes) {
            Ok(holder) => drop(holder),
            Err(e) => {
                assert_eq!(e.kind(), DecodeErrorKind::ArenaFull);
                full += 1;
            }
        }
        let (made, dropped) = counts();
        assert_eq!(made, dropped, "room {room}");
    }
    assert!(full > 10, "{full}");
}

// ---------------------------------------------------------------------------
// Decoding the same value twice into one arena, and into two.

#[test]
fn one_arena_holds_many_decodes_and_each_value_is_independent() {
    let std = batch_std(5);
    let bytes = marshal::to_vec(&std);
    let bump = Bump::new();
    let a: Batch = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
    let b: Batch = marshal::arena::from_bytes_in(&bump, &bytes).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.records.as_ptr(), b.records.as_ptr());
    let mut reset = Bump::new();
    for _ in 0..3 {
        let c: Batch = marshal::arena::from_bytes_in(&reset, &bytes).unwrap();
        assert_eq!(c, a);
        drop(c);
        reset.reset();
    }
}

/// `T` decodes from `value`'s bytes into an arena and writes them back.
#[track_caller]
fn round_trip<'b, T>(bump: &'b Bump, bytes: &'b [u8])
where
    T: Marshal + Unmarshal<'b> + Debug,
{
    let value: T = marshal::arena::from_bytes_in(bump, bytes).unwrap();
    assert_eq!(marshal::to_vec(&value), bytes, "{value:?}");
}

#[test]
fn arena_containers_of_every_kind_of_item_round_trip() {
    let bump = Bump::new();
    round_trip::<BVec<u8>>(&bump, &marshal::to_vec(&vec![1u8, 2, 3]));
    round_trip::<BVec<()>>(&bump, &marshal::to_vec(&Vec::<()>::new()));
    round_trip::<BVec<[u16; 3]>>(&bump, &marshal::to_vec(&vec![[1u16, 2, 3]; 4]));
    round_trip::<BVec<Option<char>>>(&bump, &marshal::to_vec(&vec![Some('é'), None]));
    round_trip::<BString>(&bump, &marshal::to_vec(""));
    round_trip::<BString>(&bump, &marshal::to_vec(&"ü".repeat(100)));
    round_trip::<BBox<()>>(&bump, &marshal::to_vec(&()));
    round_trip::<BBox<BBox<BString>>>(&bump, &marshal::to_vec("deep"));
    round_trip::<Option<BVec<BBox<BString>>>>(&bump, &marshal::to_vec(&Some(vec!["a", "b"])));
    // Invalid UTF-8 in an arena string is the std string's error.
    let mut bad = marshal::to_vec("abc");
    bad[9] = 0xff;
    let err = marshal::arena::from_bytes_in::<BString>(&bump, &bad).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::InvalidUtf8, 8)
    );
}
