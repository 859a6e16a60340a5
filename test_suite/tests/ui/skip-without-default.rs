use marshal::{Marshal, Unmarshal};

struct Handle(u32);

#[derive(Marshal, Unmarshal)]
struct Session {
    id: u64,
    // Decoding fills a skipped field with Default::default(), which Handle
    // does not have.
    #[marshal(skip)]
    handle: Handle,
}

fn main() {}
