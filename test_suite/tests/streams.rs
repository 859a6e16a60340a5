//! Reading streams: `frame::FrameReader` over readers that hand out data in
//! every chunk size, are interrupted, end inside a frame or announce
//! frames over the limit (with the allocations counted); `marshal::iter`
//! over back-to-back values; and `DecodeError::is_incomplete`, true for
//! every valid encoding cut at every byte and false for invalid data.
//!
//! The counting allocator is `src/counting.rs`.

use std::collections::{BTreeMap, HashMap};
use std::error::Error as _;
use std::fmt::Debug;
use std::io::{self, ErrorKind, Read};

use marshal::frame::{Codec, FrameError, FrameReader, HEADER_LEN};
use marshal::{DecodeError, DecodeErrorKind, Marshal, Reader, Unmarshal};
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::properties;
use marshal_test_suite::strategies::{arb_multibyte_string, config};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// Values.

#[derive(Marshal, Unmarshal, Arbitrary, Debug, Clone, PartialEq)]
enum Shape {
    Empty,
    Circle(#[proptest(strategy = "-1e9f64..1e9")] f64),
    Rect { w: u32, h: u32 },
    Named(#[proptest(strategy = "arb_multibyte_string()")] String),
}

#[derive(Marshal, Unmarshal, Arbitrary, Debug, Clone, PartialEq)]
struct Record {
    id: u64,
    #[proptest(strategy = "arb_multibyte_string()")]
    name: String,
    active: bool,
    #[proptest(strategy = "vec(any::<u16>(), 0..6)")]
    scores: Vec<u16>,
    shape: Shape,
    tag: Option<char>,
    #[proptest(strategy = "proptest::collection::btree_map(any::<u8>(), any::<i32>(), 0..4)")]
    meta: BTreeMap<u8, i32>,
}

#[derive(Marshal, Unmarshal, Arbitrary, Debug, Clone, PartialEq)]
#[marshal(extensible)]
struct Versioned {
    id: u32,
    #[proptest(strategy = "arb_multibyte_string()")]
    label: String,
    #[proptest(strategy = "vec(any::<Shape>(), 0..3)")]
    shapes: Vec<Shape>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Borrowed<'a> {
    id: u32,
    text: &'a str,
    bytes: &'a [u8],
}

fn record(i: u64) -> Record {
    Record {
        id: i,
        name: format!("record-{i}"),
        active: i.is_multiple_of(3),
        scores: (0..i % 5).map(|s| s as u16 * 7).collect(),
        shape: match i % 4 {
            0 => Shape::Empty,
            1 => Shape::Circle(i as f64 / 3.0),
            2 => Shape::Rect {
                w: i as u32,
                h: 2 * i as u32,
            },
            _ => Shape::Named("ж".repeat(i as usize % 7)),
        },
        tag: char::from_u32(0x41 + (i % 26) as u32),
        meta: (0..(i % 3) as u8).map(|k| (k, -(k as i32))).collect(),
    }
}

/// `values` as consecutive frames of `codec`.
fn frames<T: Marshal>(codec: Codec, values: &[T]) -> Vec<u8> {
    let mut stream = Vec::new();
    for v in values {
        codec.encode_into_vec(v, &mut stream).unwrap();
    }
    stream
}

// ---------------------------------------------------------------------------
// Readers.

/// Hands out `data` at most `chunk` bytes per `read`, and when `interrupt`
/// is set fails every other call with `Interrupted`.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
    interrupt: bool,
    calls: usize,
}

impl<'a> Chunked<'a> {
    fn new(data: &'a [u8], chunk: usize) -> Self {
        Chunked {
            data,
            chunk,
            interrupt: false,
            calls: 0,
        }
    }

    fn interrupted(data: &'a [u8], chunk: usize) -> Self {
        Chunked {
            interrupt: true,
            ..Chunked::new(data, chunk)
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.interrupt && self.calls % 2 == 1 {
            return Err(io::Error::from(ErrorKind::Interrupted));
        }
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Fails every read with `kind`.
struct Failing(ErrorKind);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }
}

/// Claims to have read more than it was given room for.
struct Boasting;

impl Read for Boasting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Ok(buf.len() + 1)
    }
}

