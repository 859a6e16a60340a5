use marshal::{Marshal, Unmarshal};

mod codecs {}

#[derive(Marshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
    #[marshal(with = "codecs::be_u64")]
    total: u64,
}

// The same paths under the decoder's derive alone.
#[derive(Unmarshal)]
struct Trailer {
    #[marshal(with = be_u32)]
    len: u32,
    #[marshal(with = "codecs::be_u64")]
    total: u64,
}

fn main() {}
