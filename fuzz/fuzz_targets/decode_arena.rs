//! Decodes arbitrary bytes into bumpalo arenas: bumpalo's `Vec`, `String`
//! and `Box` at every depth, beside fields borrowed from the input, in
//! structs and recursive enums, with values that count their destructors.
//!
//! The first byte sets the room of a small fenced arena (one that cannot
//! grow), the next two an allocation budget; the rest is the input. Each
//! input is decoded as a batch of records, as a recursive shape and as a
//! tuple of counted values:
//!
//! - into an arena that can grow, it gives exactly what decoding the
//!   standard types gives (the same bytes back, which are the input: every
//!   value has one encoding; or the same error at the same offset), and
//!   the arena holds no more than a coarse multiple of the input (a
//!   length prefix buys at most what the input can hold);
//! - under the budget it gives the same, or stops with `AllocLimit`;
//! - in the fenced arena it gives the same, or stops with `ArenaFull`;
//! - without an arena (`marshal::from_bytes`), `NoArena` wherever an arena
//!   type starts, never a panic;
//! - whatever the result, every counted value decoded is dropped once:
//!   none is live once the result is dropped.
#![no_main]

use std::cell::Cell;

use bumpalo::Bump;
use bumpalo::boxed::Box as BBox;
use bumpalo::collections::{String as BString, Vec as BVec};
use libfuzzer_sys::fuzz_target;
use marshal::{DecodeError, DecodeErrorKind, Marshal, Overflow, Reader, Unmarshal, Writer};

thread_local! {
    /// Counted values decoded and not yet dropped.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn live() -> isize {
    LIVE.with(Cell::get)
}

/// A byte that counts its live values; 0xff refuses to decode, so that a
/// decode fails part way with values already made.
#[derive(Debug, PartialEq)]
struct Counted(u8);

impl Drop for Counted {
    fn drop(&mut self) {
        LIVE.with(|l| l.set(l.get() - 1));
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
                LIVE.with(|l| l.set(l.get() + 1));
                Ok(Counted(b))
            }
        }
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Record<'b> {
    id: u32,
    name: BString<'b>,
    values: BVec<'b, u32>,
    tags: BVec<'b, BString<'b>>,
    source: &'b str,
    raw: &'b [u8],
    counted: BVec<'b, Counted>,
    detail: Option<BBox<'b, Detail<'b>>>,
    shape: Shape<'b>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Detail<'b> {
    note: BString<'b>,
    one: BBox<'b, Counted>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Shape<'b> {
    Empty,
    Text(BString<'b>),
    List(BVec<'b, Shape<'b>>),
    Boxed(BBox<'b, Shape<'b>>),
    Counted(BBox<'b, Counted>, Counted),
    Big(BBox<'b, [u64; 64]>),
    Borrowed(&'b str),
}

type Parts<'b> = (
    BBox<'b, Counted>,
    BString<'b>,
    BVec<'b, BVec<'b, Counted>>,
    BVec<'b, (Counted, BBox<'b, Counted>)>,
);

/// The standard mirrors of the arena types, named the same: an error
/// names the type, and both decodes must give the same errors.
mod owned {
    use marshal::{Marshal, Unmarshal};

    use super::Counted;

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub struct Record {
        pub id: u32,
        pub name: String,
        pub values: Vec<u32>,
        pub tags: Vec<String>,
        pub source: String,
        pub raw: Vec<u8>,
        pub counted: Vec<Counted>,
        pub detail: Option<Box<Detail>>,
        pub shape: Shape,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub struct Detail {
        pub note: String,
        pub one: Box<Counted>,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub enum Shape {
        Empty,
        Text(String),
        List(Vec<Shape>),
        Boxed(Box<Shape>),
        Counted(Box<Counted>, Counted),
        Big(Box<[u64; 64]>),
        Borrowed(String),
    }

    pub type Parts = (
        Box<Counted>,
        String,
        Vec<Vec<Counted>>,
        Vec<(Counted, Box<Counted>)>,
    );
}

/// A bump that cannot grow: its current chunk holds `room` more bytes,
/// and its allocation limit refuses another chunk.
fn fenced(room: usize) -> Bump {
    let bump = Bump::with_capacity(room);
    let extra = bump.chunk_capacity() - room;
    bump.alloc_slice_fill_copy(extra, 0u8);
    bump.set_allocation_limit(Some(bump.allocated_bytes()));
    bump
}

/// The bytes a result re-encodes to, or its error; the value is dropped.
fn outcome<T: Marshal>(result: Result<T, DecodeError>) -> Result<Vec<u8>, DecodeError> {
    result.map(|value| {
        let bytes = marshal::to_vec(&value);
        assert_eq!(bytes.len(), value.encoded_len());
        bytes
    })
}

/// Decodes `$input` as `$arena` (arena types) every way, against `$std`
/// (their standard mirror). A macro: an arena type's lifetime is its
/// arena's, so it names no type that decodes from every input.
macro_rules! check {
    ($arena:ty, $std:ty, $input:expr, $room:expr, $budget:expr) => {{
        let (input, room, budget): (&[u8], usize, usize) = ($input, $room, $budget);
        let expected = outcome(marshal::from_bytes::<$std>(input));
        assert_eq!(live(), 0, "std");
        if let Ok(bytes) = &expected {
            assert_eq!(bytes, input, "not the bytes that were read");
        }

        let bump = Bump::new();
        let got = outcome(marshal::arena::from_bytes_in::<$arena>(&bump, input));
        assert_eq!(live(), 0, "arena");
        assert_eq!(got, expected, "arena against std");
        let grown = bump.allocated_bytes();
        assert!(
            grown <= 256 * input.len() + (64 << 10),
            "{grown} bytes of arena for {} bytes of input",
            input.len()
        );

        let bump = Bump::new();
        match outcome(marshal::arena::from_bytes_in_limited::<$arena>(
            &bump, input, budget,
        )) {
            Err(e) if e.kind() == (DecodeErrorKind::AllocLimit { limit: budget }) => {}
            limited => assert_eq!(limited, expected, "under a budget of {budget}"),
        }
        assert_eq!(live(), 0, "budget");

        let bump = fenced(room);
        match outcome(marshal::arena::from_bytes_in::<$arena>(&bump, input)) {
            Err(e) if e.kind() == DecodeErrorKind::ArenaFull => {}
            fenced => assert_eq!(fenced, expected, "in {room} bytes of arena"),
        }
        assert_eq!(live(), 0, "fenced");

        // One value from the front, the rest ignored.
        let bump = Bump::new();
        if let Ok((value, used)) = marshal::arena::read_from_in::<$arena>(&bump, input) {
            assert_eq!(marshal::to_vec(&value), input[..used]);
        }
        assert_eq!(live(), 0, "read_from_in");

        // Without an arena.
        match outcome(marshal::from_bytes::<$arena>(input)) {
            Err(e) if matches!(e.kind(), DecodeErrorKind::NoArena { .. }) => {}
            no_arena => assert_eq!(no_arena, expected, "without an arena"),
        }
        assert_eq!(live(), 0, "without an arena");
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&[room, lo, hi], input)) = data.split_first_chunk::<3>() else {
        return;
    };
    let room = usize::from(room) * 8;
    let budget = usize::from(u16::from_le_bytes([lo, hi]));
    check!(BVec<Record<'_>>, Vec<owned::Record>, input, room, budget);
    check!(Shape<'_>, owned::Shape, input, room, budget);
    check!(Parts<'_>, owned::Parts, input, room, budget);
});
