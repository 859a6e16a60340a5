use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u8, tag_type = u16, colour = "red")]
enum Everything {
    #[marshal(tag = 300)]
    A,
    #[marshal(tga = 1)]
    B(#[marshal(skip, skip)] u8),
    C {
        #[marshal(skip, with = codecs)]
        x: u8,
        #[marshal(tag = 1)]
        y: u8,
    },
    #[marshal(tag = 300)]
    D,
}

fn main() {}