/// Every value `reader` yields, until `None`.
fn read_all<R: Read>(reader: &mut FrameReader<R>) -> io::Result<Vec<Record>> {
    let mut out = Vec::new();
    while let Some(r) = reader.read::<Record>()? {
        out.push(r);
    }
    Ok(out)
}

/// The `FrameError` inside `err`, which must be `InvalidData`.
#[track_caller]
fn frame_error(err: io::Error) -> FrameError {
    assert_eq!(err.kind(), ErrorKind::InvalidData, "{err}");
    err.downcast::<FrameError>().expect("a FrameError inside")
}

// ---------------------------------------------------------------------------
// FrameReader.

#[test]
fn frames_arrive_whole_in_every_chunk_size() {
    let codec = Codec::new();
    let records: Vec<Record> = (0..40).map(record).collect();
    let stream = frames(codec, &records);
    let longest = records.iter().map(|r| codec.frame_len(r)).max().unwrap();
    for chunk in 1..=longest + 1 {
        let mut reader = FrameReader::new(Chunked::new(&stream, chunk), codec);
        assert_eq!(read_all(&mut reader).unwrap(), records, "chunk {chunk}");
        assert!(reader.buffer().is_empty());
    }
    // The whole stream at once, and through a plain slice.
    let mut reader = FrameReader::new(&stream[..], codec);
    assert_eq!(read_all(&mut reader).unwrap(), records);
}

#[test]
fn a_stream_split_at_every_byte_boundary_reads_the_same() {
    let codec = Codec::new();
    let records: Vec<Record> = (0..6).map(record).collect();
    let stream = frames(codec, &records);
    for cut in 0..=stream.len() {
        let (a, b) = stream.split_at(cut);
        let mut reader = FrameReader::new(a.chain(b), codec);
        assert_eq!(read_all(&mut reader).unwrap(), records, "cut at {cut}");
    }
}

#[test]
fn interrupted_reads_are_retried() {
    let codec = Codec::new();
    let records: Vec<Record> = (0..20).map(record).collect();
    let stream = frames(codec, &records);
    for chunk in [1, 2, 3, 7, 64, 4096] {
        let mut reader = FrameReader::new(Chunked::interrupted(&stream, chunk), codec);
        assert_eq!(read_all(&mut reader).unwrap(), records, "chunk {chunk}");
        // Every other call was interrupted: each was retried.
        assert!(reader.get_ref().calls >= 2 * stream.len().div_ceil(chunk));
    }
}

#[test]
fn read_errors_other_than_interrupted_come_back() {
    for kind in [
        ErrorKind::ConnectionReset,
        ErrorKind::WouldBlock,
        ErrorKind::TimedOut,
    ] {
        let mut reader = FrameReader::new(Failing(kind), Codec::new());
        assert_eq!(reader.next_frame().unwrap_err().kind(), kind);
    }
}

#[test]
fn a_reader_that_reports_too_many_bytes_is_an_error_not_a_panic() {
    let mut reader = FrameReader::new(Boasting, Codec::new());
    let err = reader.next_frame().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Other);
    assert!(err.to_string().contains("bytes into a buffer of"), "{err}");
}

#[test]
fn the_end_of_the_stream_between_frames_is_none() {
    let codec = Codec::new();
    let mut reader = FrameReader::new(io::empty(), codec);
    assert!(reader.next_frame().unwrap().is_none());
    assert_eq!(reader.read::<u8>().unwrap(), None);

    let stream = frames(codec, &[1u8, 2]);
    let mut reader = FrameReader::new(Chunked::new(&stream, 1), codec);
    assert_eq!(reader.read::<u8>().unwrap(), Some(1));
    assert_eq!(reader.read::<u8>().unwrap(), Some(2));
    assert_eq!(reader.read::<u8>().unwrap(), None);
    assert_eq!(reader.read::<u8>().unwrap(), None);
}

