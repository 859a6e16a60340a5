//! Writes BENCHMARKS.md and BENCHMARKS.svg from the rounds of
//! `cargo bench --bench compare` that `scripts/bench-compare.sh` ran
//! (criterion's estimates, one baseline `round-N` per round; the lowest
//! median of each benchmark is reported), the encoded sizes that run
//! recorded, and, when given, the assembly listing and the compile-time
//! figures that the script measured.
//!
//! ```text
//! bench-report --criterion target/criterion --sizes sizes.tsv \
//!     [--asm asm.txt] [--compile-time compile.tsv] [--env env.txt] \
//!     [--notes notes.md] [--lock Cargo.lock] \
//!     --out BENCHMARKS.md --svg BENCHMARKS.svg
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

/// The libraries compared, in table order: (bench id, display name).
const PEERS: &[(&str, &str)] = &[
    ("marshal", "**marshal**"),
    ("bincode2", "bincode 2 (legacy config)"),
    ("wincode", "wincode"),
    ("bitcode", "bitcode"),
    ("rkyv", "rkyv (validated)"),
    ("postcard", "postcard"),
    ("borsh", "borsh"),
    ("speedy", "speedy"),
    ("bincode1", "bincode 1 (serde)"),
];

/// The libraries compared in bincode 2's `config::standard()`, in table
/// order: (bench id, display name).
const STANDARD_PEERS: &[(&str, &str)] = &[
    ("marshal", "**marshal**"),
    ("bincode2", "bincode 2 (`config::standard()`)"),
    ("wincode", "wincode (`with_varint_encoding()`)"),
];

/// Rows shown for reference, not ranked: (bench id, display name).
const REFERENCES: &[(&str, &str)] = &[
    ("memcpy", "*memcpy of marshal's bytes (floor)*"),
    (
        "alloc-floor",
        "*allocation floor: a clone of the decoded value (its allocations and bytes, no parsing)*",
    ),
    ("rkyv-unvalidated", "*rkyv, unvalidated (not a peer)*"),
    (
        "rkyv-access",
        "*rkyv access, validated (zero-copy, no owned value)*",
    ),
    (
        "rkyv-access-unvalidated",
        "*rkyv access, unvalidated (not a peer)*",
    ),
];

struct Dataset {
    name: &'static str,
    what: &'static str,
    /// Items handled per timed iteration; times are reported per item
    /// when this is not 1.
    per: f64,
    /// What the time is of.
    unit: &'static str,
}

const DATASETS: &[Dataset] = &[
    Dataset {
        name: "logs",
        what: "10,000 HTTP access-log records: five short strings, a `u16` and a `u64` each",
        per: 1.0,
        unit: "whole dataset",
    },
    Dataset {
        name: "mesh",
        what: "one mesh of 125,000 triangles, each three `f32` vertices and a normal (plain structs, no `repr`)",
        per: 1.0,
        unit: "whole dataset",
    },
    Dataset {
        name: "saves",
        what: "500 nested game saves: enums with unit, tuple and struct variants, `Option`s, fixed arrays, nested `Vec`s, strings",
        per: 1.0,
        unit: "whole dataset",
    },
    Dataset {
        name: "updates",
        what: "300 server ticks of a game-state update stream, each a `Vec` of 0 to 63 entity updates (drawn uniformly) and a short `Vec<u32>` of removed ids; an update is a `u32` id, a `u8`, a `u16`, two unit-only enums and six `Option`s (two `Vector3`s of `f32`, an `f32`, a `u16`, a `u8`, a `u32`), each present with its own probability",
        per: 1.0,
        unit: "whole dataset",
    },
    Dataset {
        name: "messages",
        what: "1,000 fixed-size 40-byte quotes, each encoded into a stack buffer (decoded from its own bytes) one call at a time",
        per: 1000.0,
        unit: "per message",
    },
];

struct Args {
    criterion: PathBuf,
    sizes: PathBuf,
    asm: Option<PathBuf>,
    compile_time: Option<PathBuf>,
    env: Option<PathBuf>,
    lock: Option<PathBuf>,
    notes: Option<PathBuf>,
    out: PathBuf,
    svg: PathBuf,
}

fn parse_args() -> Args {
    let mut map = BTreeMap::new();
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        map.insert(flag, PathBuf::from(value));
    }
    let mut take = |k: &str| map.remove(k);
    let need = |v: Option<PathBuf>, k: &str| v.unwrap_or_else(|| panic!("missing {k}"));
    Args {
        criterion: need(take("--criterion"), "--criterion"),
        sizes: need(take("--sizes"), "--sizes"),
        asm: take("--asm"),
        compile_time: take("--compile-time"),
        env: take("--env"),
        lock: take("--lock"),
        notes: take("--notes"),
        out: need(take("--out"), "--out"),
        svg: need(take("--svg"), "--svg"),
    }
}

/// Each benchmark's medians, one per round.
struct Estimates {
    /// `(group, function) -> medians in nanoseconds`, one per round.
    medians: BTreeMap<(String, String), Vec<f64>>,
}

