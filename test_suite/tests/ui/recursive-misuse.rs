// `recursive` is a flag, and it breaks a cycle through a field's type: it
// takes no value, and on a field that is skipped or encoded `with` a
// module it would mean nothing.
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
struct Node {
    #[marshal(recursive = true)]
    next: Option<Box<Node>>,
    #[marshal(skip, recursive)]
    cache: u32,
    #[marshal(with = be_u32, recursive)]
    len: u32,
}

fn main() {}
