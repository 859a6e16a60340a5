//! Encodes 100,000 records into one bumpalo arena: one pass sizes every
//! record, one block of exactly the total is allocated, a second pass
//! encodes them back to back. Prints the bytes, the global-heap allocations
//! (counted by a wrapping global allocator) and the time, for a cold arena
//! for one sized up front, and for that one reset and reused, next to a
//! `to_vec` per record (kept, like the batch) for comparison.
//!
//! Then decodes the batch back into one arena, as records whose strings
//! and vectors are bumpalo's (`RecordIn`), in a vector in the same arena:
//! into a cold arena, which takes its chunks from the global heap, then
//! into one sized up front with `Bump::with_capacity`, which makes no
//! global allocation at all, next to decoding into `String`s and `Vec`s on
//! the heap.
//!
//! Run with `cargo run --release --example arena_batch --features bumpalo`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bumpalo::Bump;
use bumpalo::collections::{String as BString, Vec as BVec};
use marshal::arena::Batch;
use marshal::{Marshal, Unmarshal};

/// Counts every allocation and reallocation on the global heap.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the arguments it was given,
// so `System`'s guarantees are ours; the counter neither allocates nor
// touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Record {
    id: u64,
    user: String,
    score: f64,
    tags: Vec<String>,
    kind: Kind,
    payload: Vec<u8>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Kind {
    Click { x: u16, y: u16 },
    View(u32),
    Purchase { cents: u64, currency: [u8; 3] },
}

/// [`Record`] decoded into an arena: its strings and vectors are
/// bumpalo's, allocated in the arena the decode is given.
#[derive(Unmarshal, Debug)]
struct RecordIn<'b> {
    id: u64,
    user: BString<'b>,
    score: f64,
    tags: BVec<'b, BString<'b>>,
    kind: Kind,
    payload: BVec<'b, u8>,
}

impl RecordIn<'_> {
    /// Whether this is `record`, field by field.
    fn is(&self, record: &Record) -> bool {
        self.id == record.id
            && self.user == record.user.as_str()
            && self.score == record.score
            && self
                .tags
                .iter()
                .map(BString::as_str)
                .eq(record.tags.iter().map(String::as_str))
            && self.kind == record.kind
            && self.payload[..] == record.payload[..]
    }
}

fn record(i: u64) -> Record {
    Record {
        id: i,
        user: format!("user-{}", i % 10_007),
        score: i as f64 / 7.0,
        tags: (0..i % 4).map(|t| format!("t{t}")).collect(),
        kind: match i % 3 {
            0 => Kind::Click {
                x: i as u16,
                y: (i >> 16) as u16,
            },
            1 => Kind::View(i as u32),
            _ => Kind::Purchase {
                cents: i * 99,
                currency: *b"EUR",
            },
        },
        payload: vec![i as u8; (i % 32) as usize],
    }
}

/// Runs `f`, returning its result, the global allocations it made and the
/// time it took.
fn measured<R>(f: impl FnOnce() -> R) -> (R, usize, f64) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let start = Instant::now();
    let result = f();
    let ms = start.elapsed().as_secs_f64() * 1e3;
    (result, ALLOCATIONS.load(Ordering::Relaxed) - before, ms)
}

/// Encodes `records` as one batch in `bump`, checks and prints the result,
/// and returns the batch.
fn run<'b>(label: &str, bump: &'b Bump, records: &[Record]) -> Batch<'b> {
    let (batch, allocations, ms) = measured(|| marshal::arena::encode_batch(bump, records));
    println!(
        "  {label:<12} {:>9} bytes in one block, {} ranges, {allocations} global allocations, {ms:7.2} ms",
        batch.bytes.len(),
        batch.ranges.len(),
    );
    // The block holds every record back to back, as `to_vec` writes it.
    for i in [0, 1, 2, records.len() / 2, records.len() - 1] {
        let bytes = batch.get(i).unwrap();
        assert_eq!(
            Record::read_from(bytes).unwrap(),
            (record(i as u64), bytes.len())
        );
    }
    let expected: usize = records.iter().map(Marshal::encoded_len).sum();
    assert_eq!(batch.bytes.len(), expected);
    batch
}

/// Decodes every record of `batch` into `bump`, the vector of them
/// included, checks and prints the result, and returns the global
/// allocations the decode made.
fn decode(label: &str, bump: &Bump, batch: &Batch<'_>, records: &[Record]) -> usize {
    let (decoded, allocations, ms) = measured(|| {
        let mut decoded = BVec::with_capacity_in(batch.len(), bump);
        for bytes in batch.iter() {
            let record: RecordIn = marshal::arena::from_bytes_in(bump, bytes).unwrap();
            decoded.push(record);
        }
        decoded
    });
    println!(
        "  {label:<12} {:>9} records, {:>9} arena bytes, {allocations} global allocations, {ms:7.2} ms",
        decoded.len(),
        bump.allocated_bytes(),
    );
    assert!(decoded.iter().zip(records).all(|(d, r)| d.is(r)));
    assert_eq!(decoded.len(), records.len());
    allocations
}

fn main() {
    const N: u64 = 100_000;
    let records: Vec<Record> = (0..N).map(record).collect();
    println!("encoding {N} records into one arena block (size pass, then encode pass)");
    // A cold arena gets its chunks from the global heap as it goes; one
    // sized from that run up front needs nothing more.
    let cold = Bump::new();
    run("cold arena", &cold, &records);
    let mut sized = Bump::with_capacity(cold.allocated_bytes());
    run("sized arena", &sized, &records);
    // Reset keeps the chunk, its pages already touched: the steady state of
    // an arena reused for one batch after another.
    sized.reset();
    let batch = run("reused arena", &sized, &records);

    // The same records as 100,000 separate vectors, kept like the batch.
    let (vecs, allocations, ms) =
        measured(|| records.iter().map(marshal::to_vec).collect::<Vec<_>>());
    let total: usize = vecs.iter().map(Vec::len).sum();
    println!(
        "  {:<12} {total:>9} bytes in {} vectors, {allocations} global allocations, {ms:7.2} ms",
        "to_vec each",
        vecs.len(),
    );
    assert_eq!(total, records.iter().map(Marshal::encoded_len).sum());

    println!("decoding the batch back into one arena (records, strings and vectors)");
    let cold = Bump::new();
    decode("cold arena", &cold, &batch, &records);
    // An arena with room for all of it up front: no global allocation.
    let sized = Bump::with_capacity(cold.allocated_bytes());
    let allocations = decode("sized arena", &sized, &batch, &records);
    assert_eq!(allocations, 0, "decoding into a sized arena allocated");

    // The same records decoded onto the heap, kept like the arena's.
    let (owned, allocations, ms) = measured(|| {
        batch
            .iter()
            .map(|bytes| marshal::from_bytes::<Record>(bytes).unwrap())
            .collect::<Vec<_>>()
    });
    println!(
        "  {:<12} {:>9} records, {allocations} global allocations, {ms:7.2} ms",
        "on the heap",
        owned.len(),
    );
    assert!(owned.iter().eq(&records));
}
