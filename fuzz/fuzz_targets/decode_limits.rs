//! Decodes arbitrary bytes under the limits a server sets, on a thread with
//! a 2 MiB stack:
//!
//! - an allocation budget (`from_bytes_limited`, the budget taken from the
//!   first four bytes): the bytes requested from the allocator, counted by
//!   a global allocator, never exceed it, and the decode either gives what
//!   an unlimited decode gives or stops with `AllocLimit`;
//! - the default depth limit, over recursive types whose variants are large
//!   in memory: decoded or `TooDeep`, never a stack overflow.
#![no_main]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Debug;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use libfuzzer_sys::fuzz_target;
use marshal::{DecodeErrorKind, Marshal, Unmarshal};

struct Counting;

/// Bytes requested while `MEASURING` is set on the requesting thread.
static REQUESTED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn record(size: usize) {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        REQUESTED.fetch_add(size, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to `System` with the arguments it was given;
// the bookkeeping neither allocates nor touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Deep {
    Leaf,
    Big([u64; 512]),
    Next(Box<Deep>),
    Many(Vec<Deep>),
    Maybe(Option<Box<Deep>>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Huge {
    Leaf,
    Big([u64; 2048]),
    Next(Box<Huge>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Mixed {
    nones: Vec<Option<[u64; 64]>>,
    names: Vec<Vec<String>>,
    tree: BTreeMap<u16, Vec<u8>>,
    table: HashMap<u32, String>,
    queue: VecDeque<u64>,
    boxed: Box<[u32]>,
    shared: Rc<str>,
}

/// Decodes `input` as a `T` under `budget`, counting what is requested.
fn check<T>(input: &[u8], budget: usize)
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    REQUESTED.store(0, Ordering::Relaxed);
    MEASURING.set(true);
    let limited = marshal::from_bytes_limited::<T>(input, budget);
    MEASURING.set(false);
    let requested = REQUESTED.load(Ordering::Relaxed);
    assert!(
        requested <= budget,
        "requested {requested} bytes under a budget of {budget}"
    );
    let unlimited = marshal::from_bytes::<T>(input);
    match limited {
        Ok(value) => assert_eq!(unlimited.as_ref(), Ok(&value)),
        Err(e) if matches!(e.kind(), DecodeErrorKind::AllocLimit { .. }) => {
            assert_eq!(e.kind(), DecodeErrorKind::AllocLimit { limit: budget });
        }
        // Any other error is the input's, and the budget does not change it.
        Err(e) => assert_eq!(unlimited.map(|_| ()), Err(e)),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((head, input)) = data.split_first_chunk::<4>() else {
        return;
    };
    let budget = u32::from_le_bytes(*head) as usize;
    let input = input.to_vec();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            check::<Mixed>(&input, budget);
            check::<Vec<Deep>>(&input, budget);
            check::<Huge>(&input, budget);
            // The default depth limit alone, with no budget.
            if let Err(e) = marshal::from_bytes::<Deep>(&input) {
                let _ = e.kind();
            }
        })
        .expect("spawn")
        .join()
        .expect("the decode thread finished without a panic or overflow");
});
