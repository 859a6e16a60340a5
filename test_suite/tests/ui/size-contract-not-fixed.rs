use marshal::Marshal;

#[derive(Marshal)]
#[marshal(size = 16)]
struct Named {
    name: String,
}

fn main() {}
