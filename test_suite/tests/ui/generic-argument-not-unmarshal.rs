use marshal::Unmarshal;

struct Opaque;

#[derive(Unmarshal)]
struct Wrapper<T> {
    inner: T,
}

fn main() {
    let _ = marshal::from_bytes::<Wrapper<Opaque>>(&[]);
}
