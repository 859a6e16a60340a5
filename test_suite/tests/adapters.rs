//! Adapters (`#[marshal(as = A)]`): an adapted field writes the bytes of
//! the type its adapter writes, keeps its sizes, fingerprint, depth limit,
//! budget and error offsets, and composes over containers, in every
//! configuration the adapters carry.

use marshal::adapters::{FromInto, Same, TryFromInto};
use marshal::config;
use marshal::{
    DecodeError, DecodeErrorKind, Marshal, MarshalAs, Overflow, Reader, Unmarshal, UnmarshalAs,
    Writer,
};
use marshal_test_suite::dialects::InEvery;

/// A type of "another crate": no `Marshal` of its own.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Level(u8);

impl From<&Level> for u16 {
    fn from(l: &Level) -> u16 {
        u16::from(l.0) * 10
    }
}

impl TryFrom<u16> for Level {
    type Error = ();
    fn try_from(v: u16) -> Result<Self, ()> {
        if v.is_multiple_of(10) && v <= 2550 {
            Ok(Level((v / 10) as u8))
        } else {
            Err(())
        }
    }
}

impl From<&Level> for u64 {
    fn from(l: &Level) -> u64 {
        u64::from(l.0)
    }
}

/// A manual impl that leaves its fingerprint to the default.
struct Opaque;

impl Marshal for Opaque {
    fn encoded_len(&self) -> usize {
        0
    }
    fn encode(&self, _: &mut Writer<'_>) -> Result<(), Overflow> {
        Ok(())
    }
}

/// Converts both ways without failing.
#[derive(Debug, Clone, PartialEq)]
struct Name(String);

impl From<&Name> for String {
    fn from(n: &Name) -> String {
        n.0.clone()
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(s)
    }
}

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Adapted {
    #[marshal(as = TryFromInto<u16>)]
    level: Level,
    #[marshal(as = FromInto<String>)]
    name: Name,
    #[marshal(as = Option<TryFromInto<u16>>)]
    maybe: Option<Level>,
    #[marshal(as = Vec<TryFromInto<u16>>)]
    history: Vec<Level>,
    #[marshal(as = [TryFromInto<u16>; 2])]
    pair: [Level; 2],
    #[marshal(as = Box<TryFromInto<u16>>)]
    boxed: Box<Level>,
    #[marshal(as = (Same, TryFromInto<u16>, Vec<Option<Same>>))]
    tuple: (u32, Level, Vec<Option<i8>>),
}

/// The same bytes, written by the types the adapters write.
#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Plain {
    level: u16,
    name: String,
    maybe: Option<u16>,
    history: Vec<u16>,
    pair: [u16; 2],
    boxed: Box<u16>,
    tuple: (u32, u16, Vec<Option<i8>>),
}

fn adapted(seed: u8) -> Adapted {
    Adapted {
        level: Level(seed),
        name: Name(format!("n{seed}")),
        maybe: seed.is_multiple_of(2).then_some(Level(seed / 2)),
        history: (0..seed % 5).map(Level).collect(),
        pair: [Level(1), Level(seed)],
        boxed: Box::new(Level(seed / 3)),
        tuple: (
            u32::from(seed) << 20,
            Level(7),
            vec![None, Some(seed as i8)],
        ),
    }
}

fn plain(a: &Adapted) -> Plain {
    let u = |l: &Level| u16::from(l);
    Plain {
        level: u(&a.level),
        name: a.name.0.clone(),
        maybe: a.maybe.as_ref().map(u),
        history: a.history.iter().map(u).collect(),
        pair: [u(&a.pair[0]), u(&a.pair[1])],
        boxed: Box::new(u(&a.boxed)),
        tuple: (a.tuple.0, u(&a.tuple.1), a.tuple.2.clone()),
    }
}

