use marshal::Marshal;

#[derive(Marshal)]
enum Command {
    #[marshal(rename = "go")]
    Start,
    Stop,
}

fn main() {}
