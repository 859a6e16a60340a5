//! Every byte table in WIRE_FORMAT.md, as a test: each value encodes to
//! exactly the listed bytes, and those bytes decode back to the value.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use marshal::{Marshal, Unmarshal};
use marshal_test_suite::golden::{hex, row};

#[test]
fn integers() {
    row(1u8, "01");
    row(-1i8, "ff");
    row(0x1234u16, "34 12");
    row(-2i32, "fe ff ff ff");
    row(1u64, "01 00 00 00 00 00 00 00");
    row(300usize, "2c 01 00 00 00 00 00 00");
    row(1u128, &format!("01{}", " 00".repeat(15)));
}

#[test]
fn floats() {
    row(1.0f32, "00 00 80 3f");
    let neg_zero = marshal::to_vec(&-0.0f64);
    assert_eq!(neg_zero, hex("00 00 00 00 00 00 00 80"));
    let back: f64 = marshal::from_bytes(&neg_zero).unwrap();
    assert!(back == 0.0 && back.is_sign_negative());
}

#[test]
fn bool_char_unit() {
    row(true, "01");
    row('a', "61");
    row('é', "c3 a9");
    row('€', "e2 82 ac");
    row('😀', "f0 9f 98 80");
    row((), "");
}

#[test]
fn strings() {
    row(String::new(), "00 00 00 00 00 00 00 00");
    row(String::from("hé"), "03 00 00 00 00 00 00 00 68 c3 a9");
}

#[test]
fn sequences() {
    row(vec![1u16, 2], "02 00 00 00 00 00 00 00 01 00 02 00");
    row(Vec::<u64>::new(), "00 00 00 00 00 00 00 00");
}

#[test]
fn arrays_and_tuples() {
    row([1u8, 2, 3], "01 02 03");
    row((1u16, true), "01 00 01");
}

#[test]
fn options() {
    row(None::<u32>, "00");
    row(Some(7u32), "01 07 00 00 00");
}