#[test]
fn the_end_of_the_stream_inside_a_frame_is_unexpected_eof() {
    let codec = Codec::new();
    let stream = frames(codec, &[record(7), record(8)]);
    let first = codec.frame_len(&record(7));
    // Inside the second frame's header, then inside its body.
    for cut in (first + 1..stream.len()).chain(1..HEADER_LEN) {
        for chunk in [1, 3, 1 << 16] {
            let mut reader = FrameReader::new(Chunked::new(&stream[..cut], chunk), codec);
            if cut > first {
                assert_eq!(reader.read::<Record>().unwrap(), Some(record(7)));
            }
            let err = reader.read::<Record>().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::UnexpectedEof, "cut {cut}: {err}");
            let partial = if cut > first { cut - first } else { cut };
            assert!(
                err.to_string()
                    .contains(&format!("after {partial} of its bytes")),
                "{err}"
            );
        }
    }
}

#[test]
fn ten_thousand_frames_read_back_in_order() {
    let codec = Codec::new();
    let records: Vec<Record> = (0..10_000).map(record).collect();
    let stream = frames(codec, &records);
    let mut reader = FrameReader::new(&stream[..], codec);
    assert_eq!(read_all(&mut reader).unwrap(), records);
    let mut reader = FrameReader::new(Chunked::new(&stream, 1000), codec);
    let mut n = 0;
    while let Some(body) = reader.next_frame().unwrap() {
        assert_eq!(marshal::from_bytes::<Record>(body).unwrap(), records[n]);
        n += 1;
    }
    assert_eq!(n, 10_000);
}

#[test]
fn next_frame_allocates_nothing_once_the_buffer_has_grown() {
    let codec = Codec::new();
    // Frames of up to 20 KiB, so the buffer must grow past its first size.
    let values: Vec<Vec<u8>> = (0..2_000).map(|i| vec![i as u8; i * 37 % 20_000]).collect();
    let stream = frames(codec, &values);
    let guard = lock();
    let mut reader = FrameReader::new(Chunked::new(&stream, 3000), codec);
    let ((), first) = measure(&guard, || {
        reader.next_frame().unwrap();
    });
    assert_eq!((first.count, first.largest), (1, 8 << 10), "{first:?}");
    let read_rest = |reader: &mut FrameReader<Chunked>, from: usize| {
        let mut n = from;
        while let Some(body) = reader.next_frame().unwrap() {
            assert_eq!(body.len(), values[n].len() + 8);
            n += 1;
        }
        assert_eq!(n, values.len());
    };
    let ((), grown) = measure(&guard, || read_rest(&mut reader, 1));
    // The largest frame is 20 KiB: the buffer doubled from 8 KiB twice.
    assert_eq!(grown.count, 2, "{grown:?}");
    assert_eq!(grown.largest, 32 << 10, "{grown:?}");
    // The same stream again, through the same buffer: nothing allocated.
    *reader.get_mut() = Chunked::new(&stream, 3000);
    let ((), again) = measure(&guard, || read_rest(&mut reader, 0));
    assert_eq!(again.count, 0, "{again:?}");
}

#[test]
fn a_header_over_the_limit_is_refused_before_anything_is_allocated_for_the_body() {
    let codec = Codec::with_max_len(1 << 20);
    let mut stream = ((1u32 << 20) + 1).to_le_bytes().to_vec();
    stream.extend([7; 100]);
    let guard = lock();
    for chunk in [1, 4, 4096] {
        let (err, allocs) = measure(&guard, || {
            let mut reader = FrameReader::new(Chunked::new(&stream, chunk), codec);
            let err = reader.next_frame().unwrap_err();
            // The reader stays at the header: the same error again.
            let again = reader.next_frame().unwrap_err();
            assert_eq!(frame_error(again), frame_error_clone(&err));
            err
        });
        assert_eq!(
            frame_error(err),
            FrameError::TooLarge {
                len: (1 << 20) + 1,
                max: 1 << 20
            }
        );
        // Only the reader's first buffer, 8 KiB, and the errors' boxes.
        assert!(allocs.largest <= 8 << 10, "chunk {chunk}: {allocs:?}");
        assert!(allocs.total < 9 << 10, "chunk {chunk}: {allocs:?}");
    }
}

/// The `FrameError` inside `err`, leaving `err` as it is.
fn frame_error_clone(err: &io::Error) -> FrameError {
    *err.get_ref()
        .and_then(|e| e.downcast_ref::<FrameError>())
        .expect("a FrameError inside")
}

