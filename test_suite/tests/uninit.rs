//! Encoding into uninitialized memory never reads it and hands back only
//! bytes it wrote. Every buffer here starts as `MaybeUninit::uninit()`, and
//! every byte handed back is compared against `to_vec`, so under Miri
//! (`scripts/miri.sh`) reading a byte the encoder did not write is an
//! error, not a silent pass.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::mem::MaybeUninit;

use marshal::{BufferTooSmall, Marshal, Writer};
// A field written through a `with` module, i.e. through `Writer::reserve`.
use marshal_test_suite::fixtures::be_u32;

#[derive(Marshal, Debug, Clone)]
struct Point {
    x: i32,
    y: i32,
    tag: [u8; 3],
    on: bool,
}

#[derive(Marshal, Debug, Clone)]
enum Shape {
    Dot(Point),
    Line { from: Point, to: Point },
    Named(String),
    Empty,
}

/// A `with` module that writes its byte three times.
mod triple {
    pub(crate) fn encoded_len(_: &u8) -> usize {
        3
    }
    pub(crate) fn encode(v: &u8, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_array([*v; 3])
    }
}

/// A `with` module that writes less than it claims.
mod lazy {
    pub(crate) fn encoded_len(_: &u8) -> usize {
        3
    }
    pub(crate) fn encode(v: &u8, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_u8(*v)
    }
}

#[derive(Marshal)]
struct Lazy(u8, #[marshal(with = lazy)] u8);

#[derive(Marshal, Debug, Clone)]
struct Record<'a> {
    id: u64,
    name: &'a str,
    owned: String,
    bytes: Vec<u8>,
    signed: Vec<i8>,
    shapes: Vec<Shape>,
    index: BTreeMap<u16, Cow<'a, str>>,
    maybe: Option<Point>,
    #[marshal(with = be_u32)]
    port: u32,
    #[marshal(with = triple)]
    flag: u8,
    fixed: (u8, u16, u32, u64, char),
}

fn record() -> Record<'static> {
    Record {
        id: 42,
        name: "borrowed ✓",
        owned: "owned".repeat(3),
        bytes: (0..=40).collect(),
        signed: vec![-1, 0, 1, -128, 127],
        shapes: vec![
            Shape::Dot(Point {
                x: 1,
                y: -1,
                tag: *b"abc",
                on: true,
            }),
            Shape::Line {
                from: Point {
                    x: 0,
                    y: 0,
                    tag: [0; 3],
                    on: false,
                },
                to: Point {
                    x: i32::MAX,
                    y: i32::MIN,
                    tag: [9; 3],
                    on: true,
                },
            },
            Shape::Named("circle".into()),
            Shape::Empty,
        ],
        index: [(1, Cow::Borrowed("one")), (2, Cow::Owned("two".into()))].into(),
        maybe: None,
        port: 0x0102_0304,
        flag: 7,
        fixed: (1, 2, 3, 4, 'é'),
    }
}

fn uninit(n: usize) -> Vec<MaybeUninit<u8>> {
    vec![MaybeUninit::uninit(); n]
}

/// `write_to_uninit` into a buffer of exactly the encoded length, and into
/// one with uninitialized slack after it.
fn check<T: Marshal + ?Sized>(value: &T) {
    let expected = marshal::to_vec(value);
    assert_eq!(expected.len(), value.encoded_len());
    for slack in [0, 1, 17] {
        let mut buf = uninit(expected.len() + slack);
        let written = value.write_to_uninit(&mut buf);
        assert_eq!(written, &expected[..]);
    }
}

#[test]
fn write_to_uninit_writes_every_byte_it_returns() {
    check(&record());
    check(&Point {
        x: 3,
        y: 4,
        tag: *b"xyz",
        on: false,
    });
    check(&[Shape::Empty, Shape::Named(String::new())][..]);
    check("");
    check(&());
    check(&Vec::<u8>::new());
    check(&(0u8..=255).collect::<Vec<u8>>());
    check(&Some((1u128, -1i128, 1.5f64, f32::NAN.to_bits())));
}

#[test]
fn a_with_module_that_writes_less_than_it_claims_is_refused() {
    let mut buf = uninit(record().encoded_len());
    let bytes = record().write_to_uninit(&mut buf);
    let at = bytes.len() - (1 + 2 + 4 + 8 + 2) - 3;
    assert_eq!(bytes[at..at + 3], [7, 7, 7]);

    // Its bytes would be left unwritten: every target refuses it, in every
    // build.
    let value = Lazy(1, 2);
    assert_eq!(value.encoded_len(), 4);
    let mut buf = uninit(4);
    assert!(value.try_write_to_uninit(&mut buf).is_err());
    let mut buf = [0xaa; 8];
    assert!(value.try_write_to(&mut buf).is_err());
    let panic = std::panic::catch_unwind(|| marshal::to_vec(&value)).unwrap_err();
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(message.contains("encoded_len"), "{message}");
}

