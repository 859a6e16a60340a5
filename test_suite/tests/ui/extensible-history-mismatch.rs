use marshal::Marshal;

// Version 1 was released as `{ id: u64, name: String }`; `id` has since
// been retyped.
#[derive(Marshal)]
#[marshal(extensible, history = [0x3df4088e86bc3ca4, 0x7398b7952edad394])]
struct User {
    id: u32,
    name: String,
    #[marshal(since = 2, default)]
    email: Option<String>,
}

fn main() {}
