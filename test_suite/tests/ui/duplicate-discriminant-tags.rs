use marshal::Marshal;

// A tag given by `tag` clashes with another variant's discriminant.
#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Clash {
    A = 10,
    #[marshal(tag = 10)]
    B = 11,
}

// An implicit discriminant clashes with an explicit tag.
#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Counted {
    #[marshal(tag = 6)]
    A = 4,
    B = 5,
    C,
}

fn main() {}
