use marshal::Marshal;

#[derive(Marshal)]
enum Event {
    #[marshal(tag_type = u8)]
    Start,
    Stop,
}

fn main() {}
