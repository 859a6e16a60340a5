use marshal::Marshal;

#[derive(Marshal)]
enum Kind {
    #[marshal(tag)]
    A,
    B {
        #[marshal(with)]
        x: u32,
        #[marshal(skip = true)]
        y: u32,
    },
}

fn main() {}
