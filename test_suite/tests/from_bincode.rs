//! The crate docs' "Coming from bincode": each bincode 1.3 call and its
//! replacements, on the derive route and the serde route, give the same
//! bytes and read the same values. The first test is that section's
//! example.

use std::io::{Read, Write};

use marshal::{Marshal, Unmarshal};
use serde::{Deserialize, Serialize};

#[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq)]
struct Order {
    id: u64,
    symbol: String,
    legs: Vec<(u32, f64)>,
}

fn order() -> Order {
    Order {
        id: 7,
        symbol: "ACME".into(),
        legs: vec![(1, 99.5)],
    }
}

#[test]
fn the_coming_from_bincode_example() -> Result<(), Box<dyn std::error::Error>> {
    let order = order();
    let old = bincode::serialize(&order)?;

    assert_eq!(marshal::to_vec(&order), old); // derive route
    assert_eq!(marshal::serde::to_vec(&order)?, old); // serde route
    assert_eq!(
        order.encoded_len() as u64,
        bincode::serialized_size(&order)?
    );
    assert_eq!(marshal::from_bytes::<Order>(&old)?, order);
    assert_eq!(marshal::serde::from_bytes::<Order>(&old)?, order);
    Ok(())
}

#[test]
fn serialize() -> Result<(), Box<dyn std::error::Error>> {
    let v = order();
    let old = bincode::serialize(&v)?;
    assert_eq!(marshal::to_vec(&v), old);
    assert_eq!(marshal::serde::to_vec(&v)?, old);
    Ok(())
}

#[test]
fn serialize_into() -> Result<(), Box<dyn std::error::Error>> {
    let v = order();
    let mut old = Vec::new();
    bincode::serialize_into(&mut old, &v)?;

    // Any `io::Write`.
    let (mut w, mut scratch) = (Vec::new(), Vec::new());
    marshal::write_all(&v, &mut w, &mut scratch)?;
    assert_eq!(w, old);
    let mut w = Vec::new();
    w.write_all(&marshal::serde::to_vec(&v)?)?;
    assert_eq!(w, old);

    // A slice.
    let mut buf = [0u8; 64];
    let n = v.write_to(&mut buf);
    assert_eq!(buf[..n], old[..]);
    let mut buf = [0u8; 64];
    let n = marshal::serde::write_to(&v, &mut buf)?;
    assert_eq!(buf[..n], old[..]);
    Ok(())
}

#[test]
fn serialized_size() -> Result<(), Box<dyn std::error::Error>> {
    let v = order();
    let old: u64 = bincode::serialized_size(&v)?;
    let derived: usize = v.encoded_len();
    assert_eq!(derived as u64, old);
    assert_eq!(marshal::serde::encoded_len(&v)? as u64, old);
    Ok(())
}

#[test]
fn deserialize() -> Result<(), Box<dyn std::error::Error>> {
    let v = order();
    let bytes = bincode::serialize(&v)?;
    let old: Order = bincode::deserialize(&bytes)?;
    assert_eq!(marshal::from_bytes::<Order>(&bytes)?, old);
    assert_eq!(marshal::serde::from_bytes::<Order>(&bytes)?, old);

    // Trailing bytes: bincode ignores them, `from_bytes` rejects them,
    // `read_from` ignores them.
    let longer = [&bytes[..], &[0xff]].concat();
    assert_eq!(bincode::deserialize::<Order>(&longer)?, v);
    assert!(marshal::from_bytes::<Order>(&longer).is_err());
    assert!(marshal::serde::from_bytes::<Order>(&longer).is_err());
    assert_eq!(Order::read_from(&longer)?.0, v);
    assert_eq!(marshal::serde::read_from::<Order>(&longer)?.0, v);
    Ok(())
}

#[test]
fn deserialize_from() -> Result<(), Box<dyn std::error::Error>> {
    let v = order();
    let bytes = bincode::serialize(&v)?;
    let old: Order = bincode::deserialize_from(&bytes[..])?;

    // Read the bytes, then decode; `read_from` returns the bytes used.
    let mut r = &bytes[..];
    let mut buf = Vec::new();
    r.read_to_end(&mut buf)?;
    assert_eq!(Order::read_from(&buf)?, (old, bytes.len()));
    let (back, used) = marshal::serde::read_from::<Order>(&buf)?;
    assert_eq!((back, used), (v, bytes.len()));

    // A stream of values: frames.
    let codec = marshal::frame::Codec::new();
    let mut stream = Vec::new();
    codec.encode_into_vec(&order(), &mut stream)?;
    match codec.decode::<Order>(&stream)? {
        marshal::frame::Decoded::Frame { value, len } => {
            assert_eq!((value, len), (order(), stream.len()));
        }
        marshal::frame::Decoded::Incomplete { .. } => panic!("a whole frame"),
    }
    Ok(())
}
