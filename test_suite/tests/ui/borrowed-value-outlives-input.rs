use marshal::Unmarshal;

#[derive(Unmarshal)]
struct Name<'a> {
    text: &'a str,
}

// A decoded `&str` points into the input: the value cannot outlive it.
fn decode() -> Name<'static> {
    let input = marshal::to_vec("ferris");
    marshal::from_bytes(&input).unwrap()
}

fn main() {
    let _ = decode();
}
