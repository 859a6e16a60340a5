//! A counting global allocator for the allocation tests.
//!
//! Only allocations made by the measuring thread while a measurement is open
//! count (a thread-local flag), and measurements are serialized by a mutex,
//! so the test harness and other tests in the same binary cannot pollute
//! them. A test binary installs it with [`counting_allocator!`]
//! (a `#[global_allocator]` must be declared in the binary itself); every
//! allocation suite (`alloc_free`, `output_targets`, `decode_hostile`,
//! `time_alloc_free`, `alloc_budget`) does. It also tracks the bytes live
//! at once ([`measure_live`]), for the allocation-budget tests.
//!
//! [`counting_allocator!`]: crate::counting_allocator

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Installs [`Counting`] as the global allocator of the test binary that
/// names it, once, at the top level of the test file:
/// `marshal_test_suite::counting_allocator!();`.
#[macro_export]
macro_rules! counting_allocator {
    () => {
        #[global_allocator]
        static COUNTING_ALLOCATOR: $crate::counting::Counting = $crate::counting::Counting;
    };
}

/// The allocator: [`System`]'s, with the bookkeeping that [`measure`] and
/// [`measure_live`] report. Install it with
/// [`counting_allocator!`](crate::counting_allocator).
#[derive(Debug)]
pub struct Counting;

/// Whether any allocation went through [`Counting`], that is, whether it is
/// this binary's global allocator.
static INSTALLED: AtomicBool = AtomicBool::new(false);
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
    INSTALLED.store(true, Ordering::Relaxed);
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

/// Serializes measurements across the tests of this binary.
static LOCK: Mutex<()> = Mutex::new(());

/// Takes the lock every measurement holds, so that measurements in one
/// binary never overlap.
///
/// # Panics
///
/// If [`Counting`] is not this binary's global allocator, since every
/// measurement would then read zero.
pub fn lock() -> MutexGuard<'static, ()> {
    let guard = LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // Something has surely allocated by now (the test harness, this
    // thread's name); if it did not go through `Counting`, nothing will.
    drop(std::hint::black_box(Box::new(0u8)));
    assert!(
        INSTALLED.load(Ordering::Relaxed),
        "the counting allocator is not installed: add \
         `marshal_test_suite::counting_allocator!();` to the test file"
    );
    guard
}

/// What a measured region allocated.
#[derive(Debug, PartialEq, Eq)]
pub struct Allocations {
    /// Allocations and reallocations.
    pub count: usize,
    /// The sizes of the first 16 of them.
    pub sizes: Vec<usize>,
    /// The largest single allocation or reallocation size.
    pub largest: usize,
    /// Bytes asked for, summed over every allocation and reallocation (a
    /// reallocation counts at its new size).
    pub total: usize,
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
/// the [`lock`]. `f`'s result is dropped after the region closes, so
/// freeing it is not part of the measurement. Counting stops even if `f`
/// panics.
pub fn measure<R>(_guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, Allocations) {
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
pub struct Live {
    /// The most bytes that were allocated and not yet freed at once.
    pub peak: usize,
    /// Bytes still allocated when the region closed (`f`'s result among
    /// them); negative if it freed memory allocated before it opened.
    pub end: isize,
    /// Bytes asked for, summed over every allocation and reallocation.
    pub total: usize,
}

/// [`measure`], reporting the live bytes: their peak, and what is left
/// allocated at the end. `f`'s result is dropped after the region closes,
/// so `end` counts what it holds.
pub fn measure_live<R>(guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, Live) {
    let (result, allocations) = measure(guard, f);
    let live = Live {
        peak: usize::try_from(PEAK.load(Ordering::SeqCst)).unwrap_or(0),
        end: LIVE.load(Ordering::SeqCst),
        total: allocations.total,
    };
    (result, live)
}

#[cfg(test)]
mod tests {
    /// This library's own test binary does not install the allocator, so a
    /// measurement in it would read zero: `lock` refuses.
    #[test]
    #[should_panic(expected = "the counting allocator is not installed")]
    fn lock_refuses_without_the_allocator() {
        let _guard = super::lock();
    }
}