#[test]
fn the_buffer_grows_only_as_bytes_arrive() {
    let codec = Codec::new();
    let guard = lock();
    // A header announcing 8 MiB, the limit, and three bytes.
    let mut stream = (8u32 << 20).to_le_bytes().to_vec();
    stream.extend([1, 2, 3]);
    let (err, allocs) = measure(&guard, || {
        FrameReader::new(&stream[..], codec)
            .next_frame()
            .unwrap_err()
    });
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert!(allocs.largest <= 8 << 10, "{allocs:?}");

    // The same header and 100 KiB of its body, in pieces: the buffer is
    // never more than twice what arrived.
    stream.resize(4 + (100 << 10), 9);
    let (err, allocs) = measure(&guard, || {
        FrameReader::new(Chunked::new(&stream, 1500), codec)
            .next_frame()
            .unwrap_err()
    });
    assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    assert!(allocs.largest <= 2 * stream.len(), "{allocs:?}");
    assert!(allocs.total <= 4 * stream.len(), "{allocs:?}");
}

#[test]
fn the_buffer_never_grows_past_a_header_and_the_limit() {
    let codec = Codec::with_max_len(10_000);
    let stream = frames(codec, &[vec![5u8; 9_000 - 8]]);
    let guard = lock();
    let (body, allocs) = measure(&guard, || {
        let mut reader = FrameReader::new(Chunked::new(&stream, 1000), codec);
        reader.next_frame().unwrap().map(<[u8]>::len)
    });
    assert_eq!(body, Some(9_000));
    // 8 KiB, then not 16 KiB but the largest frame the codec accepts.
    assert_eq!(allocs.sizes, [8 << 10, HEADER_LEN + 10_000]);
}

#[test]
fn decode_errors_are_invalid_data_with_the_frame_error_inside() {
    let codec = Codec::new();
    let mut stream = Vec::new();
    codec.encode_into_vec(&(1u32, 2u8), &mut stream).unwrap(); // 2 is no bool
    codec.encode_into_vec(&(3u32, true), &mut stream).unwrap();
    codec
        .encode_into_vec(&(4u32, false, 0u8), &mut stream)
        .unwrap(); // a byte too many
    let mut reader = FrameReader::new(&stream[..], codec);

    let err = reader.read::<(u32, bool)>().unwrap_err();
    assert!(err.to_string().contains("invalid frame body"), "{err}");
    // `source` of an `io::Error` is its inner error's source: the
    // `DecodeError` inside the `FrameError`.
    let source = err.source().and_then(|e| e.downcast_ref::<DecodeError>());
    assert_eq!(
        source.map(DecodeError::kind),
        Some(DecodeErrorKind::InvalidBool(2))
    );
    let FrameError::Decode(e) = frame_error(err) else {
        panic!("not a decode error")
    };
    // The offset counts from the start of the frame: header, then the u32.
    assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidBool(2), 8));

    // The bad frame was consumed; the next one reads.
    assert_eq!(reader.read::<(u32, bool)>().unwrap(), Some((3, true)));
    let FrameError::Decode(e) = frame_error(reader.read::<(u32, bool)>().unwrap_err()) else {
        panic!("not a decode error")
    };
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::TrailingBytes { count: 1 }, 9)
    );
    assert_eq!(reader.read::<(u32, bool)>().unwrap(), None);
}

#[test]
fn read_decodes_within_the_codec_allocation_budget() {
    let stream = frames(Codec::new(), &[vec![0u64; 100]]);
    let codec = Codec::new().with_max_alloc(799);
    let err = FrameReader::new(&stream[..], codec)
        .read::<Vec<u64>>()
        .unwrap_err();
    let FrameError::Decode(e) = frame_error(err) else {
        panic!("not a decode error")
    };
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::AllocLimit { limit: 799 }, 12)
    );
    let codec = Codec::new().with_max_alloc(800);
    let back = FrameReader::new(&stream[..], codec).read::<Vec<u64>>();
    assert_eq!(back.unwrap(), Some(vec![0; 100]));
}

