use marshal::Unmarshal;

// Data written by version 1 has no `email`: what should a reader put there?
#[derive(Unmarshal)]
#[marshal(extensible)]
enum Event {
    Logout {
        user: u64,
        #[marshal(since = 2)]
        reason: Option<String>,
    },
}

fn main() {}
