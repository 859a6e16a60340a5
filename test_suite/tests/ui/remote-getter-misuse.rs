// `getter` belongs to a written field of a `remote` mirror of a struct.
use marshal::Marshal;

mod other {
    pub struct Id(pub u32);

    pub enum Either {
        Left(u32),
        Right(u32),
    }
}

fn id(_: &Plain) -> u32 {
    0
}

fn left(_: &other::Either) -> u32 {
    0
}

fn first(id: &other::Id) -> u32 {
    id.0
}

// No `remote`: there is no foreign field to read.
#[derive(Marshal)]
struct Plain {
    #[marshal(getter = id)]
    id: u32,
}

// An enum's variants are matched by their fields.
#[derive(Marshal)]
#[marshal(remote = other::Either)]
enum EitherDef {
    Left(#[marshal(getter = left)] u32),
    Right(u32),
}

// A skipped field is never read.
#[derive(Marshal)]
#[marshal(remote = other::Id)]
struct IdDef(#[marshal(skip, getter = first)] u32);

mod be {
    pub fn encoded_len(_: &u32) -> usize {
        4
    }
    pub fn encode(v: &u32, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_array(v.to_be_bytes())
    }
}

// A `with` module borrows the field, which a getter returns by value.
#[derive(Marshal)]
#[marshal(remote = other::Id)]
struct IdBe(#[marshal(getter = first, with = be)] u32);

fn main() {}
