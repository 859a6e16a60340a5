use marshal::Unmarshal;

// Unknown variants decode as `other`, which has nothing to fill fields with.
#[derive(Unmarshal)]
#[marshal(extensible)]
enum Event {
    Login { user: u64 },
    #[marshal(other)]
    Unknown(u32),
}

fn main() {}
