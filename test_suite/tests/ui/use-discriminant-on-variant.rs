use marshal::Marshal;

// `use_discriminant` is a container attribute.
#[derive(Marshal)]
enum Status {
    #[marshal(use_discriminant = true)]
    A,
    B,
}

fn main() {}
