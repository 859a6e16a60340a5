//! Behaviour of `#[derive(Marshal)]` and `#[derive(Unmarshal)]`: the exact
//! bytes, `encoded_len`, `FIXED_LEN` and `MAX_LEN` of derived types, and
//! that the same bytes decode back, with `MIN_LEN` and `MIN_LEN_IS_EXACT`
//! to match; then what only decoding has: skipped fields filled with
//! `Default`, `with` modules' `read_from`, tags that name no variant, and
//! fields that borrow from the input.
//!
//! Expected bytes are written out by hand from bincode 1.x's default rules:
//! little-endian integers, a `u64` length before strings and sequences, a
//! `u32` variant index before an enum's fields, and `Option` as a 0/1 byte.
//! Where a type also derives serde's `Serialize` and `Deserialize`, bincode
//! itself is asked too.

use std::borrow::Cow;
use std::fmt::Debug;
use std::marker::PhantomData;

use marshal::{BufferTooSmall, DecodeErrorKind, Marshal, Reader, Unmarshal, Writer};
use marshal_test_suite::checks::{assert_decode_error, borrows_from};
use marshal_test_suite::fixtures::{NotMarshal, Rgb, be_u32};
use serde::de::DeserializeOwned;

/// Encodes `value` through every entry point, checks that they agree with
/// each other, with `encoded_len` and with the size constants, and returns
/// the bytes.
#[track_caller]
fn bytes<T: Marshal + ?Sized>(value: &T) -> Vec<u8> {
    let n = value.encoded_len();
    if let Some(fixed) = T::FIXED_LEN {
        assert_eq!(n, fixed, "encoded_len differs from FIXED_LEN");
    }
    if let Some(max) = T::MAX_LEN {
        assert!(n <= max, "encoded_len {n} exceeds MAX_LEN {max}");
    }

    // `write_to` writes exactly `n` bytes and leaves the rest alone.
    let mut buf = vec![0xA5; n + 3];
    assert_eq!(
        value.write_to(&mut buf),
        n,
        "write_to returned a wrong length"
    );
    assert!(
        buf[n..].iter().all(|&b| b == 0xA5),
        "write_to wrote past encoded_len"
    );
    buf.truncate(n);

    // An exact buffer is enough, one byte less is not.
    let mut exact = vec![0; n];
    assert_eq!(value.try_write_to(&mut exact), Ok(n));
    assert_eq!(exact, buf);
    if n > 0 {
        let mut short = vec![0; n - 1];
        assert_eq!(
            value.try_write_to(&mut short),
            Err(BufferTooSmall {
                needed: n,
                available: n - 1
            })
        );
    }

    // The low-level path through a `Writer`.
    let mut raw = vec![0; n];
    let mut w = Writer::new(&mut raw);
    value.encode(&mut w).unwrap();
    assert_eq!(w.written(), n);
    assert_eq!(raw, buf);

    assert_eq!(marshal::to_vec(value), buf);
    buf
}

/// Decodes `input` through every entry point, checks that they agree with
/// each other and with the size constants, that every shorter input is an
/// error, and returns the value.
#[track_caller]
fn decoded<'de, T: Unmarshal<'de> + PartialEq + Debug>(input: &'de [u8]) -> T {
    let n = input.len();
    assert!(T::MIN_LEN <= n, "MIN_LEN {} exceeds {n}", T::MIN_LEN);
    if T::MIN_LEN_IS_EXACT {
        assert_eq!(n, T::MIN_LEN, "MIN_LEN_IS_EXACT, but not this length");
    }
    let value = marshal::from_bytes::<T>(input).expect("from_bytes");
    let (again, used) = T::read_from(input).expect("read_from");
    assert_eq!(again, value, "read_from gives another value");
    assert_eq!(used, n, "read_from left bytes unread");
    let mut r = Reader::new(input);
    assert_eq!(T::decode(&mut r).expect("decode"), value);
    assert_eq!(r.position(), n, "decode left bytes unread");
    for short in 0..n {
        assert!(
            marshal::from_bytes::<T>(&input[..short]).is_err(),
            "{short} of {n} bytes decode"
        );
    }
    value
}

/// [`bytes`], and [`decodes_back`] from them.
#[track_caller]
fn both<T>(value: &T) -> Vec<u8>
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    let out = bytes(value);
    decodes_back(value, &out);
    out
}

/// [`decoded`] of `out` gives `value` back; a byte after it is a
/// `TrailingBytes` error to `from_bytes`, and left alone by `read_from`.
#[track_caller]
fn decodes_back<T>(value: &T, out: &[u8])
where
    T: for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    assert_eq!(&decoded::<T>(out), value, "decoding gives another value");
    let longer = [out, &[0xA5]].concat();
    assert_eq!(
        marshal::from_bytes::<T>(&longer).map_err(|e| e.kind()),
        Err(DecodeErrorKind::TrailingBytes { count: 1 })
    );
    assert_eq!(T::read_from(&longer).map(|(_, used)| used), Ok(out.len()));
}

/// Like [`bytes`], and also checks the result against bincode.
#[track_caller]
fn bincode_bytes<T: Marshal + serde::Serialize>(value: &T) -> Vec<u8> {
    let ours = bytes(value);
    assert_eq!(
        ours,
        bincode::serialize(value).unwrap(),
        "bincode disagrees"
    );
    ours
}

/// [`bincode_bytes`] and [`decodes_back`], and bincode decodes the same
/// value from the bytes.
#[track_caller]
fn bincode_both<T>(value: &T) -> Vec<u8>
where
    T: Marshal + for<'de> Unmarshal<'de> + serde::Serialize + DeserializeOwned + PartialEq + Debug,
{
    let ours = bincode_bytes(value);
    decodes_back(value, &ours);
    assert_eq!(
        &bincode::deserialize::<T>(&ours).unwrap(),
        value,
        "bincode decodes another value"
    );
    ours
}

/// `(FIXED_LEN, MAX_LEN)` of `T`.
fn lens<T: Marshal + ?Sized>() -> (Option<usize>, Option<usize>) {
    (T::FIXED_LEN, T::MAX_LEN)
}

/// `(MIN_LEN, MIN_LEN_IS_EXACT)` of `T`.
fn min_lens<'de, T: Unmarshal<'de>>() -> (usize, bool) {
    (T::MIN_LEN, T::MIN_LEN_IS_EXACT)
}

/// A `u64` length prefix.
fn len_prefix(n: u64) -> [u8; 8] {
    n.to_le_bytes()
}

