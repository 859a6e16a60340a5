use marshal::{DecodeError, Unmarshal};

// `read_from` must return the value and the bytes it used.
mod be_u32 {
    use super::DecodeError;

    pub fn read_from(buf: &[u8]) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes([buf[0], buf[1], buf[2], buf[3]]))
    }
}

#[derive(Unmarshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
}

fn main() {}
