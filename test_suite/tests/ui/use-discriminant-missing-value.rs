use marshal::Marshal;

#[derive(Marshal)]
#[marshal(use_discriminant)]
enum Flag {
    A = 1,
}

fn main() {}