#[test]
fn next_frame_lends_the_body_for_borrowed_decoding() {
    let codec = Codec::new();
    let values: Vec<Borrowed> = (0..50u32)
        .map(|i| Borrowed {
            id: i,
            text: ["alpha", "béta", "", "γάμμα"][i as usize % 4],
            bytes: &[1, 2, 3, 4, 5][..i as usize % 6],
        })
        .collect();
    let stream = frames(codec, &values);
    for chunk in [1, 5, 100, 1 << 16] {
        let mut reader = FrameReader::new(Chunked::new(&stream, chunk), codec);
        for expected in &values {
            let body = reader.next_frame().unwrap().expect("a frame");
            let value: Borrowed = marshal::from_bytes(body).unwrap();
            assert_eq!(&value, expected);
            let range = body.as_ptr_range();
            assert!(range.contains(&value.text.as_ptr()) || value.text.is_empty());
        }
        assert!(reader.next_frame().unwrap().is_none());
    }
}

#[test]
fn buffered_bytes_are_the_start_of_the_next_frames() {
    let codec = Codec::new();
    let stream = frames(codec, &[10u16, 20, 30]);
    let mut reader = FrameReader::new(Chunked::new(&stream, 9), codec);
    assert_eq!(reader.next_frame().unwrap(), Some(&[10, 0][..]));
    // 9 bytes read: the first frame's 6 and the start of the second.
    assert_eq!(reader.buffer(), [2, 0, 0]);
    assert_eq!(reader.read::<u16>().unwrap(), Some(20));
    let rest = reader.buffer().len();
    let inner = reader.into_inner();
    assert_eq!(rest + inner.data.len(), 6);
}

// ---------------------------------------------------------------------------
// marshal::iter.

/// `values` encoded back to back, as `encode_into_vec` appends them.
fn back_to_back<T: Marshal>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        marshal::encode_into_vec(v, &mut out);
    }
    out
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn iter_yields_the_values_written_back_to_back(records in vec(any::<Record>(), 0..12)) {
        let bytes = back_to_back(&records);
        let back: Vec<Record> = marshal::iter(&bytes).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(back, records);
    }

    #[test]
    fn iter_stops_at_a_cut_value_with_an_incomplete_error_at_its_start(
        records in vec(any::<Record>(), 1..6),
        cut_back in 1usize..64,
    ) {
        let bytes = back_to_back(&records);
        let last_start = bytes.len() - records.last().unwrap().encoded_len();
        // At least a byte of the last value is left.
        let cut = bytes.len() - cut_back.min(bytes.len() - last_start - 1);
        let mut values = marshal::iter::<Record>(&bytes[..cut]);
        for expected in &records[..records.len() - 1] {
            prop_assert_eq!(values.next().unwrap().unwrap(), expected.clone());
        }
        let err = values.next().unwrap().unwrap_err();
        prop_assert!(err.is_incomplete(), "{}", err);
        prop_assert!(err.offset() >= last_start && err.offset() <= cut, "{}", err);
        prop_assert_eq!(values.position(), last_start);
        prop_assert_eq!(values.rest(), &bytes[last_start..cut]);
        prop_assert!(values.next().is_none());
    }
}

#[test]
fn iter_over_empty_input_yields_nothing() {
    assert!(marshal::iter::<Record>(&[]).next().is_none());
    assert!(marshal::iter::<u8>(&[]).next().is_none());
    assert!(marshal::iter::<()>(&[]).next().is_none());
    assert_eq!(marshal::iter::<u8>(&[]).size_hint(), (0, Some(0)));
}

#[test]
fn iter_error_offsets_count_from_the_start_of_the_input() {
    let records: Vec<Record> = (0..5).map(record).collect();
    let mut bytes = back_to_back(&records);
    // Break the fourth record's `active` bool: after its id (8 bytes) and
    // name (8 + its length).
    let fourth: usize = records[..3].iter().map(Marshal::encoded_len).sum();
    let at = fourth + 8 + 8 + records[3].name.len();
    assert!(bytes[at] <= 1);
    bytes[at] = 7;
    let mut values = marshal::iter::<Record>(&bytes);
    for expected in &records[..3] {
        assert_eq!(values.next(), Some(Ok(expected.clone())));
    }
    let err = values.next().unwrap().unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::InvalidBool(7), at)
    );
    assert!(!err.is_incomplete());
    assert_eq!(values.position(), fourth);
    // It stops after the first error, though a whole value follows.
    assert_eq!(values.next(), None);
    assert_eq!(values.next(), None);
    assert_eq!(values.size_hint(), (0, Some(0)));
}

