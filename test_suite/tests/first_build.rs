//! The first build stays small (the root manifest says why): an example of the root
//! package compiles marshal's own crates and their normal dependencies and
//! nothing else, because the root package has no dev-dependencies; the test
//! suites and the benchmarks are packages of their own.
//!
//! Asked of `cargo tree`, which reads the workspace's lock file; `--offline`
//! keeps it off the network (building this test fetched every crate).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The crates `cargo tree` lists for the root package with `edges`, by name.
fn crates(edges: &str, features: &[&str]) -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.arg("tree")
        .arg("--manifest-path")
        .arg(&manifest)
        .args([
            "-p",
            "marshalers",
            "--offline",
            "--prefix",
            "none",
            "-f",
            "{p}",
        ])
        .args(["-e", edges]);
    if !features.is_empty() {
        cmd.arg("--features").arg(features.join(","));
    }
    let out = cmd.output().expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// What an example builds is what the library builds: no crate comes in
/// through a dev-dependency.
fn assert_examples_build_only_the_library(features: &[&str]) {
    let library = crates("normal,build", features);
    let examples = crates("normal,build,dev", features);
    let extra: Vec<_> = examples.difference(&library).collect();
    assert!(
        extra.is_empty(),
        "with features {features:?}, examples build dev-dependencies {extra:?}: \
         move them to test_suite/ or benches/"
    );
}

#[test]
fn the_quickstart_builds_marshal_and_the_derive_dependencies_only() {
    let all = crates("normal,build,dev", &[]);
    let expected: BTreeSet<String> = [
        "marshalers",
        "marshal-core",
        "marshal-derive",
        "proc-macro2",
        "quote",
        "syn",
        "unicode-ident",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(
        all, expected,
        "`cargo run --example quickstart` builds these"
    );
}

#[test]
fn a_feature_adds_the_crate_it_is_named_after() {
    let default = crates("normal,build,dev", &[]);
    for feature in [
        "bumpalo", "bytes", "chrono", "time", "jiff", "tokio", "rayon",
    ] {
        let with = crates("normal,build,dev", &[feature]);
        assert!(
            with.contains(feature),
            "feature {feature} does not build {feature}"
        );
        assert!(
            with.is_superset(&default),
            "feature {feature} drops a crate"
        );
    }
}

#[test]
fn examples_build_no_dev_dependencies() {
    assert_examples_build_only_the_library(&[]);
    assert_examples_build_only_the_library(&["bumpalo"]);
    assert_examples_build_only_the_library(&["chrono", "time", "jiff", "bytes"]);
    assert_examples_build_only_the_library(&["tokio", "rayon"]);
}

#[test]
fn the_peers_and_test_tools_are_not_in_the_first_build() {
    let all = crates("normal,build,dev", &[]);
    for heavy in [
        "criterion",
        "proptest",
        "trybuild",
        "bincode",
        "wincode",
        "bitcode",
        "rkyv",
        "serde",
    ] {
        assert!(!all.contains(heavy), "{heavy} is built by the examples");
    }
}
