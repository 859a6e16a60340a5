#!/usr/bin/env bash
# Runs marshal-core's tests (unit and doc), the facade's decoding tests, its
# tests of encoding into uninitialized memory (test_suite/tests/uninit.rs) and through
# every output target (output_targets, lying_impls), the extensible types'
# bodies written and read (evolution),
# the allocation-budget tests (alloc_budget), decoding into bumpalo arenas
# (arena_decode, beside mem/arena.rs's own unit tests in marshal-core's),
# adapted fields, seen through `As::from_ref` (adapters),
# values built in place (in_place: drops after an error or a panic at
# every field and element)
# and the parallel batches (par) under Miri, which flags undefined behaviour, out-of-bounds reads, reads of
# uninitialized bytes and leaks.
# Property tests run fewer cases under Miri (see `cfg(miri)` in the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

rustup component add --toolchain nightly miri rust-src
cargo +nightly miri setup

export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"
# proptest writes failure files; keep it off the file system under Miri.
export PROPTEST_DISABLE_FAILURE_PERSISTENCE=1

cargo +nightly miri test -p marshal-core --all-features
cargo +nightly miri test -p marshal-test-suite \
    --test decode_hostile --test golden --test uninit --test layouts \
    --test output_targets --test lying_impls \
    --test alloc_budget --test evolution --test arena_decode --test in_place \
    --test adapters --test memcpy_decisions
# The round trips, without the bincode cross-checks (`bc_*`): those decode
# the very same bytes through the same code, and run bincode's serializer
# under Miri besides, which alone would take most of an hour.
cargo +nightly miri test -p marshal-test-suite --test decode_roundtrip -- --skip bc_
# `marshal::par` (its writers fill disjoint parts of one `Vec`'s spare
# capacity on rayon's threads, and `append_filled_to_vec` sets the length;
# `decode_batch`'s tasks push values into `Slots` of the result's spare
# capacity, and `append_slots_to_vec` sets its length or the runs drop
# them; `Slots` itself runs with strict provenance and leak checks in
# marshal-core's tests above, threads included) with fewer items (`cfg(miri)` in the test). Under Tree Borrows: Stacked
# Borrows stops inside crossbeam-epoch, rayon's scheduler, before any of
# marshal's code runs; crossbeam also turns integers into pointers
# (permissive provenance), and rayon's pool threads outlive the tests
# (ignored leaks: marshal's own allocations are checked in the runs above).
MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-permissive-provenance -Zmiri-ignore-leaks" \
    cargo +nightly miri test -p marshal-test-suite --all-features --test par
# Not here: length_saturation, whose values are 17 MiB of references built
# element by element (its first test alone ran past five minutes under
# Miri without finishing); what it checks is arithmetic on
# lengths, and the targets refuse those lengths before writing a byte.
