use marshal::Marshal;

mod be_u32 {
    pub fn encoded_len(_: &u32) -> usize {
        4
    }
    pub fn encode(v: &u32, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_array(v.to_be_bytes())
    }
}

#[derive(Marshal)]
struct Header {
    #[marshal(skip, with = be_u32)]
    len: u32,
}

fn main() {}
