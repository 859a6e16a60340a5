// `getter` belongs to a field of a `remote` mirror of a struct.
use marshal::Marshal;

fn id(_: &Plain) -> u32 {
    0
}

#[derive(Marshal)]
struct Plain {
    #[marshal(getter = id)]
    id: u32,
}

fn main() {}
