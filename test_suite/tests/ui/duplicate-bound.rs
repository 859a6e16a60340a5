use marshal::Marshal;

// `bound = "..."` sets the bounds of both impls already.
#[derive(Marshal)]
#[marshal(bound = "T: Marshal", bound(encode = "T: Marshal + Copy"))]
struct Both<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encode = "T: Marshal"), bound(encode = "T: Marshal + Copy"))]
struct Twice<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound = "T: Marshal")]
#[marshal(bound = "T: Marshal + Copy")]
struct Shared<T> {
    value: T,
}

fn main() {}
