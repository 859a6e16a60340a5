use marshal::Marshal;

#[derive(Marshal)]
#[marshal(extensible)]
struct User {
    id: u64,
    #[marshal(since = 0, default)]
    email: Option<String>,
}

fn main() {}
