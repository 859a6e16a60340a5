//! Values built in place: a derived struct's decoder writes each field
//! straight into the memory that keeps the value (a `Vec`'s spare slot, a
//! `Box`'s allocation, a field of an outer struct). These tests check that
//! whatever fails, and wherever, every value written before the failure is
//! dropped exactly once and nothing half-built is left behind: an error at
//! every field of every element, a decoder that panics, zero-sized fields,
//! nested structs, enums with struct variants and recursive boxes. Run
//! under Miri too (`scripts/miri.sh`), which reports leaks, double drops
//! and reads of uninitialized memory.

use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind};

use marshal::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};
use marshal::{DecodeError, Marshal, Overflow, Reader, Unmarshal, Writer};

thread_local! {
    /// `Tracked` values alive on this thread: made minus dropped.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// `Tracked` values built in place in another configuration.
    static BUILT_IN_PLACE: Cell<usize> = const { Cell::new(0) };
}

fn live() -> isize {
    LIVE.with(Cell::get)
}

/// The byte that makes `Tracked`'s decoder fail.
const FAIL: u8 = 0xFE;
/// The byte that makes it panic.
const PANIC: u8 = 0xFF;

/// One byte on the wire; counted while alive. Its manual decoder fails on
/// [`FAIL`] and panics on [`PANIC`].
#[derive(Debug, PartialEq)]
struct Tracked(u8);

impl Tracked {
    fn new(v: u8) -> Self {
        LIVE.with(|l| l.set(l.get() + 1));
        Tracked(v)
    }
}

impl Clone for Tracked {
    fn clone(&self) -> Self {
        Tracked::new(self.0)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        LIVE.with(|l| l.set(l.get() - 1));
    }
}

impl Marshal for Tracked {
    const FIXED_LEN: Option<usize> = Some(1);
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.0.encode(w)
    }
}

impl<'de> Unmarshal<'de> for Tracked {
    const MIN_LEN: usize = 1;
    const MIN_LEN_IS_EXACT: bool = true;
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match r.take_u8()? {
            FAIL => Err(DecodeError::invalid_tag(FAIL.into(), &"Tracked", at)),
            PANIC => panic!("Tracked: the panicking byte"),
            v => Ok(Tracked::new(v)),
        }
    }
}

/// One byte in every configuration too, read by the same decoder.
impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for Tracked {
    fn encoded_len_in(&self) -> usize {
        1
    }
    fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(self.0)
    }
}

impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for Tracked {
    const MIN_LEN_IN: usize = 1;
    fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Self::decode(r)
    }

    /// Counted: the struct around it asked for it in place.
    fn __decode_in_place<'p>(
        r: &mut Reader<'de>,
        place: marshal::__private::Place<'p, Self>,
    ) -> Result<marshal::__private::Built<'p, Self>, DecodeError> {
        BUILT_IN_PLACE.with(|n| n.set(n.get() + 1));
        Ok(place.write(Self::decode(r)?))
    }
}

/// Fixed-size fields only: a `Vec` of these reads its run with one check.
#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Exact {
    a: Tracked,
    unit: (),
    b: Tracked,
    nothing: PhantomData<String>,
    c: Tracked,
}

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Inner {
    x: Tracked,
    name: String,
    y: Tracked,
}

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
enum Shape {
    Empty,
    Point { at: Tracked },
    Pair(Tracked, Inner),
}

/// Variable-size fields, a nested struct, an enum with struct variants, a
/// `Vec` of structs and a zero-sized field.
#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Outer {
    first: Tracked,
    inner: Inner,
    unit: (),
    maybe: Option<Tracked>,
    shape: Shape,
    exact: Vec<Exact>,
    boxed: Box<Inner>,
    last: Tracked,
}

/// A list of boxes: each level decoded into its own box.
#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct List {
    value: Tracked,
    next: Option<Box<List>>,
}

/// The bytes of `Tracked` values: 101 to 200, none of them `FAIL` or
/// `PANIC`, and no other byte of the encodings here is in that range (the
/// strings are upper case, the lengths and tags small).
const TRACKED: std::ops::RangeInclusive<u8> = 101..=200;

/// Makes `Tracked` values, their bytes in [`TRACKED`].
struct Bytes(u8);

impl Bytes {
    fn next(&mut self) -> Tracked {
        self.0 = (self.0 + 1) % 100;
        Tracked::new(TRACKED.start() + self.0)
    }
}

fn inner(b: &mut Bytes) -> Inner {
    Inner {
        x: b.next(),
        name: "IN PLACE ".repeat(3),
        y: b.next(),
    }
}

