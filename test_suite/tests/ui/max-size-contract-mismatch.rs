use marshal::Marshal;

#[derive(Marshal)]
#[marshal(max_size = 8)]
enum Reply {
    Ok,
    Value(u64),
}

fn main() {}