#[test]
fn iter_values_borrow_from_the_input() {
    let values = [
        Borrowed {
            id: 1,
            text: "one",
            bytes: b"\x01",
        },
        Borrowed {
            id: 2,
            text: "two",
            bytes: b"",
        },
    ];
    let bytes = back_to_back(&values);
    let back: Vec<Borrowed> = marshal::iter(&bytes).collect::<Result<_, _>>().unwrap();
    assert_eq!(back, values);
    assert!(bytes.as_ptr_range().contains(&back[1].text.as_ptr()));
}

#[test]
fn iter_of_a_zero_sized_type_over_bytes_is_an_error_not_an_endless_loop() {
    let mut values = marshal::iter::<()>(&[1, 2, 3]);
    let err = values.next().unwrap().unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::TrailingBytes { count: 3 }, 0)
    );
    assert_eq!(values.next(), None);
}

#[test]
fn iter_reads_what_the_one_pass_and_sized_paths_append() {
    // Warm capacity (one pass) and none (sized) append the same values.
    let mut warm = Vec::with_capacity(1 << 16);
    let mut cold = Vec::new();
    for i in 0..100 {
        marshal::encode_into_vec(&record(i), &mut warm);
        marshal::encode_into_vec(&record(i), &mut cold);
        cold.shrink_to_fit();
    }
    assert_eq!(warm, cold);
    let n = marshal::iter::<Record>(&warm)
        .enumerate()
        .map(|(i, r)| assert_eq!(r.unwrap(), record(i as u64)))
        .count();
    assert_eq!(n, 100);
}

// ---------------------------------------------------------------------------
// DecodeError::is_incomplete.

/// Every cut of `value`'s encoding short of its end fails to decode with an
/// incomplete error, through `read_from` and through a `Reader` under an
/// allocation budget it has room for.
fn every_cut_is_incomplete<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Marshal + for<'de> Unmarshal<'de> + Debug + PartialEq,
{
    let bytes = marshal::to_vec(value);
    prop_assert_eq!(&T::read_from(&bytes).map(|(v, _)| v).unwrap(), value);
    for cut in 0..bytes.len() {
        let err = match T::read_from(&bytes[..cut]) {
            Err(e) => e,
            Ok((v, n)) => {
                return Err(TestCaseError::fail(format!(
                    "{cut} of {} bytes decoded as {v:?} ({n} bytes)",
                    bytes.len()
                )));
            }
        };
        prop_assert!(
            err.is_incomplete(),
            "cut at {} of {}: {} ({:?})",
            cut,
            bytes.len(),
            err,
            err.kind()
        );
        prop_assert!(err.offset() <= cut, "{}", err);
        let mut r = Reader::new(&bytes[..cut]).with_max_alloc(1 << 20);
        let err = T::decode(&mut r).unwrap_err();
        prop_assert!(err.is_incomplete(), "budget, cut at {}: {}", cut, err);
    }
    Ok(())
}

properties! {
    check = |value| every_cut_is_incomplete(value);

    cut_u64: u64;
    cut_char: char;
    cut_string: String = arb_multibyte_string();
    cut_bytes: Vec<u8> = vec(any::<u8>(), 0..40);
    cut_vec_u32: Vec<u32> = vec(any::<u32>(), 0..20);
    cut_vec_string: Vec<String> = vec(arb_multibyte_string(), 0..6);
    cut_nested: Vec<Vec<u16>> = vec(vec(any::<u16>(), 0..5), 0..5);
    cut_btree_map: BTreeMap<String, u64> =
        proptest::collection::btree_map(arb_multibyte_string(), any::<u64>(), 0..6);
    cut_hash_map: HashMap<u32, Vec<bool>> =
        proptest::collection::hash_map(any::<u32>(), vec(any::<bool>(), 0..4), 0..6);
    cut_option: Option<String> = proptest::option::of(arb_multibyte_string());
    cut_option_option: Option<Option<u32>>;
    cut_tuple: (u8, String, Option<char>, [u16; 3]) =
        (any::<u8>(), arb_multibyte_string(), any::<Option<char>>(), any::<[u16; 3]>());
    cut_enum: Shape;
    cut_enums: Vec<Shape> = vec(any::<Shape>(), 0..6);
    cut_struct: Record;
    cut_extensible: Versioned;
    cut_boxed: Box<str> = arb_multibyte_string().prop_map(String::into_boxed_str);
}

