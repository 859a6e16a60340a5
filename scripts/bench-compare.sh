#!/usr/bin/env bash
# Runs the side-by-side comparison (benches/compare.rs) and writes
# BENCHMARKS.md and BENCHMARKS.svg at the repository root.
#
#   scripts/bench-compare.sh                  everything: benchmarks (five
#                                             rounds), assembly, compile time
#                                             (about 20 minutes on 2 cores)
#   scripts/bench-compare.sh --skip-compile-time
#                                             reuse the last compile-time figures
#   scripts/bench-compare.sh --report-only    redraw from the last run's data
#   scripts/bench-compare.sh -- FILTER        pass arguments on to criterion
#
# The comparison runs MARSHAL_BENCH_ROUNDS times (default 5), each round
# saved as the criterion baseline `round-N`; the report takes each
# benchmark's lowest median over the rounds. Times are the benchmark
# thread's CPU time. The machine is recorded in the report; compare
# ratios, not absolute times.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

bench=1 asm=1 compile=1
criterion_args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --skip-compile-time) compile=0 ;;
    --skip-asm) asm=0 ;;
    --report-only) bench=0 asm=0 compile=0 ;;
    --) shift; criterion_args=("$@"); break ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
    shift
done

data="$repo/target/bench-report"
mkdir -p "$data"

if [ "$bench" = 1 ]; then
    echo "==> benchmarks (cargo bench -p marshal-benches --bench compare)"
    rm -rf "$repo/target/criterion" "$data/sizes.tsv"
    cargo bench -p marshal-benches --bench compare --no-run
    # What was measured, and how busy the machine was.
    {
        echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
        if [ -n "$(git status --porcelain -- marshal-core marshal-derive src Cargo.toml 2>/dev/null)" ]; then
            echo "dirty=yes"
        else
            echo "dirty=no"
        fi
        echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
    } > "$data/env.txt"
    rounds="${MARSHAL_BENCH_ROUNDS:-5}"
    for round in $(seq 1 "$rounds"); do
        echo "==> round $round of $rounds"
        # The sizes are the same every round; record them once.
        sizes=/dev/null
        [ "$round" = 1 ] && sizes="$data/sizes.tsv"
        MARSHAL_BENCH_SIZES="$sizes" \
            cargo bench -p marshal-benches --bench compare -- \
            --save-baseline "round-$round" "${criterion_args[@]}"
    done
    echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$data/env.txt"
fi

if [ "$asm" = 1 ]; then
    echo "==> assembly (scripts/asm-check.sh)"
    scripts/asm-check.sh "$data/asm.txt" > /dev/null
fi

if [ "$compile" = 1 ]; then
    echo "==> compile time (scripts/compile-time.sh)"
    scripts/compile-time.sh "$data/compile-time.tsv"
fi

echo "==> report"
optional=()
[ -f "$data/asm.txt" ] && optional+=(--asm "$data/asm.txt")
[ -f "$data/compile-time.tsv" ] && optional+=(--compile-time "$data/compile-time.tsv")
[ -f "$data/env.txt" ] && optional+=(--env "$data/env.txt")
cargo run --quiet --release \
    --manifest-path benches/report/Cargo.toml \
    --target-dir "$repo/target/bench-report-build" -- \
    --criterion "$repo/target/criterion" \
    --sizes "$data/sizes.tsv" \
    --notes benches/report/notes.md \
    --lock Cargo.lock \
    "${optional[@]}" \
    --out BENCHMARKS.md \
    --svg BENCHMARKS.svg
