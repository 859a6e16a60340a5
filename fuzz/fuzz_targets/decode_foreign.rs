//! Decodes arbitrary bytes as other crates' types and, through the serde
//! bridge, as serde types.
//!
//! - Other crates' types: what decodes re-encodes to the bytes that were
//!   read (maps and sets with a repeated entry, and the forms of a `Decimal`
//!   other than the one written, excepted), and decodes back to an equal
//!   value; a `Decimal` reads as bincode reads it.
//! - The serde bridge: it accepts exactly the prefixes bincode 1.3 accepts,
//!   as the same values, for types with no zero-sized items and no
//!   recursion (where WIRE_FORMAT.md lists deviations); what decodes
//!   re-encodes to the bytes that were read.
#![no_main]

mod common;

use arrayvec::{ArrayString, ArrayVec};
use bytes::Bytes;
use compact_str::CompactString;
use indexmap::{IndexMap, IndexSet};
use libfuzzer_sys::fuzz_target;
use marshal::Unmarshal;
use rust_decimal::Decimal;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use smol_str::SmolStr;
use uuid::Uuid;

use common::check;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Shape {
    Unit,
    Newtype(String),
    Tuple(u16, bool, Option<char>),
    Struct { x: f32, y: Vec<u8>, z: (i64, u128) },
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Record<'a> {
    id: u64,
    name: &'a str,
    #[serde(with = "serde_bytes")]
    raw: &'a [u8],
    shapes: Vec<Shape>,
    index: std::collections::BTreeMap<String, Option<i32>>,
    at: Option<Uuid>,
}

/// marshal's bridge and bincode agree on `data`'s prefix; what the bridge
/// reads re-encodes to the bytes it read (floats by their bits, so NaNs
/// compare).
fn bridge<T: Serialize + DeserializeOwned + std::fmt::Debug>(data: &[u8]) {
    let ours = marshal::serde::read_from::<T>(data);
    let theirs = bincode::deserialize::<T>(data);
    assert_eq!(ours.is_ok(), theirs.is_ok(), "{ours:?} vs {theirs:?}");
    if let (Ok((value, used)), Ok(other)) = (ours, theirs) {
        let bytes = marshal::serde::to_vec(&value).expect("re-encodes");
        assert_eq!(bytes, data[..used]);
        assert_eq!(
            bincode::serialize(&other).expect("bincode re-encodes"),
            bytes
        );
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Uuid>(data, true);
    check::<SmallVec<[u16; 4]>>(data, true);
    check::<SmallVec<[String; 2]>>(data, true);
    check::<ArrayVec<u32, 8>>(data, true);
    check::<ArrayString<16>>(data, true);
    check::<heapless::Vec<u16, 8>>(data, true);
    check::<heapless::String<16>>(data, true);
    check::<Bytes>(data, true);
    check::<IndexMap<u8, String>>(data, false);
    check::<IndexSet<u32>>(data, false);
    check::<hashbrown::HashMap<u8, String>>(data, false);
    check::<hashbrown::HashSet<u32>>(data, false);
    check::<CompactString>(data, true);
    check::<SmolStr>(data, true);
    // `1e3`, `+1` and `1_000` decode too, and re-encode as `1000`.
    check::<Decimal>(data, false);
    check::<Vec<Decimal>>(data, false);

    bridge::<(u8, String, Option<u64>)>(data);
    bridge::<Shape>(data);
    bridge::<Vec<Shape>>(data);
    bridge::<Uuid>(data);
    bridge::<heapless::Vec<u16, 4>>(data);
    // A `Decimal` reads as bincode reads it through rust_decimal's serde
    // support, to the same value, scale and sign included.
    let ours = Decimal::read_from(data).map(|(d, _)| d.serialize());
    let theirs = bincode::deserialize::<Decimal>(data).map(|d| d.serialize());
    assert_eq!(ours.ok(), theirs.ok());
    let ours = marshal::serde::read_from::<Record<'_>>(data);
    let theirs = bincode::deserialize::<Record<'_>>(data);
    assert_eq!(ours.is_ok(), theirs.is_ok());
    if let (Ok((value, _)), Ok(other)) = (ours, theirs) {
        assert_eq!(
            marshal::serde::to_vec(&value).expect("re-encodes"),
            bincode::serialize(&other).expect("bincode re-encodes")
        );
    }
});
