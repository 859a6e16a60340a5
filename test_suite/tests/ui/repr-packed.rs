use marshal::Marshal;

#[derive(Marshal)]
#[repr(C, packed)]
struct Wire {
    tag: u8,
    len: u32,
}

fn main() {}
