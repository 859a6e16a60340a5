use marshal::{Marshal, Unmarshal};

// Enough for `Marshal`; decoding also calls `be_u32::decode`.
mod be_u32 {
    use marshal::{Overflow, Writer};

    pub fn encoded_len(_: &u32) -> usize {
        4
    }
    pub fn encode(v: &u32, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(v.to_be_bytes())
    }
}

#[derive(Marshal, Unmarshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
}

fn main() {}