fn outer(b: &mut Bytes, shape: u8) -> Outer {
    Outer {
        first: b.next(),
        inner: inner(b),
        unit: (),
        maybe: Some(b.next()),
        shape: match shape % 3 {
            0 => Shape::Empty,
            1 => Shape::Point { at: b.next() },
            _ => Shape::Pair(b.next(), inner(b)),
        },
        exact: (0..3)
            .map(|_| Exact {
                a: b.next(),
                unit: (),
                b: b.next(),
                nothing: PhantomData,
                c: b.next(),
            })
            .collect(),
        boxed: Box::new(inner(b)),
        last: b.next(),
    }
}

/// The positions in `bytes` of the `made` `Tracked` values' bytes.
fn tracked_positions(bytes: &[u8], made: usize) -> Vec<usize> {
    let positions: Vec<usize> = (0..bytes.len())
        .filter(|&i| TRACKED.contains(&bytes[i]))
        .collect();
    assert_eq!(positions.len(), made, "every Tracked byte found");
    positions
}

fn values(n: usize) -> (Vec<Outer>, usize) {
    let before = live();
    let mut b = Bytes(0);
    let v: Vec<Outer> = (0..n).map(|i| outer(&mut b, i as u8)).collect();
    let made = usize::try_from(live() - before).unwrap();
    (v, made)
}

#[test]
fn round_trips_in_place() {
    let (v, _) = values(6);
    let bytes = marshal::to_vec(&v);
    let back: Vec<Outer> = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(back, v);
    let boxed: Box<Outer> = marshal::from_bytes(&marshal::to_vec(&v[2])).unwrap();
    assert_eq!(*boxed, v[2]);
    drop((v, back, boxed));
    assert_eq!(live(), 0);
}

#[test]
fn an_error_at_every_field_of_every_element_drops_what_was_built_once() {
    let (v, made) = values(if cfg!(miri) { 2 } else { 4 });
    let bytes = marshal::to_vec(&v);
    drop(v);
    assert_eq!(live(), 0);
    let positions = tracked_positions(&bytes, made);
    for &at in &positions {
        let mut bad = bytes.clone();
        bad[at] = FAIL;
        let err = marshal::from_bytes::<Vec<Outer>>(&bad).unwrap_err();
        assert_eq!(err.offset(), at);
        assert_eq!(live(), 0, "after an error at {at}");
        // Decoded on its own as well, from its first element.
        let _ = marshal::from_bytes::<Box<Vec<Outer>>>(&bad).unwrap_err();
        assert_eq!(live(), 0, "boxed, after an error at {at}");
    }
}

#[test]
fn input_cut_anywhere_drops_what_was_built_once() {
    let (v, _) = values(2);
    let bytes = marshal::to_vec(&v);
    drop(v);
    let step = if cfg!(miri) { 7 } else { 1 };
    for end in (0..bytes.len()).step_by(step) {
        assert!(marshal::from_bytes::<Vec<Outer>>(&bytes[..end]).is_err());
        assert_eq!(live(), 0, "cut at {end}");
    }
}

#[test]
fn a_panicking_field_decoder_drops_what_was_built_once() {
    let (v, made) = values(2);
    let bytes = marshal::to_vec(&v);
    drop(v);
    let positions = tracked_positions(&bytes, made);
    let step = if cfg!(miri) { 5 } else { 1 };
    for &at in positions.iter().step_by(step) {
        let mut bad = bytes.clone();
        bad[at] = PANIC;
        let result = catch_unwind(AssertUnwindSafe(|| marshal::from_bytes::<Vec<Outer>>(&bad)));
        assert!(result.is_err(), "a panic at {at}");
        assert_eq!(live(), 0, "after a panic at {at}");
    }
}

