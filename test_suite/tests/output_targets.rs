//! Output targets allocate only where they say: a counting global
//! allocator shows that encoding into an arena (one value or a batch), into
//! a `Vec` or `BytesMut` with enough spare capacity, and through
//! `write_all` with a warm scratch buffer touches the global heap zero
//! times, and that the bytes are exactly `to_vec`'s. Also: `BufMut`
//! targets, `write_all` and framing (partial frames, the length limit).
//!
//! The counting allocator is `src/counting.rs`.

use std::collections::BTreeMap;
use std::io::Write;

use bumpalo::Bump;
use bytes::{BufMut, Bytes, BytesMut};
use marshal::frame::{Codec, Decoded, FrameError};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::counting::{lock, measure};

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// Values.

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
struct Order {
    id: u64,
    symbol: String,
    price: f64,
    qty: u32,
    tags: Vec<String>,
    side: Side,
    meta: BTreeMap<String, i64>,
    note: Option<String>,
}

#[derive(Marshal, Unmarshal, Debug, Clone, Copy, PartialEq)]
enum Side {
    Buy,
    Sell,
    Limit { max: f64 },
}

/// Fixed size: 8 + 8 + 4 + 1 bytes.
#[derive(Marshal, Unmarshal, Debug, Clone, Copy, PartialEq)]
struct Tick {
    ts: u64,
    price: f64,
    qty: u32,
    side: u8,
}

fn order(i: u64) -> Order {
    Order {
        id: i,
        symbol: format!("SYM{}", i % 97),
        price: i as f64 * 0.25,
        qty: (i * 7 % 1000) as u32,
        tags: (0..i % 4).map(|t| format!("tag-{t}")).collect(),
        side: match i % 3 {
            0 => Side::Buy,
            1 => Side::Sell,
            _ => Side::Limit { max: i as f64 },
        },
        meta: (0..i % 3).map(|k| (format!("k{k}"), -(k as i64))).collect(),
        note: i.is_multiple_of(5).then(|| "ünïcødé note".to_string()),
    }
}

fn tick(i: u64) -> Tick {
    Tick {
        ts: 1_700_000_000_000 + i,
        price: 100.0 + i as f64,
        qty: i as u32,
        side: (i % 2) as u8,
    }
}

fn concat<T: Marshal>(items: &[T]) -> Vec<u8> {
    items.iter().flat_map(marshal::to_vec).collect()
}

// ---------------------------------------------------------------------------
// Arenas.

#[test]
fn arena_encode_is_one_exact_bump_allocation_and_no_heap_allocation() {
    let value = order(10);
    let expected = marshal::to_vec(&value);
    let bump = Bump::with_capacity(1 << 16);
    let (chunks_before, capacity_before) = (bump.allocated_bytes(), bump.chunk_capacity());
    let guard = lock();

    let (bytes, allocs) = measure(&guard, || marshal::arena::encode(&bump, &value));
    assert_eq!(allocs.count, 0, "arena::encode allocated: {allocs:?}");
    assert_eq!(bytes, &expected[..]);
    // The bump pointer moved by exactly the encoded length: one allocation
    // of exactly `encoded_len` bytes, in the chunk that was already there.
    assert_eq!(capacity_before - bump.chunk_capacity(), expected.len());
    assert_eq!(bump.allocated_bytes(), chunks_before);

    // A fixed-size value, and an empty encoding.
    let (bytes, allocs) = measure(&guard, || marshal::arena::encode(&bump, &tick(1)));
    assert_eq!((allocs.count, bytes.len()), (0, 21));
    let (bytes, allocs) = measure(&guard, || marshal::arena::encode(&bump, &()));
    assert_eq!((allocs.count, bytes.len()), (0, 0));
}

