use marshal::Marshal;

// An explicit tag clashing with another variant's declaration index.
#[derive(Marshal)]
enum Explicit {
    A,
    #[marshal(tag = 0)]
    B,
}

// A declaration index clashing with an earlier explicit tag.
#[derive(Marshal)]
enum Implicit {
    #[marshal(tag = 1)]
    A,
    B,
}

fn main() {}
