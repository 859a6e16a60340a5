use marshal::{DecodeError, Unmarshal};

// `decode` reads through the caller's `Reader`, not from a slice of its own.
mod be_u32 {
    use super::DecodeError;

    pub fn decode(buf: &[u8]) -> Result<(u32, usize), DecodeError> {
        Ok((u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]), 4))
    }
}

#[derive(Unmarshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
}

fn main() {}
