use marshal::Marshal;

mod be_u32 {
    pub fn encoded_len(_: &u32) -> usize {
        4
    }
}

#[derive(Marshal)]
struct Header {
    #[marshal(with = be_u32)]
    len: u32,
}

fn main() {}
