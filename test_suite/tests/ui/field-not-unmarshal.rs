use marshal::Unmarshal;

struct Opaque;

#[derive(Unmarshal)]
struct Header {
    len: u32,
    opaque: Opaque,
}

#[derive(Unmarshal)]
enum Event {
    Start,
    Data(u8, Opaque),
}

fn main() {}
