use marshal::Marshal;

#[derive(Marshal)]
struct Config {
    #[marshal(default)]
    port: u16,
}

fn main() {}
