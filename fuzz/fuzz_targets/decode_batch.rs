//! `marshal::par::decode_batch` on arbitrary bytes and hostile end offsets
//! (backwards, past the input, 100,000 empty ranges), for types whose
//! `MIN_LEN` is 0 (a derived struct whose fields all use `with` modules, a
//! manual impl that keeps the default, values that take no bytes), large
//! ones in memory and ordinary ones, on a pool of two threads:
//!
//! - never a panic;
//! - the values, or the first error in input order, of decoding the ranges
//!   one after another on one thread;
//! - what the calling thread asks the allocator for, counted by a global
//!   allocator, stays within what the input buys (four times its size) and
//!   what the values that decoded hold, never what the number of ends
//!   claims.
//!
//! The first byte picks the type; the next two say how the ends are made;
//! then come the ends' steps, then the input.
#![no_main]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::Debug;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use libfuzzer_sys::fuzz_target;
use marshal::{DecodeError, Marshal, Reader, Unmarshal};

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

/// Reads nothing; fails on an odd first byte of what is left, so some
/// ranges decode and some do not.
mod picky {
    pub fn encoded_len<T>(_: &T) -> usize {
        0
    }
    pub fn encode<T>(_: &T, _: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        Ok(())
    }
    pub fn decode<T: Default>(r: &mut marshal::Reader<'_>) -> Result<T, marshal::DecodeError> {
        match r.peek_rest().first() {
            Some(b) if b % 2 == 1 => Err(marshal::DecodeError::custom(&"odd", r.position())),
            _ => Ok(T::default()),
        }
    }
}

/// 4 KiB in memory, `MIN_LEN` 0: every field is read by a `with` module.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithOnly {
    #[marshal(with = picky)]
    a: Block,
    #[marshal(with = picky)]
    b: [u8; 30],
}

/// 4 KiB.
#[derive(Debug, PartialEq)]
struct Block([u64; 512]);

impl Default for Block {
    fn default() -> Self {
        Block([0; 512])
    }
}

/// 4 KiB in memory, the default `MIN_LEN` of 0, never a value.
#[derive(Debug, PartialEq)]
struct Bulky([u8; 4130]);

impl<'de> Unmarshal<'de> for Bulky {
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Err(DecodeError::custom(&"no Bulky here", r.position()))
    }
}

/// `MIN_LEN` 0, and a value from every range, empty ones included (an
/// empty struct of 1 KiB in memory).
#[derive(Debug, PartialEq)]
struct Empty([u64; 128]);

impl<'de> Unmarshal<'de> for Empty {
    fn decode(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(Empty([7; 128]))
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Log {
    address: String,
    user: Option<String>,
    code: u16,
    tags: Vec<String>,
}

/// What `decode_batch` must return: the ranges decoded one after another;
/// and how many decoded before the first error.
fn sequentially<T: for<'de> Unmarshal<'de>>(
    input: &[u8],
    ends: &[usize],
) -> (Result<Vec<T>, DecodeError>, usize) {
    let mut values = Vec::new();
    let mut start = 0;
    for &end in ends {
        if end < start {
            let e = DecodeError::custom(&"a batch range ends before it starts", start);
            return (Err(e), values.len());
        }
        let Some(range) = input.get(start..end) else {
            let mut r = Reader::new(input);
            let e = r.take(start).and_then(|_| r.take(end - start)).unwrap_err();
            return (Err(e), values.len());
        };
        match marshal::from_bytes(range) {
            Ok(value) => values.push(value),
            Err(e) => return (Err(e.shifted(start)), values.len()),
        }
        start = end;
    }
    let n = values.len();
    (Ok(values), n)
}

static POOL: LazyLock<rayon::ThreadPool> = LazyLock::new(|| {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads")
});

/// Decodes the batch, compares it with the sequential decode, and bounds
/// what the calling thread's share asked the allocator for: besides the
/// values' own contents (at most `inner` bytes, which the input pays for),
/// room within four times the input, or for one value, then rounds that
/// at most double what has decoded (the `Vec` asked for again at each: at
/// most four times the values that decoded, and one more).
fn check<T>(input: &[u8], ends: &[usize], inner: usize)
where
    T: for<'de> Unmarshal<'de> + Send + PartialEq + Debug,
{
    POOL.install(|| {
        REQUESTED.store(0, Ordering::Relaxed);
        MEASURING.set(true);
        let got = marshal::par::decode_batch::<T>(input, ends);
        MEASURING.set(false);
        let requested = REQUESTED.load(Ordering::Relaxed);
        let (want, decoded) = sequentially::<T>(input, ends);
        assert_eq!(got, want);
        let size = size_of::<T>();
        let room = (4 * input.len()).max(size) + 4 * size * (decoded + 1);
        let bound = room + inner + 4096;
        assert!(
            requested <= bound,
            "{} asked for {requested} bytes: {} of input, {} ends, {decoded} decoded, bound {bound}",
            std::any::type_name::<T>(),
            input.len(),
            ends.len()
        );
    });
}

/// The end offsets the fuzz input describes: `count` steps of `step`
/// bytes each (a few backwards or far past the input), then `empty` ×
/// `per` empty ranges at the last end.
fn ends_of(steps: &[u8], empty: u8, per: usize, input: usize) -> Vec<usize> {
    let mut ends = Vec::with_capacity(steps.len() + usize::from(empty) * per);
    let mut at = 0usize;
    for &step in steps {
        at = match step {
            0xff => input + 1 + usize::from(step % 7),
            0xfe => at.saturating_sub(3),
            0xfd => usize::MAX,
            s => at.saturating_add(usize::from(s % 16)),
        };
        ends.push(at);
    }
    ends.extend(std::iter::repeat_n(at, usize::from(empty) * per));
    ends
}

fuzz_target!(|data: &[u8]| {
    let Some(([kind, count, empty], rest)) = data.split_first_chunk::<3>() else {
        return;
    };
    let count = usize::from(*count).min(rest.len());
    let (steps, input) = rest.split_at(count);
    // Up to 102,000 empty ranges; up to 10,200 for the types whose values
    // decode from empty ranges (1 and 4 KiB each in memory).
    let ends = |per| ends_of(steps, *empty, per, input.len());
    match kind % 7 {
        0 => check::<WithOnly>(input, &ends(40), 0),
        1 => check::<Bulky>(input, &ends(400), 0),
        2 => check::<Empty>(input, &ends(40), 0),
        // Strings of the input's bytes, and vectors of them grown from
        // four times each range.
        3 => check::<Log>(input, &ends(400), 16 * input.len()),
        4 => check::<u16>(input, &ends(400), 0),
        5 => check::<Option<u8>>(input, &ends(400), 0),
        _ => check::<String>(input, &ends(400), input.len()),
    }
});
