use marshal::Marshal;

// `bound` is a container attribute.
#[derive(Marshal)]
struct OnField<T> {
    #[marshal(bound = "T: Marshal")]
    value: T,
}

fn main() {}
