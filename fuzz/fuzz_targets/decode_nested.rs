//! Decodes arbitrary bytes as a nested owned type. On success the value must
//! re-encode to exactly `encoded_len()` bytes that decode to an equal value.
//! Where every value has one encoding, those must be the very bytes that
//! were read; maps are the exception, since a repeated key is accepted (the
//! last one wins, as in bincode) and so is not written back.
#![no_main]

mod common;

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use marshal::{Marshal, Unmarshal};

use common::check;

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Save {
    id: u64,
    name: String,
    level: Option<u16>,
    items: Vec<Item>,
    stats: [i32; 4],
    flags: (bool, char, u8),
    notes: BTreeMap<u32, String>,
    children: Vec<Vec<u8>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Item {
    Empty,
    Coins(u32),
    Named { label: String, weight: i16 },
    Nested(Box<Option<Item>>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8)]
enum Compact {
    #[marshal(tag = 3)]
    A(u8),
    #[marshal(tag = 9)]
    B { x: Option<u64> },
}

fuzz_target!(|data: &[u8]| {
    // Two types over the same input also catch state leaking between calls.
    check::<Save>(data, false);
    check::<Vec<Compact>>(data, true);
    check::<(Vec<Item>, [i32; 4])>(data, true);
});
