//! Compile-fail tests: each file in `tests/ui/` is one mistake with
//! `#[derive(Marshal)]` or `#[derive(Unmarshal)]` (or, in
//! `unmarshal-attribute-errors.rs` and `unmarshal-derive-control-errors.rs`,
//! each attribute mistake of the Marshal files under `#[derive(Unmarshal)]`
//! alone), each in `tests/forge/` one
//! attempt to forge a memcpy layout or to misuse the slots of
//! `append_slots_to_vec`, and its `.stderr` is the expected
//! diagnostic.

#[test]
#[cfg_attr(miri, ignore)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

/// Each file in `tests/forge/` is a manual implementation that tries to
/// claim a memcpy layout it does not have (another type's, or one built
/// without `unsafe`), or code that tries to use the `Slots` of one call of
/// `append_slots_to_vec` in another call or after it returns; each must
/// fail to compile, or bulk copies would read padding or make invalid
/// values, and a `Vec` would own values it never received.
#[test]
#[cfg_attr(miri, ignore)]
fn forged_layouts() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/forge/*.rs");
}