#[test]
fn adapted_fields_write_the_adapters_bytes_and_read_them_back() {
    for seed in 0..40u8 {
        let value = adapted(seed);
        let bytes = marshal::to_vec(&value);
        assert_eq!(bytes, marshal::to_vec(&plain(&value)), "seed {seed}");
        assert_eq!(value.encoded_len(), bytes.len());
        assert_eq!(marshal::from_bytes::<Adapted>(&bytes).unwrap(), value);
        // And bincode 1.3 reads them as the plain struct's.
        let theirs: (u16, String, Option<u16>, Vec<u16>, [u16; 2], u16) =
            bincode::deserialize(&bytes[..bytes.len() - value.tuple.encoded_len_of()]).unwrap();
        assert_eq!(theirs.0, u16::from(&value.level));
        assert_eq!(theirs.1, value.name.0);
        assert_eq!(theirs.5, u16::from(&*value.boxed));
    }
}

/// The tuple field's length, written by its adapters.
trait TupleLen {
    fn encoded_len_of(&self) -> usize;
}

impl TupleLen for (u32, Level, Vec<Option<i8>>) {
    fn encoded_len_of(&self) -> usize {
        <(Same, TryFromInto<u16>, Vec<Option<Same>>) as MarshalAs<_>>::encoded_len_as(self)
    }
}

#[test]
fn adapted_fields_in_every_configuration_write_the_adapters_bytes() {
    macro_rules! check {
        ($config:expr) => {
            for seed in 0..20u8 {
                let config = $config;
                let value = adapted(seed);
                let bytes = marshal::encode_to_vec(&value, config);
                assert_eq!(
                    bytes,
                    marshal::encode_to_vec(&plain(&value), config),
                    "seed {seed}"
                );
                assert_eq!(marshal::encoded_len_with(&value, config), bytes.len());
                let (back, used) =
                    marshal::decode_from_slice::<Adapted, _>(&bytes, config).unwrap();
                assert_eq!((back, used), (value, bytes.len()));
            }
        };
    }
    fn in_every<T: InEvery>() {}
    in_every::<Adapted>();
    check!(config::legacy());
    check!(config::standard());
    check!(config::standard().with_big_endian());
    check!(config::legacy().with_big_endian());
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Fixed {
    #[marshal(as = TryFromInto<u16>)]
    level: Level,
    #[marshal(as = [TryFromInto<u16>; 3])]
    levels: [Level; 3],
    #[marshal(as = (Same, TryFromInto<u16>))]
    pair: (u8, Level),
    tail: u32,
}

#[derive(Marshal, Unmarshal)]
struct FixedPlain {
    level: u16,
    levels: [u16; 3],
    pair: (u8, u16),
    tail: u32,
}

#[test]
fn a_struct_of_fixed_adapted_fields_keeps_its_sizes() {
    assert_eq!(Fixed::FIXED_LEN, Some(2 + 6 + 3 + 4));
    assert_eq!(Fixed::MAX_LEN, Some(15));
    assert_eq!(<Fixed as Unmarshal>::MIN_LEN, 15);
    const { assert!(<Fixed as Unmarshal>::MIN_LEN_IS_EXACT) };
    assert_eq!(Fixed::FIXED_LEN, FixedPlain::FIXED_LEN);
    // An adapted `Option` has the `Option`'s bound, and no fixed length.
    assert_eq!(
        <Option<TryFromInto<u16>> as MarshalAs<Option<Level>>>::MAX_LEN,
        Some(3)
    );
    assert_eq!(
        <Option<TryFromInto<u16>> as MarshalAs<Option<Level>>>::FIXED_LEN,
        None
    );
    assert_eq!(<Adapted as Marshal>::FIXED_LEN, None);
    assert_eq!(
        <Adapted as Unmarshal>::MIN_LEN,
        <Plain as Unmarshal>::MIN_LEN
    );
}

#[test]
fn adapted_fields_fingerprint_as_the_types_their_adapters_write() {
    assert_eq!(Adapted::FINGERPRINT, Plain::FINGERPRINT);
    assert_eq!(Fixed::FINGERPRINT, FixedPlain::FINGERPRINT);

    // Two spellings of one adapter.
    mod spelled {
        use marshal::{Marshal, adapters};

        #[derive(Marshal)]
        pub(crate) struct Short {
            #[marshal(as = adapters::TryFromInto<u16>)]
            pub(crate) level: super::Level,
        }

        #[derive(Marshal)]
        pub(crate) struct Long {
            #[marshal(as = ::marshal::adapters::TryFromInto<::core::primitive::u16>)]
            pub(crate) level: super::Level,
        }
    }
    assert_eq!(spelled::Short::FINGERPRINT, spelled::Long::FINGERPRINT);

    // Another adapter, other bytes: another fingerprint.
    #[derive(Marshal)]
    struct Wider {
        #[marshal(as = TryFromInto<u64>)]
        level: Level,
    }
    assert_ne!(Wider::FINGERPRINT, spelled::Short::FINGERPRINT);
}

#[test]
fn a_refused_conversion_is_an_error_at_the_value() {
    let mut bytes = marshal::to_vec(&adapted(3));
    // `level` is the first field: 31 is not a multiple of 10.
    bytes[0] = 31;
    let err = marshal::from_bytes::<Adapted>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidConversion);
    assert_eq!(err.offset(), 0);
    assert!(err.to_string().contains("Adapted.level"), "{err}");

    // Inside a vector, at the element.
    let value = Fixed {
        level: Level(1),
        levels: [Level(1), Level(2), Level(3)],
        pair: (0, Level(0)),
        tail: 0,
    };
    let mut bytes = marshal::to_vec(&value);
    bytes[4] = 1; // levels[1]
    let err = marshal::from_bytes::<Fixed>(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::InvalidConversion, 4)
    );
    assert!(err.to_string().contains("Fixed.levels"), "{err}");

    // In a varint configuration, at the value's first byte.
    let bytes = [251, 31, 0];
    let err = marshal::decode_from_slice::<Fixed, _>(&bytes, config::standard()).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::InvalidConversion, 0)
    );
}

