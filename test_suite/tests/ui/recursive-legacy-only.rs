// A field marked `recursive` takes no bound: with the feature `config`, its
// type must carry every configuration the type does, and a cycle through
// a type that only `config::legacy()` carries is an error at the field.
use marshal::{DecodeError, Marshal, Overflow, Reader, Unmarshal, Writer};

struct Manual(u8);

impl Marshal for Manual {
    fn encoded_len(&self) -> usize {
        1
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(self.0)
    }
}

impl<'de> Unmarshal<'de> for Manual {
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_u8().map(Manual)
    }
}

#[derive(Marshal, Unmarshal)]
enum Expr {
    Lit(i64),
    Block(#[marshal(recursive)] Vec<Stmt>),
}

#[derive(Marshal, Unmarshal)]
enum Stmt {
    Expr(Box<Expr>),
    Opaque(Manual),
}

fn main() {}
