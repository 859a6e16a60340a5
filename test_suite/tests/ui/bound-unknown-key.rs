use marshal::Marshal;

// serde's names for the two impls are not marshal's.
#[derive(Marshal)]
#[marshal(bound(serialize = "T: Marshal"))]
struct SerdeName<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encod = "T: Marshal"))]
struct Misspelled<T> {
    value: T,
}

fn main() {}
