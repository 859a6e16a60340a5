use marshal::Marshal;

// Two equal discriminants: rustc itself rejects them, and the derive adds
// no error of its own.
#[derive(Marshal)]
#[marshal(use_discriminant = true)]
enum Same {
    A = 1,
    B = 0,
    C,
}

fn main() {}
