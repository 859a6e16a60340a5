use marshal::Marshal;

#[derive(Marshal)]
struct Config {
    #[marshal(flatten)]
    port: u16,
}

fn main() {}
