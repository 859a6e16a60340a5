use marshal::Unmarshal;

// A version-1 field is always on the wire: its default would never be used.
#[derive(Unmarshal)]
#[marshal(extensible)]
struct User {
    #[marshal(default)]
    id: u64,
}

fn main() {}
