use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tagtype = u8)]
enum Message {
    #[marshal(tga = 3)]
    Ping,
    Data {
        #[marshal(skp)]
        cache: u32,
        #[marshal(wiht = be)]
        len: u32,
    },
}

fn main() {}
