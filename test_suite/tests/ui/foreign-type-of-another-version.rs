// The `heapless` feature is on and supports heapless 0.9; this field is
// heapless 0.8's `Vec`, a different type from a second copy of the crate.
use marshal::Marshal;

#[derive(Marshal)]
struct Readings {
    samples: heapless08::Vec<u16, 8>,
}

fn main() {}
