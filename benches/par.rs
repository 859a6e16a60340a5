//! How `marshal::par` scales: `encode_batch` and `decode_batch` (and
//! `to_vec`) on 100,000 log records and on the mesh's 125,000 triangles,
//! on a rayon pool of 1 thread and on one of 2, beside the sequential loop
//! they replace (`encode_into_vec` per item, `from_bytes` per range), and
//! two parts alone: zero-filling the bytes (`Vec::resize`, one thread),
//! which `encode_batch` avoids by writing into the spare capacity, and
//! sizing the items with the prefix sum (each range's in parallel);
//! and, for what the machine itself gives a second thread, arithmetic with
//! no memory traffic, one parallel read of the encoded bytes a byte at a
//! time (bound by the adds), and one a word at a time (bound by the
//! memory).
//!
//! Each pool's threads are pinned one per CPU (see [`pool`]; set
//! `MARSHAL_PAR_UNPINNED` to leave them to the scheduler). The glibc
//! allocator's thresholds are fixed first (`common::fix_allocator`), as in
//! `compare.rs`. The output buffers are allocated once, outside the timing
//! loop, and cleared before each encode, as a program that reuses them
//! would.
//!
//! ```sh
//! cargo bench -p marshal-benches --bench par
//! ```
//!
//! `MARSHAL_PAR_INTERLEAVED=<rounds>` skips criterion and times `rounds`
//! rounds (after [`WARM_UP`] that do not count) of every operation, each
//! round running every operation on 1 thread and on 2, so that a busy
//! machine slows them alike, 1 thread first in even rounds and 2 threads
//! first in odd ones. It prints each operation's fastest and median time
//! and page faults, and its speed-up on 2 threads: of the fastest rounds,
//! the median of the rounds' own speed-ups, and that median over the
//! rounds in which arithmetic alone ran at least 1.9 times faster on 2
//! threads (the machine gave the second thread a whole core).
//! `MARSHAL_PAR_OPS=<part>,<part>` runs only the operations whose names
//! contain one of the parts (and arithmetic); `MARSHAL_PAR_ROUNDS=1`
//! prints every round.

// Criterion's macros generate undocumented items.
#![allow(missing_docs)]

// The datasets, read-only: `logs` and `mesh` are used here.
#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group};
use marshal::{Marshal, Unmarshal};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// Log records in the batch.
const LOGS: usize = 100_000;
/// Triangles in the mesh, as in `compare.rs`.
const TRIANGLES: usize = 125_000;

/// A pool of `threads` threads, thread `i` pinned to CPU `i` (modulo the
/// CPUs there are), unless `MARSHAL_PAR_UNPINNED` is set.
///
/// Pinned, because the kernel of the machine these figures come from
/// packs runnable threads onto one virtual CPU after a quiet spell (its
/// boot parameters include `sched_vcpu_pack`): a pool woken for a batch
/// after the single-threaded work between batches then often ran both of
/// its threads on one CPU for the whole of a few-millisecond batch, and
/// the two-thread figures measured that placement, not the batch (mesh
/// `decode_batch` on two threads after 5 ms idle: one thread decoded the
/// whole batch in 21 of 30 unpinned runs, 0.95 to 1.6 ms, and every
/// pinned run split evenly, 0.54 to 0.82 ms). Both pools are pinned
/// alike.
fn pool(threads: usize) -> ThreadPool {
    let pin = std::env::var_os("MARSHAL_PAR_UNPINNED").is_none();
    ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |i| {
            if pin {
                pin_to_cpu(i);
            }
        })
        .build()
        .expect("a rayon pool")
}

/// Pins the calling thread to CPU `i` modulo the number of CPUs.
fn pin_to_cpu(i: usize) {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    // SAFETY: `cpu_set_t` is a plain bit set, valid when zeroed.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: `CPU_SET` writes one bit of the set it is given; `i % cpus`
    // is below `CPU_SETSIZE` on any machine this runs on.
    unsafe { libc::CPU_SET(i % cpus, &mut set) };
    // SAFETY: `sched_setaffinity` reads `size_of::<cpu_set_t>()` bytes of
    // the set it is given, which is that large; pid 0 is this thread.
    let rc = unsafe { libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set) };
    assert_eq!(rc, 0, "sched_setaffinity");
}

