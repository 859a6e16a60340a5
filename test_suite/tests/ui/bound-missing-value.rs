use marshal::Marshal;

#[derive(Marshal)]
#[marshal(bound)]
struct NoValue<T> {
    value: T,
}

#[derive(Marshal)]
#[marshal(bound(encode))]
struct NoEncodeValue<T> {
    value: T,
}

fn main() {}
