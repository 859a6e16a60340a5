//! Encodes 100,000 records into one bumpalo arena: one pass sizes every
//! record, one block of exactly the total is allocated, a second pass
//! encodes them back to back. Prints the bytes, the global-heap allocations
//! (counted by a wrapping global allocator) and the time, for a cold arena
//! for one sized up front, and for that one reset and reused, next to a
//! `to_vec` per record (kept, like the batch) for comparison.
//!
//! Run with `cargo run --release --example arena_batch --features bumpalo`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use bumpalo::Bump;
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
/// and returns how many bytes the arena holds.
fn run(label: &str, bump: &Bump, records: &[Record]) -> usize {
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
    bump.allocated_bytes()
}

fn main() {
    const N: u64 = 100_000;
    let records: Vec<Record> = (0..N).map(record).collect();
    println!("encoding {N} records into one arena block (size pass, then encode pass)");
    // A cold arena gets its chunks from the global heap as it goes; one
    // sized from that run up front needs nothing more.
    let cold = Bump::new();
    let warm_capacity = run("cold arena", &cold, &records);
    let mut sized = Bump::with_capacity(warm_capacity);
    run("sized arena", &sized, &records);
    // Reset keeps the chunk, its pages already touched: the steady state of
    // an arena reused for one batch after another.
    sized.reset();
    run("reused arena", &sized, &records);

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
}