#[test]
fn arena_batch_is_one_contiguous_block_and_no_heap_allocation() {
    let orders: Vec<Order> = (0..1_000).map(order).collect();
    let expected = concat(&orders);
    let bump = Bump::with_capacity(1 << 20);
    let (chunks_before, capacity_before) = (bump.allocated_bytes(), bump.chunk_capacity());
    let guard = lock();

    let (batch, allocs) = measure(&guard, || marshal::arena::encode_batch(&bump, &orders));
    assert_eq!(allocs.count, 0, "encode_batch allocated: {allocs:?}");
    assert_eq!(batch.bytes, &expected[..]);
    assert_eq!(batch.len(), orders.len());
    let mut end = 0;
    for (i, (order, range)) in orders.iter().zip(batch.ranges).enumerate() {
        assert_eq!(range.start, end, "value {i} starts where the last ended");
        assert_eq!(batch.get(i), Some(&marshal::to_vec(order)[..]));
        end = range.end;
    }
    assert_eq!(end, expected.len());
    // Two bump allocations: the ranges (8-byte aligned, so up to 7 bytes of
    // padding) and the block of exactly the summed lengths.
    let used = capacity_before - bump.chunk_capacity();
    let ranges = orders.len() * size_of::<std::ops::Range<usize>>();
    assert!(
        (expected.len() + ranges..expected.len() + ranges + 8).contains(&used),
        "{used}"
    );
    assert_eq!(bump.allocated_bytes(), chunks_before);

    // Any cloneable, exactly sized iterator: here a projection.
    let (batch, allocs) = measure(&guard, || {
        marshal::arena::encode_batch(&bump, orders.iter().map(|o| (o.id, &o.symbol)))
    });
    assert_eq!(allocs.count, 0);
    assert_eq!(batch.get(3), Some(&marshal::to_vec(&(3u64, "SYM3"))[..]));
}

// ---------------------------------------------------------------------------
// Vectors.

#[test]
fn encode_into_vec_with_capacity_does_not_allocate() {
    let orders: Vec<Order> = (0..50).map(order).collect();
    let expected = concat(&orders);
    let mut out = Vec::with_capacity(expected.len() + 3);
    out.extend_from_slice(b"pre");
    let guard = lock();

    let (written, allocs) = measure(&guard, || {
        orders
            .iter()
            .map(|o| marshal::encode_into_vec(o, &mut out))
            .sum::<usize>()
    });
    assert_eq!(allocs.count, 0, "encode_into_vec allocated: {allocs:?}");
    assert_eq!(written, expected.len());
    assert_eq!(out[..3], *b"pre");
    assert_eq!(out[3..], expected[..]);
}

#[test]
fn encode_into_vec_reallocates_at_most_once() {
    let value = order(11);
    let n = value.encoded_len();
    let mut out = vec![0xAB];
    let guard = lock();
    let (_, allocs) = measure(&guard, || marshal::encode_into_vec(&value, &mut out));
    assert_eq!(allocs.count, 1, "{allocs:?}");
    assert!(allocs.sizes[0] > n, "room for the old byte and the value");
    assert_eq!(out[1..], marshal::to_vec(&value)[..]);
}

#[test]
fn to_vec_is_one_exact_allocation() {
    let value = order(12);
    let n = value.encoded_len();
    let guard = lock();
    let (bytes, allocs) = measure(&guard, || marshal::to_vec(&value));
    assert_eq!(allocs.sizes, [n]);
    assert_eq!(bytes.len(), n);
    assert_eq!(bytes.capacity(), n);
}

// ---------------------------------------------------------------------------
// Byte buffers.