/// A batch, its encoding and its end offsets, and reusable buffers.
struct Batch<T> {
    items: Vec<T>,
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl<T: Marshal + Sync + PartialEq + std::fmt::Debug + for<'de> Unmarshal<'de> + Send> Batch<T> {
    fn new(items: Vec<T>) -> Self {
        let (mut bytes, mut ends) = (Vec::new(), Vec::new());
        marshal::par::encode_batch(&items, &mut bytes, &mut ends);
        // The parallel paths agree with the sequential ones before anything
        // is timed.
        let mut seq = Vec::new();
        for item in &items {
            marshal::encode_into_vec(item, &mut seq);
        }
        assert_eq!(bytes, seq);
        assert_eq!(marshal::par::to_vec(&items), marshal::to_vec(&items));
        let back: Vec<T> = marshal::par::decode_batch(&bytes, &ends).expect("decodes");
        assert_eq!(back, items);
        Batch { items, bytes, ends }
    }
}

/// The operations, each one run of it.
#[derive(Clone, Copy)]
enum Op {
    EncodeBatch,
    DecodeBatch,
    ToVec,
    SeqEncode,
    SeqDecode,
    ZeroFill,
    SizeOnly,
    Spin,
    Stream,
    StreamWords,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::EncodeBatch => "encode_batch",
            Op::DecodeBatch => "decode_batch",
            Op::ToVec => "to_vec",
            Op::SeqEncode => "sequential encode_into_vec",
            Op::SeqDecode => "sequential from_bytes",
            Op::ZeroFill => "part: zero fill",
            Op::SizeOnly => "part: sizes, prefix sum",
            Op::Spin => "machine: arithmetic only",
            Op::Stream => "machine: read the bytes",
            Op::StreamWords => "machine: read the bytes as words",
        }
    }
}

/// Runs `op` once and returns what it made, for the caller to drop outside
/// the timing: freeing 100,000 decoded records is not decoding them.
fn run<T>(op: Op, batch: &Batch<T>, out: &mut Vec<u8>, ends: &mut Vec<usize>) -> Made<T>
where
    T: Marshal + Sync + for<'de> Unmarshal<'de> + Send,
{
    match op {
        Op::EncodeBatch => {
            out.clear();
            ends.clear();
            marshal::par::encode_batch(black_box(&batch.items), out, ends);
            black_box((&out, &ends));
            Made::Nothing
        }
        Op::DecodeBatch => Made::Values(
            marshal::par::decode_batch(black_box(&batch.bytes), black_box(&batch.ends)).unwrap(),
        ),
        Op::ZeroFill => {
            out.clear();
            out.resize(batch.bytes.len(), 0);
            black_box(&out);
            Made::Nothing
        }
        Op::SizeOnly => {
            // The sizing pass and the prefix sum, as `encode_batch` does
            // them: each range's running sum in parallel, then the ranges'
            // totals on one thread.
            ends.clear();
            let items = black_box(&batch.items);
            let grain = items
                .len()
                .div_ceil(4 * rayon::current_num_threads())
                .max(64);
            ends.par_extend(
                items
                    .par_iter()
                    .with_min_len(grain)
                    .map(Marshal::encoded_len),
            );
            ends.par_chunks_mut(grain).for_each(|range| {
                let mut sum = 0;
                for e in range {
                    sum += *e;
                    *e = sum;
                }
            });
            let total: usize = ends.chunks(grain).filter_map(<[usize]>::last).sum();
            black_box(total);
            black_box(&ends);
            Made::Nothing
        }
        Op::Spin => {
            // What the machine gives two threads with no memory traffic:
            // a few million dependent multiplications, in 16 tasks.
            let sum: u64 = (0..16u64)
                .into_par_iter()
                .map(|t| {
                    let mut x = black_box(t | 1);
                    for _ in 0..250_000 {
                        x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(7);
                    }
                    x
                })
                .sum();
            black_box(sum);
            Made::Nothing
        }
        Op::Stream => {
            // And reading the encoded bytes once, in 16 ranges.
            let bytes = black_box(&batch.bytes);
            let sum: u64 = bytes
                .par_chunks(bytes.len().div_ceil(16))
                .map(|c| c.iter().map(|&b| u64::from(b)).sum::<u64>())
                .sum();
            black_box(sum);
            Made::Nothing
        }
        Op::StreamWords => {
            // And as eight-byte words, which asks the memory for bytes
            // faster than one core can add them one by one: how much
            // more the machine gives a second thread that only reads.
            let bytes = black_box(&batch.bytes);
            let sum: u64 = bytes
                .par_chunks(bytes.len().div_ceil(16))
                .map(|c| {
                    c.chunks_exact(8)
                        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
                        .fold(0u64, u64::wrapping_add)
                })
                .reduce(|| 0, u64::wrapping_add);
            black_box(sum);
            Made::Nothing
        }
        Op::ToVec => Made::Bytes(marshal::par::to_vec(black_box(&batch.items))),
        Op::SeqEncode => {
            out.clear();
            for item in black_box(&batch.items) {
                marshal::encode_into_vec(item, out);
            }
            black_box(&out);
            Made::Nothing
        }
        Op::SeqDecode => {
            let mut start = 0;
            let mut values = Vec::with_capacity(batch.ends.len());
            for &end in black_box(&batch.ends) {
                values.push(marshal::from_bytes::<T>(&batch.bytes[start..end]).unwrap());
                start = end;
            }
            Made::Values(values)
        }
    }
}

