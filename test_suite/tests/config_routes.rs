//! The configurations through every route that is not the plain entry
//! points (`configs.rs` covers those, and the serde route's bytes against
//! bincode 2's):
//!
//! - frames (`frame::Codec::with_config`): every way of writing a frame
//!   writes the 4-byte little-endian header and then the bytes of
//!   `encode_to_vec(v, config)`; `decode`, `FrameReader::read` and
//!   `TypedCodec` read them back; a configuration's limit is the codec's
//!   allocation budget, and errors count offsets from the frame's start;
//! - `par` batches (`encode_batch_with`, `to_vec_with`,
//!   `decode_batch_with`): the bytes of encoding each item (or the slice)
//!   in the configuration, read back in parallel, with errors at their
//!   offsets in the batch and the configuration's limit on every value;
//! - the serde route (`marshal::serde::decode_from_slice`): the limit, the
//!   depth limit and hostile varints, at their offsets.

use std::io;

use bytes::BytesMut;
use marshal::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal::frame::{Codec, Decoded, FrameError, FrameReader, HEADER_LEN, TypedCodec};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use proptest::prelude::*;
use proptest_derive::Arbitrary;
use tokio_util::codec::{Decoder, Encoder};

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq, Arbitrary)]
enum Msg {
    Ping,
    Text { id: u32, body: String },
    Data(Vec<i64>),
    Pair(u128, Option<u16>),
}

/// A frame as every configuration writes it: the little-endian `u32`
/// length of the body, then the body.
fn expected_frame<T: MarshalIn<C::Dialect> + ?Sized, C: Config>(value: &T, c: C) -> Vec<u8> {
    let body = marshal::encode_to_vec(value, c);
    let mut frame = u32::try_from(body.len()).unwrap().to_le_bytes().to_vec();
    frame.extend_from_slice(&body);
    frame
}

/// Every way of writing `value`'s frame with `codec`, each checked against
/// [`expected_frame`], and every way of reading it back.
fn frames_round_trip<C: Config>(codec: Codec<C>, value: &Msg) -> Result<(), TestCaseError>
where
    Msg: MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
{
    let c = codec.config();
    let frame = expected_frame(value, c);
    prop_assert_eq!(codec.frame_len(value), frame.len());

    let mut buf = vec![0u8; frame.len()];
    prop_assert_eq!(codec.write_to(value, &mut buf), Ok(frame.len()));
    prop_assert_eq!(&buf, &frame);

    // One pass into spare capacity, and sized after a miss.
    let mut roomy = Vec::with_capacity(frame.len() + 64);
    prop_assert_eq!(codec.encode_into_vec(value, &mut roomy), Ok(frame.len()));
    prop_assert_eq!(&roomy, &frame);
    let mut tight = Vec::new();
    prop_assert_eq!(codec.encode_into_vec(value, &mut tight), Ok(frame.len()));
    prop_assert_eq!(&tight, &frame);

    let mut bytes = BytesMut::new();
    prop_assert_eq!(
        codec.encode_to_bytes_mut(value, &mut bytes),
        Ok(frame.len())
    );
    prop_assert_eq!(&bytes[..], &frame[..]);

    let (mut out, mut scratch) = (Vec::new(), Vec::new());
    prop_assert_eq!(
        codec.write_all(value, &mut out, &mut scratch).ok(),
        Some(frame.len())
    );
    prop_assert_eq!(&out, &frame);

    prop_assert_eq!(
        codec.decode::<Msg>(&frame),
        Ok(Decoded::Frame {
            value: value.clone(),
            len: frame.len()
        })
    );
    let mut reader = FrameReader::new(&frame[..], codec);
    prop_assert_eq!(reader.read::<Msg>().ok(), Some(Some(value.clone())));

    let mut typed = TypedCodec::<Msg, C>::new(codec);
    let mut dst = BytesMut::new();
    prop_assert!(typed.encode(value, &mut dst).is_ok());
    prop_assert_eq!(&dst[..], &frame[..]);
    prop_assert_eq!(typed.decode(&mut dst).ok(), Some(Some(value.clone())));
    Ok(())
}

proptest! {
    #[test]
    fn frames_in_every_configuration(value: Msg) {
        frames_round_trip(Codec::new().with_config(config::standard()), &value)?;
        frames_round_trip(Codec::new().with_config(config::standard().with_big_endian()), &value)?;
        frames_round_trip(Codec::new().with_config(config::legacy().with_big_endian()), &value)?;
        frames_round_trip(Codec::new().with_config(config::legacy()), &value)?;
        // `legacy()` is the plain codec's bytes.
        let mut plain = Vec::new();
        Codec::new().encode_into_vec(&value, &mut plain).unwrap();
        prop_assert_eq!(plain, expected_frame(&value, config::legacy()));
    }

    #[test]
    fn batches_in_every_configuration(items: Vec<Msg>) {
        batch_round_trip(&items, config::standard())?;
        batch_round_trip(&items, config::standard().with_big_endian())?;
        batch_round_trip(&items, config::legacy().with_big_endian())?;
        batch_round_trip(&items, config::legacy())?;
    }
}

