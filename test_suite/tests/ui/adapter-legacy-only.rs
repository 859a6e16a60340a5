// An adapter written by hand implements `MarshalAs`/`UnmarshalAs`, which are
// `config::legacy()`'s: a type with a field adapted by it has no impl in the
// other configurations, and using one there is an error naming the type;
// `legacy()` still works.
use marshal::{DecodeError, Marshal, MarshalAs, Overflow, Reader, Unmarshal, UnmarshalAs, Writer};
use marshal::config;

struct Doubled;

impl MarshalAs<u8> for Doubled {
    fn encoded_len_as(_: &u8) -> usize {
        2
    }
    fn encode_as(v: &u8, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array([*v, *v])
    }
}

impl<'de> UnmarshalAs<'de, u8> for Doubled {
    fn decode_as(r: &mut Reader<'de>) -> Result<u8, DecodeError> {
        r.take_array::<2>().map(|[a, _]| a)
    }
}

#[derive(Marshal, Unmarshal)]
struct Holder {
    #[marshal(as = Doubled)]
    inner: u8,
}

fn main() {
    let _ = marshal::encode_to_vec(&Holder { inner: 1 }, config::legacy());
    let _ = marshal::encode_to_vec(&Holder { inner: 1 }, config::standard());
    let _ = marshal::decode_from_slice::<Holder, _>(&[], config::standard());
}
