use marshal::Marshal;

#[derive(Marshal)]
#[marshal(rename_all = "snake_case")]
struct Config {
    port: u16,
}

fn main() {}
