//! Decoding `logs` into a bumpalo arena: marshal's owned decode (`Vec` and
//! `String` on the heap) against `marshal::arena::from_bytes_in` into the
//! same records made of bumpalo's `Vec` and `String`, and against wincode
//! 0.6's `deserialize_with_context` into those same bumpalo field types
//! (its `bumpalo` feature), from the same bytes.
//!
//! Equal work: each decode builds all 10,000 records with every string
//! copied out of the input and checked as UTF-8, the outer sequence and
//! every string in the arena for the arena decodes, and each timed
//! iteration gives the memory back: the owned decode drops its value (one
//! free for the records and one for each string), the arena decodes drop
//! theirs and reset the arena (`Bump::reset`, which keeps its largest
//! chunk, so every iteration after the first decodes into a warm chunk
//! without asking the global allocator for anything). wincode's bumpalo `Vec` takes only
//! items that need no arena, so its outer sequence of records, which do,
//! is read by [`ArenaSeq`] below through wincode's `with` attribute: its
//! length read and checked as wincode's own `Vec` does, room for every
//! record reserved, then each record read with the arena.
//!
//! ```sh
//! cargo bench -p marshal-benches --bench arena
//! ```
//!
//! Times are the benchmark thread's CPU time. On a noisy machine, count
//! instructions instead: with `MARSHAL_ARENA_REPEAT=<variant>:<n>`
//! (`owned`, `arena` or `wincode`, for example `arena:100`) the binary runs
//! that one decode `n` times and exits, for `valgrind --tool=callgrind`.

// Criterion's macros generate undocumented items.
#![allow(missing_docs)]

// The datasets, read-only: only `logs` is used here.
#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;
mod cpu_time;

use std::hint::black_box;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::time::Duration;

use bumpalo::Bump;
use bumpalo::collections::{String as BString, Vec as BVec};
use criterion::{Criterion, criterion_group};
use wincode::config::Config;
use wincode::io::Reader;
use wincode::len::SeqLen;
use wincode::{ReadResult, SchemaReadContext};

use common::Logs;
use cpu_time::{CpuTime, thread_cpu_time};

/// Records in `logs`, as in `compare.rs`.
const LOGS: usize = 10_000;

/// [`common::Log`] with its strings in an arena.
#[derive(marshal::Unmarshal, wincode::SchemaRead)]
#[wincode(context = "&'b Bump")]
struct LogIn<'b> {
    #[wincode(context)]
    address: BString<'b>,
    #[wincode(context)]
    identity: BString<'b>,
    #[wincode(context)]
    userid: BString<'b>,
    #[wincode(context)]
    date: BString<'b>,
    #[wincode(context)]
    request: BString<'b>,
    code: u16,
    size: u64,
}

/// [`common::Logs`] with its records, and their strings, in an arena.
#[derive(marshal::Unmarshal, wincode::SchemaRead)]
#[wincode(context = "&'b Bump")]
struct LogsIn<'b> {
    #[wincode(context, with = "ArenaSeq<LogIn<'b>>")]
    logs: BVec<'b, LogIn<'b>>,
}

impl LogsIn<'_> {
    /// Whether this is `owned`, field by field.
    fn matches(&self, owned: &Logs) -> bool {
        self.logs.len() == owned.logs.len()
            && self.logs.iter().zip(&owned.logs).all(|(a, b)| {
                a.address == b.address.as_str()
                    && a.identity == b.identity.as_str()
                    && a.userid == b.userid.as_str()
                    && a.date == b.date.as_str()
                    && a.request == b.request.as_str()
                    && a.code == b.code
                    && a.size == b.size
            })
    }
}

/// wincode's reading of a bumpalo `Vec` of items that are read with the
/// arena themselves: the length read and checked against the
/// configuration's preallocation limit (as wincode's `Vec` is), room for
/// every item, then each item.
struct ArenaSeq<T>(PhantomData<T>);