/// The other configurations build derived structs in place too: an error
/// or a panic at every field of every element, and input cut anywhere,
/// drop what was built once, in `standard()` as in `legacy()`.
#[test]
fn in_another_configuration_what_was_built_is_dropped_once() {
    let c = marshal::config::standard();
    let (v, made) = values(if cfg!(miri) { 2 } else { 4 });
    let bytes = marshal::encode_to_vec(&v, c);
    let before = BUILT_IN_PLACE.with(Cell::get);
    let (back, used) = marshal::decode_from_slice::<Vec<Outer>, _>(&bytes, c).unwrap();
    assert_eq!((&back, used), (&v, bytes.len()));
    // In each element: `first`, `last`, the two of `inner` (a struct built
    // in place in its place), the two of `boxed` (in the `Box`'s
    // allocation) and the three of each `Exact` in `exact` (in the `Vec`'s
    // slots); not those read as values, in an `Option` or an enum.
    let in_place: usize = v.iter().map(|o| 6 + 3 * o.exact.len()).sum();
    assert_eq!(BUILT_IN_PLACE.with(Cell::get) - before, in_place);
    drop((v, back));
    assert_eq!(live(), 0);
    let step = if cfg!(miri) { 5 } else { 1 };
    for &at in tracked_positions(&bytes, made).iter().step_by(step) {
        let mut bad = bytes.clone();
        bad[at] = FAIL;
        let err = marshal::decode_from_slice::<Vec<Outer>, _>(&bad, c).unwrap_err();
        assert_eq!(err.offset(), at);
        assert_eq!(live(), 0, "after an error at {at}");
        bad[at] = PANIC;
        let result = catch_unwind(AssertUnwindSafe(|| {
            marshal::decode_from_slice::<Vec<Outer>, _>(&bad, c)
        }));
        assert!(result.is_err(), "a panic at {at}");
        assert_eq!(live(), 0, "after a panic at {at}");
    }
    let step = if cfg!(miri) { 7 } else { 1 };
    for end in (0..bytes.len()).step_by(step) {
        assert!(marshal::decode_from_slice::<Vec<Outer>, _>(&bytes[..end], c).is_err());
        assert_eq!(live(), 0, "cut at {end}");
    }
}

#[test]
fn runs_of_fixed_size_structs_fail_at_every_element() {
    let mut b = Bytes(0);
    let v: Vec<Exact> = (0..5)
        .map(|_| Exact {
            a: b.next(),
            unit: (),
            b: b.next(),
            nothing: PhantomData,
            c: b.next(),
        })
        .collect();
    let bytes = marshal::to_vec(&v);
    drop(v);
    // 8 bytes of length, then 3 a value.
    for at in 8..bytes.len() {
        for byte in [FAIL, PANIC] {
            let mut bad = bytes.clone();
            bad[at] = byte;
            let result = catch_unwind(AssertUnwindSafe(|| marshal::from_bytes::<Vec<Exact>>(&bad)));
            match result {
                Ok(decoded) => assert_eq!(decoded.unwrap_err().offset(), at),
                Err(_) => assert_eq!(byte, PANIC),
            }
            assert_eq!(live(), 0, "byte {byte} at {at}");
        }
    }
}

#[test]
fn zero_sized_structs_and_fields() {
    #[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
    struct Unit;
    #[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
    struct Zst {
        a: (),
        b: Unit,
        c: PhantomData<u64>,
        d: [u32; 0],
    }
    let v = vec![
        Zst {
            a: (),
            b: Unit,
            c: PhantomData,
            d: [],
        };
        3
    ];
    // Values that take no bytes count as one byte each against the input
    // left (`Reader::take_len`): three bytes follow them.
    let bytes = marshal::to_vec(&(&v, [7u8; 3]));
    assert_eq!(bytes.len(), 11);
    let (back, _) = marshal::from_bytes::<(Vec<Zst>, [u8; 3])>(&bytes).unwrap();
    assert_eq!(back, v);
    assert_eq!(
        marshal::from_bytes::<Box<Zst>>(&[]).unwrap(),
        Box::new(v[0].clone())
    );
    let (units, _) = marshal::from_bytes::<(Vec<Unit>, [u8; 3])>(&bytes).unwrap();
    assert_eq!(units, [Unit, Unit, Unit]);
}

#[test]
fn recursive_boxes_fail_at_every_level() {
    let depth = if cfg!(miri) { 8 } else { 40 };
    let mut b = Bytes(0);
    let mut list = List {
        value: b.next(),
        next: None,
    };
    for _ in 1..depth {
        list = List {
            value: b.next(),
            next: Some(Box::new(list)),
        };
    }
    let bytes = marshal::to_vec(&list);
    let back: List = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(back, list);
    drop((list, back));
    assert_eq!(live(), 0);
    // Each level is its value's byte, then `Option`'s tag.
    for level in 0..depth {
        for byte in [FAIL, PANIC] {
            let mut bad = bytes.clone();
            bad[level * 2] = byte;
            let result = catch_unwind(AssertUnwindSafe(|| marshal::from_bytes::<Box<List>>(&bad)));
            assert!(matches!(result, Ok(Err(_))) || byte == PANIC);
            assert_eq!(live(), 0, "byte {byte} at level {level}");
        }
    }
}

