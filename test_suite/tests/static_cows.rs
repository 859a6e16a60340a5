//! `Cow<'static, T>` fields: no input outlives `'static`, so the derive
//! reads them owned (`adapters::Owned`, composed over `Option`, `Vec`,
//! `Box`, arrays and tuples), with the bytes, sizes and fingerprint of a
//! `Cow` that borrows, in `legacy()` and in every configuration.

use std::borrow::Cow;

use marshal::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal::{Marshal, Unmarshal};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Marshal, Unmarshal, Serialize, Deserialize)]
struct Label {
    name: Cow<'static, str>,
    bytes: Cow<'static, [u8]>,
    alias: Option<Cow<'static, str>>,
    all: Vec<Cow<'static, str>>,
    pair: (u8, Cow<'static, str>),
    runs: [Cow<'static, [u8]>; 2],
    boxed: Box<Cow<'static, str>>,
    id: u32,
}

/// `Cow`s of what never borrows.
#[derive(Debug, Clone, PartialEq, Marshal, Unmarshal, Serialize, Deserialize)]
struct Numbers {
    runs: [Cow<'static, [u32]>; 2],
    boxed: Box<Cow<'static, u64>>,
}

/// The same fields, borrowing where they can. (bincode 2's derive reads
/// these, not `Label`: it asks every `Cow` for a borrowed form, which a
/// `Cow<'static, _>` cannot have.)
#[derive(Marshal, Unmarshal, bincode2::Encode, bincode2::BorrowDecode)]
#[bincode(crate = "bincode2")]
struct Borrowing<'a> {
    name: Cow<'a, str>,
    bytes: Cow<'a, [u8]>,
    alias: Option<Cow<'a, str>>,
    all: Vec<Cow<'a, str>>,
    pair: (u8, Cow<'a, str>),
    runs: [Cow<'a, [u8]>; 2],
    boxed: Box<Cow<'a, str>>,
    id: u32,
}

fn label() -> Label {
    Label {
        name: Cow::Borrowed("disk"),
        bytes: Cow::Owned(vec![1, 2, 255]),
        alias: Some("drive".into()),
        all: vec!["a".into(), Cow::Owned("bé".into())],
        pair: (7, "p".into()),
        runs: [Cow::Borrowed(&[1, 3]), Cow::Owned(vec![70])],
        boxed: Box::new(Cow::Borrowed("boxed")),
        id: 3,
    }
}

/// `label` borrowed.
fn borrowed(label: &Label) -> Borrowing<'_> {
    fn b(c: &str) -> Cow<'_, str> {
        Cow::Borrowed(c)
    }
    Borrowing {
        name: b(&label.name),
        bytes: Cow::Borrowed(&label.bytes),
        alias: label.alias.as_deref().map(b),
        all: label.all.iter().map(|c| b(c)).collect(),
        pair: (label.pair.0, b(&label.pair.1)),
        runs: [Cow::Borrowed(&label.runs[0]), Cow::Borrowed(&label.runs[1])],
        boxed: Box::new(b(&label.boxed)),
        id: label.id,
    }
}

/// Every `Cow` in `label` is owned.
fn all_owned(label: &Label) -> bool {
    let owned = |c: &Cow<'static, str>| matches!(c, Cow::Owned(_));
    owned(&label.name)
        && matches!(label.bytes, Cow::Owned(_))
        && label.alias.as_ref().is_none_or(owned)
        && label.all.iter().all(owned)
        && owned(&label.pair.1)
        && label.runs.iter().all(|r| matches!(r, Cow::Owned(_)))
        && owned(&label.boxed)
}

#[test]
fn static_cows_decode_owned_with_bincodes_bytes() {
    let value = label();
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes, bincode::serialize(&value).unwrap());
    assert_eq!(value.encoded_len(), bytes.len());
    let back: Label = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(back, value);
    assert!(all_owned(&back));
    for cut in 0..bytes.len() {
        assert!(
            marshal::from_bytes::<Label>(&bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }

    let numbers = Numbers {
        runs: [Cow::Borrowed(&[1, 300]), Cow::Owned(vec![70_000])],
        boxed: Box::new(Cow::Owned(u64::MAX)),
    };
    let bytes = marshal::to_vec(&numbers);
    assert_eq!(bytes, bincode::serialize(&numbers).unwrap());
    assert_eq!(marshal::from_bytes::<Numbers>(&bytes).unwrap(), numbers);
    let c = config::standard();
    let bytes = marshal::encode_to_vec(&numbers, c);
    assert_eq!(bytes.len(), (1 + 1 + 3) + (1 + 5) + 9);
    let (back, _) = marshal::decode_from_slice::<Numbers, _>(&bytes, c).unwrap();
    assert_eq!(back, numbers);
    assert!(back.runs.iter().all(|r| matches!(r, Cow::Owned(_))));

    use bincode2::config as b2;
    in_config(&value, config::standard(), b2::standard());
    in_config(
        &value,
        config::standard().with_big_endian(),
        b2::standard().with_big_endian(),
    );
    in_config(
        &value,
        config::legacy().with_big_endian(),
        b2::legacy().with_big_endian(),
    );
}

fn in_config<C, B>(value: &Label, c: C, b: B)
where
    C: Config,
    Label: MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    B: bincode2::config::Config,
{
    let bytes = marshal::encode_to_vec(value, c);
    assert_eq!(bytes, bincode2::encode_to_vec(borrowed(value), b).unwrap());
    assert_eq!(marshal::encoded_len_with(value, c), bytes.len());
    let (back, used) = marshal::decode_from_slice::<Label, _>(&bytes, c).unwrap();
    assert_eq!((&back, used), (value, bytes.len()));
    assert!(all_owned(&back));
    let (theirs, _): (Borrowing, usize) = bincode2::borrow_decode_from_slice(&bytes, b).unwrap();
    assert_eq!(bincode2::encode_to_vec(theirs, b).unwrap(), bytes);
    for cut in 0..bytes.len() {
        assert!(marshal::decode_from_slice::<Label, _>(&bytes[..cut], c).is_err());
    }
}

#[test]
fn static_cows_have_the_sizes_and_fingerprint_of_borrowing_ones() {
    assert_eq!(Label::FINGERPRINT, Borrowing::FINGERPRINT);
    assert_eq!(Label::MAX_LEN, Borrowing::MAX_LEN);
    assert_eq!(
        <Label as Unmarshal>::MIN_LEN,
        <Borrowing as Unmarshal>::MIN_LEN
    );
    // A `Cow<'static, str>` is a string's.
    #[derive(Marshal)]
    struct Name {
        name: Cow<'static, str>,
    }
    #[derive(Marshal)]
    struct Owned {
        name: String,
    }
    assert_eq!(Name::FINGERPRINT, Owned::FINGERPRINT);
}
