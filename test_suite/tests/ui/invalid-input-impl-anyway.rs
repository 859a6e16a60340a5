use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u7)]
enum Broken {
    A,
    B(u32),
}

// Only the attribute error above is reported: the derive still emits an
// impl, so using the type as `Marshal` causes no follow-on error.
fn size<T: Marshal>(value: &T) -> usize {
    value.encoded_len()
}

fn main() {
    let _ = size(&Broken::B(1));
    let _ = marshal::to_vec(&Broken::A);
    let _ = Broken::FIXED_LEN;
}