#[test]
fn bytes_mut_with_capacity_does_not_allocate() {
    let orders: Vec<Order> = (0..50).map(order).collect();
    let expected = concat(&orders);
    let mut buf = BytesMut::with_capacity(expected.len());
    let guard = lock();
    let (_, allocs) = measure(&guard, || {
        for o in &orders {
            marshal::buf::encode_to_bytes_mut(o, &mut buf);
        }
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert_eq!(buf[..], expected[..]);

    // Without capacity: one reservation for the value.
    let mut buf = BytesMut::new();
    let (_, allocs) = measure(&guard, || {
        marshal::buf::encode_to_bytes_mut(&orders[7], &mut buf)
    });
    assert_eq!(allocs.count, 1, "{allocs:?}");
    assert_eq!(buf[..], marshal::to_vec(&orders[7])[..]);

    let (bytes, allocs) = measure(&guard, || marshal::buf::to_bytes(&orders[8]));
    assert_eq!(allocs.count, 1, "{allocs:?}");
    assert_eq!(bytes[..], marshal::to_vec(&orders[8])[..]);
}

#[test]
fn any_buf_mut_gets_the_same_bytes() {
    let value = order(13);
    let expected = marshal::to_vec(&value);
    let guard = lock();

    // A slice: in place.
    let mut arr = vec![0u8; expected.len() + 5];
    let (rest, allocs) = measure(&guard, || {
        let mut slice = &mut arr[..];
        marshal::buf::encode_to_buf_mut(&value, &mut slice);
        slice.remaining_mut()
    });
    assert_eq!((allocs.count, rest), (0, 5));
    assert_eq!(arr[..expected.len()], expected[..]);

    // A Vec with spare capacity: in place.
    let mut v = Vec::with_capacity(expected.len());
    let (_, allocs) = measure(&guard, || marshal::buf::encode_to_buf_mut(&value, &mut v));
    assert_eq!(allocs.count, 0);
    assert_eq!(v, expected);

    // A chain whose first chunk is too small: through the stack for a small
    // value, through a temporary for a large one; the bytes are the same.
    let (mut a, mut b) = ([0u8; 5], [0u8; 30]);
    let (_, allocs) = measure(&guard, || {
        let mut chain = (&mut a[..]).chain_mut(&mut b[..]);
        marshal::buf::encode_to_buf_mut(&tick(3), &mut chain);
    });
    assert_eq!(allocs.count, 0);
    let mut joined = a.to_vec();
    joined.extend_from_slice(&b[..16]);
    assert_eq!(joined, marshal::to_vec(&tick(3)));

    let mut a = [0u8; 5];
    let mut b = vec![0u8; expected.len()];
    let mut chain = (&mut a[..]).chain_mut(&mut b[..]);
    marshal::buf::encode_to_buf_mut(&value, &mut chain);
    assert_eq!([&a[..], &b[..expected.len() - 5]].concat(), expected);
}

#[test]
#[should_panic(expected = "buffer too small")]
fn a_buf_mut_without_room_panics() {
    let mut arr = [0u8; 4];
    let mut slice = &mut arr[..];
    marshal::buf::encode_to_buf_mut(&1u64, &mut slice);
}

#[test]
fn values_decode_one_after_another_from_bytes() {
    let orders: Vec<Order> = (0..20).map(order).collect();
    let mut bytes = Bytes::from(concat(&orders));
    for o in &orders {
        let decoded: Order = marshal::buf::decode_from_bytes(&mut bytes).unwrap();
        assert_eq!(&decoded, o);
    }
    assert!(bytes.is_empty());

    // A truncated value is an error and leaves the buffer as it was.
    let full = marshal::to_vec(&orders[3]);
    let mut short = Bytes::from(full[..full.len() - 1].to_vec());
    let err = marshal::buf::decode_from_bytes::<Order>(&mut short).unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedEnd { .. }));
    assert_eq!(short.len(), full.len() - 1);

    // Borrowing values decode from the slice.
    let bytes = marshal::buf::to_bytes(&("borrowed", 1u8));
    let (s, n): (&str, u8) = marshal::from_bytes(&bytes).unwrap();
    assert_eq!((s, n), ("borrowed", 1));
}

// ---------------------------------------------------------------------------
// Streams.

