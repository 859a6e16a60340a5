// Every attribute mistake of the `#[derive(Marshal)]` files beside this one,
// made under `#[derive(Unmarshal)]` alone: the decoder's derive reads the
// same attributes and reports the same errors.
use marshal::Unmarshal;

// attribute-missing-value.rs
#[derive(Unmarshal)]
enum MissingValue {
    #[marshal(tag)]
    A,
    B {
        #[marshal(with)]
        x: u32,
        #[marshal(skip = true)]
        y: u32,
    },
}

// attribute-without-parentheses.rs
#[derive(Unmarshal)]
#[marshal]
struct WithoutParentheses {
    #[marshal = "skip"]
    len: u32,
}

// duplicate-attribute.rs
#[derive(Unmarshal)]
struct DuplicateAttribute {
    #[marshal(skip, skip)]
    scratch: Vec<u8>,
}

// duplicate-tags.rs
#[derive(Unmarshal)]
enum DuplicateTags {
    A,
    #[marshal(tag = 0)]
    B,
}

#[derive(Unmarshal)]
enum DuplicateImplicitTags {
    #[marshal(tag = 1)]
    A,
    B,
}

// invalid-size-contract.rs
#[derive(Unmarshal)]
#[marshal(size = "sixteen")]
struct InvalidSizeContract {
    len: u64,
}

// invalid-tag-type.rs
#[derive(Unmarshal)]
#[marshal(tag_type = u64)]
enum InvalidTagType {
    A,
}

// invalid-tag-value.rs
#[derive(Unmarshal)]
enum InvalidTagValue {
    #[marshal(tag = -1)]
    Negative,
    #[marshal(tag = "2")]
    Quoted,
    #[marshal(tag = 18446744073709551616)]
    TooBig,
}

// misspelled-attribute.rs
#[derive(Unmarshal)]
#[marshal(tagtype = u8)]
enum Misspelled {
    #[marshal(tga = 3)]
    Ping,
}

// repr-packed.rs
#[derive(Unmarshal)]
#[repr(C, packed)]
struct Packed {
    tag: u8,
    len: u32,
}

// recursive-misuse.rs
#[derive(Unmarshal)]
struct RecursiveMisuse {
    #[marshal(recursive = true)]
    next: Option<Box<RecursiveMisuse>>,
    #[marshal(skip, recursive)]
    cache: u32,
    #[marshal(with = codecs, recursive)]
    len: u32,
}

// skip-and-with.rs
#[derive(Unmarshal)]
struct SkipAndWith {
    #[marshal(skip, with = codecs)]
    len: u32,
}

// skip-on-variant.rs
#[derive(Unmarshal)]
enum SkipOnVariant {
    #[marshal(skip)]
    Internal(u32),
}

// tag-does-not-fit-tag-type.rs
#[derive(Unmarshal)]
#[marshal(tag_type = u8)]
enum TagDoesNotFit {
    #[marshal(tag = 256)]
    Halt,
}

#[derive(Unmarshal)]
#[marshal(tag_type = u16)]
enum TagDoesNotFitU16 {
    #[marshal(tag = 0x1_0000)]
    A,
}

// tag-on-field.rs
#[derive(Unmarshal)]
struct TagOnField {
    #[marshal(tag = 1)]
    version: u8,
}

// tag-type-on-struct.rs
#[derive(Unmarshal)]
#[marshal(tag_type = u8)]
struct TagTypeOnStruct {
    x: i32,
}

// tag-type-on-variant.rs
#[derive(Unmarshal)]
enum TagTypeOnVariant {
    #[marshal(tag_type = u8)]
    Start,
}

// union.rs
#[derive(Unmarshal)]
union Bits {
    int: u32,
    float: f32,
}

// unknown-container-attribute.rs, unknown-field-attribute.rs,
// unknown-variant-attribute.rs
#[derive(Unmarshal)]
#[marshal(rename_all = "snake_case")]
enum Unknown {
    #[marshal(rename = "go")]
    Start {
        #[marshal(flatten)]
        port: u16,
    },
}

fn main() {}
