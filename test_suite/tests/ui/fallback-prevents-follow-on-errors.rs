use marshal::{Marshal, Unmarshal};

// Each derive below has an attribute error, and emits a stand-in impl
// beside it: using the types as `Marshal` and `Unmarshal` afterwards adds
// no "trait not implemented" error, so only the attribute errors show.

#[derive(Marshal)]
#[marshal(tag_type = u7)]
enum Encoded {
    A,
}

#[derive(Unmarshal, Debug)]
#[marshal(tag_type = u7)]
enum Decoded {
    A,
}

// Generic, borrowing, and both derives with the same mistake: the stand-ins
// keep the type's generics, and the decoder's its input lifetime.
#[derive(Marshal, Unmarshal, Debug)]
struct Both<'a, T> {
    #[marshal(skp)]
    name: &'a str,
    value: T,
}

fn size<T: Marshal>(value: &T) -> usize {
    value.encoded_len()
}

fn least<'de, T: Unmarshal<'de>>() -> usize {
    T::MIN_LEN
}

fn main() {
    let _ = marshal::to_vec(&Encoded::A);
    let _ = size(&Encoded::A);
    let _ = Encoded::FIXED_LEN;

    let _ = marshal::from_bytes::<Decoded>(&[0]);
    let _ = Decoded::read_from(&[0]);
    let _ = least::<Decoded>();

    let input = marshal::to_vec(&Both { name: "x", value: 1u8 });
    let _ = size(&Both { name: "x", value: 1u8 });
    let _ = marshal::from_bytes::<Both<'_, u8>>(&input);
    let _ = least::<Both<'_, u8>>();
}
