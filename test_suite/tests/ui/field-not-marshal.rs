use marshal::Marshal;

struct Opaque;

#[derive(Marshal)]
struct Header {
    len: u32,
    opaque: Opaque,
}

#[derive(Marshal)]
enum Event {
    Start,
    Data(u8, Opaque),
}

fn main() {}
