//! A counting global allocator for the allocation tests.
//!
//! Only allocations made by the measuring thread while a measurement is open
//! count (a thread-local flag), and measurements are serialized by a mutex,
//! so the test harness and other tests in the same binary cannot pollute
//! them. Include it with `mod common;`; it installs itself as the global
//! allocator of that test binary. Every allocation suite (`alloc_free`,
//! `output_targets`, `decode_hostile`, `time_alloc_free`, `alloc_budget`)
//! uses this one. It also tracks the bytes live at once
//! ([`measure_live`]), for the allocation-budget tests.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

struct Counting;

/// Allocations (including reallocations) seen while measuring.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// The sizes of the first `SIZES.len()` of them.
static SIZES: [AtomicUsize; 16] = [const { AtomicUsize::new(0) }; 16];
/// The largest size among them.
static LARGEST: AtomicUsize = AtomicUsize::new(0);
/// The sum of their sizes (a reallocation counts at its new size).
static TOTAL: AtomicUsize = AtomicUsize::new(0);
/// Bytes allocated and not yet freed by the measuring thread since the
/// measurement opened (negative after freeing older memory).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The highest `LIVE` has been.
static PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Whether this thread is inside a measured region. A `const` `Cell` has
    /// no destructor and its access never allocates, so the allocator may
    /// read it at any time.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn record(size: usize) {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        let i = ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        if let Some(slot) = SIZES.get(i) {
            slot.store(size, Ordering::SeqCst);
        }
        LARGEST.fetch_max(size, Ordering::SeqCst);
        TOTAL.fetch_add(size, Ordering::SeqCst);
    }
}

/// Moves the live-byte count by `delta` (allocations add, frees subtract).
fn track(delta: isize) {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        let live = LIVE.fetch_add(delta, Ordering::SeqCst) + delta;
        PEAK.fetch_max(live, Ordering::SeqCst);
    }
}

/// A size as a live-byte delta (a `Layout` size is at most `isize::MAX`).
fn delta(size: usize) -> isize {
    isize::try_from(size).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to `System` with the arguments it was given,
// so `System`'s guarantees are ours; the bookkeeping neither allocates nor
// touches the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        track(delta(layout.size()));
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        track(delta(layout.size()));
        // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        track(delta(new_size) - delta(layout.size()));
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        track(-delta(layout.size()));
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract; `ptr`
        // came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Serializes measurements across the tests of this binary.
static LOCK: Mutex<()> = Mutex::new(());

pub(crate) fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a measured region allocated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Allocations {
    /// Allocations and reallocations.
    pub(crate) count: usize,
    /// The sizes of the first 16 of them.
    pub(crate) sizes: Vec<usize>,
    /// The largest single allocation or reallocation size.
    pub(crate) largest: usize,
    /// Bytes asked for, summed over every allocation and reallocation (a
    /// reallocation counts at its new size).
    pub(crate) total: usize,
}

/// Clears the measuring flag when dropped, so a panicking `f` does not leave
/// counting on for the rest of the thread.
struct StopMeasuring;

impl Drop for StopMeasuring {
    fn drop(&mut self) {
        MEASURING.with(|m| m.set(false));
    }
}

/// Runs `f` with allocation counting on for this thread. The caller holds
/// the lock. `f`'s result is dropped after the region closes, so freeing it
/// is not part of the measurement. Counting stops even if `f` panics.
pub(crate) fn measure<R>(_guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, Allocations) {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    for slot in &SIZES {
        slot.store(0, Ordering::SeqCst);
    }
    LARGEST.store(0, Ordering::SeqCst);
    TOTAL.store(0, Ordering::SeqCst);
    LIVE.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    let result = {
        let _stop = StopMeasuring;
        MEASURING.with(|m| m.set(true));
        f()
    };
    let count = ALLOCATIONS.load(Ordering::SeqCst);
    let sizes = SIZES
        .iter()
        .take(count)
        .map(|s| s.load(Ordering::SeqCst))
        .collect();
    let allocations = Allocations {
        count,
        sizes,
        largest: LARGEST.load(Ordering::SeqCst),
        total: TOTAL.load(Ordering::SeqCst),
    };
    (result, allocations)
}

/// Live bytes over a region measured with [`measure_live`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(dead_code)] // Only some of the binaries that include this module read it.
pub(crate) struct Live {
    /// The most bytes that were allocated and not yet freed at once.
    pub(crate) peak: usize,
    /// Bytes still allocated when the region closed (`f`'s result among
    /// them); negative if it freed memory allocated before it opened.
    pub(crate) end: isize,
    /// Bytes asked for, summed over every allocation and reallocation.
    pub(crate) total: usize,
}

/// [`measure`], reporting the live bytes: their peak, and what is left
/// allocated at the end. `f`'s result is dropped after the region closes,
/// so `end` counts what it holds.
#[allow(dead_code)] // Only some of the binaries that include this module call it.
pub(crate) fn measure_live<R>(guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, Live) {
    let (result, allocations) = measure(guard, f);
    let live = Live {
        peak: usize::try_from(PEAK.load(Ordering::SeqCst)).unwrap_or(0),
        end: LIVE.load(Ordering::SeqCst),
        total: allocations.total,
    };
    (result, live)
}