/// A manual implementation that overrides the hidden in-place decoder and
/// fails after writing its place: the value is never seen, and never
/// dropped either (leaked), which is safe; the struct around it drops the
/// fields it wrote before.
#[derive(Debug, PartialEq)]
struct WritesThenFails(u8);

impl Marshal for WritesThenFails {
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.0.encode(w)
    }
}

impl<'de> Unmarshal<'de> for WritesThenFails {
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_u8().map(WritesThenFails)
    }

    fn __decode_in<'p>(
        r: &mut Reader<'de>,
        place: marshal::__private::Place<'p, Self>,
    ) -> Result<marshal::__private::Built<'p, Self>, DecodeError> {
        let at = r.position();
        let v = r.take_u8()?;
        let _built = place.write(WritesThenFails(v));
        if v == FAIL {
            return Err(DecodeError::invalid_tag(v.into(), &"WritesThenFails", at));
        }
        Ok(_built)
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct AroundALiar {
    before: Tracked,
    liar: WritesThenFails,
    after: Tracked,
}

#[test]
fn a_manual_decoder_that_fails_after_writing_leaks_nothing_it_did_not_own() {
    let v = AroundALiar {
        before: Tracked::new(1),
        liar: WritesThenFails(2),
        after: Tracked::new(3),
    };
    let bytes = marshal::to_vec(&vec![v]);
    assert_eq!(
        marshal::from_bytes::<Vec<AroundALiar>>(&bytes).unwrap()[0].liar,
        WritesThenFails(2)
    );
    let mut bad = bytes.clone();
    bad[9] = FAIL;
    assert!(marshal::from_bytes::<Vec<AroundALiar>>(&bad).is_err());
    assert_eq!(live(), 0);
}

#[test]
fn from_bytes_into_builds_in_the_callers_slot_or_leaves_it_empty() {
    use std::mem::MaybeUninit;
    let (v, made) = values(1);
    let bytes = marshal::to_vec(&v[0]);
    let mut slot = MaybeUninit::<Outer>::uninit();
    assert_eq!(*marshal::from_bytes_into(&bytes, &mut slot).unwrap(), v[0]);
    // SAFETY: `from_bytes_into` returned `Ok`: the slot holds a value,
    // dropped here once.
    unsafe { slot.assume_init_drop() };
    drop(v);
    assert_eq!(live(), 0);
    // Trailing bytes: the value decoded is dropped, the slot left empty.
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(marshal::from_bytes_into(&longer, &mut slot).is_err());
    assert_eq!(live(), 0);
    for &at in &tracked_positions(&bytes, made) {
        for byte in [FAIL, PANIC] {
            let mut bad = bytes.clone();
            bad[at] = byte;
            let result = catch_unwind(AssertUnwindSafe(|| {
                marshal::from_bytes_into(&bad, &mut slot).map(|_| ())
            }));
            assert!(matches!(result, Ok(Err(_))) || byte == PANIC);
            assert_eq!(live(), 0, "byte {byte} at {at}");
        }
    }
}

#[test]
// rayon's pool stops Stacked Borrows before any of marshal's code runs;
// `scripts/miri.sh` runs `tests/par.rs`, whose batches take the same path,
// under Tree Borrows.
#[cfg_attr(miri, ignore = "rayon under Stacked Borrows")]
fn parallel_batches_build_in_place_and_drop_what_fails() {
    // Fewer values than `par`'s smallest task: decoded on this thread, whose
    // count of live values the test reads (`tests/par.rs` runs batches
    // across threads).
    let (v, made) = values(if cfg!(miri) { 3 } else { 8 });
    let mut out = Vec::new();
    let mut ends = Vec::new();
    for value in &v {
        out.extend(marshal::to_vec(value));
        ends.push(out.len());
    }
    let back: Vec<Outer> = marshal::par::decode_batch(&out, &ends).unwrap();
    assert_eq!(back, v);
    drop((v, back));
    assert_eq!(live(), 0);
    let step = if cfg!(miri) { 9 } else { 1 };
    for &at in tracked_positions(&out, made).iter().step_by(step) {
        let mut bad = out.clone();
        bad[at] = FAIL;
        let err = marshal::par::decode_batch::<Outer>(&bad, &ends).unwrap_err();
        assert_eq!(err.offset(), at);
        assert_eq!(live(), 0, "an error at {at}");
    }
    // A range with a byte too many: the value decoded from it is dropped.
    let mut longer = out.clone();
    longer.push(0);
    let mut ends_longer = ends.clone();
    *ends_longer.last_mut().unwrap() += 1;
    assert!(marshal::par::decode_batch::<Outer>(&longer, &ends_longer).is_err());
    assert_eq!(live(), 0);
}
