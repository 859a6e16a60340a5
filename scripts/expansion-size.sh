#!/usr/bin/env bash
# How long the derive's output is for the README's `Order` and `Side`, each
# deriving `Marshal` and `Unmarshal`: expands a scratch crate with
# `cargo +nightly rustc -- -Zunpretty=expanded`, formats it with rustfmt,
# and counts the lines inside the derive's `const _: () = { ... }` blocks
# (not counting the blocks' own first and last lines), how often each
# field type is spelled in them, and how often `::marshal::__private` is.
# marshal-derive's `output_tests` check the same with prettyplease.
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
marshal = { path = "$repo", package = "marshalers" }

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
printf '%-10s %6s %5s %5s %5s %12s %5s %10s\n' block lines u64 f64 '&str' 'Vec<String>' Side __private
total=0
for b in block*.rs; do
    lines=$(( $(wc -l < "$b") - 2 ))
    total=$(( total + lines ))
    printf '%-10s %6d %5d %5d %5d %12d %5d %10d\n' "${b%.rs}" "$lines" \
        "$(grep -o '\bu64\b' "$b" | wc -l)" \
        "$(grep -o '\bf64\b' "$b" | wc -l)" \
        "$(grep -o "&'a str" "$b" | wc -l)" \
        "$(grep -o 'Vec<String>' "$b" | wc -l)" \
        "$(grep -o '\bSide\b' "$b" | wc -l)" \
        "$(grep -o '::marshal::__private' "$b" | wc -l)"
done
echo "total lines inside the blocks: $total"
echo "(u64 also counts ::core::primitive::u64; Side also counts Side's own name)"
echo "::marshal::__private: $(cat block*.rs | grep -o '::marshal::__private' | wc -l)"