#[test]
fn maps() {
    row(
        BTreeMap::from([(1u8, true)]),
        "01 00 00 00 00 00 00 00 01 01",
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Side {
    Buy,
    Sell,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Shape {
    Dot,
    Circle(f32),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8)]
enum Small {
    A,
    B,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Coded {
    #[marshal(tag = 200)]
    Ok,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = true)]
enum Status {
    Ok = 10,
    Moved = 20,
    Gone,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = false)]
enum Indexed {
    Ok = 10,
    Moved = 20,
}

#[test]
fn enums() {
    row(Side::Sell, "01 00 00 00");
    row(Shape::Circle(1.0), "01 00 00 00 00 00 80 3f");
    row(Small::B, "01");
    row(Coded::Ok, "c8 00 00 00");
    row(Status::Moved, "14 00 00 00");
    row(Status::Gone, "15 00 00 00");
    row(Indexed::Moved, "01 00 00 00");
    // The variants not in the table still round-trip.
    row(Side::Buy, "00 00 00 00");
    row(Shape::Dot, "00 00 00 00");
    row(Small::A, "00");
    row(Status::Ok, "0a 00 00 00");
    row(Indexed::Ok, "00 00 00 00");
}

#[test]
fn duration() {
    row(Duration::new(1, 5), "01 00 00 00 00 00 00 00 05 00 00 00");
}

#[test]
fn network_addresses() {
    row(Ipv4Addr::new(127, 0, 0, 1), "7f 00 00 01");
    row(
        "10.0.0.1:80".parse::<SocketAddr>().unwrap(),
        "00 00 00 00 0a 00 00 01 50 00",
    );
}

#[test]
fn sizes() {
    assert_eq!(u32::FIXED_LEN, Some(4));
    assert_eq!(char::FIXED_LEN, None);
    assert_eq!(char::MAX_LEN, Some(4));
    assert_eq!(<Option<u32>>::FIXED_LEN, None);
    assert_eq!(<Option<()>>::FIXED_LEN, Some(1));
    assert_eq!(<Option<u32>>::MAX_LEN, Some(5));
    assert_eq!(<[u16; 3]>::FIXED_LEN, Some(6));
    assert_eq!(<(u8, u64)>::FIXED_LEN, Some(9));
    assert_eq!(Side::FIXED_LEN, Some(4));
    assert_eq!(Shape::FIXED_LEN, None);
    assert_eq!(Shape::MAX_LEN, Some(8));
    assert_eq!(String::MAX_LEN, None);
    assert_eq!(Duration::FIXED_LEN, Some(12));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Order<'a> {
    id: u64,
    price: f64,
    symbol: &'a str,
    tags: Vec<String>,
    side: OrderSide,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum OrderSide {
    Buy,
    Sell,
    Limit { max: f64 },
}

#[test]
fn worked_example() {
    let order = Order {
        id: 42,
        price: 1.5,
        symbol: "AB",
        tags: vec!["x".into()],
        side: OrderSide::Limit { max: 2.0 },
    };
    let expected = hex("2a 00 00 00 00 00 00 00 \
         00 00 00 00 00 00 f8 3f \
         02 00 00 00 00 00 00 00 \
         41 42 \
         01 00 00 00 00 00 00 00 \
         01 00 00 00 00 00 00 00 78 \
         02 00 00 00 \
         00 00 00 00 00 00 00 40");
    assert_eq!(expected.len(), 55);
    assert_eq!(order.encoded_len(), 55);
    assert_eq!(marshal::to_vec(&order), expected);
    assert_eq!(marshal::from_bytes::<Order>(&expected).unwrap(), order);
}

/// Section 29: the configurations' rows, both directions.
#[test]
fn configurations() {
    use marshal::config;
    use marshal::config::{Config, MarshalIn, UnmarshalIn};
    use marshal_test_suite::dialects::InEvery;
    /// One row: its bytes in `standard()`, `standard().with_big_endian()`
    /// and `legacy().with_big_endian()`, each written and read back.
    fn rows<T: Debug + PartialEq + InEvery>(value: T, standard: &str, big: &str, legacy_big: &str) {
        fn one<T, C>(value: &T, c: C, bytes: &str)
        where
            T: Debug + PartialEq + MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
            C: Config,
        {
            let expected = hex(bytes);
            assert_eq!(marshal::encode_to_vec(value, c), expected, "{value:?}");
            let (back, used) = marshal::decode_from_slice::<T, _>(&expected, c).unwrap();
            assert_eq!((&back, used), (value, expected.len()));
        }
        one(&value, config::standard(), standard);
        one(&value, config::standard().with_big_endian(), big);
        one(&value, config::legacy().with_big_endian(), legacy_big);
    }
    rows(7u32, "07", "07", "00 00 00 07");
    rows(300u32, "fb 2c 01", "fb 01 2c", "00 00 01 2c");
    rows(
        65536u64,
        "fc 00 00 01 00",
        "fc 00 01 00 00",
        "00 00 00 00 00 01 00 00",
    );
    rows(-1i32, "01", "01", "ff ff ff ff");
    rows(-300i64, "fb 57 02", "fb 02 57", "ff ff ff ff ff ff fe d4");
    rows(-1i8, "ff", "ff", "ff");
    rows(
        String::from("hi"),
        "02 68 69",
        "02 68 69",
        "00 00 00 00 00 00 00 02 68 69",
    );
    rows(
        Some(1.0f32),
        "01 00 00 80 3f",
        "01 3f 80 00 00",
        "01 3f 80 00 00",
    );
    rows(
        vec![1u16, 300],
        "02 01 fb 2c 01",
        "02 01 fb 01 2c",
        "00 00 00 00 00 00 00 02 00 01 01 2c",
    );
    rows(
        Duration::new(1, 5),
        "01 05",
        "01 05",
        "00 00 00 00 00 00 00 01 00 00 00 05",
    );
    // Timestamps: their layout's integers.
    use marshal::time::Timestamp;
    rows(
        Timestamp::new(300, 5).unwrap(),
        "fb 2c 01 05",
        "fb 01 2c 05",
        "00 00 00 00 00 00 01 2c 00 00 00 05",
    );
    rows(
        Timestamp::new(-1, 0).unwrap(),
        "fd ff ff ff ff ff ff ff ff 00",
        "fd ff ff ff ff ff ff ff ff 00",
        "ff ff ff ff ff ff ff ff 00 00 00 00",
    );
    rows(
        std::time::UNIX_EPOCH + Duration::new(1, 5),
        "01 05",
        "01 05",
        "00 00 00 00 00 00 00 01 00 00 00 05",
    );
    let east = chrono::FixedOffset::east_opt(3600).unwrap();
    rows(
        chrono::DateTime::from_timestamp(1, 0)
            .unwrap()
            .with_timezone(&east),
        "01 00 fb 20 1c",
        "01 00 fb 1c 20",
        "00 00 00 00 00 00 00 01 00 00 00 00 00 00 0e 10",
    );
    rows(
        chrono::NaiveDate::from_ymd_opt(1969, 12, 31).unwrap(),
        "01",
        "01",
        "ff ff ff ff",
    );
    rows(
        chrono::NaiveTime::from_hms_opt(0, 0, 1).unwrap(),
        "fc 00 ca 9a 3b",
        "fc 3b 9a ca 00",
        "00 00 00 00 3b 9a ca 00",
    );
    rows(
        jiff::SignedDuration::new(-1, -5),
        "01 09",
        "01 09",
        "ff ff ff ff ff ff ff ff ff ff ff fb",
    );
    // Go's format, the same in every configuration.
    let go = marshal::time::GoTime::new(1_700_000_000, 5, None).unwrap();
    assert_eq!(
        marshal::encode_to_vec(&go, config::standard()),
        marshal::to_vec(&go)
    );
    // Extensible types: the body's length a `u32` in the byte order, the
    // fields and the tag in the configuration.
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct Ext {
        id: u32,
        name: String,
    }
    rows(
        Ext {
            id: 300,
            name: "hi".into(),
        },
        "06 00 00 00 fb 2c 01 02 68 69",
        "00 00 00 06 fb 01 2c 02 68 69",
        "00 00 00 0e 00 00 01 2c 00 00 00 00 00 00 00 02 68 69",
    );
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    enum ExtEnum {
        A,
        B(u16),
    }
    rows(
        ExtEnum::A,
        "00 00 00 00 00",
        "00 00 00 00 00",
        "00 00 00 00 00 00 00 00",
    );
    rows(
        ExtEnum::B(300),
        "01 03 00 00 00 fb 2c 01",
        "01 00 00 00 03 fb 01 2c",
        "00 00 00 01 00 00 00 02 01 2c",
    );
    // Network addresses and `NonZero`.
    rows(
        std::net::SocketAddr::from(([127, 0, 0, 1], 8080)),
        "00 7f 00 00 01 fb 90 1f",
        "00 7f 00 00 01 fb 1f 90",
        "00 00 00 00 7f 00 00 01 1f 90",
    );
    rows(
        std::num::NonZeroU32::new(300).unwrap(),
        "fb 2c 01",
        "fb 01 2c",
        "00 00 01 2c",
    );
    // Byte order under fixed-width integers.
    let c = config::legacy().with_big_endian();
    assert_eq!(marshal::encode_to_vec(&0x1234u16, c), hex("12 34"));
    assert_eq!(marshal::encode_to_vec(&1.0f32, c), hex("3f 80 00 00"));
    assert_eq!(
        marshal::encode_to_vec(&vec![1u8], c),
        hex("00 00 00 00 00 00 00 01 01")
    );
    assert_eq!(marshal::encode_to_vec(&('é', true), c), hex("c3 a9 01"));
    // Tags: `tag_type = u8` raw, `tag = N` the number written.
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(tag_type = u8)]
    enum Small {
        #[marshal(tag = 200)]
        A,
        #[marshal(tag = 255)]
        B(u16),
    }
    assert_eq!(
        marshal::encode_to_vec(&Small::A, config::standard()),
        hex("c8")
    );
    assert_eq!(
        marshal::encode_to_vec(&Small::B(300), config::standard()),
        hex("ff fb 2c 01")
    );
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    enum Wide {
        #[marshal(tag = 300)]
        A,
    }
    assert_eq!(
        marshal::encode_to_vec(&Wide::A, config::standard()),
        hex("fb 2c 01")
    );
    assert_eq!(
        marshal::decode_from_slice::<Wide, _>(&hex("fb 2c 01"), config::standard()).unwrap(),
        (Wide::A, 3)
    );
}
