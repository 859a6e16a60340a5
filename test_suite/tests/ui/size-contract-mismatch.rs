use marshal::Marshal;

// A protocol header that is meant to be 16 bytes but is 12.
#[derive(Marshal)]
#[marshal(size = 16)]
struct Header {
    magic: u32,
    len: u64,
}

fn main() {}
