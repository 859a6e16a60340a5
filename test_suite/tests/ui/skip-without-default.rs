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

// The same in a variant, with the decoder's derive alone.
#[derive(Unmarshal)]
enum Event {
    Open {
        #[marshal(skip)]
        handle: Handle,
    },
    Close,
}

fn main() {}
