use marshal::Marshal;

// Three versions pinned, but the type has two.
#[derive(Marshal)]
#[marshal(extensible, history = [1, 2, 3])]
struct User {
    id: u64,
    #[marshal(since = 2, default)]
    email: Option<String>,
}

fn main() {}
