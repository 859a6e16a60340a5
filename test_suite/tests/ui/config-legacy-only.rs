// A type holding what only `config::legacy()` carries has no impl in the
// other configurations: a field read `with` a module, and a field of
// another crate's type. Each is an error where it is used,
// naming the type and what to do; `legacy()` still works.
use marshal::{Marshal, Unmarshal, config};

mod be_u32 {
    pub fn encoded_len(_: &u32) -> usize {
        4
    }
    pub fn write_to(v: &u32, buf: &mut [u8]) -> usize {
        buf[..4].copy_from_slice(&v.to_be_bytes());
        4
    }
}

#[derive(Marshal)]
struct WithField {
    #[marshal(with = be_u32)]
    len: u32,
}

#[derive(Marshal, Unmarshal)]
struct Tagged {
    id: uuid::Uuid,
}

fn main() {
    let _ = marshal::encode_to_vec(&WithField { len: 1 }, config::legacy());
    let _ = marshal::encode_to_vec(&WithField { len: 1 }, config::standard());
    let _ = marshal::decode_from_slice::<Tagged, _>(&[], config::standard().with_big_endian());
}
