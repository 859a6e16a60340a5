//! A counting global allocator for the allocation tests.
//!
//! Only allocations made by the measuring thread while a measurement is open
//! count (a thread-local flag), and measurements are serialized by a mutex,
//! so the test harness and other tests in the same binary cannot pollute
//! them. Include it with `mod common;`; it installs itself as the global
//! allocator of that test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

struct Counting;

/// Allocations (including reallocations) seen while measuring.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// The sizes of the first `SIZES.len()` of them.
static SIZES: [AtomicUsize; 16] = [const { AtomicUsize::new(0) }; 16];

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
    }
}

// SAFETY: every method forwards to `System` with the arguments it was given,
// so `System`'s guarantees are ours; the bookkeeping neither allocates nor
// touches the memory.
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

/// Serializes measurements across the tests of this binary.
static LOCK: Mutex<()> = Mutex::new(());

pub(crate) fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What a measured region allocated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Allocations {
    pub(crate) count: usize,
    /// The sizes of the first 16 allocations.
    pub(crate) sizes: Vec<usize>,
}

/// Runs `f` with allocation counting on for this thread. The caller holds
/// the lock. `f`'s result is dropped after the region closes, so freeing it
/// is not part of the measurement.
pub(crate) fn measure<R>(_guard: &MutexGuard<'_, ()>, f: impl FnOnce() -> R) -> (R, Allocations) {
    ALLOCATIONS.store(0, Ordering::SeqCst);
    for slot in &SIZES {
        slot.store(0, Ordering::SeqCst);
    }
    MEASURING.with(|m| m.set(true));
    let result = f();
    MEASURING.with(|m| m.set(false));
    let count = ALLOCATIONS.load(Ordering::SeqCst);
    let sizes = SIZES
        .iter()
        .take(count)
        .map(|s| s.load(Ordering::SeqCst))
        .collect();
    (result, Allocations { count, sizes })
}
