use marshal::Unmarshal;

struct Opaque;

#[derive(Unmarshal)]
struct Header {
    len: u32,
    opaque: Opaque,
}

fn main() {}