fn batch_round_trip<C: Config>(items: &[Msg], c: C) -> Result<(), TestCaseError>
where
    Msg: MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    [Msg]: MarshalIn<C::Dialect>,
{
    let (mut out, mut ends) = (vec![0xee], vec![1]);
    marshal::par::encode_batch_with(items, &mut out, &mut ends, c);
    let mut expected = vec![0xee];
    let mut expected_ends = vec![1];
    for item in items {
        expected.extend(marshal::encode_to_vec(item, c));
        expected_ends.push(expected.len());
    }
    prop_assert_eq!(&out, &expected);
    prop_assert_eq!(&ends, &expected_ends);
    // The batch's ranges, counted from its start.
    let ranges: Vec<usize> = ends[1..].iter().map(|end| end - 1).collect();
    prop_assert_eq!(
        marshal::par::decode_batch_with::<Msg, _>(&out[1..], &ranges, c).ok(),
        Some(items.to_vec())
    );
    prop_assert_eq!(
        marshal::par::to_vec_with(items, c),
        marshal::encode_to_vec(items, c)
    );
    Ok(())
}

#[test]
fn a_frame_of_standard_bytes() {
    let codec = Codec::new().with_config(config::standard());
    let mut buf = [0u8; 32];
    let n = codec.write_to(&Msg::Pair(300, Some(7)), &mut buf).unwrap();
    // Header 6, then tag 3, 300 as a u16 varint, Some, 7.
    assert_eq!(buf[..n], [6, 0, 0, 0, 3, 251, 44, 1, 1, 7]);
    let big = Codec::new().with_config(config::standard().with_big_endian());
    let n = big.write_to(&Msg::Pair(300, Some(7)), &mut buf).unwrap();
    // The header stays little-endian; the body's u16 is big-endian.
    assert_eq!(buf[..n], [6, 0, 0, 0, 3, 251, 1, 44, 1, 7]);
}

#[test]
fn frame_errors_count_from_the_frame_start() {
    let codec = Codec::new().with_config(config::standard());
    // A `Text` whose `id` has marker 255.
    let frame = [3, 0, 0, 0, 1, 255, 0];
    let Err(FrameError::Decode(e)) = codec.decode::<Msg>(&frame) else {
        panic!("a bad varint is an error")
    };
    assert_eq!(
        (e.kind(), e.offset()),
        (
            DecodeErrorKind::InvalidVarint {
                marker: 255,
                bits: 32
            },
            HEADER_LEN + 1
        )
    );
    // Bytes left over in the body.
    let frame = [2, 0, 0, 0, 0, 9];
    let Err(FrameError::Decode(e)) = codec.decode::<Msg>(&frame) else {
        panic!("a byte left over is an error")
    };
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::TrailingBytes { count: 1 }, HEADER_LEN + 1)
    );
    // Through a `FrameReader`, as an `InvalidData` error.
    let mut reader = FrameReader::new(&frame[..], codec);
    let err = reader.read::<Msg>().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
}

#[test]
fn a_configuration_limit_is_the_codec_budget() {
    let text = Msg::Text {
        id: 1,
        body: "x".repeat(100),
    };
    let roomy = Codec::new().with_config(config::standard().with_limit::<100>());
    assert_eq!(roomy.max_alloc(), Some(100));
    let mut frame = Vec::new();
    roomy.encode_into_vec(&text, &mut frame).unwrap();
    assert!(matches!(
        roomy.decode::<Msg>(&frame),
        Ok(Decoded::Frame { .. })
    ));

    let tight = Codec::new().with_config(config::standard().with_limit::<99>());
    let Err(FrameError::Decode(e)) = tight.decode::<Msg>(&frame) else {
        panic!("99 bytes cannot hold the body")
    };
    // Tag, id, the length's one byte: the string's bytes start there.
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::AllocLimit { limit: 99 }, HEADER_LEN + 3)
    );
    let mut typed = TypedCodec::<Msg, _>::new(tight);
    let mut src = BytesMut::from(&frame[..]);
    assert_eq!(
        typed.decode(&mut src).unwrap_err().kind(),
        io::ErrorKind::InvalidData
    );

    // Without a limit in the configuration, the codec keeps its own.
    let own = Codec::new()
        .with_max_alloc(50)
        .with_config(config::standard());
    assert_eq!(own.max_alloc(), Some(50));
    assert!(own.decode::<Msg>(&frame).is_err());
}