#[test]
fn lengths_under_an_adapter_are_checked_against_the_input_and_the_budget() {
    #[derive(Marshal, Unmarshal, Debug)]
    struct Many {
        #[marshal(as = Vec<TryFromInto<u16>>)]
        levels: Vec<Level>,
    }
    // A length the input cannot hold: refused before anything is
    // allocated.
    let mut bytes = u64::MAX.to_le_bytes().to_vec();
    bytes.extend([0; 4]);
    let err = marshal::from_bytes::<Many>(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::LengthOverflow { len: u64::MAX }
    );
    assert_eq!(err.offset(), 0);

    // A length the input holds, over the budget.
    let value = Many {
        levels: vec![Level(1); 1000],
    };
    let bytes = marshal::to_vec(&value);
    let err = marshal::from_bytes_limited::<Many>(&bytes, 100).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 100 });
    assert_eq!(err.offset(), 8);
    assert_eq!(
        marshal::from_bytes_limited::<Many>(&bytes, 2000)
            .unwrap()
            .levels
            .len(),
        1000
    );
    // The same under a configuration's limit.
    let bytes = marshal::encode_to_vec(&value, config::standard());
    let err = marshal::decode_from_slice::<Many, _>(&bytes, config::standard().with_limit::<100>())
        .unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 100 });
}

/// A tree whose children are read through an adapter.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Tree {
    #[marshal(as = Vec<Same>)]
    children: Vec<Tree>,
}

#[test]
fn nesting_under_an_adapter_meets_the_depth_limit() {
    // `depth` trees, each the only child of the next: `[1u64]` repeated,
    // then `[0u64]`.
    let deep = |depth: usize| {
        let mut bytes = Vec::new();
        for _ in 0..depth {
            bytes.extend(1u64.to_le_bytes());
        }
        bytes.extend(0u64.to_le_bytes());
        bytes
    };
    let shallow = deep(10);
    let mut tree = marshal::from_bytes::<Tree>(&shallow).unwrap();
    let mut levels = 0;
    while let Some(child) = tree.children.pop() {
        tree = child;
        levels += 1;
    }
    assert_eq!(levels, 10);

    let hostile = deep(10_000);
    let err = marshal::from_bytes::<Tree>(&hostile).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
    // A reader's own limit applies inside the adapted field.
    let mut r = Reader::new(&shallow).with_max_depth(5);
    let err = Tree::decode(&mut r).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
}

