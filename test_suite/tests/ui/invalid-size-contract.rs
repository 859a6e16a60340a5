use marshal::Marshal;

#[derive(Marshal)]
#[marshal(size = "sixteen")]
struct Header {
    len: u64,
}

fn main() {}
