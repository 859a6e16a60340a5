use marshal::Marshal;

#[derive(Marshal)]
#[marshal(bound = "T Marshal")]
struct MissingColon<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encode = "T: Marshal; U: Marshal"))]
struct Semicolon<T, U> {
    a: T,
    b: U,
}

fn main() {}
