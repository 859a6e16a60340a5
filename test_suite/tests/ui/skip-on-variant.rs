use marshal::Marshal;

#[derive(Marshal)]
enum Event {
    #[marshal(skip)]
    Internal(u32),
    Public(u32),
}

fn main() {}
