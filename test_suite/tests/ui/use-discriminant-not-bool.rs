use marshal::Marshal;

#[derive(Marshal)]
#[marshal(use_discriminant = "true")]
enum Quoted {
    A = 1,
}

#[derive(Marshal)]
#[marshal(use_discriminant = 1)]
enum Number {
    A = 1,
}

fn main() {}