// SAFETY: `read_with_context` writes `dst` only when it returns `Ok`, and
// then with a whole `Self::Dst`; `TYPE_META` is left `Dynamic`.
unsafe impl<'de, 'b, C: Config, T> SchemaReadContext<'de, C, &'b Bump> for ArenaSeq<T>
where
    T: SchemaReadContext<'de, C, &'b Bump>,
    T::Dst: 'b,
{
    type Dst = BVec<'b, T::Dst>;

    #[inline]
    fn read_with_context(
        ctx: &'b Bump,
        mut reader: impl Reader<'de>,
        dst: &mut MaybeUninit<Self::Dst>,
    ) -> ReadResult<()> {
        let len = C::LengthEncoding::read_prealloc_check::<T::Dst>(reader.by_ref())?;
        let mut items = BVec::with_capacity_in(len, ctx);
        for _ in 0..len {
            items.push(T::get_with_context(ctx, reader.by_ref())?);
        }
        dst.write(items);
        Ok(())
    }
}

#[inline(never)]
fn owned(bytes: &[u8]) -> Logs {
    marshal::from_bytes::<Logs>(black_box(bytes)).unwrap()
}

#[inline(never)]
fn arena<'b>(bump: &'b Bump, bytes: &'b [u8]) -> LogsIn<'b> {
    marshal::arena::from_bytes_in::<LogsIn>(bump, black_box(bytes)).unwrap()
}

#[inline(never)]
fn wincode<'b>(bump: &'b Bump, bytes: &'b [u8]) -> LogsIn<'b> {
    wincode::deserialize_with_context::<_, LogsIn>(bump, black_box(bytes)).unwrap()
}

/// The bytes of `logs`, from each library, checked to be the same and to
/// decode every way to the records they came from.
fn setup() -> (Logs, Vec<u8>) {
    let data = common::logs(LOGS);
    let bytes = marshal::to_vec(&data);
    assert_eq!(wincode::serialize(&data).unwrap(), bytes);
    assert_eq!(owned(&bytes), data);
    let bump = Bump::new();
    assert!(arena(&bump, &bytes).matches(&data));
    assert!(wincode(&bump, &bytes).matches(&data));
    (data, bytes)
}

fn logs_arena(c: &mut Criterion<CpuTime>) {
    let (_, bytes) = setup();
    let mut g = c.benchmark_group("logs-arena");
    g.bench_function("marshal-owned", |b| {
        b.iter_custom(|iters| timed(iters, || drop(owned(&bytes))))
    });
    let mut bump = Bump::new();
    g.bench_function("marshal-arena", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                drop(arena(&bump, &bytes));
                bump.reset();
            })
        })
    });
    g.bench_function("wincode-arena", |b| {
        b.iter_custom(|iters| {
            timed(iters, || {
                drop(wincode(&bump, &bytes));
                bump.reset();
            })
        })
    });
    g.finish();
}

/// The CPU time of `iters` runs of `run`.
fn timed(iters: u64, mut run: impl FnMut()) -> Duration {
    let start = thread_cpu_time();
    for _ in 0..iters {
        run();
    }
    thread_cpu_time().saturating_sub(start)
}

fn repeat(spec: &str) {
    let (variant, n) = spec.split_once(':').expect("<variant>:<n>");
    let n: usize = n.parse().expect("a count");
    let (_, bytes) = setup();
    let mut bump = Bump::new();
    for _ in 0..n {
        match variant {
            "owned" => drop(black_box(owned(&bytes))),
            "arena" => drop(black_box(arena(&bump, &bytes))),
            "wincode" => drop(black_box(wincode(&bump, &bytes))),
            _ => panic!("unknown variant {variant}"),
        }
        bump.reset();
    }
}

fn config() -> Criterion<CpuTime> {
    common::fix_allocator();
    Criterion::default()
        .with_measurement(CpuTime)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(40)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = logs_arena
}

fn main() {
    if let Ok(spec) = std::env::var("MARSHAL_ARENA_REPEAT") {
        repeat(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
