use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u8)]
struct Point {
    x: i32,
    y: i32,
}

fn main() {}
