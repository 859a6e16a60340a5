// `as` says how a field is encoded: with `skip` or `with` it contradicts
// them, and each is reported at the `as`.
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
    #[marshal(skip, as = marshal::adapters::Same)]
    a: u32,
    #[marshal(with = be_u32, as = marshal::adapters::Same)]
    b: u32,
}

fn main() {}
