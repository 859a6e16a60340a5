// Every mistake with `bound` of the `#[derive(Marshal)]` files beside this
// one, made under `#[derive(Unmarshal)]` alone: the decoder's derive reads
// the same attributes and reports the same errors. (`'de` in a decode bound is the
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

fn main() {}
