// An adapter that does not adapt the field's type: each is reported at the
// adapter in the attribute, with what to implement.
use marshal::adapters::FromInto;
use marshal::{Marshal, Unmarshal};

struct NotAnAdapter;

/// What `Celsius` should be written as: `FromInto<Wire>` needs `Wire:
/// From<&Celsius>` to write it and `Celsius: From<Wire>` to read it back.
#[derive(Marshal, Unmarshal)]
struct Wire(i16);

struct Celsius(f32);

#[derive(Marshal, Unmarshal)]
struct Reading {
    #[marshal(as = NotAnAdapter)]
    a: u32,
    #[marshal(as = Vec<NotAnAdapter>)]
    b: Vec<u32>,
    #[marshal(as = FromInto<Wire>)]
    c: Celsius,
}

fn main() {}
