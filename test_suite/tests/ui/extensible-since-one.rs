use marshal::Marshal;

// Every field without `since` is version 1 already.
#[derive(Marshal)]
#[marshal(extensible)]
struct User {
    id: u64,
    #[marshal(since = 1, default)]
    email: Option<String>,
}

fn main() {}
