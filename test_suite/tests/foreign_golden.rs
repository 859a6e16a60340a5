//! WIRE_FORMAT.md section 26: each row of its table of bytes, written and
//! read back.

use arrayvec::{ArrayString, ArrayVec};
use bytes::{Bytes, BytesMut};
use compact_str::CompactString;
use indexmap::{IndexMap, IndexSet};
use rust_decimal::Decimal;
use smallvec::SmallVec;
use smol_str::SmolStr;
use uuid::Uuid;

use marshal_test_suite::golden::{hex, row};

#[test]
fn uuid() {
    row(
        Uuid::from_u128(0x0011_2233_4455_6677_8899_aabb_ccdd_eeff),
        "10 00 00 00 00 00 00 00 00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff",
    );
}

#[test]
fn index_map_and_set() {
    let mut map = IndexMap::new();
    map.insert("b", 1u8);
    map.insert("a", 2);
    let bytes =
        "02 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 62 01 01 00 00 00 00 00 00 00 61 02";
    assert_eq!(marshal::to_vec(&map), hex(bytes));
    let input = hex(bytes);
    let back: IndexMap<&str, u8> = marshal::from_bytes(&input).unwrap();
    assert_eq!(back.into_iter().collect::<Vec<_>>(), [("b", 1), ("a", 2)]);
    let set: IndexSet<u8> = [3, 1].into_iter().collect();
    row(set, "02 00 00 00 00 00 00 00 03 01");
}

#[test]
fn sequences() {
    let bytes = "02 00 00 00 00 00 00 00 01 00 02 00";
    row(SmallVec::<[u16; 1]>::from_slice(&[1, 2]), bytes);
    row([1u16, 2].into_iter().collect::<ArrayVec<u16, 4>>(), bytes);
    row(heapless::Vec::<u16, 4>::from_slice(&[1, 2]).unwrap(), bytes);
}

#[test]
fn strings() {
    let bytes = "03 00 00 00 00 00 00 00 68 c3 a9";
    row(ArrayString::<4>::from("hé").unwrap(), bytes);
    row(heapless::String::<4>::try_from("hé").unwrap(), bytes);
    row(CompactString::from("hé"), bytes);
    row(SmolStr::new("hé"), bytes);
}

#[test]
fn hash_map_and_set() {
    let map: hashbrown::HashMap<String, u8> = [("a".to_owned(), 2)].into_iter().collect();
    row(map, "01 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 61 02");
    let set: hashbrown::HashSet<u8> = [3].into_iter().collect();
    row(set, "01 00 00 00 00 00 00 00 03");
}

#[test]
fn decimals() {
    row(
        Decimal::new(-1250, 2),
        "06 00 00 00 00 00 00 00 2d 31 32 2e 35 30",
    );
    row(Decimal::new(5, 2), "04 00 00 00 00 00 00 00 30 2e 30 35");
    row(Decimal::ZERO, "01 00 00 00 00 00 00 00 30");
}

#[test]
fn byte_buffers() {
    let bytes = "02 00 00 00 00 00 00 00 68 69";
    row(Bytes::from_static(b"hi"), bytes);
    row(BytesMut::from(&b"hi"[..]), bytes);
}