/// What one run made.
#[allow(dead_code, reason = "held only to be dropped outside the timing")]
enum Made<T> {
    Nothing,
    Values(Vec<T>),
    Bytes(Vec<u8>),
}

const OPS: [Op; 10] = [
    Op::EncodeBatch,
    Op::DecodeBatch,
    Op::ToVec,
    Op::SeqEncode,
    Op::SeqDecode,
    Op::ZeroFill,
    Op::SizeOnly,
    Op::Spin,
    Op::Stream,
    Op::StreamWords,
];

fn bench_dataset<T>(c: &mut Criterion, name: &str, batch: &Batch<T>, pools: &[(usize, ThreadPool)])
where
    T: Marshal + Sync + for<'de> Unmarshal<'de> + Send,
{
    let (mut out, mut ends) = (
        Vec::with_capacity(batch.bytes.len()),
        Vec::with_capacity(batch.ends.len()),
    );
    for op in OPS {
        let mut group = c.benchmark_group(format!("par/{name}/{}", op.name()));
        for (threads, pool) in pools {
            // The sequential loops do not use the pool: once is enough.
            if matches!(op, Op::SeqEncode | Op::SeqDecode | Op::ZeroFill) && *threads != 1 {
                continue;
            }
            let id = BenchmarkId::from_parameter(format!("{threads} thread(s)"));
            group.bench_function(id, |b| {
                // One run per batch: its output is dropped before the next
                // starts, so the allocator reuses the memory, as it does
                // for a program decoding batch after batch.
                b.iter_batched(
                    || (),
                    |()| pool.install(|| run(op, batch, &mut out, &mut ends)),
                    BatchSize::PerIteration,
                );
            });
        }
        group.finish();
    }
}

fn par(c: &mut Criterion) {
    let pools = [(1, pool(1)), (2, pool(2))];
    let logs = Batch::new(common::logs(LOGS).logs);
    bench_dataset(c, "logs", &logs, &pools);
    let mesh = Batch::new(common::mesh(TRIANGLES).triangles);
    bench_dataset(c, "mesh", &mesh, &pools);
}

