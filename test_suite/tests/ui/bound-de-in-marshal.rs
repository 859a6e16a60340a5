use marshal::Marshal;

// `'de` is the decoder's input lifetime: the Marshal impl has none.
#[derive(Marshal)]
#[marshal(bound = "T: marshal::Marshal + marshal::Unmarshal<'de>")]
struct Shared<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encode = "T: marshal::Unmarshal<'de>"))]
struct Encode<T> {
    value: T,
}

fn main() {}
