//! Compile-fail tests: each file in `tests/ui/` is one mistake with
//! `#[derive(Marshal)]` or `#[derive(Unmarshal)]` (or, in
//! `unmarshal-attribute-errors.rs` and `unmarshal-derive-control-errors.rs`,
//! each attribute mistake of the Marshal files under `#[derive(Unmarshal)]`
//! alone), each in `tests/forge/` one
//! attempt to forge a memcpy layout, and its `.stderr` is the expected
//! diagnostic.

#[test]
#[cfg_attr(miri, ignore)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// Each file in `tests/forge/` is a manual implementation that tries to
/// claim a memcpy layout it does not have (another type's, or one built
/// without `unsafe`); each must fail to compile, or bulk copies would read
/// padding or make invalid values.
#[test]
#[cfg_attr(miri, ignore)]
fn forged_layouts() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/forge/*.rs");
}