/// `rounds` rounds of every operation on 1 and on 2 threads: each round
/// runs each operation on 1 thread and then on 2, so that a machine whose
/// second core comes and goes slows every operation alike in that round.
/// Prints each operation's fastest and median round and the speed-ups,
/// and the median speed-up over the rounds in which arithmetic alone
/// (`Op::Spin`) ran at least [`FULL_CORE`] times faster on 2 threads: the
/// rounds in which the machine gave the second thread a whole core.
fn interleaved_dataset<T>(
    name: &str,
    batch: &Batch<T>,
    pools: &[(usize, ThreadPool)],
    rounds: usize,
) where
    T: Marshal + Sync + for<'de> Unmarshal<'de> + Send,
{
    let (mut out, mut ends) = (
        Vec::with_capacity(batch.bytes.len()),
        Vec::with_capacity(batch.ends.len()),
    );
    println!(
        "{name}: {} items, {} bytes",
        batch.items.len(),
        batch.bytes.len()
    );
    // Only the operations named in `MARSHAL_PAR_OPS` (comma-separated
    // parts of their names), and arithmetic, which the report needs.
    let filter = std::env::var("MARSHAL_PAR_OPS").ok();
    let ops: Vec<Op> = OPS
        .into_iter()
        .filter(|op| {
            matches!(op, Op::Spin)
                || filter
                    .as_deref()
                    .is_none_or(|f| f.split(',').any(|part| op.name().contains(part)))
        })
        .collect();
    // times[op][pool][round], in milliseconds; faults likewise, the
    // process's minor page faults during the run.
    let mut times = vec![vec![Vec::with_capacity(rounds); pools.len()]; ops.len()];
    let mut faults = times.clone();
    let debug = std::env::var_os("MARSHAL_PAR_ROUNDS").is_some();
    for round in 0..WARM_UP + rounds {
        for (o, &op) in ops.iter().enumerate() {
            // 1 thread first in even rounds, 2 threads first in odd ones:
            // the second of a pair finds the buffers the first wrote in
            // the shared cache.
            for k in 0..pools.len() {
                let i = if round % 2 == 0 {
                    k
                } else {
                    pools.len() - 1 - k
                };
                let pool = &pools[i].1;
                let (before, start) = (minor_faults(), Instant::now());
                let made = pool.install(|| run(op, batch, &mut out, &mut ends));
                let ms = start.elapsed().as_secs_f64() * 1e3;
                let faulted = (minor_faults() - before) as f64;
                drop(black_box(made));
                if debug {
                    println!(
                        "round {round} {} {} thread(s): {ms:.3} ms",
                        op.name(),
                        pools[i].0,
                    );
                }
                if round >= WARM_UP {
                    times[o][i].push(ms);
                    faults[o][i].push(faulted);
                }
            }
        }
    }
    let spin = ops
        .iter()
        .position(|&op| matches!(op, Op::Spin))
        .expect("Spin");
    let full: Vec<usize> = (0..rounds)
        .filter(|&r| times[spin][0][r] / times[spin][1][r] >= FULL_CORE)
        .collect();
    println!(
        "  rounds in which arithmetic alone ran at least {FULL_CORE}x faster on 2 threads: {} of {rounds}",
        full.len()
    );
    let sorted = |mut t: Vec<f64>| {
        t.sort_by(f64::total_cmp);
        t
    };
    let median = |t: Vec<f64>| {
        let t = sorted(t);
        t.get(t.len() / 2).copied()
    };
    for (o, op) in ops.iter().enumerate() {
        let fastest: Vec<f64> = times[o].iter().map(|t| sorted(t.clone())[0]).collect();
        for (i, (threads, _)) in pools.iter().enumerate() {
            println!(
                "  {:32} {threads} thread(s): fastest {:.3} ms, median {:.3} ms, median {} page faults",
                op.name(),
                fastest[i],
                median(times[o][i].clone()).unwrap_or(f64::NAN),
                median(faults[o][i].clone()).unwrap_or(f64::NAN),
            );
        }
        let ratio = |r: usize| times[o][0][r] / times[o][1][r];
        let show = |m: Option<f64>| m.map_or_else(|| "none".to_owned(), |m| format!("{m:.2}x"));
        println!(
            "  {:32} 1 / 2 threads: {:.2}x (fastest), {} (median round), {} (median of the full-core rounds)",
            op.name(),
            fastest[0] / fastest[1],
            show(median((0..rounds).map(ratio).collect())),
            show(median(full.iter().map(|&r| ratio(r)).collect())),
        );
    }
}

/// Rounds run before the `rounds` that count: the allocator's arenas and
/// the caches settle in the first few.
const WARM_UP: usize = 3;

/// The process's minor page faults so far (`getrusage`): the kernel's
/// work of giving the allocator fresh memory, which the threads wait for.
fn minor_faults() -> i64 {
    // SAFETY: `getrusage` writes a `rusage` into the pointer it is given,
    // which points to a zeroed one on this stack.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above; `RUSAGE_SELF` is a valid `who`.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    usage.ru_minflt
}

/// The speed-up of arithmetic alone on 2 threads from which a round counts
/// as one in which the machine gave the second thread a whole core.
const FULL_CORE: f64 = 1.9;

fn interleaved(rounds: usize) {
    let pools = [(1, pool(1)), (2, pool(2))];
    let logs = Batch::new(common::logs(LOGS).logs);
    interleaved_dataset("logs", &logs, &pools, rounds);
    let mesh = Batch::new(common::mesh(TRIANGLES).triangles);
    interleaved_dataset("mesh", &mesh, &pools, rounds);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = par
}

fn main() {
    common::fix_allocator();
    if let Ok(rounds) = std::env::var("MARSHAL_PAR_INTERLEAVED") {
        interleaved(rounds.parse().expect("a number of rounds"));
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
