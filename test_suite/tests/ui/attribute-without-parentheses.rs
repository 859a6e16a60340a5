use marshal::Marshal;

#[derive(Marshal)]
#[marshal]
struct Header {
    #[marshal = "skip"]
    len: u32,
}

fn main() {}
