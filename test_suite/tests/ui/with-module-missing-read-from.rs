use marshal::{Marshal, Unmarshal};

// Enough for `Marshal`; decoding also calls `be_u32::read_from`.
mod be_u32 {
    pub fn encoded_len(_: &u32) -> usize {
        4
    }
    pub fn write_to(v: &u32, buf: &mut [u8]) -> usize {
        buf[..4].copy_from_slice(&v.to_be_bytes());
        4
    }
}

#[derive(Marshal, Unmarshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
}

fn main() {}