impl Estimates {
    /// The lowest median of each benchmark over the rounds.
    fn lowest(&self) -> BTreeMap<(String, String), f64> {
        self.medians
            .iter()
            .map(|(k, v)| (k.clone(), v.iter().copied().fold(f64::INFINITY, f64::min)))
            .collect()
    }

    /// The most rounds any benchmark ran.
    fn rounds(&self) -> usize {
        self.medians.values().map(Vec::len).max().unwrap_or(0)
    }

    /// The median over benchmarks of each one's spread between rounds,
    /// (highest median - lowest) / lowest.
    fn spread(&self) -> Option<f64> {
        let mut v: Vec<f64> = self
            .medians
            .values()
            .filter(|m| m.len() > 1)
            .map(|m| {
                let lo = m.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = m.iter().copied().fold(0.0, f64::max);
                (hi - lo) / lo
            })
            .collect();
        v.sort_by(f64::total_cmp);
        (!v.is_empty()).then(|| v[v.len() / 2])
    }
}

/// Every benchmark's medians from criterion's output directory: one per
/// baseline named `round-N`, or, without such baselines, the last run's
/// (`new`).
fn read_estimates(dir: &Path) -> Estimates {
    let mut rounds: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    let mut last: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let baseline = p
                .parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let is_round = baseline.starts_with("round-");
            if p.file_name().is_some_and(|n| n == "estimates.json")
                && (is_round || baseline == "new")
            {
                let bench = p.parent().unwrap().join("benchmark.json");
                let (Ok(est), Ok(meta)) =
                    (std::fs::read_to_string(&p), std::fs::read_to_string(&bench))
                else {
                    continue;
                };
                let est: serde_json::Value = serde_json::from_str(&est).expect("estimates.json");
                let meta: serde_json::Value = serde_json::from_str(&meta).expect("benchmark.json");
                let median = est["median"]["point_estimate"].as_f64().expect("median");
                let group = meta["group_id"].as_str().expect("group_id").to_string();
                let function = meta["function_id"].as_str().unwrap_or("").to_string();
                let into = if is_round { &mut rounds } else { &mut last };
                into.entry((group, function)).or_default().push(median);
            }
        }
    }
    Estimates {
        medians: if rounds.is_empty() { last } else { rounds },
    }
}

/// `(dataset, library) -> bytes`.
fn read_sizes(path: &Path) -> BTreeMap<(String, String), usize> {
    let text = std::fs::read_to_string(path).expect("sizes file");
    text.lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                (f.next()?.to_string(), f.next()?.to_string()),
                f.next()?.parse().ok()?,
            ))
        })
        .collect()
}

fn command(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The locked versions of the peers, from `Cargo.lock`.
fn versions(lock: Option<&Path>) -> String {
    let text = lock
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default();
    let mut found: Vec<String> = Vec::new();
    let mut name = "";
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = n.trim_matches('"');
        } else if let Some(v) = line.strip_prefix("version = ") {
            let wanted = [
                "bincode",
                "wincode",
                "bitcode",
                "rkyv",
                "postcard",
                "borsh",
                "speedy",
                "criterion",
            ];
            if wanted.contains(&name) {
                found.push(format!("{name} {}", v.trim_matches('"')));
            }
        }
    }
    if found.is_empty() {
        "unknown".into()
    } else {
        found.join(", ")
    }
}

/// A duration in nanoseconds, to three significant digits.
fn time(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let digits = if v < 10.0 {
        2
    } else if v < 100.0 {
        1
    } else {
        0
    };
    format!("{v:.digits$} {unit}")
}

/// The operations measured, as (column title, criterion group suffix).
const OPS: &[(&str, &str)] = &[
    ("encode, one pass", "one-pass"),
    ("encode, two passes", "two-pass"),
    ("decode (owned)", "deserialize"),
    ("decode (borrowed `&str`)", "borrowed"),
];

struct Table {
    /// `op -> library -> time per item (ns)`
    times: BTreeMap<&'static str, BTreeMap<String, f64>>,
    /// The libraries ranked: (bench id, display name).
    peers: &'static [(&'static str, &'static str)],
    /// The key of the table's sizes: the dataset's name, or
    /// `{dataset}-standard`.
    sizes: String,
}

impl Table {
    fn build(est: &BTreeMap<(String, String), f64>, ds: &Dataset) -> Table {
        let extra = [
            ("access", "access"),
            ("serde", "serde-serialize"),
            ("serde", "serde-deserialize"),
        ];
        Table {
            times: Self::times(est, ds, ds.name, OPS.iter().chain(extra.iter())),
            peers: PEERS,
            sizes: ds.name.to_string(),
        }
    }

    /// The dataset in bincode 2's `config::standard()`: the groups
    /// `{dataset}-standard-{op}`.
    fn build_standard(est: &BTreeMap<(String, String), f64>, ds: &Dataset) -> Table {
        let prefix = format!("{}-standard", ds.name);
        Table {
            times: Self::times(est, ds, &prefix, OPS.iter()),
            peers: STANDARD_PEERS,
            sizes: prefix,
        }
    }

