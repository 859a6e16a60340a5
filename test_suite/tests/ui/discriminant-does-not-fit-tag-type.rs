use marshal::Marshal;

#[derive(Marshal)]
#[marshal(tag_type = u8, use_discriminant = true)]
enum Explicit {
    A = 1,
    B = 300,
}

// Implicit discriminants count on from the last explicit one, as in Rust.
#[derive(Marshal)]
#[marshal(tag_type = u8, use_discriminant = true)]
enum Implicit {
    A = 255,
    B,
}

// The default tag type is `u32`.
#[derive(Marshal)]
#[marshal(use_discriminant = true)]
#[repr(i64)]
enum Wide {
    A = 0x1_0000_0000,
}

fn main() {}