#[test]
fn oversize_frames_are_refused_in_every_configuration() {
    let codec = Codec::with_max_len(8).with_config(config::standard());
    let mut buf = [0u8; 64];
    let long = Msg::Data(vec![1; 20]);
    assert_eq!(
        codec.write_to(&long, &mut buf),
        Err(FrameError::TooLarge { len: 22, max: 8 })
    );
    assert_eq!(
        codec.decode::<Msg>(&[9, 0, 0, 0]),
        Err(FrameError::TooLarge { len: 9, max: 8 })
    );
}

#[test]
fn batch_errors_are_at_their_offsets() {
    let c = config::standard();
    let items = [
        Msg::Ping,
        Msg::Text {
            id: 300,
            body: "hi".into(),
        },
    ];
    let (mut out, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch_with(&items, &mut out, &mut ends, c);
    assert_eq!(ends, [1, 1 + 1 + 3 + 1 + 2]);
    // The second item's `id` marker set to 255.
    out[2] = 255;
    let e = marshal::par::decode_batch_with::<Msg, _>(&out, &ends, c).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            DecodeErrorKind::InvalidVarint {
                marker: 255,
                bits: 32
            },
            2
        )
    );
    out[2] = 251;
    // Under a limit smaller than the string: at the string's bytes.
    let e =
        marshal::par::decode_batch_with::<Msg, _>(&out, &ends, c.with_limit::<1>()).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::AllocLimit { limit: 1 }, 1 + 1 + 3 + 1)
    );
    // A string takes at least 16 bytes of the allocator.
    let ok = marshal::par::decode_batch_with::<Msg, _>(&out, &ends, c.with_limit::<16>());
    assert_eq!(ok, Ok(items.to_vec()));
    let e =
        marshal::par::decode_batch_with::<Msg, _>(&out, &ends, c.with_limit::<15>()).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::AllocLimit { limit: 15 });
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
struct Doc {
    id: u64,
    tags: Vec<String>,
}

#[test]
fn the_serde_route_keeps_its_limits() {
    let c = config::standard();
    let doc = Doc {
        id: 70_000,
        tags: vec!["a".into(), "bcd".into()],
    };
    let bytes = marshal::serde::encode_to_vec(&doc, c).unwrap();
    assert_eq!(
        bytes,
        [252, 0x70, 0x11, 1, 0, 2, 1, b'a', 3, b'b', b'c', b'd']
    );
    let (back, used) = marshal::serde::decode_from_slice::<Doc, _>(&bytes, c).unwrap();
    assert_eq!((back, used), (doc, bytes.len()));

    // A marker too wide for the `u64`'s place cannot be; one for a `u16`
    // in a `u32`'s place is 251.
    let mut wide = bytes.clone();
    wide[0] = 254;
    let e = marshal::serde::decode_from_slice::<Doc, _>(&wide, c).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (
            DecodeErrorKind::InvalidVarint {
                marker: 254,
                bits: 64
            },
            0
        )
    );
    // A sequence length claiming 2^64 - 1 items: refused before anything
    // is allocated, at the length.
    let mut huge = bytes[..5].to_vec();
    huge.extend([253, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    let e = marshal::serde::decode_from_slice::<Doc, _>(&huge, c).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::LengthOverflow { len: u64::MAX }, 5)
    );
    // Every truncation is an error, never a panic.
    for cut in 0..bytes.len() {
        assert!(marshal::serde::decode_from_slice::<Doc, _>(&bytes[..cut], c).is_err());
    }
    // The budget: the `Vec` of two `String`s (8 × 24 bytes for its first
    // item, 4 × 24 for the second) and the strings' (16 bytes each, the
    // least a string takes of the allocator).
    const BUDGET: usize = 8 * 24 + 4 * 24 + 2 * 16;
    let limited = c.with_limit::<BUDGET>();
    assert!(marshal::serde::decode_from_slice::<Doc, _>(&bytes, limited).is_ok());
    let tight = c.with_limit::<{ BUDGET - 1 }>();
    let e = marshal::serde::decode_from_slice::<Doc, _>(&bytes, tight).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::AllocLimit { limit: BUDGET - 1 });
}

#[test]
fn the_serde_route_keeps_the_depth_limit() {
    // Nested sequences, each a level: deeper than the default limit.
    let mut bytes = vec![1u8; 100_000];
    bytes.push(0);
    let e = marshal::serde::decode_from_slice::<Nested, _>(&bytes, config::standard()).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::TooDeep { .. }), "{e}");
}

