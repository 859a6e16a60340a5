//! The length every value of a type takes in a configuration, where the
//! type knows it (`MarshalIn::__FIXED_LEN`): what lets a fixed-size value
//! be written behind one bounds check, as `legacy()` writes it
//! (`Marshal::FIXED_LEN`). Integers wider than a byte have one only where
//! they are fixed-width; bytes, floats and arrays of them have one
//! everywhere; a derived struct has its fields' sum.

use std::fmt::Debug;

use marshal::config::{
    BigEndian, Config, Dialect, Encoding, Fixint, Legacy, LittleEndian, MarshalIn, UnmarshalIn,
    Varint,
};
use marshal::{Marshal, Unmarshal};

type Standard = Encoding<LittleEndian, Varint>;
type StandardFixed = Encoding<LittleEndian, Fixint>;
type BigFixed = Encoding<BigEndian, Fixint>;
type BigVarint = Encoding<BigEndian, Varint>;

#[derive(Debug, PartialEq, Marshal, Unmarshal)]
struct Ints {
    a: u32,
    b: i64,
    c: f32,
    d: usize,
}

#[derive(Debug, PartialEq, Marshal, Unmarshal)]
struct Floats {
    position: [f32; 3],
    color: [u8; 4],
    on: bool,
    unit: (),
}

#[derive(Debug, PartialEq, Marshal, Unmarshal)]
struct Optional {
    ints: Option<Ints>,
    floats: Option<Floats>,
    name: String,
}

fn fixed<T: MarshalIn<D>, D: Dialect>() -> Option<usize> {
    <T as MarshalIn<D>>::__FIXED_LEN
}

#[test]
fn fixed_lengths_follow_the_integer_encoding() {
    // In `legacy()`, the `Marshal` impl's.
    assert_eq!(fixed::<Ints, Legacy>(), Ints::FIXED_LEN);
    assert_eq!(fixed::<Ints, Legacy>(), Some(24));
    // Fixed-width integers, in either byte order: the same widths.
    assert_eq!(fixed::<Ints, StandardFixed>(), Some(24));
    assert_eq!(fixed::<Ints, BigFixed>(), Some(24));
    assert_eq!(fixed::<(u16, i128, usize), BigFixed>(), Some(26));
    // Variable-length integers: none.
    assert_eq!(fixed::<Ints, Standard>(), None);
    assert_eq!(fixed::<u16, BigVarint>(), None);
    assert_eq!(fixed::<(u8, u128), Standard>(), None);
    // Bytes, floats and their arrays: in every configuration.
    for len in [
        fixed::<Floats, Standard>(),
        fixed::<Floats, BigVarint>(),
        fixed::<Floats, BigFixed>(),
        fixed::<Floats, Legacy>(),
    ] {
        assert_eq!(len, Some(17));
    }
    assert_eq!(fixed::<[Floats; 3], Standard>(), Some(51));
    assert_eq!(fixed::<[u64; 0], Standard>(), Some(0));
    // An `Option` only of a zero-length value; a `String` never.
    assert_eq!(fixed::<Option<()>, Standard>(), Some(1));
    assert_eq!(fixed::<Option<Floats>, Standard>(), None);
    assert_eq!(fixed::<Optional, BigFixed>(), None);
    assert_eq!(
        fixed::<std::time::Duration, BigFixed>(),
        <std::time::Duration as Marshal>::FIXED_LEN
    );
    assert_eq!(fixed::<std::time::Duration, Standard>(), None);
}

/// Checks `value` in `config` against `tuple`, its fields as a tuple:
/// the same bytes (the fields written one by one), the length it says is
/// the length written and its fixed length where it has one, it reads
/// back, and a buffer one byte short takes nothing and says how much was
/// needed. Returns the bytes.
fn check<T, U, C>(config: C, value: &T, tuple: &U) -> Vec<u8>
where
    T: MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect> + PartialEq + Debug,
    U: MarshalIn<C::Dialect>,
    C: Config,
{
    let bytes = marshal::encode_to_vec(value, config);
    assert_eq!(bytes, marshal::encode_to_vec(tuple, config));
    assert_eq!(marshal::encoded_len_with(value, config), bytes.len());
    if let Some(n) = <T as MarshalIn<C::Dialect>>::__FIXED_LEN {
        assert_eq!(n, bytes.len());
    }
    let (decoded, used) = marshal::decode_from_slice::<T, _>(&bytes, config).unwrap();
    assert_eq!((&decoded, used), (value, bytes.len()));
    let mut buf = vec![0xEE; bytes.len()];
    assert_eq!(
        marshal::encode_into_slice(value, &mut buf, config),
        Ok(bytes.len())
    );
    assert_eq!(buf, bytes);
    let mut short = vec![0xEE; bytes.len() - 1];
    let err = marshal::encode_into_slice(value, &mut short, config).unwrap_err();
    assert_eq!((err.needed, err.available), (bytes.len(), bytes.len() - 1));
    bytes
}

/// Where a value has a fixed length in a configuration, it is what is
/// written, in every configuration, and the bytes are those of the fields
/// written one by one.
#[test]
fn a_fixed_length_is_what_is_written() {
    let ints = Ints {
        a: 300,
        b: -2,
        c: 1.5,
        d: 70_000,
    };
    let ints_tuple = (ints.a, ints.b, ints.c, ints.d);
    let floats = Floats {
        position: [1.0, -2.5, 1e30],
        color: [1, 2, 3, 255],
        on: true,
        unit: (),
    };
    let floats_tuple = (floats.position, floats.color, floats.on, floats.unit);

    let c = marshal::config::standard();
    // 300, -2, 1.5 and 70,000: 3 + 1 + 4 + 5 bytes.
    assert_eq!(check(c, &ints, &ints_tuple).len(), 13);
    assert_eq!(check(c.with_big_endian(), &ints, &ints_tuple).len(), 13);
    let fixed = c.with_fixed_int_encoding();
    assert_eq!(check(fixed, &ints, &ints_tuple).len(), 24);
    let big_fixed = fixed.with_big_endian();
    assert_eq!(
        check(big_fixed, &ints, &ints_tuple)[..4],
        300u32.to_be_bytes()
    );
    for bytes in [
        check(c, &floats, &floats_tuple),
        check(c.with_big_endian(), &floats, &floats_tuple),
        check(fixed, &floats, &floats_tuple),
        check(big_fixed, &floats, &floats_tuple),
    ] {
        assert_eq!(bytes.len(), 17);
    }

    // Options of fixed-size values, and a string after its length.
    let some = Optional {
        ints: Some(ints),
        floats: Some(floats),
        name: "name".into(),
    };
    let none = Optional {
        ints: None,
        floats: None,
        name: String::new(),
    };
    for value in [some, none] {
        let tuple = (
            value.ints.as_ref().map(|i| (i.a, i.b, i.c, i.d)),
            value
                .floats
                .as_ref()
                .map(|f| (f.position, f.color, f.on, f.unit)),
            value.name.clone(),
        );
        check(c, &value, &tuple);
        check(fixed, &value, &tuple);
        let bytes = check(big_fixed, &value, &tuple);
        // The string's length is a big-endian `u64` before its bytes.
        let at = bytes.len() - value.name.len() - 8;
        assert_eq!(bytes[at..at + 8], (value.name.len() as u64).to_be_bytes());
    }
}
