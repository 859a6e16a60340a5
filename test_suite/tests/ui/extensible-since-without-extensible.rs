use marshal::{Marshal, Unmarshal};

// `since` versions the fields of an extensible type; this one is not.
#[derive(Marshal, Unmarshal)]
struct User {
    id: u64,
    #[marshal(since = 2, default)]
    email: Option<String>,
}

#[derive(Marshal, Unmarshal)]
enum Event {
    Login,
    #[marshal(since = 2)]
    Logout,
}

fn main() {}
