#!/usr/bin/env bash
# Disassembles marshal's encoder and decoder for one fixed-size message.
#
# Builds a scratch crate under /tmp that depends on this checkout's marshal
# by path and exports `#[no_mangle]` functions encoding a 40-byte `Quote`
# (the `messages` dataset of benches/common/mod.rs) into a stack buffer or a
# slice, and decoding one; then prints `objdump -d -M intel` of each, for
# scripts/bench-compare.sh to summarize in BENCHMARKS.md.
#
# Usage: scripts/asm-check.sh [OUT]   (default: target/bench-report/asm.txt)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$repo/target/bench-report/asm.txt}"
scratch="${ASM_CHECK_DIR:-/tmp/marshal-asm-check}"
mkdir -p "$scratch/src" "$(dirname "$out")"

cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "marshal-asm-check"
version = "0.0.0"
edition = "2024"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
marshal = { path = "$repo", package = "marshalers" }

[profile.release]
debug = false
TOML

cat > "$scratch/src/lib.rs" <<'RUST'
//! One fixed-size message, encoded and decoded by marshal, for objdump.
use marshal::{DecodeError, Marshal, Unmarshal};

#[derive(Marshal, Unmarshal)]
pub enum Side {
    Bid,
    Ask,
}

/// 40 bytes on the wire, as in benches/common/mod.rs.
#[derive(Marshal, Unmarshal)]
pub struct Quote {
    pub seq: u64,
    pub timestamp: u64,
    pub instrument: u32,
    pub price: i64,
    pub qty: u32,
    pub side: Side,
    pub flags: [u8; 4],
}

/// `encoded_len()` then `write_to()` into a 64-byte stack buffer.
#[unsafe(no_mangle)]
pub fn marshal_encode_quote_stack(q: &Quote, buf: &mut [u8; 64]) -> usize {
    let n = q.encoded_len();
    q.write_to(&mut buf[..n])
}

/// `write_to()` into a caller's slice of unknown length.
#[unsafe(no_mangle)]
pub fn marshal_encode_quote_slice(q: &Quote, buf: &mut [u8]) -> usize {
    q.write_to(buf)
}

/// One message from the front of a slice.
#[unsafe(no_mangle)]
pub fn marshal_decode_quote(bytes: &[u8]) -> Result<(Quote, usize), DecodeError> {
    Quote::read_from(bytes)
}
RUST

(cd "$scratch" && cargo build --release --quiet)
so="$scratch/target/release/libmarshal_asm_check.so"
: > "$out"
for f in marshal_encode_quote_stack marshal_encode_quote_slice marshal_decode_quote; do
    objdump -d -M intel --no-show-raw-insn --disassemble="$f" "$so" \
        | sed -n "/^[0-9a-f]* <$f>:/,/^\$/p" >> "$out"
done
cat "$out"
