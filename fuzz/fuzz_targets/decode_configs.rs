//! Decodes arbitrary bytes in every configuration but `legacy()`
//! (`marshal::config`): no input may panic or crash. On success the value
//! re-encodes to exactly `encoded_len_with` bytes, which decode to the same
//! value, taking all of them; and where each value has one encoding (no
//! floats, no maps, no varint written wider than needed), those are the
//! bytes that were read. The serde route (`marshal::serde::decode_from_slice`
//! with a configuration) is held to the same, through serde's derives.
#![no_main]

use std::collections::BTreeMap;
use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use marshal::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal::{Marshal, Unmarshal};

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Save {
    id: u64,
    name: String,
    level: Option<i16>,
    items: Vec<Item>,
    stats: [i32; 4],
    flags: (bool, char, u8, u128, isize),
    notes: BTreeMap<u32, String>,
    children: Vec<Vec<u8>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Item {
    Empty,
    Coins(u32),
    Named { label: String, weight: i64 },
    Nested(Box<Option<Item>>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u16)]
enum Compact {
    #[marshal(tag = 300)]
    A(u8),
    #[marshal(tag = 9)]
    B { x: Option<u64> },
}

/// Timestamps, addresses and `NonZero`: their layouts' integers, checked
/// as in `legacy()`.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Stamps {
    at: marshal::time::Timestamp,
    system: Option<std::time::SystemTime>,
    local: chrono::DateTime<chrono::FixedOffset>,
    day: time::Date,
    took: jiff::SignedDuration,
    go: marshal::time::GoTime,
    peer: std::net::SocketAddr,
    count: std::num::NonZeroU32,
}

/// Bytes only, in declaration order: on a little-endian target, a run of
/// them is read and written as its memory in every configuration.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[repr(C)]
struct Pixel {
    rgba: [u8; 4],
    alpha: i8,
}

/// Types that lead back to each other, and `Cow<'static, str>`s, which
/// are read owned.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Expr {
    Lit(i8),
    Block(#[marshal(recursive)] Vec<Stmt>),
    Call(std::borrow::Cow<'static, str>, Vec<Expr>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Stmt {
    Let(Option<std::borrow::Cow<'static, str>>, Box<Expr>),
    Expr(Expr),
}

/// A type of serde's data model: through the serde route.
#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
enum Doc {
    Empty,
    Note {
        id: u64,
        text: String,
        tags: Vec<(u16, Option<i32>)>,
    },
    Nested(Box<Doc>, Vec<u8>),
    Wide(u128, i128, char),
}

/// Decodes `data` as a `Doc` in `c` through the serde route and checks
/// what it decoded, as [`check`] does.
fn check_serde<C: Config>(data: &[u8], c: C) {
    let Ok((value, used)) = marshal::serde::decode_from_slice::<Doc, _>(data, c) else {
        return;
    };
    assert!(used <= data.len());
    let bytes = marshal::serde::encode_to_vec(&value, c).expect("encodes");
    assert_eq!(
        marshal::serde::encoded_len_with(&value, c).ok(),
        Some(bytes.len())
    );
    let (again, again_used) =
        marshal::serde::decode_from_slice::<Doc, _>(&bytes, c).expect("re-decodes");
    assert_eq!(again, value);
    assert_eq!(again_used, bytes.len());
    assert!(bytes.len() <= used, "{value:?}");
}

/// Decodes `data` as a `T` in `c` and checks what it decoded.
fn check<T, C>(data: &[u8], c: C)
where
    T: for<'de> UnmarshalIn<'de, C::Dialect> + MarshalIn<C::Dialect> + PartialEq + Debug,
    C: Config,
{
    let Ok((value, used)) = marshal::decode_from_slice::<T, _>(data, c) else {
        return;
    };
    assert!(used <= data.len());
    let bytes = marshal::encode_to_vec(&value, c);
    assert_eq!(bytes.len(), marshal::encoded_len_with(&value, c));
    let (again, again_used) = marshal::decode_from_slice::<T, _>(&bytes, c).expect("re-decodes");
    assert_eq!(again, value);
    assert_eq!(again_used, bytes.len());
    // A value read with no varint wider than it needed is written back as
    // it was read; whichever way, the encoding is never longer.
    assert!(bytes.len() <= used, "{value:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, data)) = data.split_first() else {
        return;
    };
    match which % 3 {
        0 => {
            check::<Save, _>(data, config::standard());
            check::<Vec<Save>, _>(data, config::standard());
            check::<(Vec<Pixel>, Box<Save>), _>(data, config::standard());
            check::<Vec<Compact>, _>(data, config::standard());
            check::<Stamps, _>(data, config::standard());
            // A struct that is its memory, on its own and built in place.
            check::<(Option<Pixel>, Box<Pixel>, Expr), _>(data, config::standard());
            check_serde(data, config::standard());
        }
        1 => {
            check::<Save, _>(data, config::standard().with_big_endian());
            check::<(Vec<Item>, [u16; 3]), _>(data, config::standard().with_big_endian());
            check::<(Vec<Pixel>, Vec<Save>), _>(data, config::standard().with_big_endian());
            check::<Stamps, _>(data, config::standard().with_big_endian());
            check::<(Option<Pixel>, Box<Pixel>, Expr), _>(
                data,
                config::standard().with_big_endian(),
            );
            check_serde(data, config::standard().with_big_endian());
        }
        _ => {
            check::<Save, _>(data, config::legacy().with_big_endian());
            check::<Vec<Compact>, _>(data, config::legacy().with_big_endian());
            check::<Stamps, _>(data, config::legacy().with_big_endian());
            check_serde(data, config::legacy().with_big_endian());
        }
    }
});
