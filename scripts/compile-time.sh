#!/usr/bin/env bash
# Compile time of 200 derived types: marshal's derives against serde's.
#
# Generates three crates under /tmp with the same 200 types (structs, tuple
# structs and enums of integers, floats, strings, vectors, options, arrays
# and each other); one derives `marshal::{Marshal, Unmarshal}`, one the
# same with marshal's feature `config` (the impls of every configuration
# too), the third `serde::{Serialize, Deserialize}`. Times `cargo build`
# (dev profile) of each, RUNS times per mode, alternating the crates:
#   full   the target directory removed first: derive macro, syn and the
#          runtime crate are compiled too;
#   crate  only the generated crate (`cargo clean -p`), dependencies built.
# Writes `variant<TAB>mode<TAB>seconds` lines to OUT.
#
# Usage: scripts/compile-time.sh [OUT]   (default: target/bench-report/compile-time.tsv)
#        RUNS=5 scripts/compile-time.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo/target/bench-report/compile-time.tsv}"
runs="${RUNS:-3}"
base="${COMPILE_TIME_DIR:-/tmp/marshal-compile-time}"
mkdir -p "$(dirname "$out")"

# The 200 types, with DERIVE standing for the derive list.
types() {
    for i in $(seq 0 199); do
        # Each type nests the one before it, in chains of eight, so nesting
        # stays as shallow as real code's.
        if [ $(( i % 8 )) -eq 0 ]; then prev=u64; else prev="T$(( i - 1 ))"; fi
        echo "#[derive(DERIVE)]"
        case $(( i % 4 )) in
        0)
            echo "pub struct T$i {"
            echo "    pub id: u64,"
            echo "    pub name: String,"
            echo "    pub values: Vec<u32>,"
            echo "    pub delta: Option<i16>,"
            echo "    pub active: bool,"
            echo "    pub ratio: f64,"
            echo "    pub inner: Vec<$prev>,"
            echo "}"
            ;;
        1)
            echo "pub enum T$i {"
            echo "    Empty,"
            echo "    Pair(u32, String),"
            echo "    Point { x: f32, y: f32, z: f32 },"
            echo "    Nested(Box<$prev>),"
            echo "    Tags { tags: Vec<String>, weight: Option<f64> },"
            echo "}"
            ;;
        2)
            echo "pub struct T$i(pub u8, pub i32, pub [u8; 4], pub Option<$prev>);"
            ;;
        3)
            echo "pub struct T$i {"
            echo "    pub key: String,"
            echo "    pub a: $prev,"
            echo "    pub b: Vec<(u16, String)>,"
            echo "    pub c: [i64; 3],"
            echo "    pub d: Option<Vec<u8>>,"
            echo "}"
            ;;
        esac
        echo
    done
}

# make_crate NAME DEPENDENCY-LINE USE-LINE DERIVE-LIST
make_crate() {
    local dir="$base/$1"
    rm -rf "$dir"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<TOML
[package]
name = "gen-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$2

[workspace]
TOML
    { echo "#![allow(dead_code)]"; echo "$3"; echo; types | sed "s/DERIVE/$4/"; } > "$dir/src/lib.rs"
    (cd "$dir" && cargo generate-lockfile --quiet)
}

make_crate marshal "marshal = { path = \"$repo\", package = \"marshalers\" }" "use marshal::{Marshal, Unmarshal};" "Marshal, Unmarshal"
# The same derives with the feature `config`: the impls of every
# configuration (`MarshalIn`/`UnmarshalIn`) too.
make_crate marshal-config "marshal = { path = \"$repo\", package = \"marshalers\", features = [\"config\"] }" "use marshal::{Marshal, Unmarshal};" "Marshal, Unmarshal"
make_crate serde "serde = { version = \"1\", features = [\"derive\"] }" "use serde::{Deserialize, Serialize};" "Serialize, Deserialize"

# seconds CMD...: wall-clock seconds of CMD.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

# Both must build (output shown) before anything is timed.
for variant in marshal marshal-config serde; do
    cargo build --quiet --manifest-path "$base/$variant/Cargo.toml"
done

: > "$out"
for run in $(seq 1 "$runs"); do
    for variant in marshal marshal-config serde; do
        dir="$base/$variant"
        rm -rf "$dir/target"
        t=$(seconds cargo build --manifest-path "$dir/Cargo.toml")
        printf '%s\tfull\t%s\n' "$variant" "$t" | tee -a "$out"
    done
done
for run in $(seq 1 "$runs"); do
    for variant in marshal marshal-config serde; do
        dir="$base/$variant"
        cargo clean --quiet --manifest-path "$dir/Cargo.toml" -p "gen-$variant"
        t=$(seconds cargo build --manifest-path "$dir/Cargo.toml")
        printf '%s\tcrate\t%s\n' "$variant" "$t" | tee -a "$out"
    done
done
