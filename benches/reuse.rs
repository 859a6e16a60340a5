//! One pass into a reused buffer: `marshal::encode_into_vec` into a `Vec`
//! that already has room, which writes the value without sizing it first,
//! against sizing it first (`encoded_len()`, then the same write), which
//! is what `encode_into_vec` did before, on the `logs` and `saves`
//! datasets of `common/mod.rs`.
//!
//! Each dataset is encoded two ways: whole, as one value, and record by
//! record (each `Log` or `Save` its own value), as a server loop that
//! clears one buffer and appends messages to it would. The buffer is
//! allocated once, outside the timing loop, with room for all of it, and
//! cleared before every iteration; both ways are checked to give the same
//! bytes as `to_vec` before anything is timed.
//!
//! ```sh
//! cargo bench -p marshal-benches --bench reuse
//! ```
//!
//! On a noisy machine, count instructions instead: with
//! `MARSHAL_REUSE_REPEAT=<dataset>-<way>-<variant>:<n>` (for example
//! `logs-whole-one-pass:100`) the binary runs that one operation `n` times
//! and exits, for `valgrind --tool=callgrind`.

// Criterion's macros generate undocumented items.
#![allow(missing_docs)]

// The datasets, read-only: only `logs` and `saves` are used here.
#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group};
use marshal::Marshal;

/// Records in each dataset, as in `compare.rs`.
const LOGS: usize = 10_000;
const SAVES: usize = 500;

/// One pass: the buffer has room, so the value is written without being
/// sized.
#[inline(never)]
fn one_pass<T: Marshal>(items: &[T], out: &mut Vec<u8>) -> usize {
    out.clear();
    let mut n = 0;
    for item in items {
        n += marshal::encode_into_vec(black_box(item), out);
    }
    n
}

/// Sized first, as before: `encoded_len()`, then the same write into the
/// room the buffer already has.
#[inline(never)]
fn sized_first<T: Marshal>(items: &[T], out: &mut Vec<u8>) -> usize {
    out.clear();
    let mut n = 0;
    for item in items {
        let item = black_box(item);
        let len = item.encoded_len();
        out.reserve(len);
        let written = marshal::encode_into_vec(item, out);
        assert_eq!(black_box(written), len);
        n += len;
    }
    n
}

/// The ways one dataset is encoded, named as in the benchmark ids.
struct Dataset<'a, T, R> {
    name: &'static str,
    whole: &'a T,
    records: &'a [R],
}

impl<T: Marshal, R: Marshal> Dataset<'_, T, R> {
    /// A buffer with room for either way, after checking both give
    /// `to_vec`'s bytes.
    fn buffer(&self) -> Vec<u8> {
        let whole = marshal::to_vec(self.whole);
        let records: Vec<u8> = self.records.iter().flat_map(marshal::to_vec).collect();
        let mut out = Vec::with_capacity(whole.len().max(records.len()));
        for (way, want) in [("whole", &whole), ("records", &records)] {
            for (variant, bytes) in [
                ("one-pass", self.run(way, "one-pass", &mut out)),
                ("sized", self.run(way, "sized", &mut out)),
            ] {
                assert_eq!(&bytes, want, "{} {way} {variant}", self.name);
            }
        }
        out.clear();
        out
    }

    fn run(&self, way: &str, variant: &str, out: &mut Vec<u8>) -> Vec<u8> {
        let cap = out.capacity();
        self.time(way, variant, out);
        assert_eq!(out.capacity(), cap, "no reallocation");
        out.clone()
    }

    /// One timed operation.
    fn time(&self, way: &str, variant: &str, out: &mut Vec<u8>) -> usize {
        match (way, variant) {
            ("whole", "one-pass") => one_pass(std::slice::from_ref(self.whole), out),
            ("whole", "sized") => sized_first(std::slice::from_ref(self.whole), out),
            ("records", "one-pass") => one_pass(self.records, out),
            ("records", "sized") => sized_first(self.records, out),
            _ => panic!("unknown operation {way} {variant}"),
        }
    }

    fn bench(&self, c: &mut Criterion) {
        let mut out = self.buffer();
        let mut g = c.benchmark_group(format!("reuse/{}", self.name));
        g.sampling_mode(SamplingMode::Flat);
        for way in ["whole", "records"] {
            for variant in ["one-pass", "sized"] {
                g.bench_function(format!("{way}/{variant}"), |b| {
                    b.iter(|| black_box(self.time(way, variant, &mut out)))
                });
            }
        }
        g.finish();
    }

    /// `n` runs of one operation and nothing else of it, for callgrind:
    /// the bytes are checked by the benchmark run, not here.
    fn repeat(&self, way: &str, variant: &str, n: usize) {
        let mut out = Vec::with_capacity(self.whole.encoded_len() * 2);
        for _ in 0..n {
            black_box(self.time(way, variant, &mut out));
        }
    }
}

fn reuse(c: &mut Criterion) {
    let logs = common::logs(LOGS);
    Dataset {
        name: "logs",
        whole: &logs,
        records: &logs.logs,
    }
    .bench(c);
    let saves = common::saves(SAVES);
    Dataset {
        name: "saves",
        whole: &saves,
        records: &saves.saves,
    }
    .bench(c);
}

fn repeat(spec: &str) {
    let (op, n) = spec.split_once(':').expect("<dataset>-<way>-<variant>:<n>");
    let n: usize = n.parse().expect("a count");
    let (dataset, rest) = op.split_once('-').expect("<dataset>-<way>-<variant>");
    let (way, variant) = rest.split_once('-').expect("<way>-<variant>");
    match dataset {
        "logs" => {
            let logs = common::logs(LOGS);
            Dataset {
                name: "logs",
                whole: &logs,
                records: &logs.logs,
            }
            .repeat(way, variant, n);
        }
        "saves" => {
            let saves = common::saves(SAVES);
            Dataset {
                name: "saves",
                whole: &saves,
                records: &saves.saves,
            }
            .repeat(way, variant, n);
        }
        _ => panic!("unknown dataset {dataset}"),
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(40)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = reuse
}

fn main() {
    if let Ok(spec) = std::env::var("MARSHAL_REUSE_REPEAT") {
        repeat(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
