//! Compile-fail tests: each file in `tests/ui/` is one mistake with
//! `#[derive(Marshal)]`, and its `.stderr` is the expected diagnostic.

#[test]
#[cfg_attr(miri, ignore)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
