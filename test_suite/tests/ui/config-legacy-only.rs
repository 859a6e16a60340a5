// A type holding what only `config::legacy()` carries has no impl in the
// other configurations: here a type with manual `Marshal` and `Unmarshal`
// impls only. Each use is an error where it is used, naming the type and
// what to do; `legacy()` still works.
use marshal::{DecodeError, Marshal, Overflow, Reader, Unmarshal, Writer, config};

struct Manual(u8);

impl Marshal for Manual {
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(self.0)
    }
}

impl<'de> Unmarshal<'de> for Manual {
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_u8().map(Manual)
    }
}

#[derive(Marshal, Unmarshal)]
struct Holder {
    inner: Manual,
}

fn main() {
    let _ = marshal::encode_to_vec(&Holder { inner: Manual(1) }, config::legacy());
    let _ = marshal::encode_to_vec(&Holder { inner: Manual(1) }, config::standard());
    let _ = marshal::decode_from_slice::<Holder, _>(&[], config::standard().with_big_endian());
}
