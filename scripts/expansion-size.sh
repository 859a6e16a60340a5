#!/usr/bin/env bash
# How long the derive's output is for the README's `Order` and `Side`, each
# deriving `Marshal` and `Unmarshal`: expands a scratch crate with
# `cargo +nightly rustc -- -Zunpretty=expanded`, formats it with rustfmt,
# and counts the lines inside the derive's `const _: () = { ... }` blocks
# (the blocks' own first and last lines included), how often each field
# type is spelled in them, and how often `::marshal::__private` is.
#
# Usage: scripts/expansion-size.sh   (needs the nightly toolchain)
# Keeps the scratch crate and its target directory under target/expansion.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir="$repo/target/expansion"
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "expansion"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
marshal = { path = "$repo" }

[workspace]
TOML
cat > "$dir/src/lib.rs" <<'RS'
use marshal::{Marshal, Unmarshal};

#[derive(Marshal, Unmarshal)]
pub struct Order<'a> {
    pub id: u64,
    pub price: f64,
    pub symbol: &'a str,
    pub tags: Vec<String>,
    pub side: Side,
}

#[derive(Marshal, Unmarshal)]
pub enum Side {
    Buy,
    Sell,
    Limit { max: f64 },
}
RS
cd "$dir"
cargo +nightly rustc --quiet --lib -- -Zunpretty=expanded > expanded.rs
rustfmt +nightly --edition 2024 expanded.rs
# The derive's blocks: from `const _: () = {` to the `};` at its indentation.
awk '
    !inside && /^ *const _: \(\) = \{$/ { inside = 1; indent = index($0, "c"); n++ }
    inside { print > ("block" n ".rs") }
    inside && index($0, "};") == indent && length($0) == indent + 1 { inside = 0 }
' expanded.rs
printf '%-24s %6s %6s %5s %5s %6s %8s %6s %10s\n' block lines u64 f64 '&str' Vec.. Side f64 __private
for b in block*.rs; do
    printf '%-24s %6d %6d %5d %5d %6d %8d %6s %10d\n' "$b" "$(wc -l < "$b")" \
        "$(grep -o '\bu64\b' "$b" | wc -l)" \
        "$(grep -o '\bf64\b' "$b" | wc -l)" \
        "$(grep -o "&'a str" "$b" | wc -l)" \
        "$(grep -o 'Vec<String>' "$b" | wc -l)" \
        "$(grep -o '<Side as\|\bSide\b' "$b" | wc -l)" '' \
        "$(grep -o '::marshal::__private' "$b" | wc -l)"
done
echo "total lines: $(cat block*.rs | wc -l)"
echo "::marshal::__private: $(cat block*.rs | grep -o '::marshal::__private' | wc -l)"