#[test]
fn a_short_uninit_buffer_is_an_error_or_a_panic() {
    let value = record();
    let n = value.encoded_len();
    for len in [0, 1, n / 2, n - 1] {
        let mut buf = uninit(len);
        assert_eq!(
            value.try_write_to_uninit(&mut buf),
            Err(BufferTooSmall {
                needed: n,
                available: len
            })
        );
    }
    let result = std::panic::catch_unwind(|| {
        let mut buf = uninit(n - 1);
        value.write_to_uninit(&mut buf).len()
    });
    assert!(result.is_err());
}

#[test]
fn a_writer_over_uninit_memory_hands_back_what_it_wrote() {
    let mut buf = uninit(64);
    let mut w = Writer::new_uninit(&mut buf);
    w.put_u8(1).unwrap();
    w.put_len(2).unwrap();
    w.put_slice(b"ab").unwrap();
    w.reserve(2).unwrap()[0] = 9;
    w.exact(3, |w| w.put_array([5, 6])).unwrap();
    assert!(w.exact(100, |_| Ok(())).is_err());
    assert_eq!(w.written(), 1 + 8 + 2 + 2 + 2);
    assert_eq!(
        w.into_written(),
        [1, 2, 0, 0, 0, 0, 0, 0, 0, b'a', b'b', 9, 0, 5, 6]
    );
}

#[test]
fn vec_targets_write_only_into_spare_capacity() {
    let value = record();
    let expected = marshal::to_vec(&value);

    let mut out = Vec::with_capacity(3);
    out.extend_from_slice(b"pre");
    marshal::encode_into_vec(&value, &mut out);
    marshal::encode_into_vec(&Shape::Empty, &mut out);
    assert_eq!(out[..3], *b"pre");
    assert_eq!(out[3..3 + expected.len()], expected[..]);
    assert_eq!(out[3 + expected.len()..], [3, 0, 0, 0]);
}

#[test]
fn frames_write_only_what_they_return() {
    let codec = marshal::frame::Codec::new();
    let mut out = Vec::new();
    codec.encode_into_vec(&record(), &mut out).unwrap();
    let mut sink = Vec::new();
    let mut scratch = Vec::new();
    codec
        .write_all(&Shape::Empty, &mut sink, &mut scratch)
        .unwrap();
    marshal::write_all(&record(), &mut sink, &mut scratch).unwrap();
    marshal::write_all(&(1u8, 'x'), &mut sink, &mut scratch).unwrap();
    let expected = marshal::to_vec(&record());
    assert_eq!(out[4..], expected[..]);
    assert_eq!(sink[..8], [4, 0, 0, 0, 3, 0, 0, 0]);
    assert_eq!(sink[8..8 + expected.len()], expected[..]);
    assert_eq!(sink[8 + expected.len()..], [1, b'x']);
}

#[test]
fn arena_targets_write_every_byte_they_return() {
    let bump = bumpalo::Bump::new();
    let value = record();
    assert_eq!(
        marshal::arena::encode(&bump, &value),
        &marshal::to_vec(&value)[..]
    );
    let items = vec![record(), record(), record()];
    let batch = marshal::arena::encode_batch(&bump, &items);
    for (item, bytes) in items.iter().zip(batch.iter()) {
        assert_eq!(bytes, marshal::to_vec(item));
    }
    let empty = marshal::arena::encode_batch(&bump, Vec::<u8>::new());
    assert!(empty.bytes.is_empty());
}

#[test]
fn buf_targets_write_every_byte_they_return() {
    let value = record();
    let expected = marshal::to_vec(&value);
    let mut buf = bytes::BytesMut::new();
    marshal::buf::encode_to_bytes_mut(&value, &mut buf);
    assert_eq!(buf[..], expected[..]);
    let mut v: Vec<u8> = Vec::with_capacity(expected.len());
    marshal::buf::encode_to_buf_mut(&value, &mut v);
    assert_eq!(v, expected);
    let decoded: (u64, String) =
        marshal::buf::decode_from_bytes(&mut marshal::buf::to_bytes(&(5u64, "x"))).unwrap();
    assert_eq!(decoded, (5, "x".to_string()));
}
