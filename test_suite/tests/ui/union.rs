use marshal::Marshal;

#[derive(Marshal)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