/// Concatenates byte slices.
fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

// ---------------------------------------------------------------------------
// Structs
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Named {
    a: u8,
    b: u16,
    c: u32,
    d: i64,
    e: bool,
    f: char,
    s: String,
    v: Vec<u16>,
    o: Option<u32>,
    n: Option<u8>,
    t: (u8, i8),
}

#[test]
fn named_struct() {
    let value = Named {
        a: 1,
        b: 0x0203,
        c: 0x0405_0607,
        d: -2,
        e: true,
        f: 'é',
        s: "hi".to_string(),
        v: vec![1, 0x0100],
        o: Some(7),
        n: None,
        t: (9, -1),
    };
    let expected = cat(&[
        &[1],
        &[0x03, 0x02],
        &[0x07, 0x06, 0x05, 0x04],
        &[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        &[1],
        &[0xC3, 0xA9],
        &len_prefix(2),
        b"hi",
        &len_prefix(2),
        &[1, 0, 0, 1],
        &[1, 7, 0, 0, 0],
        &[0],
        &[9, 0xFF],
    ]);
    assert_eq!(value.encoded_len(), 48);
    assert_eq!(bincode_both(&value), expected);
    // `char` has no fixed length and `String` no bound at all.
    assert_eq!(lens::<Named>(), (None, None));
    // At least a byte for the `char` and each `Option`, the length of each
    // sequence; so no length is exact.
    assert_eq!(
        min_lens::<Named>(),
        (1 + 2 + 4 + 8 + 1 + 1 + 8 + 8 + 1 + 1 + 2, false)
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Fixed {
    a: u16,
    b: [u8; 3],
    c: bool,
}

#[test]
fn fixed_size_struct() {
    let value = Fixed {
        a: 0xBEEF,
        b: [1, 2, 3],
        c: false,
    };
    assert_eq!(bincode_both(&value), [0xEF, 0xBE, 1, 2, 3, 0]);
    assert_eq!(value.encoded_len(), 6);
    assert_eq!(lens::<Fixed>(), (Some(6), Some(6)));
    assert_eq!(min_lens::<Fixed>(), (6, true));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Bounded {
    a: Option<u32>,
    c: char,
}

#[test]
fn bounded_struct() {
    // Variable length, but never more than 5 + 4 bytes.
    assert_eq!(lens::<Bounded>(), (None, Some(9)));
    assert_eq!(min_lens::<Bounded>(), (2, false));
    let long = Bounded {
        a: Some(1), c: '€'
    };
    assert_eq!(long.encoded_len(), 8);
    assert_eq!(bincode_both(&long), [1, 1, 0, 0, 0, 0xE2, 0x82, 0xAC]);
    let longest = Bounded {
        a: Some(0x0A0B_0C0D),
        c: '🦀',
    };
    assert_eq!(longest.encoded_len(), 9);
    assert_eq!(
        bincode_both(&longest),
        [1, 0x0D, 0x0C, 0x0B, 0x0A, 0xF0, 0x9F, 0xA6, 0x80]
    );
    let short = Bounded { a: None, c: 'a' };
    assert_eq!(short.encoded_len(), 2);
    assert_eq!(bincode_both(&short), [0, b'a']);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Tuple(u32, String, i16);

#[test]
fn tuple_struct() {
    let value = Tuple(0xDEAD_BEEF, "ab".into(), -3);
    let expected = cat(&[
        &[0xEF, 0xBE, 0xAD, 0xDE],
        &len_prefix(2),
        b"ab",
        &[0xFD, 0xFF],
    ]);
    assert_eq!(value.encoded_len(), 16);
    assert_eq!(bincode_both(&value), expected);
    assert_eq!(lens::<Tuple>(), (None, None));
    assert_eq!(min_lens::<Tuple>(), (4 + 8 + 2, false));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Newtype(u64);

#[test]
fn newtype_struct() {
    assert_eq!(bincode_both(&Newtype(258)), [2, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(lens::<Newtype>(), (Some(8), Some(8)));
    assert_eq!(min_lens::<Newtype>(), (8, true));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Unit;

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct EmptyBraces {}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct EmptyParens();

#[test]
fn unit_and_empty_structs() {
    assert_eq!(bincode_both(&Unit), [0u8; 0]);
    assert_eq!(bincode_both(&EmptyBraces {}), [0u8; 0]);
    assert_eq!(bincode_both(&EmptyParens()), [0u8; 0]);
    assert_eq!(Unit.encoded_len(), 0);
    assert_eq!(lens::<Unit>(), (Some(0), Some(0)));
    assert_eq!(lens::<EmptyBraces>(), (Some(0), Some(0)));
    assert_eq!(lens::<EmptyParens>(), (Some(0), Some(0)));
    assert_eq!(min_lens::<Unit>(), (0, true));
    assert_eq!(min_lens::<EmptyBraces>(), (0, true));
    assert_eq!(min_lens::<EmptyParens>(), (0, true));
}

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Shape {
    Empty,
    Circle(u32),
    Rect { w: u16, h: u16 },
    Pair(u8, u8),
    Label(String),
}

#[test]
fn enum_variants() {
    assert_eq!(bincode_both(&Shape::Empty), [0, 0, 0, 0]);
    assert_eq!(Shape::Empty.encoded_len(), 4);
    assert_eq!(bincode_both(&Shape::Circle(5)), [1, 0, 0, 0, 5, 0, 0, 0]);
    assert_eq!(Shape::Circle(5).encoded_len(), 8);
    let rect = Shape::Rect { w: 3, h: 0x0102 };
    assert_eq!(bincode_both(&rect), [2, 0, 0, 0, 3, 0, 2, 1]);
    assert_eq!(rect.encoded_len(), 8);
    assert_eq!(bincode_both(&Shape::Pair(7, 8)), [3, 0, 0, 0, 7, 8]);
    assert_eq!(Shape::Pair(7, 8).encoded_len(), 6);
    let label = Shape::Label("x".into());
    assert_eq!(
        bincode_both(&label),
        cat(&[&[4, 0, 0, 0], &len_prefix(1), b"x"])
    );
    assert_eq!(label.encoded_len(), 13);
    assert_eq!(lens::<Shape>(), (None, None));
    // The tag, and the smallest variant: `Empty`'s nothing.
    assert_eq!(min_lens::<Shape>(), (4, false));
}

#[test]
fn enum_tags_that_name_no_variant() {
    let invalid = |tag: u32| DecodeErrorKind::InvalidTag { tag, ty: "Shape" };
    assert_decode_error::<Shape>(&[5, 0, 0, 0], invalid(5), 0);
    assert_decode_error::<Shape>(&[0xFF; 4], invalid(u32::MAX), 0);
    // A short tag is the end of the input, at the tag.
    assert_decode_error::<Shape>(&[1, 0], DecodeErrorKind::UnexpectedEnd { needed: 2 }, 0);
    // At the offset of the tag, inside a larger value.
    assert_decode_error::<(u8, Dir)>(
        &[7, 4, 0, 0, 0],
        DecodeErrorKind::InvalidTag { tag: 4, ty: "Dir" },
        1,
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Dir {
    N,
    E,
    S,
    W,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum SameSize {
    A(u32),
    B(i32),
    C([u8; 4]),
    D { x: u16, y: u16 },
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Mixed {
    A,
    B(u64),
    C { x: u8, y: Option<u16> },
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum One {
    Only(u8),
}

#[test]
fn enum_size_constants() {
    // Unit variants only: the tag is everything.
    assert_eq!(lens::<Dir>(), (Some(4), Some(4)));
    assert_eq!(min_lens::<Dir>(), (4, true));
    assert_eq!(bincode_both(&Dir::W), [3, 0, 0, 0]);

    // Every variant carries the same number of bytes.
    assert_eq!(lens::<SameSize>(), (Some(8), Some(8)));
    assert_eq!(min_lens::<SameSize>(), (8, true));
    assert_eq!(bincode_both(&SameSize::A(1)), [0, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(
        bincode_both(&SameSize::B(-1)),
        [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(
        bincode_both(&SameSize::C(*b"abcd")),
        [2, 0, 0, 0, b'a', b'b', b'c', b'd']
    );
    assert_eq!(
        bincode_both(&SameSize::D { x: 1, y: 2 }),
        [3, 0, 0, 0, 1, 0, 2, 0]
    );

    // Variants of different sizes: bounded by the largest, 4 + 8.
    assert_eq!(lens::<Mixed>(), (None, Some(12)));
    assert_eq!(min_lens::<Mixed>(), (4, false));
    assert_eq!(bincode_both(&Mixed::A), [0, 0, 0, 0]);
    assert_eq!(
        bincode_both(&Mixed::B(u64::MAX)),
        [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(Mixed::B(0).encoded_len(), 12);
    let c = Mixed::C {
        x: 9,
        y: Some(0x0A0B),
    };
    assert_eq!(bincode_both(&c), [2, 0, 0, 0, 9, 1, 0x0B, 0x0A]);
    assert_eq!(c.encoded_len(), 8);
    let c = Mixed::C { x: 9, y: None };
    assert_eq!(bincode_both(&c), [2, 0, 0, 0, 9, 0]);
    assert_eq!(c.encoded_len(), 6);

    assert_eq!(lens::<One>(), (Some(5), Some(5)));
    assert_eq!(min_lens::<One>(), (5, true));
    assert_eq!(bincode_both(&One::Only(0xAB)), [0, 0, 0, 0, 0xAB]);
}

/// Recursive, with fixed-size and variable fields in the same variant: the
/// length is each variant's fixed part plus its variable fields.
#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
enum Chain {
    End,
    Link(u16, String, Box<Chain>, [u8; 2]),
    Fork {
        left: Box<Chain>,
        weight: u32,
        right: Option<Box<Chain>>,
    },
}

#[test]
fn recursive_enum_with_mixed_fields() {
    assert_eq!(lens::<Chain>(), (None, None));
    // The fields that name `Chain` count for nothing, so `Fork` is 4 bytes
    // at least; `End` is none.
    assert_eq!(min_lens::<Chain>(), (4, false));
    let end = Chain::End;
    assert_eq!(bincode_both(&end), [0, 0, 0, 0]);
    let link = Chain::Link(0x0102, "ab".into(), Box::new(Chain::End), [7, 8]);
    assert_eq!(
        bincode_both(&link),
        cat(&[
            &[1, 0, 0, 0, 2, 1],
            &len_prefix(2),
            b"ab",
            &[0, 0, 0, 0, 7, 8],
        ])
    );
    assert_eq!(link.encoded_len(), 4 + 2 + 10 + 4 + 2);
    let fork = Chain::Fork {
        left: Box::new(link),
        weight: 5,
        right: Some(Box::new(Chain::End)),
    };
    assert_eq!(fork.encoded_len(), 4 + 22 + 4 + 1 + 4);
    let bytes = bincode_both(&fork);
    assert_eq!(bytes[..4], [2, 0, 0, 0]);
    assert_eq!(bytes[26..], [5, 0, 0, 0, 1, 0, 0, 0, 0]);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Never {}

fn assert_marshal<T: Marshal + ?Sized>() {}

fn assert_unmarshal<T: for<'de> Unmarshal<'de>>() {}

#[test]
fn empty_enum() {
    assert_marshal::<Never>();
    assert_unmarshal::<Never>();
    // No value exists, so there is no length to promise.
    assert_eq!(Never::FIXED_LEN, None);
    assert_eq!(Never::MAX_LEN, None);
    // Every tag is an error, read as any enum's is.
    assert_eq!(min_lens::<Never>(), (4, false));
    assert_decode_error::<Never>(
        &[0; 4],
        DecodeErrorKind::InvalidTag {
            tag: 0,
            ty: "Never",
        },
        0,
    );
    assert_decode_error::<Never>(&[], DecodeErrorKind::UnexpectedEnd { needed: 4 }, 0);
    // It can still be named inside other types.
    assert_eq!(both(&None::<Never>), [0]);
    assert_eq!(lens::<Option<Never>>(), (None, None));
    assert_eq!(both(&Vec::<Never>::new()), len_prefix(0));
}

// ---------------------------------------------------------------------------
// `skip`
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Skips {
    a: u8,
    #[marshal(skip)]
    cache: NotMarshal,
    b: u16,
    #[marshal(skip)]
    scratch: Vec<u64>,
}

#[test]
fn skip_struct_fields() {
    let value = Skips {
        a: 1,
        cache: NotMarshal(9),
        b: 0x0302,
        scratch: vec![1, 2, 3],
    };
    let out = bytes(&value);
    assert_eq!(out, [1, 2, 3]);
    assert_eq!(value.encoded_len(), 3);
    // Skipped fields do not count towards the size constants either.
    assert_eq!(lens::<Skips>(), (Some(3), Some(3)));
    assert_eq!(min_lens::<Skips>(), (3, true));
    // Decoding fills them with `Default::default()`.
    assert_eq!(
        decoded::<Skips>(&out),
        Skips {
            cache: NotMarshal::default(),
            scratch: Vec::new(),
            ..value
        }
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct SkipTuple(#[marshal(skip)] NotMarshal, u32, #[marshal(skip)] String);

#[test]
fn skip_tuple_struct_fields() {
    let value = SkipTuple(NotMarshal(9), 0x0102_0304, "ignored".into());
    let out = bytes(&value);
    assert_eq!(out, [4, 3, 2, 1]);
    assert_eq!(lens::<SkipTuple>(), (Some(4), Some(4)));
    assert_eq!(min_lens::<SkipTuple>(), (4, true));
    assert_eq!(
        decoded::<SkipTuple>(&out),
        SkipTuple(NotMarshal::default(), 0x0102_0304, String::new())
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum SkipVariants {
    Tuple(u8, #[marshal(skip)] NotMarshal, u16),
    Struct {
        #[marshal(skip)]
        hidden: NotMarshal,
        shown: u32,
    },
    AllSkipped(#[marshal(skip)] u64),
}

#[test]
fn skip_variant_fields() {
    let tuple = SkipVariants::Tuple(1, NotMarshal(9), 0x0203);
    assert_eq!(bytes(&tuple), [0, 0, 0, 0, 1, 3, 2]);
    assert_eq!(tuple.encoded_len(), 7);
    let strukt = SkipVariants::Struct {
        hidden: NotMarshal(9),
        shown: 9,
    };
    assert_eq!(bytes(&strukt), [1, 0, 0, 0, 9, 0, 0, 0]);
    assert_eq!(strukt.encoded_len(), 8);
    let all = SkipVariants::AllSkipped(5);
    assert_eq!(bytes(&all), [2, 0, 0, 0]);
    assert_eq!(all.encoded_len(), 4);
    // 7, 8 and 4 bytes: no fixed length, at most 8, at least 4.
    assert_eq!(lens::<SkipVariants>(), (None, Some(8)));
    assert_eq!(min_lens::<SkipVariants>(), (4, false));

    // Decoding fills the skipped fields of each variant with their default.
    assert_eq!(
        decoded::<SkipVariants>(&bytes(&tuple)),
        SkipVariants::Tuple(1, NotMarshal::default(), 0x0203)
    );
    assert_eq!(
        decoded::<SkipVariants>(&bytes(&strukt)),
        SkipVariants::Struct {
            hidden: NotMarshal::default(),
            shown: 9
        }
    );
    assert_eq!(
        decoded::<SkipVariants>(&bytes(&all)),
        SkipVariants::AllSkipped(0)
    );
}

/// `T` appears only in a skipped field, so it needs no `Marshal` bound, and
/// no `Unmarshal` bound either: only `Default`, which the derive infers.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct SkipGeneric<T> {
    #[marshal(skip)]
    state: T,
    n: u8,
}

#[test]
fn skipped_generic_field_needs_no_bound() {
    let value = SkipGeneric {
        state: NotMarshal(9),
        n: 7,
    };
    assert_eq!(bytes(&value), [7]);
    assert_eq!(lens::<SkipGeneric<NotMarshal>>(), (Some(1), Some(1)));
    assert_eq!(min_lens::<SkipGeneric<NotMarshal>>(), (1, true));
    assert_eq!(
        decoded::<SkipGeneric<NotMarshal>>(&[7]),
        SkipGeneric {
            state: NotMarshal::default(),
            n: 7
        }
    );
}

// ---------------------------------------------------------------------------
// `with`
// ---------------------------------------------------------------------------

// `be_u32` (a `u32`, big-endian), `Rgb` (a type from another crate, with
// neither trait) and its `rgb_hex` module come from the support library.

mod codecs {
    pub(crate) use marshal_test_suite::fixtures::rgb_hex;

    /// Writes only the element count of a sequence, whatever its elements
    /// (a `&Vec<T>` field coerces to the `&[T]` parameters), and reads that
    /// many default elements back.
    pub(crate) mod count_only {
        use marshal::{DecodeError, Overflow, Reader, Unmarshal, Writer};

        pub(crate) fn encoded_len<T>(_: &[T]) -> usize {
            8
        }

        pub(crate) fn encode<T>(items: &[T], w: &mut Writer<'_>) -> Result<(), Overflow> {
            w.put_array((items.len() as u64).to_le_bytes())
        }

        pub(crate) fn decode<T: Default>(r: &mut Reader<'_>) -> Result<Vec<T>, DecodeError> {
            let count = u64::decode(r)?;
            Ok((0..count.min(16)).map(|_| T::default()).collect())
        }
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithBe {
    a: u8,
    #[marshal(with = be_u32)]
    b: u32,
    c: u32,
}

#[test]
fn with_module() {
    let value = WithBe {
        a: 0xAA,
        b: 0x0102_0304,
        c: 0x0102_0304,
    };
    assert_eq!(both(&value), [0xAA, 1, 2, 3, 4, 4, 3, 2, 1]);
    assert_eq!(value.encoded_len(), 9);
    // A `with` module's length is known only at run time: it counts for
    // nothing in `MIN_LEN`, and no length is exact.
    assert_eq!(lens::<WithBe>(), (None, None));
    assert_eq!(min_lens::<WithBe>(), (1 + 4, false));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithPaths {
    #[marshal(with = "be_u32")]
    string_form: u32,
    #[marshal(with = "crate::codecs::rgb_hex")]
    string_path: Rgb,
    #[marshal(with = codecs::rgb_hex)]
    relative_path: Rgb,
    #[marshal(with = self::be_u32)]
    self_path: u32,
}

#[test]
fn with_path_forms() {
    let value = WithPaths {
        string_form: 0x0A0B_0C0D,
        string_path: Rgb {
            r: 0xFF,
            g: 0x80,
            b: 0x00,
        },
        relative_path: Rgb {
            r: 0x12,
            g: 0x34,
            b: 0xAB,
        },
        self_path: 1,
    };
    let expected = cat(&[
        &[0x0A, 0x0B, 0x0C, 0x0D],
        &len_prefix(7),
        b"#ff8000",
        &len_prefix(7),
        b"#1234ab",
        &[0, 0, 0, 1],
    ]);
    assert_eq!(value.encoded_len(), 4 + 15 + 15 + 4);
    assert_eq!(both(&value), expected);
    assert_eq!(min_lens::<WithPaths>(), (0, false));
}

/// `T` appears only in a field encoded `with` a module, so it needs neither
/// trait; the module's own bound, `Default`, is declared on the type.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Counted<T: Default> {
    #[marshal(with = codecs::count_only)]
    items: Vec<T>,
    tail: u8,
}

#[test]
fn with_generic_field_needs_no_bound() {
    let value = Counted {
        items: vec![NotMarshal::default(); 3],
        tail: 0xEE,
    };
    assert_eq!(both(&value), cat(&[&len_prefix(3), &[0xEE]]));
    assert_eq!(lens::<Counted<NotMarshal>>(), (None, None));
    assert_eq!(min_lens::<Counted<NotMarshal>>(), (1, false));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum WithVariants {
    Big(#[marshal(with = be_u32)] u32),
    Color {
        #[marshal(with = codecs::rgb_hex)]
        rgb: Rgb,
        alpha: u8,
    },
}

#[test]
fn with_in_variants() {
    assert_eq!(
        both(&WithVariants::Big(0x0102_0304)),
        [0, 0, 0, 0, 1, 2, 3, 4]
    );
    let color = WithVariants::Color {
        rgb: Rgb { r: 1, g: 2, b: 3 },
        alpha: 0x7F,
    };
    assert_eq!(color.encoded_len(), 4 + 15 + 1);
    assert_eq!(
        both(&color),
        cat(&[&[1, 0, 0, 0], &len_prefix(7), b"#010203", &[0x7F]])
    );
    assert_eq!(lens::<WithVariants>(), (None, None));
    assert_eq!(min_lens::<WithVariants>(), (4, false));
}

/// A `with` module's errors are reported at their offset in the whole
/// input: the module's own offset plus where its field starts.
#[test]
fn with_module_errors_are_at_the_field() {
    let mut input = bytes(&WithVariants::Color {
        rgb: Rgb { r: 1, g: 2, b: 3 },
        alpha: 0x7F,
    });
    // The digit `3` of `#010203`, after the tag and the string's length.
    input[4 + 8 + 6] = b'G';
    assert_decode_error::<WithVariants>(
        &input,
        DecodeErrorKind::Custom("bad hex digit"),
        4 + 8 + 6,
    );
    // Running out inside `be_u32`: two of its four bytes are there.
    assert_decode_error::<WithBe>(
        &[0xAA, 1, 2],
        DecodeErrorKind::UnexpectedEnd { needed: 2 },
        1,
    );
}

/// Claims 4 bytes but writes 2; reads 2.
mod lying {
    use marshal::{DecodeError, Overflow, Reader, Writer};

    pub(crate) fn encoded_len(_: &u32) -> usize {
        4
    }

    pub(crate) fn encode(v: &u32, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array((*v as u16).to_le_bytes())
    }

    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<u32, DecodeError> {
        r.take_array().map(|b| u32::from(u16::from_le_bytes(b)))
    }
}

#[derive(Marshal, Unmarshal, Debug)]
struct WithLiar {
    #[marshal(with = lying)]
    x: u32,
}

/// A module that writes fewer bytes than its `encoded_len` is caught in
/// every build: the encode fails, and each output target reports it as for
/// any encoder whose `encoded_len` is wrong.
#[test]
fn with_module_length_mismatch_is_caught_in_every_build() {
    let mut buf = [0u8; 8];
    assert!(WithLiar { x: 1 }.try_write_to(&mut buf).is_err());
    let panic = std::panic::catch_unwind(|| WithLiar { x: 1 }.write_to(&mut [0u8; 8]))
        .expect_err("write_to must not accept the short write");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("encoded_len"), "{message}");
}

/// A module reads through the caller's reader: it cannot read past the
/// input, and what it leaves is the next field's, or trailing bytes.
#[test]
fn with_module_reads_through_the_callers_reader() {
    assert_decode_error::<WithLiar>(&[1], DecodeErrorKind::UnexpectedEnd { needed: 1 }, 0);
    assert_eq!(WithLiar::read_from(&[1, 0, 0, 0]).unwrap().1, 2);
    assert_decode_error::<WithLiar>(
        &[1, 0, 0, 0],
        DecodeErrorKind::TrailingBytes { count: 2 },
        2,
    );
}

// ---------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Tagged {
    #[marshal(tag = 10)]
    A,
    B(u8),
    #[marshal(tag = 0xFFFF_FFFF)]
    C,
    #[marshal(tag = 2)]
    D {
        x: u16,
    },
}

#[test]
fn explicit_tags() {
    assert_eq!(both(&Tagged::A), [10, 0, 0, 0]);
    // A variant without `tag` keeps its declaration index.
    assert_eq!(both(&Tagged::B(3)), [1, 0, 0, 0, 3]);
    assert_eq!(both(&Tagged::C), [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(both(&Tagged::D { x: 0x0102 }), [2, 0, 0, 0, 2, 1]);
    assert_eq!(lens::<Tagged>(), (None, Some(6)));
    assert_eq!(min_lens::<Tagged>(), (4, false));
    // Only the tags given are read: 0 is `C`'s declaration index, but `C`
    // has the tag 0xFFFF_FFFF.
    for tag in [0u32, 3, 11, 0xFFFF_FFFE] {
        assert_decode_error::<Tagged>(
            &tag.to_le_bytes(),
            DecodeErrorKind::InvalidTag { tag, ty: "Tagged" },
            0,
        );
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8)]
enum Small {
    A,
    #[marshal(tag = 255)]
    B(u16),
    C {
        x: u8,
    },
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8)]
enum Bit {
    Zero,
    One,
}

#[test]
fn tag_type_u8() {
    assert_eq!(both(&Small::A), [0]);
    assert_eq!(Small::A.encoded_len(), 1);
    assert_eq!(both(&Small::B(0x0102)), [255, 2, 1]);
    assert_eq!(Small::B(0).encoded_len(), 3);
    assert_eq!(both(&Small::C { x: 7 }), [2, 7]);
    assert_eq!(lens::<Small>(), (None, Some(3)));
    assert_eq!(min_lens::<Small>(), (1, false));

    assert_eq!(both(&Bit::Zero), [0]);
    assert_eq!(both(&Bit::One), [1]);
    assert_eq!(lens::<Bit>(), (Some(1), Some(1)));
    assert_eq!(min_lens::<Bit>(), (1, true));

    // One byte of tag is read, whatever follows.
    for tag in [1u8, 3, 254] {
        assert_decode_error::<Small>(
            &[tag, 0, 0],
            DecodeErrorKind::InvalidTag {
                tag: tag.into(),
                ty: "Small",
            },
            0,
        );
    }
    assert_decode_error::<Bit>(&[2], DecodeErrorKind::InvalidTag { tag: 2, ty: "Bit" }, 0);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u16)]
enum Medium {
    A(u8),
    #[marshal(tag = 0x1234)]
    B(u8),
    #[marshal(tag = 65535)]
    C(i8),
}

#[test]
fn tag_type_u16() {
    assert_eq!(both(&Medium::A(1)), [0, 0, 1]);
    assert_eq!(both(&Medium::B(2)), [0x34, 0x12, 2]);
    assert_eq!(both(&Medium::C(-1)), [0xFF, 0xFF, 0xFF]);
    assert_eq!(Medium::A(0).encoded_len(), 3);
    assert_eq!(lens::<Medium>(), (Some(3), Some(3)));
    assert_eq!(min_lens::<Medium>(), (3, true));
    // Two bytes of tag.
    assert_decode_error::<Medium>(
        &[0x12, 0x34, 0],
        DecodeErrorKind::InvalidTag {
            tag: 0x3412,
            ty: "Medium",
        },
        0,
    );
    assert_decode_error::<Medium>(&[0xFF], DecodeErrorKind::UnexpectedEnd { needed: 2 }, 0);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[marshal(tag_type = u32)]
enum Wide {
    A,
    B(u16),
}

#[test]
fn tag_type_u32_is_the_default() {
    assert_eq!(bincode_both(&Wide::A), [0, 0, 0, 0]);
    assert_eq!(bincode_both(&Wide::B(5)), [1, 0, 0, 0, 5, 0]);
    assert_eq!(lens::<Wide>(), (None, Some(6)));
    assert_eq!(min_lens::<Wide>(), (4, false));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8)]
enum EmptySmall {}

#[test]
fn empty_enum_with_tag_type() {
    assert_eq!(lens::<EmptySmall>(), (None, None));
    assert_eq!(min_lens::<EmptySmall>(), (1, false));
    assert_decode_error::<EmptySmall>(
        &[0],
        DecodeErrorKind::InvalidTag {
            tag: 0,
            ty: "EmptySmall",
        },
        0,
    );
}

// ---------------------------------------------------------------------------
// Generics
// ---------------------------------------------------------------------------

/// No `T: Marshal` or `T: Unmarshal<'de>` written: the derives infer them.
#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Wrapper<T> {
    inner: T,
    count: u8,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Two<A, B> {
    a: Vec<A>,
    b: Option<B>,
}

#[test]
fn inferred_bounds() {
    let w = Wrapper {
        inner: 0x0102u16,
        count: 3,
    };
    assert_eq!(bincode_both(&w), [2, 1, 3]);
    assert_eq!(lens::<Wrapper<u16>>(), (Some(3), Some(3)));
    assert_eq!(lens::<Wrapper<String>>(), (None, None));
    assert_eq!(lens::<Wrapper<Option<u8>>>(), (None, Some(3)));
    assert_eq!(min_lens::<Wrapper<u16>>(), (3, true));
    assert_eq!(min_lens::<Wrapper<String>>(), (9, false));
    assert_eq!(min_lens::<Wrapper<Option<u8>>>(), (2, false));

    let w = Wrapper {
        inner: "hi".to_string(),
        count: 0,
    };
    assert_eq!(bincode_both(&w), cat(&[&len_prefix(2), b"hi", &[0]]));

    let t = Two {
        a: vec![Dir::E, Dir::S],
        b: Some('z'),
    };
    assert_eq!(
        bincode_both(&t),
        cat(&[&len_prefix(2), &[1, 0, 0, 0, 2, 0, 0, 0], &[1, b'z']])
    );
    assert_eq!(lens::<Two<u8, u8>>(), (None, None));
    assert_eq!(min_lens::<Two<u8, u8>>(), (9, false));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Typed<T> {
    id: u32,
    _marker: PhantomData<T>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct TypedFull<T, U> {
    _a: std::marker::PhantomData<(T, NotMarshal)>,
    _b: core::marker::PhantomData<fn() -> U>,
    id: u8,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum TypedEnum<T> {
    A(PhantomData<T>),
    B(u8),
}

#[test]
fn phantom_type_param_needs_no_bound() {
    let value: Typed<NotMarshal> = Typed {
        id: 7,
        _marker: PhantomData,
    };
    assert_eq!(both(&value), [7, 0, 0, 0]);
    assert_eq!(lens::<Typed<NotMarshal>>(), (Some(4), Some(4)));
    assert_eq!(min_lens::<Typed<NotMarshal>>(), (4, true));

    let value: TypedFull<NotMarshal, NotMarshal> = TypedFull {
        _a: PhantomData,
        _b: PhantomData,
        id: 1,
    };
    assert_eq!(both(&value), [1]);

    assert_eq!(both(&TypedEnum::<NotMarshal>::A(PhantomData)), [0, 0, 0, 0]);
    assert_eq!(both(&TypedEnum::<NotMarshal>::B(2)), [1, 0, 0, 0, 2]);
    assert_eq!(lens::<TypedEnum<NotMarshal>>(), (None, Some(5)));
    assert_eq!(min_lens::<TypedEnum<NotMarshal>>(), (4, false));
}

/// `Marshal` only: a `&[u16]` cannot borrow from bytes that may not be
/// aligned for `u16`, so it has no `Unmarshal` (`Borrows` below decodes).
#[derive(Marshal, serde::Serialize)]
struct Borrowed<'a> {
    name: &'a str,
    data: &'a [u8],
    nums: &'a [u16],
}

/// `Marshal` only: nothing decodes to a `&mut T`.
#[derive(Marshal)]
struct RefTo<'a, 'b: 'a, T: ?Sized> {
    first: &'a T,
    second: &'b mut T,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Cow2<'a> {
    Borrowed(&'a str),
    Owned(String),
}

#[test]
fn lifetimes() {
    let value = Borrowed {
        name: "ab",
        data: &[1, 2, 3],
        nums: &[0x0102],
    };
    let expected = cat(&[
        &len_prefix(2),
        b"ab",
        &len_prefix(3),
        &[1, 2, 3],
        &len_prefix(1),
        &[2, 1],
    ]);
    assert_eq!(value.encoded_len(), 31);
    assert_eq!(bincode_bytes(&value), expected);

    // `T: ?Sized` is kept, `T: Marshal` is added.
    let mut owned = String::from("cd");
    let value: RefTo<'_, '_, str> = RefTo {
        first: "e",
        second: owned.as_mut_str(),
    };
    assert_eq!(
        bytes(&value),
        cat(&[&len_prefix(1), b"e", &len_prefix(2), b"cd"])
    );
    let mut n = 5u16;
    let value = RefTo {
        first: &4u16,
        second: &mut n,
    };
    assert_eq!(bytes(&value), [4, 0, 5, 0]);
    assert_eq!(lens::<RefTo<'_, '_, u16>>(), (Some(4), Some(4)));

    let borrowed = cat(&[&[0, 0, 0, 0], &len_prefix(1), b"q"]);
    assert_eq!(bytes(&Cow2::Borrowed("q")), borrowed);
    assert_eq!(decoded::<Cow2<'_>>(&borrowed), Cow2::Borrowed("q"));
    let owned = cat(&[&[1, 0, 0, 0], &len_prefix(1), b"q"]);
    assert_eq!(bytes(&Cow2::Owned("q".into())), owned);
    assert_eq!(decoded::<Cow2<'_>>(&owned), Cow2::Owned("q".into()));
}

/// Two lifetimes; the decoder's input outlives both.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Borrows<'a, 'b> {
    name: &'a str,
    data: &'b [u8],
    fixed: &'a [u8; 2],
    cow: Cow<'b, str>,
    owned: String,
    nested: Cow2<'a>,
}

#[test]
fn borrowed_fields_point_into_the_input() {
    let value = Borrows {
        name: "ab",
        data: &[1, 2, 3],
        fixed: &[4, 5],
        cow: Cow::Owned("cd".into()),
        owned: "ef".into(),
        nested: Cow2::Borrowed("g"),
    };
    let input = bytes(&value);
    let back = decoded::<Borrows<'_, '_>>(&input);
    assert_eq!(back, value);
    assert!(borrows_from(&input, back.name.as_bytes()));
    assert!(borrows_from(&input, back.data));
    assert!(borrows_from(&input, back.fixed));
    // A `Cow` decodes borrowed, whatever it was encoded from.
    assert!(matches!(&back.cow, Cow::Borrowed(s) if borrows_from(&input, s.as_bytes())));
    assert!(matches!(back.nested, Cow2::Borrowed(s) if borrows_from(&input, s.as_bytes())));
    assert_eq!(
        min_lens::<Borrows<'_, '_>>(),
        (8 + 8 + 2 + 8 + 8 + (4 + 8), false)
    );
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Arr<T, const N: usize> {
    items: [T; N],
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Matrix<const R: usize, const C: usize> {
    cells: [[u8; C]; R],
}

#[test]
fn const_generics() {
    let value = Arr {
        items: [1u16, 2, 3],
    };
    assert_eq!(both(&value), [1, 0, 2, 0, 3, 0]);
    assert_eq!(lens::<Arr<u16, 3>>(), (Some(6), Some(6)));
    assert_eq!(min_lens::<Arr<u16, 3>>(), (6, true));

    let empty: Arr<u8, 0> = Arr { items: [] };
    assert_eq!(both(&empty), [0u8; 0]);
    assert_eq!(lens::<Arr<u8, 0>>(), (Some(0), Some(0)));
    // Zero elements take zero bytes even when an element has no fixed size.
    assert_eq!(lens::<Arr<String, 0>>(), (Some(0), Some(0)));
    assert_eq!(min_lens::<Arr<u8, 0>>(), (0, true));
    assert_eq!(min_lens::<Arr<String, 0>>(), (0, true));

    let strings = Arr {
        items: ["a".to_string(), "bc".to_string()],
    };
    assert_eq!(
        both(&strings),
        cat(&[&len_prefix(1), b"a", &len_prefix(2), b"bc"])
    );
    assert_eq!(lens::<Arr<String, 2>>(), (None, None));
    assert_eq!(lens::<Arr<Option<u8>, 4>>(), (None, Some(8)));
    assert_eq!(min_lens::<Arr<String, 2>>(), (16, false));
    assert_eq!(min_lens::<Arr<Option<u8>, 4>>(), (4, false));

    let m = Matrix {
        cells: [[1, 2, 3], [4, 5, 6]],
    };
    assert_eq!(both(&m), [1, 2, 3, 4, 5, 6]);
    assert_eq!(lens::<Matrix<2, 3>>(), (Some(6), Some(6)));
    assert_eq!(min_lens::<Matrix<2, 3>>(), (6, true));
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WhereClause<T>
where
    T: Copy + Into<u64>,
{
    value: T,
    extra: u8,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum WhereEnum<T, U>
where
    T: Clone,
    U: Default,
{
    A(T),
    B { u: U },
}

#[test]
fn where_clauses() {
    let value = WhereClause {
        value: 0x0102u16,
        extra: 3,
    };
    assert_eq!(both(&value), [2, 1, 3]);
    assert_eq!(u64::from(value.value), 0x0102);
    assert_eq!(lens::<WhereClause<u16>>(), (Some(3), Some(3)));
    assert_eq!(min_lens::<WhereClause<u16>>(), (3, true));

    let a: WhereEnum<u8, u32> = WhereEnum::A(9);
    assert_eq!(both(&a), [0, 0, 0, 0, 9]);
    let b: WhereEnum<u8, u32> = WhereEnum::B { u: 1 };
    assert_eq!(both(&b), [1, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(lens::<WhereEnum<u8, u32>>(), (None, Some(8)));
    assert_eq!(min_lens::<WhereEnum<u8, u32>>(), (5, false));
}

trait Family {
    type Item;
}

/// Implements neither trait; only its associated type does.
struct U16Family;

impl Family for U16Family {
    type Item = u16;
}

#[derive(Marshal, Unmarshal)]
struct Assoc<F: Family> {
    item: F::Item,
    items: Vec<F::Item>,
}

#[derive(Marshal, Unmarshal)]
struct FirstOf<I: Iterator> {
    first: Option<I::Item>,
}

#[test]
fn associated_type_fields() {
    // The bound is `F::Item: Marshal`, not `F: Marshal`.
    let value: Assoc<U16Family> = Assoc {
        item: 5,
        items: vec![6],
    };
    assert_eq!(bytes(&value), cat(&[&[5, 0], &len_prefix(1), &[6, 0]]));
    assert_eq!(lens::<Assoc<U16Family>>(), (None, None));
    // And `F::Item: Unmarshal<'de>`, not `F: Unmarshal<'de>`. (Neither type
    // compares: a derived `PartialEq` would want `F: PartialEq`.)
    let back: Assoc<U16Family> = marshal::from_bytes(&bytes(&value)).unwrap();
    assert_eq!((back.item, back.items), (5, vec![6]));
    assert_eq!(min_lens::<Assoc<U16Family>>(), (2 + 8, false));

    let mut iter = vec![7u8].into_iter();
    let value: FirstOf<std::vec::IntoIter<u8>> = FirstOf { first: iter.next() };
    assert_eq!(bytes(&value), [1, 7]);
    assert_eq!(lens::<FirstOf<std::vec::IntoIter<u8>>>(), (None, Some(2)));
    let back: FirstOf<std::vec::IntoIter<u8>> = marshal::from_bytes(&[1, 7]).unwrap();
    assert_eq!(back.first, Some(7));
    assert_eq!(min_lens::<FirstOf<std::vec::IntoIter<u8>>>(), (1, false));
}

// ---------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Outer {
    header: Tuple,
    shapes: Vec<Shape>,
    dir: Dir,
    inner: Option<Wrapper<Dir>>,
    fixed: [Fixed; 2],
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct AllFixed {
    dir: Dir,
    same: SameSize,
    fixed: Fixed,
    arr: [Dir; 2],
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Nest {
    Small(Small),
    Wrapped(Wrapper<Bit>),
    Tagged(Box<Tagged>),
}

#[test]
fn nested_derived_types() {
    let value = Outer {
        header: Tuple(1, "h".into(), 2),
        shapes: vec![Shape::Circle(3), Shape::Empty],
        dir: Dir::S,
        inner: Some(Wrapper {
            inner: Dir::E,
            count: 4,
        }),
        fixed: [
            Fixed {
                a: 5,
                b: [6, 7, 8],
                c: true,
            },
            Fixed {
                a: 0,
                b: [0; 3],
                c: false,
            },
        ],
    };
    let expected = cat(&[
        &[1, 0, 0, 0],
        &len_prefix(1),
        b"h",
        &[2, 0],
        &len_prefix(2),
        &[1, 0, 0, 0, 3, 0, 0, 0],
        &[0, 0, 0, 0],
        &[2, 0, 0, 0],
        &[1, 1, 0, 0, 0, 4],
        &[5, 0, 6, 7, 8, 1],
        &[0, 0, 0, 0, 0, 0],
    ]);
    assert_eq!(value.encoded_len(), expected.len());
    assert_eq!(bincode_both(&value), expected);
    assert_eq!(lens::<Outer>(), (None, None));
    assert_eq!(
        min_lens::<Outer>(),
        ((4 + 8 + 2) + 8 + 4 + 1 + 2 * 6, false)
    );

    // Fixed sizes compose: 4 + 8 + 6 + 2 * 4.
    assert_eq!(lens::<AllFixed>(), (Some(26), Some(26)));
    assert_eq!(min_lens::<AllFixed>(), (26, true));
    let value = AllFixed {
        dir: Dir::N,
        same: SameSize::A(1),
        fixed: Fixed {
            a: 2,
            b: [3, 4, 5],
            c: true,
        },
        arr: [Dir::E, Dir::W],
    };
    assert_eq!(
        bincode_both(&value),
        cat(&[
            &[0, 0, 0, 0],
            &[0, 0, 0, 0, 1, 0, 0, 0],
            &[2, 0, 3, 4, 5, 1],
            &[1, 0, 0, 0, 3, 0, 0, 0],
        ])
    );

    assert_eq!(both(&Nest::Small(Small::B(1))), [0, 0, 0, 0, 255, 1, 0]);
    assert_eq!(
        both(&Nest::Wrapped(Wrapper {
            inner: Bit::One,
            count: 2
        })),
        [1, 0, 0, 0, 1, 2]
    );
    assert_eq!(
        both(&Nest::Tagged(Box::new(Tagged::C))),
        [2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    // Small is at most 3 bytes and Wrapper<Bit> exactly 2, but Box<Tagged>
    // reports no sizes (boxes are how types recurse), so neither does Nest.
    assert_eq!(lens::<Nest>(), (None, None));
    assert_eq!(lens::<Tagged>().1, Some(6));
    // And Box<Tagged> has a `MIN_LEN` of 0, so Nest's least is its tag.
    assert_eq!(min_lens::<Nest>(), (4, false));
}

// ---------------------------------------------------------------------------
// `crate = path`
// ---------------------------------------------------------------------------

use marshal as renamed;

#[derive(renamed::Marshal, renamed::Unmarshal, Debug, PartialEq)]
#[marshal(crate = renamed)]
struct RenamedStruct {
    a: u16,
}

#[derive(renamed::Marshal, renamed::Unmarshal, Debug, PartialEq)]
#[marshal(crate = "renamed", tag_type = u8)]
enum RenamedEnum<T> {
    A(T),
    B,
}

/// A crate that re-exports marshal, as a library wrapping it would.
mod facade {
    pub(crate) use ::marshal;
}

#[derive(facade::marshal::Marshal, facade::marshal::Unmarshal, Debug, PartialEq)]
#[marshal(crate = crate::facade::marshal)]
struct ThroughFacade<'a> {
    s: &'a str,
    #[marshal(with = be_u32)]
    n: u32,
}

#[test]
fn crate_path() {
    assert_eq!(both(&RenamedStruct { a: 0x0102 }), [2, 1]);
    assert_eq!(lens::<RenamedStruct>(), (Some(2), Some(2)));
    assert_eq!(min_lens::<RenamedStruct>(), (2, true));
    assert_eq!(both(&RenamedEnum::A(7u32)), [0, 7, 0, 0, 0]);
    assert_eq!(both(&RenamedEnum::<u32>::B), [1]);
    assert_eq!(lens::<RenamedEnum<u32>>(), (None, Some(5)));
    assert_eq!(min_lens::<RenamedEnum<u32>>(), (1, false));
    // Borrowed, so not `both`.
    let facade = cat(&[&len_prefix(1), b"x", &[0, 0, 0, 1]]);
    assert_eq!(bytes(&ThroughFacade { s: "x", n: 1 }), facade);
    assert_eq!(
        decoded::<ThroughFacade<'_>>(&facade),
        ThroughFacade { s: "x", n: 1 }
    );
}