    /// `op -> library -> time per item (ns)` from the groups
    /// `{prefix}-{suffix}`.
    fn times<'a>(
        est: &BTreeMap<(String, String), f64>,
        ds: &Dataset,
        prefix: &str,
        ops: impl Iterator<Item = &'a (&'static str, &'static str)>,
    ) -> BTreeMap<&'static str, BTreeMap<String, f64>> {
        let mut times: BTreeMap<&'static str, BTreeMap<String, f64>> = BTreeMap::new();
        for &(_, suffix) in ops {
            let group = format!("{prefix}-{suffix}");
            for ((g, f), &ns) in est {
                if *g == group {
                    times
                        .entry(suffix)
                        .or_default()
                        .insert(f.clone(), ns / ds.per);
                }
            }
        }
        times
    }

    fn get(&self, op: &str, lib: &str) -> Option<f64> {
        self.times.get(op)?.get(lib).copied()
    }

    /// The fastest peer for `op`: (library, time).
    fn best(&self, op: &str) -> Option<(&str, f64)> {
        self.peers
            .iter()
            .filter_map(|&(id, _)| Some((id, self.get(op, id)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The fastest peer other than marshal.
    fn best_other(&self, op: &str) -> Option<(&str, f64)> {
        self.peers
            .iter()
            .filter(|&&(id, _)| id != "marshal")
            .filter_map(|&(id, _)| Some((id, self.get(op, id)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    fn ratio(&self, op: &str, lib: &str) -> Option<f64> {
        Some(self.get(op, lib)? / self.best(op)?.1)
    }
}

fn cell(t: &Table, op: &str, lib: &str) -> (String, String) {
    match (t.get(op, lib), t.ratio(op, lib)) {
        (Some(ns), Some(r)) => {
            let ratio = if lib == "marshal" {
                format!("**{r:.2}×**")
            } else {
                format!("{r:.2}×")
            };
            (time(ns), ratio)
        }
        _ => ("—".into(), "".into()),
    }
}

fn dataset_section(
    md: &mut String,
    ds: &Dataset,
    t: &Table,
    sizes: &BTreeMap<(String, String), usize>,
) {
    writeln!(md, "### `{}`\n", ds.name).unwrap();
    writeln!(md, "{}. Times are the lowest of the rounds' medians, {}; `×` is the ratio to the fastest peer in that column (1.00× is the fastest); — marks a library without that path.\n", ds.what, ds.unit).unwrap();
    table(md, t, sizes);
}

/// A dataset's table: a row per peer of `t`, then the reference rows
/// measured, with the sizes recorded under `t.sizes`.
fn table(md: &mut String, t: &Table, sizes: &BTreeMap<(String, String), usize>) {
    // The columns this dataset has: every operation measured for it.
    let ops: Vec<(&str, &str)> = OPS
        .iter()
        .copied()
        .filter(|&(_, op)| t.times.contains_key(op))
        .collect();
    let mut header = String::from("| library |");
    let mut rule = String::from("| --- |");
    for (title, _) in &ops {
        header.push_str(&format!(" {title} | × |"));
        rule.push_str(" ---: | ---: |");
    }
    header.push_str(" bytes |");
    rule.push_str(" ---: |");
    writeln!(md, "{header}\n{rule}").unwrap();
    let size_of = |lib: &str| {
        sizes
            .get(&(t.sizes.clone(), lib.to_string()))
            .map(|n| group_digits(*n))
            .unwrap_or_else(|| "—".into())
    };
    for &(id, name) in t.peers {
        let mut line = format!("| {name} |");
        for &(_, op) in &ops {
            let (time, ratio) = cell(t, op, id);
            line.push_str(&format!(" {time} | {ratio} |"));
        }
        line.push_str(&format!(" {} |", size_of(id)));
        writeln!(md, "{line}").unwrap();
    }
    for &(id, name) in REFERENCES {
        let (op, column) = match id {
            "memcpy" => ("one-pass", "one-pass"),
            "rkyv-unvalidated" | "alloc-floor" => ("deserialize", "deserialize"),
            _ if ops.iter().any(|&(_, o)| o == "borrowed") => ("access", "borrowed"),
            _ => ("access", "deserialize"),
        };
        let Some(ns) = t.get(op, id) else { continue };
        let ratio = t
            .best(column)
            .map(|(_, b)| format!("{:.2}×", ns / b))
            .unwrap_or_default();
        let mut line = format!("| {name} |");
        for &(_, o) in &ops {
            if o == column {
                line.push_str(&format!(" {} | {ratio} |", time(ns)));
            } else {
                line.push_str(" | |");
            }
        }
        let size = match id {
            "memcpy" | "alloc-floor" => size_of("marshal"),
            _ => size_of("rkyv"),
        };
        writeln!(md, "{line} {size} |").unwrap();
    }
    writeln!(md).unwrap();
}

/// The datasets again in bincode 2's `config::standard()`: marshal,
/// bincode 2 and wincode's varint encoding, which write the same bytes.
fn standard_section(
    md: &mut String,
    tables: &[(&Dataset, Table)],
    sizes: &BTreeMap<(String, String), usize>,
) {
    if tables.iter().all(|(_, t)| t.times.is_empty()) {
        return;
    }
    writeln!(md, "## Results in bincode 2's `config::standard()`\n").unwrap();
    writeln!(md, "The same datasets in bincode 2's default dialect, `config::standard()` (variable-length integers and lengths), measured in the same run, against the two peers that write it: bincode 2 with `bincode2::config::standard()` and its own `Encode`/`Decode` derives, and wincode with `Configuration::default().disable_preallocation_size_limit().with_varint_encoding()`. marshal uses `marshal::config::standard()`. The three libraries' bytes are asserted identical for every dataset, and each decodes them back to the value, before anything is timed. *One pass*: `encode_into_slice` (wincode: `serialize_into` a slice) into a reused buffer that is already large enough. *Two passes*: the length first (marshal: `encoded_len_with`; bincode 2: `encode_into_writer` a `SizeWriter`; wincode: `serialized_size`), then the same write into exactly that many bytes. *Decode*: `decode_from_slice` (wincode: `config::deserialize`) into owned values. memcpy copies as many bytes as marshal writes, from a buffer holding marshal's `standard()` encoding. The issue's target for these tables is stated in \"`config::standard()`\" at the end of this report.\n").unwrap();
    for (ds, t) in tables {
        if t.times.is_empty() {
            continue;
        }
        writeln!(md, "### `{}`, `config::standard()`\n", ds.name).unwrap();
        let bytes = if ds.per == 1.0 {
            ""
        } else {
            "; bytes is the mean length of one, which varies in this dialect"
        };
        writeln!(md, "`{}` as above, in `config::standard()`. Times are the lowest of the rounds' medians, {}; `×` is the ratio to the fastest of the three in that column (1.00× is the fastest){bytes}.\n", ds.name, ds.unit).unwrap();
        table(md, t, sizes);
        // What the target compares: marshal against the faster of the
        // two others, and against memcpy for `mesh`.
        let ratios = |of: &dyn Fn(&str) -> Option<f64>| {
            [
                ("one-pass", "one pass"),
                ("two-pass", "two passes"),
                ("deserialize", "decode"),
            ]
            .into_iter()
            .filter_map(|(op, what)| {
                Some(format!("{what} {:.2}×", t.get(op, "marshal")? / of(op)?))
            })
            .collect::<Vec<_>>()
            .join(", ")
        };
        let peers = ratios(&|op| Some(t.best_other(op)?.1));
        if !peers.is_empty() {
            writeln!(
                md,
                "marshal ÷ the faster of bincode 2 and wincode: {peers}.\n"
            )
            .unwrap();
        }
        if ds.name == "mesh" {
            let copy = ratios(&|_| t.get("one-pass", "memcpy"));
            if !copy.is_empty() {
                writeln!(md, "marshal ÷ memcpy: {copy}.\n").unwrap();
            }
        }
    }
}

/// The serde route: `marshal::serde` against bincode 1.3 through the same
/// serde derives, both directions.
fn serde_section(md: &mut String, tables: &[(&Dataset, Table)]) {
    let rows: Vec<(&str, &str, f64, f64)> = tables
        .iter()
        .flat_map(|(ds, t)| {
            [
                (
                    "serde-serialize",
                    "encode (`try_write_to` a slice; bincode `serialize_into` a slice)",
                ),
                (
                    "serde-deserialize",
                    "decode (`from_bytes`; bincode `deserialize`)",
                ),
            ]
            .into_iter()
            .filter_map(|(op, what)| {
                Some((ds.name, what, t.get(op, "marshal")?, t.get(op, "bincode1")?))
            })
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    writeln!(md, "## The serde route\n").unwrap();
    writeln!(md, "`marshal::serde` (feature `serde`) against bincode 1.3, both through the datasets' own `serde` derives, on the same bytes (asserted identical before timing). Goal: at most 0.8× bincode 1.3's time. Times as above: the lowest of the rounds' medians, whole dataset.\n").unwrap();
    writeln!(md, "| dataset | direction | `marshal::serde` | bincode 1.3 | marshal ÷ bincode |\n| --- | --- | ---: | ---: | ---: |").unwrap();
    for (name, what, m, b) in &rows {
        writeln!(
            md,
            "| `{name}` | {what} | {} | {} | **{:.2}×** |",
            time(*m),
            time(*b),
            m / b
        )
        .unwrap();
    }
    writeln!(md).unwrap();
}

fn group_digits(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One target's verdict line.
fn verdict(md: &mut String, met: bool, text: String) {
    let mark = if met { "**met**" } else { "**missed**" };
    writeln!(md, "- {mark}: {text}").unwrap();
}

/// A note for a ratio closer to 1 than benchmarks' medians typically
/// move between rounds (`spread`), which one comparison cannot separate.
fn noise(r: f64, spread: Option<f64>) -> String {
    match spread {
        Some(s) if (r - 1.0).abs() < s => format!(
            " That is within the typical spread of one benchmark's medians between rounds ({:.1}%).",
            s * 100.0
        ),
        _ => String::new(),
    }
}

fn targets_section(
    md: &mut String,
    tables: &[(&Dataset, Table)],
    standard: &[(&Dataset, Table)],
    compile: Option<&CompileTimes>,
    spread: Option<f64>,
) {
    writeln!(md, "## Targets\n").unwrap();
    writeln!(
        md,
        "From the run above; \"peer\" excludes the reference rows, and each target compares marshal with the peers doing the same work. A target is met at 1.00× or less.\n"
    )
    .unwrap();
    let ops = [
        ("one-pass", "encode in one pass", "every peer"),
        (
            "two-pass",
            "encode in two passes",
            "every peer that sizes first",
        ),
        ("deserialize", "decode", "every validating peer"),
        ("borrowed", "decode borrowed", "every validating peer"),
    ];
    for (op, what, whom) in ops {
        for (ds, t) in tables {
            if let (Some(m), Some((other, o))) = (t.get(op, "marshal"), t.best_other(op)) {
                let r = m / o;
                verdict(
                    md,
                    r <= 1.0,
                    format!(
                        "{what} `{}` at most as slow as {whom}: marshal takes {r:.2}× the time of the fastest other ({other}).{}",
                        ds.name,
                        noise(r, spread)
                    ),
                );
            }
        }
    }
    if let Some((_, t)) = tables.iter().find(|(d, _)| d.name == "mesh")
        && let (Some(m), Some(c)) = (t.get("one-pass", "marshal"), t.get("one-pass", "memcpy"))
    {
        let r = m / c;
        verdict(
            md,
            r <= 1.1,
            format!("encode `mesh` in one pass within 1.1× of memcpy: {r:.2}×."),
        );
    }
    for (ds, t) in tables {
        if !matches!(ds.name, "logs" | "saves") {
            continue;
        }
        if let (Some(m), Some(f)) = (
            t.get("deserialize", "marshal"),
            t.get("deserialize", "alloc-floor"),
        ) {
            let r = m / f;
            verdict(
                md,
                r <= 1.15,
                format!(
                    "decode `{}` into owned values within 1.15× of the allocation floor (the same allocations and bytes, no parsing): {r:.2}×.",
                    ds.name
                ),
            );
        }
    }
    // bincode 2's `standard()`: at most 0.8× the faster of bincode 2 and
    // wincode, but on `mesh` (one bulk copy for wincode) at most 1.1×
    // memcpy.
    for (ds, t) in standard {
        for (op, what) in [
            ("one-pass", "encode in one pass"),
            ("two-pass", "encode in two passes"),
            ("deserialize", "decode"),
        ] {
            let Some(m) = t.get(op, "marshal") else {
                continue;
            };
            if ds.name == "mesh" {
                if let Some(c) = t.get("one-pass", "memcpy") {
                    let r = m / c;
                    verdict(
                        md,
                        r <= 1.1,
                        format!(
                            "`config::standard()`: {what} `mesh` within 1.1× of memcpy: {r:.2}×."
                        ),
                    );
                }
            } else if let Some((other, o)) = t.best_other(op) {
                let r = m / o;
                verdict(
                    md,
                    r <= 0.8,
                    format!(
                        "`config::standard()`: {what} `{}` in at most 0.8× the time of the faster of bincode 2 and wincode: {r:.2}× ({other}).{}",
                        ds.name,
                        noise(r / 0.8, spread)
                    ),
                );
            }
        }
    }
    for (ds, t) in tables {
        for (op, what) in [
            ("serde-serialize", "encode"),
            ("serde-deserialize", "decode"),
        ] {
            if let (Some(m), Some(b)) = (t.get(op, "marshal"), t.get(op, "bincode1")) {
                let r = m / b;
                verdict(
                    md,
                    r <= 0.8,
                    format!(
                        "serde route, {what} `{}` in at most 0.8× bincode 1.3's time: {r:.2}×.",
                        ds.name
                    ),
                );
            }
        }
    }
    if let Some(c) = compile {
        if let (Some(m), Some(s)) = (c.median("marshal", "full"), c.median("serde", "full")) {
            verdict(
                md,
                m <= s,
                format!(
                    "compile time, 200 derived types, clean build with dependencies: marshal {m:.1} s, serde {s:.1} s ({:.2}×).",
                    m / s
                ),
            );
        }
        if let (Some(m), Some(s)) = (c.median("marshal", "crate"), c.median("serde", "crate")) {
            verdict(
                md,
                m <= s,
                format!(
                    "compile time, 200 derived types, the crate alone: marshal {m:.2} s, serde {s:.2} s ({:.2}×).",
                    m / s
                ),
            );
        }
        // The impls of every configuration cost at most a quarter more.
        if let (Some(k), Some(m)) = (
            c.median("marshal-config", "crate"),
            c.median("marshal", "crate"),
        ) {
            verdict(
                md,
                k <= 1.25 * m,
                format!(
                    "compile time, 200 derived types, the crate alone, with the feature `config` at most 1.25× without it: {k:.2} s against {m:.2} s ({:.2}×).",
                    k / m
                ),
            );
        }
    }
    writeln!(md).unwrap();
}

/// Compile-time runs: `variant mode seconds` lines.
struct CompileTimes(Vec<(String, String, f64)>);

impl CompileTimes {
    fn read(path: &Path) -> Option<CompileTimes> {
        let text = std::fs::read_to_string(path).ok()?;
        Some(CompileTimes(
            text.lines()
                .filter_map(|l| {
                    let mut f = l.split('\t');
                    Some((f.next()?.into(), f.next()?.into(), f.next()?.parse().ok()?))
                })
                .collect(),
        ))
    }

    fn runs(&self, variant: &str, mode: &str) -> Vec<f64> {
        let mut v: Vec<f64> = self
            .0
            .iter()
            .filter(|(a, b, _)| a == variant && b == mode)
            .map(|r| r.2)
            .collect();
        v.sort_by(f64::total_cmp);
        v
    }

    fn median(&self, variant: &str, mode: &str) -> Option<f64> {
        let v = self.runs(variant, mode);
        (!v.is_empty()).then(|| {
            let n = v.len();
            if n % 2 == 1 {
                v[n / 2]
            } else {
                (v[n / 2 - 1] + v[n / 2]) / 2.0
            }
        })
    }
}

fn compile_section(md: &mut String, c: &CompileTimes) {
    writeln!(md, "## Compile time\n").unwrap();
    writeln!(md, "`scripts/compile-time.sh` generates three crates under `/tmp` with the same 200 types (structs and enums of integers, strings, vectors, options and each other): one derives `marshal::{{Marshal, Unmarshal}}`, one the same with marshal's feature `config` (which adds the impls of every configuration, `MarshalIn`/`UnmarshalIn`), the third `serde::{{Serialize, Deserialize}}`. Each is built with `cargo build` (dev profile) several times, alternating them: *clean* removes the target directory first (the derive macro, `syn` and the runtime crate are built too), *crate alone* rebuilds only the generated crate (`cargo clean -p`). Medians of the runs, in seconds; all runs are listed.\n").unwrap();
    writeln!(md, "| build | marshal | serde | marshal ÷ serde | runs (marshal / serde) |\n| --- | ---: | ---: | ---: | --- |").unwrap();
    for (variant, mode, title) in [
        ("marshal", "full", "clean, with dependencies"),
        ("marshal", "crate", "crate alone"),
        (
            "marshal-config",
            "full",
            "clean, with dependencies, feature `config`",
        ),
        ("marshal-config", "crate", "crate alone, feature `config`"),
    ] {
        if let (Some(m), Some(s)) = (c.median(variant, mode), c.median("serde", mode)) {
            let list = |v: Vec<f64>| {
                v.iter()
                    .map(|x| format!("{x:.2}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            writeln!(
                md,
                "| {title} | {m:.2} | {s:.2} | {:.2}× | {} / {} |",
                m / s,
                list(c.runs(variant, mode)),
                list(c.runs("serde", mode))
            )
            .unwrap();
        }
    }
    writeln!(md).unwrap();
}

/// Facts about one function of an `objdump -d -M intel` listing.
struct AsmFn {
    name: String,
    lines: Vec<String>,
}

fn read_asm(path: &Path) -> Vec<AsmFn> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut out: Vec<AsmFn> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split('<').nth(1)) {
            out.push(AsmFn {
                name: name.to_string(),
                lines: Vec::new(),
            });
        } else if let Some(f) = out.last_mut() {
            // "  401000:\tmov    rax,QWORD PTR [rsi]" -> "mov    rax,QWORD PTR [rsi]"
            if let Some(ins) = line.split('\t').nth(1).filter(|_| line.contains(':')) {
                let ins = ins.trim();
                if !ins.is_empty() {
                    f.lines.push(ins.to_string());
                }
            }
        }
    }
    out
}

fn asm_section(md: &mut String, fns: &[AsmFn]) {
    writeln!(md, "## Generated code for one message\n").unwrap();
    writeln!(md, "`scripts/asm-check.sh` builds a scratch crate that depends on marshal by path and exports `#[no_mangle]` functions that encode one `Quote` (the 40-byte message above) into a `&mut [u8; 64]` stack buffer, and decode one from a `&[u8]`, then disassembles them with `objdump -d -M intel` (release profile, x86-64). Counts below are from that listing.\n").unwrap();
    writeln!(md, "| function | instructions | conditional branches | calls | stores to memory | loads from memory |\n| --- | ---: | ---: | ---: | ---: | ---: |").unwrap();
    for f in fns {
        let mnemonic = |l: &String| l.split_whitespace().next().unwrap_or("").to_string();
        let branches = f.lines.iter().filter(|l| {
            let m = mnemonic(l);
            m.starts_with('j') && m != "jmp"
        });
        let calls = f.lines.iter().filter(|l| mnemonic(l).starts_with("call"));
        let operands = |l: &String| -> (String, String) {
            let rest = l
                .split_once(char::is_whitespace)
                .map(|x| x.1.trim())
                .unwrap_or("");
            let mut parts = rest.splitn(2, ',');
            (
                parts.next().unwrap_or("").into(),
                parts.next().unwrap_or("").into(),
            )
        };
        let moves = |l: &&String| {
            let m = mnemonic(l);
            m.starts_with("mov") || m.starts_with("vmov")
        };
        let stores = f
            .lines
            .iter()
            .filter(moves)
            .filter(|l| operands(l).0.contains('['));
        let loads = f
            .lines
            .iter()
            .filter(moves)
            .filter(|l| operands(l).1.contains('['));
        writeln!(
            md,
            "| `{}` | {} | {} | {} | {} | {} |",
            f.name,
            f.lines.len(),
            branches.count(),
            calls.count(),
            stores.count(),
            loads.count()
        )
        .unwrap();
    }
    writeln!(md).unwrap();
    for f in fns {
        writeln!(
            md,
            "<details><summary><code>{}</code></summary>\n\n```asm",
            f.name
        )
        .unwrap();
        for l in &f.lines {
            writeln!(md, "{l}").unwrap();
        }
        writeln!(md, "```\n\n</details>\n").unwrap();
    }
}

/// Draws the ratio of each library to the fastest peer, per dataset, for
/// encoding in one pass, in two passes, and owned decoding (one row each).
fn chart(path: &Path, tables: &[(&Dataset, Table)]) -> Result<(), Box<dyn std::error::Error>> {
    let cols = tables.len();
    let root = SVGBackend::new(path, (320 * cols as u32, 1100)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        "Time relative to the fastest peer (shorter is faster; 1.00 = fastest)",
        ("sans-serif", 20),
    )?;
    let panels = root.split_evenly((3, cols));
    let ops = [
        ("one-pass", "encode, one pass"),
        ("two-pass", "encode, two passes"),
        ("deserialize", "decode (owned)"),
    ];
    for (row, &(op, title)) in ops.iter().enumerate() {
        for (col, (ds, t)) in tables.iter().enumerate() {
            let area = &panels[row * cols + col];
            let mut libs: Vec<(&str, f64)> = PEERS
                .iter()
                .filter_map(|&(id, _)| Some((id, t.ratio(op, id)?)))
                .collect();
            if op == "one-pass"
                && let (Some(m), Some((_, best))) = (t.get(op, "memcpy"), t.best(op))
            {
                libs.push(("memcpy", m / best));
            }
            if libs.is_empty() {
                continue;
            }
            // Marshal on top; an axis cut at CAP keeps the close calls
            // readable, and longer bars say their ratio at the cut.
            libs.reverse();
            const CAP: f64 = 4.0;
            let max = (libs.iter().map(|l| l.1).fold(1.0, f64::max) * 1.3).min(CAP * 1.3);
            let n = libs.len() as i32;
            let mut chart = ChartBuilder::on(area)
                .caption(format!("{} — {title}", ds.name), ("sans-serif", 15))
                .margin(6)
                .x_label_area_size(22)
                .y_label_area_size(70)
                .build_cartesian_2d(0f64..max, (0..n).into_segmented())?;
            let names: Vec<&str> = libs.iter().map(|l| l.0).collect();
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(libs.len())
                .x_labels(5)
                .y_label_formatter(&|v| match v {
                    SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => names
                        .get(*i as usize)
                        .map(|s| s.to_string())
                        .unwrap_or_default(),
                    SegmentValue::Last => String::new(),
                })
                .x_label_formatter(&|x| format!("{x:.1}"))
                .label_style(("sans-serif", 11))
                .draw()?;
            chart.draw_series(libs.iter().enumerate().map(|(i, &(id, r))| {
                let color = match id {
                    "marshal" => RGBColor(214, 39, 40),
                    "memcpy" => RGBColor(120, 120, 120),
                    _ => RGBColor(70, 130, 180),
                };
                let mut bar = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(i as i32)),
                        (r.min(CAP), SegmentValue::Exact(i as i32 + 1)),
                    ],
                    color.filled(),
                );
                bar.set_margin(3, 3, 0, 0);
                bar
            }))?;
            chart.draw_series(libs.iter().enumerate().map(|(i, &(_, r))| {
                let label = if r > CAP {
                    format!(" {r:.1} ▸")
                } else {
                    format!(" {r:.2}")
                };
                Text::new(
                    label,
                    (r.min(CAP), SegmentValue::CenterOf(i as i32)),
                    ("sans-serif", 10).into_font(),
                )
            }))?;
        }
    }
    root.present()?;
    Ok(())
}

fn main() {
    let args = parse_args();
    let estimates = read_estimates(&args.criterion);
    let est = estimates.lowest();
    let spread = estimates.spread();
    assert!(
        !est.is_empty(),
        "no criterion estimates under {}",
        args.criterion.display()
    );
    let sizes = read_sizes(&args.sizes);
    let tables: Vec<(&Dataset, Table)> = DATASETS
        .iter()
        .map(|d| (d, Table::build(&est, d)))
        .collect();
    let standard: Vec<(&Dataset, Table)> = DATASETS
        .iter()
        .map(|d| (d, Table::build_standard(&est, d)))
        .collect();
    let compile = args.compile_time.as_deref().and_then(CompileTimes::read);

    let mut md = String::new();
    writeln!(md, "# Benchmarks\n").unwrap();
    writeln!(md, "<!-- Generated by scripts/bench-compare.sh; edit benches/report/notes.md or the generator, not this file. -->\n").unwrap();
    writeln!(md, "marshal side by side with the fastest binary serializers in Rust, on five datasets built in code from a seeded generator (`benches/common/mod.rs`). Each library uses its fastest documented path into a buffer allocated once, outside the timing loop; each round-trips every dataset once (asserted) before anything is timed, and marshal's, bincode 1's, bincode 2's (legacy configuration) and wincode's bytes are asserted identical. Reproduce with `scripts/bench-compare.sh`.\n").unwrap();
    writeln!(md, "**Equal work.** Encoding is measured two ways, each against the peers that do the same work. *One pass*: marshal's `try_write_to` into a reused buffer that is already large enough, against every peer's one-pass path. *Two passes*: marshal's `encoded_len()` then `write_to()` into exactly that many bytes, against the peers that also size the value first: bincode 2 (`encode_into_writer` a `SizeWriter`, then `encode_into_slice`), wincode (`serialized_size`, then `serialize_into`), speedy (`write_to_buffer`, which sizes the value itself) and bincode 1 (`serialized_size`, then `serialize_into`). Decoding compares the peers that validate their input, into owned values and, where the types allow, borrowing `&str` from the input; rkyv's unvalidated paths and zero-copy access are shown apart, as not peers.\n").unwrap();
    writeln!(
        md,
        "**Method.** Each time is the benchmark thread's CPU time (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, a criterion `Measurement` in `benches/compare.rs`), so time the thread spends waiting for a core on this shared machine is not counted. The whole comparison ran {} times in a row (rounds); each figure is the lowest of that benchmark's {} criterion medians. Between rounds, one benchmark's median typically (the median over all benchmarks) moved by {}.\n",
        estimates.rounds(),
        estimates.rounds(),
        spread.map_or("an unknown amount".into(), |s| format!("{:.1}%", s * 100.0)),
    )
    .unwrap();
    let env: BTreeMap<String, String> = args
        .env
        .as_deref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let date = env
        .get("date")
        .cloned()
        .unwrap_or_else(|| command("date", &["-u", "+%Y-%m-%d %H:%M UTC"]));
    writeln!(
        md,
        "**Machine.** {} cores ({}), {}; run {date}. A shared machine: load average {} before the run and {} after it. Compare ratios within a column, not absolute times across runs.\n",
        std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
        cpu_model(),
        command("rustc", &["--version"]),
        env.get("load_before").map_or("unknown", String::as_str),
        env.get("load_after").map_or("unknown", String::as_str),
    )
    .unwrap();
    if let Some(commit) = env.get("commit") {
        let dirty = if env.get("dirty").is_some_and(|d| d == "yes") {
            " with uncommitted changes to the library"
        } else {
            ""
        };
        writeln!(
            md,
            "**Code.** marshal at commit `{commit}`{dirty}; peers as locked in `Cargo.lock`: {}.\n",
            versions(args.lock.as_deref())
        )
        .unwrap();
    }
    let svg_name = args.svg.file_name().unwrap().to_string_lossy().to_string();
    writeln!(
        md,
        "![Time relative to the fastest peer, per dataset: encoding in one pass, in two passes, and decoding]({svg_name})\n"
    )
    .unwrap();
    writeln!(md, "**Libraries.** bincode 2.0 with `config::legacy()` and its own `Encode`/`Decode` derives (`encode_into_slice`, `decode_from_slice`, `borrow_decode_from_slice`); wincode with its `SchemaWrite`/`SchemaRead` derives (`serialize_into` a slice; its 4 MiB preallocation limit is disabled because the mesh exceeds it); bitcode with a reused `Buffer`; rkyv 0.8 (`to_bytes_in` a reused `AlignedVec`, the low-level API into an aligned stack buffer for messages; `from_bytes` with bytecheck validation, and `from_bytes_unchecked` shown apart as not a peer); postcard `to_slice`/`from_bytes`; borsh into a slice writer, `from_slice`; speedy `write_to_buffer`/`read_from_buffer` (little-endian); bincode 1.3 through serde (`serialize_into` a slice). memcpy copies as many bytes as marshal writes, from a buffer holding marshal's encoding, in the one-pass column.\n").unwrap();
    writeln!(md, "## Results\n").unwrap();
    for (ds, t) in &tables {
        dataset_section(&mut md, ds, t, &sizes);
    }
    standard_section(&mut md, &standard, &sizes);
    serde_section(&mut md, &tables);
    targets_section(&mut md, &tables, &standard, compile.as_ref(), spread);
    if let Some(c) = &compile {
        compile_section(&mut md, c);
    }
    if let Some(asm) = &args.asm {
        asm_section(&mut md, &read_asm(asm));
    }
    if let Some(notes) = &args.notes
        && let Ok(text) = std::fs::read_to_string(notes)
    {
        writeln!(md, "{}", text.trim_end()).unwrap();
    }
    std::fs::write(&args.out, md).expect("write report");
    chart(&args.svg, &tables).expect("draw chart");
    eprintln!("wrote {} and {}", args.out.display(), args.svg.display());
}