#[test]
fn write_all_of_fixed_size_values_goes_through_the_stack() {
    let ticks: Vec<Tick> = (0..100).map(tick).collect();
    let mut out = Vec::with_capacity(21 * ticks.len());
    let mut scratch = Vec::new();
    let guard = lock();
    let (written, allocs) = measure(&guard, || {
        ticks
            .iter()
            .map(|t| marshal::write_all(t, &mut out, &mut scratch).unwrap())
            .sum::<usize>()
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert_eq!(written, 21 * ticks.len());
    assert_eq!(scratch.capacity(), 0, "the scratch buffer is not used");
    assert_eq!(out, concat(&ticks));
}

#[test]
fn write_all_reuses_the_scratch_buffer() {
    let orders: Vec<Order> = (0..200).map(order).collect();
    let largest = orders.iter().max_by_key(|o| o.encoded_len()).unwrap();
    let mut out = Vec::with_capacity(concat(&orders).len());
    let mut scratch = Vec::new();
    let guard = lock();

    // Cold: the scratch buffer grows once, to the value's size.
    let (_, allocs) = measure(&guard, || {
        marshal::write_all(largest, &mut std::io::sink(), &mut scratch).unwrap()
    });
    assert_eq!(allocs.count, 1, "{allocs:?}");

    // Warm: a whole stream, and nothing allocates.
    let (_, allocs) = measure(&guard, || {
        for o in &orders {
            marshal::write_all(o, &mut out, &mut scratch).unwrap();
        }
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert_eq!(out, concat(&orders));
}

#[test]
fn write_all_reports_io_errors() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Ok(0)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let err = marshal::write_all(&tick(1), &mut Full, &mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::WriteZero);
    let err = marshal::write_all(&order(1), &mut Full, &mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::WriteZero);
}

// ---------------------------------------------------------------------------
// Framing.

#[test]
fn a_frame_is_a_u32_le_length_then_the_value() {
    let codec = Codec::new();
    let value = order(5);
    let body = marshal::to_vec(&value);
    let mut frame = Vec::new();
    assert_eq!(
        codec.encode_into_vec(&value, &mut frame),
        Ok(4 + body.len())
    );
    assert_eq!(frame[..4], (body.len() as u32).to_le_bytes());
    assert_eq!(frame[4..], body[..]);

    // The same bytes from every encoder.
    let mut buf = vec![0u8; frame.len() + 3];
    assert_eq!(codec.write_to(&value, &mut buf), Ok(frame.len()));
    assert_eq!(buf[..frame.len()], frame[..]);
    let mut out = Vec::new();
    codec.write_all(&value, &mut out, &mut Vec::new()).unwrap();
    assert_eq!(out, frame);
    let mut out = Vec::new();
    codec
        .write_all(&tick(2), &mut out, &mut Vec::new())
        .unwrap();
    assert_eq!(out[..4], [21, 0, 0, 0]);
    assert_eq!(out[4..], marshal::to_vec(&tick(2))[..]);

    // A buffer that cannot hold the frame.
    assert_eq!(
        codec.write_to(&value, &mut buf[..frame.len() - 1]),
        Err(FrameError::BufferTooSmall(marshal::BufferTooSmall {
            needed: frame.len(),
            available: frame.len() - 1
        }))
    );
}

#[test]
fn frames_encode_without_allocating() {
    let codec = Codec::new();
    let orders: Vec<Order> = (0..50).map(order).collect();
    let total: usize = orders.iter().map(|o| codec.frame_len(o)).sum();
    let mut out = Vec::with_capacity(total);
    let guard = lock();
    let (_, allocs) = measure(&guard, || {
        for o in &orders {
            codec.encode_into_vec(o, &mut out).unwrap();
        }
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert_eq!(out.len(), total);

    let mut sink = Vec::with_capacity(25 * 10);
    let (_, allocs) = measure(&guard, || {
        for i in 0..10 {
            codec
                .write_all(&tick(i), &mut sink, &mut Vec::new())
                .unwrap();
        }
    });
    assert_eq!(allocs.count, 0, "{allocs:?}");
}

#[test]
fn partial_frames_report_how_many_bytes_are_missing() {
    let codec = Codec::new();
    let orders: Vec<Order> = (0..30).map(order).collect();
    let mut stream = Vec::new();
    for o in &orders {
        codec.encode_into_vec(o, &mut stream).unwrap();
    }

    // Every prefix of every frame is incomplete by exactly the right count.
    let mut at = 0;
    for o in &orders {
        let frame_len = codec.frame_len(o);
        for have in 0..frame_len {
            let needed = if have < 4 { 4 - have } else { frame_len - have };
            assert_eq!(
                codec.decode::<Order>(&stream[at..at + have]),
                Ok(Decoded::Incomplete { needed }),
                "{have} of {frame_len} bytes"
            );
        }
        let decoded = codec.decode::<Order>(&stream[at..]).unwrap();
        assert_eq!(
            decoded,
            Decoded::Frame {
                value: o.clone(),
                len: frame_len
            }
        );
        at += frame_len;
    }
    assert_eq!(at, stream.len());

    // Fed in arbitrary pieces, a receive buffer yields every value in order.
    let mut received = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    for piece in stream.chunks(37) {
        pending.extend_from_slice(piece);
        let mut start = 0;
        while let Decoded::Frame { value, len } = codec.decode::<Order>(&pending[start..]).unwrap()
        {
            received.push(value);
            start += len;
        }
        pending.drain(..start);
    }
    assert!(pending.is_empty());
    assert_eq!(received, orders);
}

#[test]
fn frames_over_the_limit_are_rejected_on_both_sides() {
    let codec = Codec::with_max_len(100);
    let at_limit = vec![7u8; 100 - 8];
    let over = vec![7u8; 101 - 8];

    let mut out = Vec::new();
    assert_eq!(codec.encode_into_vec(&at_limit, &mut out), Ok(104));
    assert_eq!(
        codec.encode_into_vec(&over, &mut out),
        Err(FrameError::TooLarge { len: 101, max: 100 })
    );
    assert_eq!(out.len(), 104, "nothing written for a rejected frame");
    let err = codec
        .write_all(&over, &mut out, &mut Vec::new())
        .unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);

    // The header alone is enough to reject a frame: nothing more is read.
    let big = Codec::new()
        .encode_into_vec(&over, &mut Vec::new())
        .unwrap();
    assert_eq!(big, 105);
    assert_eq!(
        codec.decode::<Vec<u8>>(&101u32.to_le_bytes()),
        Err(FrameError::TooLarge { len: 101, max: 100 })
    );
    assert_eq!(
        codec.split(&u32::MAX.to_le_bytes()),
        Err(FrameError::TooLarge {
            len: u32::MAX as usize,
            max: 100
        })
    );
    // At the limit it is accepted.
    assert_eq!(
        codec.decode::<Vec<u8>>(&out),
        Ok(Decoded::Frame {
            value: at_limit,
            len: 104
        })
    );
}

#[test]
fn bad_bodies_are_decode_errors_at_frame_offsets() {
    let codec = Codec::new();
    let mut frame = Vec::new();
    codec.encode_into_vec(&(true, 5u32), &mut frame).unwrap();
    frame[4] = 2; // not a bool
    let err = codec.decode::<(bool, u32)>(&frame).unwrap_err();
    let FrameError::Decode(e) = err else {
        panic!("{err:?}")
    };
    assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidBool(2), 4));

    // A body longer than its value.
    let mut frame = Vec::new();
    codec.encode_into_vec(&(1u8, 2u8), &mut frame).unwrap();
    let err = codec.decode::<u8>(&frame).unwrap_err();
    assert!(matches!(
        err,
        FrameError::Decode(e) if e.kind() == DecodeErrorKind::TrailingBytes { count: 1 }
    ));
    assert_eq!(
        std::io::Error::from(err).kind(),
        std::io::ErrorKind::InvalidData
    );
}

/// The table in WIRE_FORMAT.md, "Length-delimited frames".
#[test]
fn the_wire_format_frame_table() {
    fn frame<T: Marshal + ?Sized>(value: &T) -> Vec<u8> {
        let mut out = Vec::new();
        Codec::new().encode_into_vec(value, &mut out).unwrap();
        out
    }
    assert_eq!(frame(&7u32), [0x04, 0, 0, 0, 0x07, 0, 0, 0]);
    assert_eq!(
        frame("hi"),
        [0x0a, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x68, 0x69]
    );
    assert_eq!(frame(&()), [0, 0, 0, 0]);
    assert_eq!(
        Codec::new().decode::<()>(&[0, 0, 0, 0]),
        Ok(Decoded::Frame { value: (), len: 4 })
    );
}
