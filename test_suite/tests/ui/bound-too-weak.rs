use marshal::Marshal;

// An explicit bound replaces the inferred `T: Marshal`; one that does not
// imply it leaves the field's type without `Marshal`.
#[derive(Marshal)]
#[marshal(bound = "T: Copy")]
struct Weak<T> {
    value: T,
}

fn main() {}
