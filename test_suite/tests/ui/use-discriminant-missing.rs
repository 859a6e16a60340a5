use marshal::Marshal;

// Without `use_discriminant`, it is unclear whether `B` is tag 20 or 1.
#[derive(Marshal)]
enum Status {
    A = 10,
    B = 20,
}

// The first explicit discriminant is reported, wherever it is.
#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum Later {
    A,
    B = 1 << 3,
    C = 9,
}

fn main() {}
