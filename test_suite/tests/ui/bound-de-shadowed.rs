use marshal::Unmarshal;

// In a decode bound, `'de` is the input's lifetime, which the type's own
// `'de` would hide.
#[derive(Unmarshal)]
#[marshal(bound(decode = "T: marshal::Unmarshal<'de>"))]
struct Borrowed<'de, T> {
    name: &'de str,
    value: T,
}

fn main() {}
