use marshal::Unmarshal;

#[derive(Unmarshal)]
#[marshal(extensible)]
struct User {
    id: u64,
    #[marshal(skip, since = 2, default)]
    cache: Vec<u8>,
}

fn main() {}
