use marshal::Marshal;

#[derive(Marshal)]
enum Packet {
    #[marshal(tag = 5)]
    #[marshal(tag = 6)]
    Ack,
    Data {
        #[marshal(skip, skip)]
        scratch: Vec<u8>,
    },
}

fn main() {}
