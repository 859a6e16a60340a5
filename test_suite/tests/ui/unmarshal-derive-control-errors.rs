// Every mistake with `bound` and `use_discriminant` of the
// `#[derive(Marshal)]` files beside this one, made under
// `#[derive(Unmarshal)]` alone: the decoder's derive reads the same
// attributes and reports the same errors. (`'de` in a decode bound is the
// input's lifetime, so bound-de-in-marshal.rs has no counterpart.)
use marshal::Unmarshal;

// bound-invalid-where-clause.rs
#[derive(Unmarshal)]
#[marshal(bound(decode = "T Unmarshal<'de>"))]
struct InvalidWhereClause<T> {
    value: T,
}

// bound-missing-value.rs
#[derive(Unmarshal)]
#[marshal(bound(decode))]
struct MissingValue<T> {
    value: T,
}

// bound-not-a-string.rs
#[derive(Unmarshal)]
#[marshal(bound = T: Unmarshal<'de>)]
struct NotAString<T> {
    value: T,
}

// bound-on-field.rs
#[derive(Unmarshal)]
struct BoundOnField<T> {
    #[marshal(bound = "T: Default")]
    value: T,
}

// bound-unknown-key.rs
#[derive(Unmarshal)]
#[marshal(bound(deserialize = ""))]
struct UnknownKey<T> {
    value: T,
}

// duplicate-bound.rs
#[derive(Unmarshal)]
#[marshal(bound = "", bound(decode = ""))]
struct DuplicateBound<T> {
    value: T,
}

// discriminant-does-not-fit-tag-type.rs
#[derive(Unmarshal)]
#[marshal(tag_type = u8, use_discriminant = true)]
enum DoesNotFit {
    A = 255,
    B,
}

// discriminant-not-literal.rs
#[derive(Unmarshal)]
#[marshal(use_discriminant = true)]
enum NotLiteral {
    A = 1 << 2,
}

// duplicate-discriminant-tags.rs
#[derive(Unmarshal)]
#[marshal(use_discriminant = true)]
enum DuplicateTags {
    A = 10,
    #[marshal(tag = 10)]
    B = 11,
}

// negative-discriminant.rs
#[derive(Unmarshal)]
#[marshal(use_discriminant = true)]
enum Negative {
    A = -1,
}

// use-discriminant-missing.rs
#[derive(Unmarshal)]
enum MissingUseDiscriminant {
    A = 10,
}

// use-discriminant-missing-value.rs, use-discriminant-not-bool.rs
#[derive(Unmarshal)]
#[marshal(use_discriminant)]
enum UseDiscriminantWithoutValue {
    A = 1,
}

#[derive(Unmarshal)]
#[marshal(use_discriminant = "true")]
enum UseDiscriminantNotBool {
    A = 1,
}

// use-discriminant-on-struct.rs
#[derive(Unmarshal)]
#[marshal(use_discriminant = false)]
struct UseDiscriminantOnStruct {
    version: u8,
}

// use-discriminant-on-variant.rs
#[derive(Unmarshal)]
enum UseDiscriminantOnVariant {
    #[marshal(use_discriminant = true)]
    A,
}

fn main() {}
