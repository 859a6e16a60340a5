use marshal::Unmarshal;

#[derive(Unmarshal)]
#[marshal(extensible)]
enum Event {
    Login { user: u64 },
    #[marshal(other)]
    Unknown,
    #[marshal(other)]
    Unrecognized,
}

fn main() {}
