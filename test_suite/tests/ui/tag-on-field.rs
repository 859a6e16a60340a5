use marshal::Marshal;

#[derive(Marshal)]
struct Header {
    #[marshal(tag = 1)]
    version: u8,
}

fn main() {}
