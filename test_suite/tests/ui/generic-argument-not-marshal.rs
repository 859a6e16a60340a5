use marshal::Marshal;

struct Opaque;

#[derive(Marshal)]
struct Wrapper<T> {
    inner: T,
}

fn main() {
    let _ = marshal::to_vec(&Wrapper { inner: Opaque });
}