/// An adapter written by hand, through the caller's writer and reader.
struct Celsius;

impl MarshalAs<f64> for Celsius {
    const FIXED_LEN: Option<usize> = Some(2);

    fn encoded_len_as(_: &f64) -> usize {
        2
    }

    fn encode_as(v: &f64, w: &mut Writer<'_>) -> Result<(), Overflow> {
        ((v * 100.0).round() as i16).encode(w)
    }
}

impl<'de> UnmarshalAs<'de, f64> for Celsius {
    const MIN_LEN: usize = 2;
    const MIN_LEN_IS_EXACT: bool = true;

    fn decode_as(r: &mut Reader<'de>) -> Result<f64, DecodeError> {
        i16::decode(r).map(|v| f64::from(v) / 100.0)
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Weather {
    station: u8,
    #[marshal(as = Celsius)]
    temp: f64,
    #[marshal(as = Vec<Celsius>)]
    hourly: Vec<f64>,
}

#[test]
fn a_hand_written_adapter_reads_through_the_callers_reader() {
    assert_eq!(
        <[Celsius; 4] as MarshalAs<[f64; 4]>>::FIXED_LEN,
        Some(8),
        "sizes compose"
    );
    let w = Weather {
        station: 3,
        temp: 21.5,
        hourly: vec![-1.25, 0.0],
    };
    let bytes = marshal::to_vec(&w);
    assert_eq!(
        bytes,
        [3, 0x66, 0x08, 2, 0, 0, 0, 0, 0, 0, 0, 0x83, 0xff, 0, 0]
    );
    assert_eq!(marshal::from_bytes::<Weather>(&bytes).unwrap(), w);
    // Cut in `hourly`'s second value: its length is checked against the
    // adapter's `MIN_LEN`, at the prefix's offset in the whole input.
    let err = marshal::from_bytes::<Weather>(&bytes[..14]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 2 });
    assert_eq!(err.offset(), 3);
    assert!(err.to_string().contains("Weather.hourly"), "{err}");
    // Cut in `temp`: the adapter's read, at its offset.
    let err = marshal::from_bytes::<Weather>(&bytes[..2]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::UnexpectedEnd { needed: 1 });
    assert_eq!(err.offset(), 1);
    assert!(err.to_string().contains("Weather.temp"), "{err}");
    // A hand-written adapter without a fingerprint is opaque.
    assert_eq!(
        <Celsius as MarshalAs<f64>>::FINGERPRINT,
        <Opaque as Marshal>::FINGERPRINT
    );
}

#[test]
fn an_adapted_field_of_a_generic_type_is_bound_by_its_adapter() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    struct Wrapper<T> {
        #[marshal(as = Vec<Same>)]
        items: Vec<T>,
        #[marshal(as = FromInto<String>)]
        name: Name,
    }
    let w = Wrapper {
        items: vec![1u16, 2],
        name: Name("x".into()),
    };
    let bytes = marshal::to_vec(&w);
    assert_eq!(marshal::from_bytes::<Wrapper<u16>>(&bytes).unwrap(), w);
    let bytes = marshal::encode_to_vec(&w, config::standard());
    assert_eq!(bytes, [2, 1, 2, 1, b'x']);
}

