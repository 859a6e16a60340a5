use marshal::Marshal;

#[derive(Marshal)]
#[marshal(use_discriminant = true)]
struct Header {
    version: u8,
}

fn main() {}
