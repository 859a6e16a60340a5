use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u64)]
enum Kind {
    A,
    B,
}

#[derive(Marshal)]
#[marshal(tag_type = "u8")]
enum Quoted {
    A,
}

fn main() {}
