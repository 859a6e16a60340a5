use marshal::Marshal;

const BASE: isize = 16;

#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Computed {
    A = BASE,
    B,
    C = 1 << 6,
    // Its own tag: the expression above decides nothing for it.
    #[marshal(tag = 2)]
    D,
    E = 40,
}

fn main() {}
