// A type holding what only `config::legacy()` carries has no impl in the
// other configurations: a field of another crate's type, and a type with a
// manual `Marshal` impl only. Each is an error where it is used, naming the
// type and what to do; `legacy()` still works.
use marshal::{Marshal, Overflow, Unmarshal, Writer, config};

#[derive(Marshal, Unmarshal)]
struct Tagged {
    id: uuid::Uuid,
}

struct Manual(u8);

impl Marshal for Manual {
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(self.0)
    }
}

#[derive(Marshal)]
struct Holder {
    inner: Manual,
}

fn main() {
    let _ = marshal::encode_to_vec(&Holder { inner: Manual(1) }, config::legacy());
    let _ = marshal::encode_to_vec(&Holder { inner: Manual(1) }, config::standard());
    let _ = marshal::decode_from_slice::<Tagged, _>(&[], config::standard().with_big_endian());
}
