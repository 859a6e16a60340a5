use marshal::Marshal;

// A history pins the versions of an extensible type.
#[derive(Marshal)]
#[marshal(history = [0x0123456789abcdef])]
struct User {
    id: u64,
}

fn main() {}