#[derive(serde::Deserialize, Debug)]
struct Nested(#[allow(dead_code)] Vec<Nested>);

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Versioned {
    id: u32,
    #[marshal(since = 2, default)]
    tags: Vec<String>,
}

/// Hostile extensible bodies in a configuration: errors at the offsets
/// `legacy()` gives them, never a panic.
#[test]
fn extensible_bodies_in_a_configuration() {
    let c = config::standard();
    // A body length past the end of the input: at the length.
    let e = marshal::decode_from_slice::<Versioned, _>(&[9, 0, 0, 0, 1], c).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::LengthOverflow { len: 9 }, 0)
    );
    // A version-1 field cut by the body's end: `BodyOverrun`.
    let e = marshal::decode_from_slice::<Versioned, _>(&[1, 0, 0, 0, 251, 44, 1], c).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::BodyOverrun { .. }),
        "{e}"
    );
    // The body ends after version 1: the later field takes its default,
    // and bytes after the fields a reader knows are skipped.
    let (v, used) = marshal::decode_from_slice::<Versioned, _>(&[1, 0, 0, 0, 7, 9], c).unwrap();
    assert_eq!(
        (v, used),
        (
            Versioned {
                id: 7,
                tags: vec![]
            },
            5
        )
    );
    let (v, used) =
        marshal::decode_from_slice::<Versioned, _>(&[4, 0, 0, 0, 7, 1, 0, 0xee], c).unwrap();
    assert_eq!(
        (v, used),
        (
            Versioned {
                id: 7,
                tags: vec![String::new()]
            },
            8
        )
    );
    // Big-endian: the length too.
    let big = config::standard().with_big_endian();
    let bytes = marshal::encode_to_vec(
        &Versioned {
            id: 300,
            tags: vec![],
        },
        big,
    );
    assert_eq!(bytes, [0, 0, 0, 4, 251, 1, 44, 0]);
    assert_eq!(
        marshal::decode_from_slice::<Versioned, _>(&bytes, big)
            .unwrap()
            .0,
        Versioned {
            id: 300,
            tags: vec![]
        }
    );
}

/// A `u32` written big-endian by a module of its own.
mod be_u32 {
    pub(crate) fn encoded_len(_: &u32) -> usize {
        4
    }
    pub(crate) fn encode(v: &u32, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_array(v.to_be_bytes())
    }
    pub(crate) fn decode(r: &mut marshal::Reader<'_>) -> Result<u32, marshal::DecodeError> {
        r.take_array().map(u32::from_be_bytes)
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Framed {
    id: u32,
    #[marshal(with = be_u32)]
    len: u32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct FramedV2 {
    id: u32,
    #[marshal(with = be_u32)]
    len: u32,
}

/// A field `with` a module has the module's bytes in every configuration,
/// read back as in `legacy()`, in an extensible body too.
#[test]
fn with_fields_in_every_configuration() {
    let v = Framed { id: 300, len: 7 };
    let c = config::standard();
    let bytes = marshal::encode_to_vec(&v, c);
    assert_eq!(bytes, [251, 44, 1, 0, 0, 0, 7]);
    assert_eq!(marshal::encoded_len_with(&v, c), bytes.len());
    assert_eq!(
        marshal::decode_from_slice::<Framed, _>(&bytes, c),
        Ok((v, bytes.len()))
    );
    let big = config::legacy().with_big_endian();
    let v = FramedV2 { id: 1, len: 2 };
    let bytes = marshal::encode_to_vec(&v, big);
    assert_eq!(bytes, [0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert_eq!(
        marshal::decode_from_slice::<FramedV2, _>(&bytes, big),
        Ok((v, bytes.len()))
    );
    // The module's error, at its offset in the input.
    let e = marshal::decode_from_slice::<Framed, _>(&[5, 0, 0], c).unwrap_err();
    assert_eq!(e.offset(), 1);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Packet {
    Empty,
    Sized(#[marshal(with = be_u32)] u32, u16),
}

#[test]
fn with_fields_in_enum_variants() {
    let c = config::standard();
    let v = Packet::Sized(1, 300);
    let bytes = marshal::encode_to_vec(&v, c);
    assert_eq!(bytes, [1, 0, 0, 0, 1, 251, 44, 1]);
    assert_eq!(marshal::encoded_len_with(&v, c), bytes.len());
    assert_eq!(
        marshal::decode_from_slice::<Packet, _>(&bytes, c),
        Ok((v, bytes.len()))
    );
}
