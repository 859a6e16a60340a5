use marshal::{Marshal, Unmarshal};

// A field inserted before a later version's, and a version-1 field after it.
#[derive(Marshal, Unmarshal)]
#[marshal(extensible)]
struct User {
    id: u64,
    #[marshal(since = 3, default)]
    plan: u8,
    #[marshal(since = 2, default)]
    email: Option<String>,
    name: String,
}

fn main() {}
