use marshal::Marshal;

#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Sign {
    Negative = -1,
    Zero = 0,
}

// `B` is -2, one more than `A`; `C` is -1; `D` has a tag of its own.
#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Counted {
    A = -3,
    B,
    C,
    #[marshal(tag = 7)]
    D,
}

fn main() {}
