use marshal::Marshal;

// The bound is a where-clause in a string, as in serde.
#[derive(Marshal)]
#[marshal(bound = T: Marshal)]
struct Unquoted<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encode = 5))]
struct Number<T> {
    value: T,
}

fn main() {}
