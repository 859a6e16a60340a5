use marshal::Marshal;

#[derive(Marshal)]
enum Kind {
    #[marshal(tag = -1)]
    Negative,
    #[marshal(tag = "2")]
    Quoted,
    #[marshal(tag = 18446744073709551616)]
    TooBig,
}

fn main() {}
