// A mirror that does not match its foreign type: each difference is an
// error at the mirror's field or variant.
use marshal::{Marshal, Unmarshal};

mod other {
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    pub enum Command {
        Stop,
        Go(u8),
    }
}

// `y` is an `i32` there, and `z` does not exist.
#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Point)]
struct PointDef {
    x: i32,
    y: i64,
    z: i32,
}

// `x` is missing.
#[derive(Marshal)]
#[marshal(remote = other::Point)]
struct HalfPoint {
    y: i32,
}

// `Go` is missing.
#[derive(Unmarshal)]
#[marshal(remote = other::Command)]
enum CommandDef {
    Stop,
}

fn main() {}