/// Every body length short of `value`'s own, with the whole encoding (and
/// more) behind it: the body is complete, so whatever its length cuts is an
/// error that more input cannot mend.
fn every_shortened_body_is_final(value: &Versioned) -> Result<(), TestCaseError> {
    let mut bytes = marshal::to_vec(value);
    let body = bytes.len() - 4;
    bytes.extend([0xaa; 16]);
    for len in 0..body {
        bytes[..4].copy_from_slice(&(len as u32).to_le_bytes());
        let err = Versioned::read_from(&bytes).unwrap_err();
        prop_assert!(
            !err.is_incomplete(),
            "body of {} of {}: {} ({:?})",
            len,
            body,
            err,
            err.kind()
        );
        prop_assert!(err.offset() <= 4 + len, "{}", err);
    }
    Ok(())
}

properties! {
    check = |value| every_shortened_body_is_final(value);

    shortened_body: Versioned;
}

/// `T::read_from(input)` fails with an error that is not incomplete, of
/// kind `kind`.
#[track_caller]
fn invalid<T: for<'de> Unmarshal<'de> + Debug>(input: &[u8], kind: DecodeErrorKind) {
    let err = T::read_from(input).unwrap_err();
    assert_eq!(err.kind(), kind);
    assert!(!err.is_incomplete(), "{err}");
}

#[test]
fn invalid_data_is_not_incomplete() {
    invalid::<bool>(&[2], DecodeErrorKind::InvalidBool(2));
    invalid::<String>(
        &[2, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe],
        DecodeErrorKind::InvalidUtf8,
    );
    invalid::<char>(&[0xff], DecodeErrorKind::InvalidChar(0xff));
    invalid::<Shape>(
        &[9, 0, 0, 0],
        DecodeErrorKind::InvalidTag {
            tag: 9,
            ty: "Shape",
        },
    );
    invalid::<std::num::NonZeroU8>(&[0], DecodeErrorKind::ZeroNonZero);
    // A length no input can hold.
    invalid::<Vec<u8>>(
        &u64::MAX.to_le_bytes(),
        DecodeErrorKind::LengthOverflow { len: u64::MAX },
    );
    invalid::<String>(
        &(1u64 << 63).to_le_bytes(),
        DecodeErrorKind::LengthOverflow { len: 1 << 63 },
    );
    // Over a type's capacity, with all its bytes there.
    invalid::<heapless::Vec<u8, 2>>(
        &[3, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
        DecodeErrorKind::OverCapacity {
            len: 3,
            capacity: 2,
        },
    );
    // A field that runs past its extensible body.
    let mut body = vec![2, 0, 0, 0, 1, 0];
    body.extend(marshal::to_vec(&(String::new(), Vec::<Shape>::new())));
    invalid::<Versioned>(&body, DecodeErrorKind::BodyOverrun { needed: 2 });

    // Trailing bytes, the depth limit and the allocation budget.
    let err = marshal::from_bytes::<u8>(&[1, 2]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    assert!(!err.is_incomplete());
    let bytes = marshal::to_vec(&vec![vec![1u8]]);
    let err = Vec::<Vec<u8>>::decode(&mut Reader::new(&bytes).with_max_depth(0)).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 0 });
    assert!(!err.is_incomplete());
    let bytes = marshal::to_vec(&vec![0u64; 4]);
    let err = marshal::from_bytes_limited::<Vec<u64>>(&bytes, 31).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 31 });
    assert!(!err.is_incomplete());
    assert!(!DecodeError::custom(&"no", 0).is_incomplete());
}

