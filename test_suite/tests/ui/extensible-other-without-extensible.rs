use marshal::Unmarshal;

// Only an extensible enum can skip an unknown variant's body.
#[derive(Unmarshal)]
enum Event {
    Login,
    #[marshal(other)]
    Unknown,
}

fn main() {}
