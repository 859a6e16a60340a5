use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum Opcode {
    Nop,
    #[marshal(tag = 256)]
    Halt,
}

#[derive(Marshal)]
#[marshal(tag_type = u16)]
enum Wide {
    #[marshal(tag = 0x1_0000)]
    A,
}

fn main() {}