#[test]
fn nothing_past_the_end_of_a_whole_extensible_body_is_incomplete() {
    // The whole body is in the input: more bytes after it cannot mend a
    // read that its length cuts.
    let mut bytes = marshal::to_vec(&Versioned {
        id: 1,
        label: "abcdef".into(),
        shapes: Vec::new(),
    });
    // A body of 4 + 8 + 3: `label` promises 6 bytes, the body has 3.
    bytes[..4].copy_from_slice(&15u32.to_le_bytes());
    let err = marshal::from_bytes::<Versioned>(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::LengthOverflow { len: 6 }, 8)
    );
    assert!(!err.is_incomplete(), "{err}");
    assert_eq!(
        err.to_string(),
        "length 6 exceeds what its extensible body can hold at byte 8, in Versioned.label"
    );
    // More input after the body changes nothing.
    bytes.extend([0; 64]);
    let err = Versioned::read_from(&bytes).unwrap_err();
    assert!(!err.is_incomplete(), "{err}");

    // A complete body of 2 bytes, which version 1's `id` (a `u32`) does
    // not fit: the input goes on, the body does not.
    let err = Versioned::read_from(&[2, 0, 0, 0, 1, 0, 9, 9, 9, 9]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::BodyOverrun { needed: 2 }, 4)
    );
    assert!(!err.is_incomplete(), "{err}");
    // A complete empty body: version 1's `id` missing altogether.
    let err = Versioned::read_from(&[0, 0, 0, 0, 1, 2, 3, 4]).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (DecodeErrorKind::BodyOverrun { needed: 4 }, 4)
    );
    assert!(!err.is_incomplete(), "{err}");

    // The body's own length past the end of the input: that is incomplete.
    let whole = marshal::to_vec(&Versioned {
        id: 1,
        label: "abcdef".into(),
        shapes: Vec::new(),
    });
    let err = Versioned::read_from(&whole[..whole.len() - 1]).unwrap_err();
    assert!(err.is_incomplete(), "{err}");
}

#[test]
fn a_uuid_whose_length_prefix_is_bad_is_not_incomplete_however_short() {
    let mut bytes = marshal::to_vec(&uuid::Uuid::nil());
    bytes[0] = 15;
    let custom = DecodeErrorKind::Custom("a Uuid's length prefix must be 16");
    for cut in 1..=bytes.len() {
        let err = uuid::Uuid::read_from(&bytes[..cut]).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (custom, 0), "cut at {cut}");
        assert!(!err.is_incomplete(), "cut at {cut}: {err}");
    }
    // A bad byte later in the prefix, seen once it has arrived.
    bytes[0] = 16;
    bytes[7] = 1;
    for cut in 0..8 {
        let err = uuid::Uuid::read_from(&bytes[..cut]).unwrap_err();
        assert_eq!(
            err.kind(),
            DecodeErrorKind::UnexpectedEnd { needed: 24 - cut }
        );
        assert!(err.is_incomplete(), "cut at {cut}: {err}");
    }
    for cut in 8..=bytes.len() {
        let err = uuid::Uuid::read_from(&bytes[..cut]).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (custom, 0), "cut at {cut}");
    }
    // After a value: the offset is the prefix's.
    let mut input = vec![7u8];
    input.extend(&bytes[..12]);
    let err = <(u8, uuid::Uuid)>::read_from(&input).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (custom, 1));
}

#[test]
fn a_cut_reports_either_kind_and_both_are_incomplete() {
    let bytes = marshal::to_vec(&(7u32, String::from("hello")));
    // Inside the `u32` and inside the length prefix: a read past the end.
    for cut in [0, 3, 4, 11] {
        let err = <(u32, String)>::read_from(&bytes[..cut]).unwrap_err();
        assert!(matches!(err.kind(), DecodeErrorKind::UnexpectedEnd { .. }));
        assert!(err.is_incomplete());
    }
    // After the length prefix: more promised than is there.
    for cut in [12, 16] {
        let err = <(u32, String)>::read_from(&bytes[..cut]).unwrap_err();
        assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 5 });
        assert!(err.is_incomplete());
    }
    // The largest length that still counts as incomplete.
    let max = (isize::MAX as u64).to_le_bytes();
    let err = Vec::<u8>::read_from(&max).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::LengthOverflow {
            len: isize::MAX as u64
        }
    );
    assert!(err.is_incomplete());
}