#[test]
fn adapted_fields_of_an_extensible_type_keep_its_versions() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct V1 {
        #[marshal(as = TryFromInto<u16>)]
        level: Level,
    }
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct V2 {
        #[marshal(as = TryFromInto<u16>)]
        level: Level,
        #[marshal(since = 2, default, as = Option<TryFromInto<u16>>)]
        next: Option<Level>,
    }
    let old = marshal::to_vec(&V1 { level: Level(4) });
    assert_eq!(old, [2, 0, 0, 0, 40, 0]);
    let read = marshal::from_bytes::<V2>(&old).unwrap();
    assert_eq!(
        read,
        V2 {
            level: Level(4),
            next: None
        }
    );
    let new = marshal::to_vec(&V2 {
        level: Level(4),
        next: Some(Level(5)),
    });
    assert_eq!(
        marshal::from_bytes::<V1>(&new).unwrap(),
        V1 { level: Level(4) }
    );
    let config = config::standard();
    let v2 = V2 {
        level: Level(4),
        next: Some(Level(5)),
    };
    let new_bytes = marshal::encode_to_vec(&v2, config);
    // The body's `u32` length, then 40 and 50 as varints.
    assert_eq!(new_bytes, [3, 0, 0, 0, 40, 1, 50]);
    let (back, _) = marshal::decode_from_slice::<V2, _>(&new_bytes, config).unwrap();
    assert_eq!(back, v2);
    let (old, _) = marshal::decode_from_slice::<V1, _>(&new_bytes, config).unwrap();
    assert_eq!(old, V1 { level: Level(4) });
}

/// Adapters that lie about their sizes get what a lying `Marshal` impl
/// gets (`tests/lying_impls.rs`): an error or a panic naming the
/// inconsistency, never a wrong encoding returned as right.
mod liars {
    use marshal::{
        DecodeError, Marshal, MarshalAs, Overflow, Reader, Unmarshal, UnmarshalAs, Writer,
    };

    /// Says 2 bytes, writes 4.
    pub(crate) struct Long;

    impl MarshalAs<u32> for Long {
        const FIXED_LEN: Option<usize> = Some(2);
        fn encoded_len_as(_: &u32) -> usize {
            2
        }
        fn encode_as(v: &u32, w: &mut Writer<'_>) -> Result<(), Overflow> {
            v.encode(w)
        }
    }

    /// Says every value is 1 byte exactly, reads 1 to 9.
    pub(crate) struct Inexact;

    impl<'de> UnmarshalAs<'de, Vec<u8>> for Inexact {
        const MIN_LEN: usize = 1;
        const MIN_LEN_IS_EXACT: bool = true;
        fn decode_as(r: &mut Reader<'de>) -> Result<Vec<u8>, DecodeError> {
            let [n] = r.take_array()?;
            Ok(r.take(usize::from(n % 9))?.to_vec())
        }
    }

    #[derive(Marshal)]
    pub(crate) struct Fixed {
        #[marshal(as = Long)]
        pub(crate) a: u32,
        pub(crate) b: u16,
    }

    #[derive(Unmarshal, Debug, PartialEq)]
    pub(crate) struct Exact {
        #[marshal(as = Inexact)]
        pub(crate) a: Vec<u8>,
        pub(crate) b: u8,
    }
}

#[test]
fn adapters_that_lie_about_their_sizes_are_caught() {
    use liars::{Exact, Fixed};
    let value = Fixed { a: 7, b: 1 };
    assert_eq!(Fixed::FIXED_LEN, Some(4));
    let mut buf = [0u8; 64];
    assert!(value.try_write_to(&mut buf).is_err());
    let panic = std::panic::catch_unwind(|| marshal::to_vec(&Fixed { a: 7, b: 1 }))
        .expect_err("a lying adapter must not encode");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("encoded_len"), "{message}");

    // A struct read as exact by the lying adapter's word: what it reads is
    // still bounded by the input, and a short input is an error.
    assert_eq!(
        marshal::from_bytes::<Exact>(&[0, 5]).unwrap(),
        Exact { a: vec![], b: 5 }
    );
    for input in [&[3u8, 1, 2, 3, 9][..], &[3, 1], &[8; 3], &[]] {
        let _ = marshal::from_bytes::<Exact>(input);
    }
    assert!(marshal::from_bytes::<Exact>(&[3, 1, 2]).is_err());
}
