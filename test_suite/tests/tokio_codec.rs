//! The tokio-util codecs (feature `tokio`): `frame::Codec` as an `Encoder`
//! of any `&T: Marshal` and a `Decoder` of frame bodies, and
//! `frame::TypedCodec<T>`.
//!
//! - The encoder writes what `Codec::encode_into_vec` writes, in place:
//!   with room in the `BytesMut`, no allocation (counted by the counting
//!   allocator, `src/counting.rs`); without, one of exactly the frame.
//! - Frames split at every byte boundary, and fed one byte at a time,
//!   decode to the same values; a header over the limit is an error before
//!   any room is made for its body, and room for a body within it grows
//!   only as the body arrives; a stream that ends inside a frame is an
//!   `UnexpectedEof` error at `decode_eof`; every error is an `io::Error`
//!   whose source is the `FrameError`.
//! - Over `tokio::io::duplex` and over TCP on 127.0.0.1: 10,000 frames each
//!   way, an oversize header rejected while the peer still holds the
//!   connection open, and a connection closed inside a frame. Every
//!   exchange runs under a timeout.
//!
//! The reading loop (`read_all`) is what `tokio_util::codec::FramedRead`
//! does with a decoder: decode while frames are whole, read more when not,
//! and `decode_eof` at the end of the stream.

use std::io;
use std::time::Duration;

use bytes::BytesMut;
use marshal::frame::{Codec, FrameError, TypedCodec};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::counting::{lock, measure};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::timeout;
use tokio_util::codec::{Decoder, Encoder};

marshal_test_suite::counting_allocator!();

/// How long any one exchange may take before the test fails.
const LIMIT: Duration = Duration::from_secs(60);

/// Frames each way in the stream tests.
const FRAMES: usize = 10_000;

#[derive(Marshal, Unmarshal, Debug, Clone, PartialEq)]
enum Msg {
    Ping,
    Text { id: u32, body: String },
    Data(Vec<u16>),
}

fn msg(i: usize) -> Msg {
    match i % 3 {
        0 => Msg::Ping,
        1 => Msg::Text {
            id: i as u32,
            body: "x".repeat(i % 50),
        },
        _ => Msg::Data((0..(i % 20) as u16).collect()),
    }
}

/// The `FrameError` an `io::Error` carries as its source.
fn frame_error(e: &io::Error) -> &FrameError {
    e.get_ref()
        .and_then(|s| s.downcast_ref::<FrameError>())
        .unwrap_or_else(|| panic!("no FrameError source: {e:?}"))
}

/// Every item `decoder` yields from `reader`, to the end of the stream:
/// what `FramedRead` does.
async fn read_all<R, D>(reader: &mut R, decoder: &mut D) -> io::Result<Vec<D::Item>>
where
    R: AsyncRead + Unpin + ?Sized,
    D: Decoder<Error = io::Error>,
{
    let mut buf = BytesMut::new();
    let mut items = Vec::new();
    loop {
        while let Some(item) = decoder.decode(&mut buf)? {
            items.push(item);
        }
        if reader.read_buf(&mut buf).await? == 0 {
            while let Some(item) = decoder.decode_eof(&mut buf)? {
                items.push(item);
            }
            return Ok(items);
        }
    }
}

/// Encodes every message with `encoder` and writes them, `chunk` frames
/// per write, then shuts the writer down.
async fn write_all<W, E>(
    writer: &mut W,
    encoder: &mut E,
    msgs: &[Msg],
    chunk: usize,
) -> io::Result<()>
where
    W: AsyncWrite + Unpin,
    E: for<'a> Encoder<&'a Msg, Error = io::Error>,
{
    let mut buf = BytesMut::new();
    for group in msgs.chunks(chunk) {
        for m in group {
            encoder.encode(m, &mut buf)?;
        }
        writer.write_all_buf(&mut buf).await?;
    }
    writer.shutdown().await
}

// ---------------------------------------------------------------------------
// The encoder.

#[test]
fn the_encoder_writes_encode_into_vec_s_frame_in_place() {
    let guard = lock();
    for i in 0..30 {
        let m = msg(i);
        let codec = Codec::new();
        let mut want = vec![0xaa];
        codec.encode_into_vec(&m, &mut want).unwrap();
        let frame = want.len() - 1;

        // Enough room: no allocation, and the bytes land after what was there.
        let mut dst = BytesMut::with_capacity(256);
        dst.extend_from_slice(&[0xaa]);
        let ptr = dst.as_ptr();
        let (result, allocs) = measure(&guard, || Codec::new().encode(&m, &mut dst));
        result.unwrap();
        assert_eq!(allocs.count, 0, "{m:?}: {allocs:?}");
        assert_eq!((&dst[..], dst.as_ptr()), (&want[..], ptr));

        // No room: one allocation, of exactly the frame.
        let mut dst = BytesMut::new();
        let (result, allocs) =
            measure(&guard, || TypedCodec::<Msg>::default().encode(&m, &mut dst));
        result.unwrap();
        assert_eq!(allocs.sizes, [frame], "{m:?}");
        assert_eq!(dst, want[1..]);
    }
    // Unsized values.
    let mut dst = BytesMut::new();
    Codec::new().encode("hi", &mut dst).unwrap();
    Codec::new().encode(&[1u8, 2][..], &mut dst).unwrap();
    let mut want = Vec::new();
    Codec::new().encode_into_vec("hi", &mut want).unwrap();
    Codec::new()
        .encode_into_vec(&[1u8, 2][..], &mut want)
        .unwrap();
    assert_eq!(dst, want);
}

#[test]
fn an_oversize_value_is_an_error_and_leaves_the_buffer() {
    let mut dst = BytesMut::from(&b"ab"[..]);
    let long = Msg::Text {
        id: 1,
        body: "y".repeat(100),
    };
    for err in [
        Codec::with_max_len(64).encode(&long, &mut dst).unwrap_err(),
        TypedCodec::<Msg>::new(Codec::with_max_len(64))
            .encode(&long, &mut dst)
            .unwrap_err(),
    ] {
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            *frame_error(&err),
            FrameError::TooLarge {
                len: long.encoded_len(),
                max: 64
            }
        );
        assert_eq!(dst, &b"ab"[..]);
    }
}

// ---------------------------------------------------------------------------
// The decoders, on buffers.

fn stream(msgs: &[Msg]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in msgs {
        Codec::new().encode_into_vec(m, &mut out).unwrap();
    }
    out
}

/// Decodes everything whole in `buf` with both decoders.
fn drain(buf: &mut BytesMut, typed: &mut TypedCodec<Msg>, into: &mut Vec<Msg>) {
    while let Some(m) = typed.decode(buf).unwrap() {
        into.push(m);
    }
}

#[test]
fn frames_split_at_every_byte_boundary_decode_the_same() {
    let msgs: Vec<Msg> = (0..12).map(msg).collect();
    let bytes = stream(&msgs);
    for k in 0..=bytes.len() {
        // Typed.
        let mut typed = TypedCodec::<Msg>::new(Codec::new());
        let (mut buf, mut got) = (BytesMut::from(&bytes[..k]), Vec::new());
        drain(&mut buf, &mut typed, &mut got);
        buf.extend_from_slice(&bytes[k..]);
        drain(&mut buf, &mut typed, &mut got);
        assert_eq!(typed.decode_eof(&mut buf).unwrap(), None);
        assert_eq!(got, msgs, "split at {k}");

        // Bodies.
        let mut codec = Codec::new();
        let (mut buf, mut bodies) = (BytesMut::from(&bytes[..k]), Vec::new());
        while let Some(body) = Decoder::decode(&mut codec, &mut buf).unwrap() {
            bodies.push(body);
        }
        buf.extend_from_slice(&bytes[k..]);
        while let Some(body) = codec.decode_eof(&mut buf).unwrap() {
            bodies.push(body);
        }
        let back: Vec<Msg> = bodies
            .iter()
            .map(|b| marshal::from_bytes(b).unwrap())
            .collect();
        assert_eq!(back, msgs, "split at {k}");
    }

    // One byte at a time.
    let mut typed = TypedCodec::<Msg>::new(Codec::new());
    let (mut buf, mut got) = (BytesMut::new(), Vec::new());
    for b in &bytes {
        buf.extend_from_slice(&[*b]);
        drain(&mut buf, &mut typed, &mut got);
    }
    assert_eq!(got, msgs);
    assert!(buf.is_empty());
}

#[test]
fn an_oversize_header_is_rejected_before_room_is_made_for_its_body() {
    for header in [17u32, 1 << 20, u32::MAX] {
        let bytes = header.to_le_bytes();
        let mut buf = BytesMut::with_capacity(8);
        buf.extend_from_slice(&bytes);
        let capacity = buf.capacity();
        let err = Decoder::decode(&mut Codec::with_max_len(16), &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(matches!(
            frame_error(&err),
            FrameError::TooLarge { max: 16, .. }
        ));
        assert_eq!(buf.capacity(), capacity);

        let mut typed = TypedCodec::<Msg>::new(Codec::with_max_len(16));
        let err = typed.decode(&mut buf).unwrap_err();
        assert!(matches!(
            frame_error(&err),
            FrameError::TooLarge { max: 16, .. }
        ));
        assert_eq!(buf.capacity(), capacity);
    }
    // A header within the limit: no room for its body until it has passed.
    let mut buf = BytesMut::from(&[16u8, 0, 0][..]);
    assert!(
        Decoder::decode(&mut Codec::with_max_len(16), &mut buf)
            .unwrap()
            .is_none()
    );
    assert!(buf.capacity() < 20);
}

/// A frame of `body` bytes of `Vec<u8>` (its length prefix, then the
/// bytes).
fn big_frame(body: usize) -> Vec<u8> {
    let value = vec![0x5a_u8; body - 8];
    let mut frame = Vec::new();
    Codec::new().encode_into_vec(&value, &mut frame).unwrap();
    frame
}

#[test]
fn a_header_announcing_the_most_costs_nothing_until_the_body_arrives() {
    // The default limit's worth announced, three bytes of it sent: what
    // the decoders allocate stays near what arrived.
    let mut bytes = u32::try_from(marshal::frame::DEFAULT_MAX_LEN)
        .unwrap()
        .to_le_bytes()
        .to_vec();
    bytes.extend([1, 2, 3]);
    let guard = lock();
    for typed in [false, true] {
        let mut buf = BytesMut::from(&bytes[..]);
        let (pending, allocations) = measure(&guard, || {
            if typed {
                TypedCodec::<Vec<u8>>::new(Codec::new())
                    .decode(&mut buf)
                    .map(|v| v.is_none())
            } else {
                Decoder::decode(&mut Codec::new(), &mut buf).map(|v| v.is_none())
            }
        });
        assert!(pending.unwrap());
        assert!(allocations.total < 64, "typed: {typed}: {allocations:?}");
        assert!(buf.capacity() < 64, "typed: {typed}: {}", buf.capacity());
    }
}

#[test]
fn the_decoder_s_buffer_grows_with_the_body_as_it_arrives() {
    // A 1 MiB frame, fed in chunks as a socket would hand them over, to
    // both decoders: never more than a few times what has arrived is
    // buffered, and the frame comes out whole at the last chunk.
    let frame = big_frame(1 << 20);
    for chunk in [1000, 4096, 65536] {
        for typed in [false, true] {
            let mut buf = BytesMut::new();
            let mut codec = TypedCodec::<Vec<u8>>::new(Codec::new());
            let mut reallocations = 0;
            let mut decoded = None;
            for (i, piece) in frame.chunks(chunk).enumerate() {
                buf.extend_from_slice(piece);
                let capacity = buf.capacity();
                let item = if typed {
                    codec.decode(&mut buf).unwrap().map(|v| v.len() + 8)
                } else {
                    Decoder::decode(&mut Codec::new(), &mut buf)
                        .unwrap()
                        .map(|body| body.len())
                };
                if buf.capacity() != capacity {
                    reallocations += 1;
                }
                let received = (i * chunk + piece.len()).max(64);
                assert!(
                    buf.capacity() <= 4 * received,
                    "chunk {chunk}, typed {typed}: {} buffered for {received} received",
                    buf.capacity()
                );
                if let Some(len) = item {
                    assert_eq!(i, frame.len().div_ceil(chunk) - 1, "whole only at the end");
                    decoded = Some(len);
                }
            }
            assert_eq!(
                decoded,
                Some((1 << 20) as usize),
                "chunk {chunk}, typed {typed}"
            );
            // Growth by doubling: a few steps, not one per chunk.
            assert!(
                reallocations <= 24,
                "chunk {chunk}: {reallocations} reallocations"
            );
        }
    }
}

#[test]
fn a_stream_ending_inside_a_frame_is_unexpected_eof() {
    let msgs: Vec<Msg> = (0..6).map(msg).collect();
    let bytes = stream(&msgs);
    let mut boundaries = vec![0];
    for m in &msgs {
        boundaries.push(boundaries.last().unwrap() + Codec::new().frame_len(m));
    }
    for k in 0..=bytes.len() {
        let mut typed = TypedCodec::<Msg>::new(Codec::new());
        let (mut buf, mut got) = (BytesMut::from(&bytes[..k]), Vec::new());
        drain(&mut buf, &mut typed, &mut got);
        let end = typed.decode_eof(&mut buf);
        let mut codec = Codec::new();
        let mut bodies = BytesMut::from(&bytes[..k]);
        while Decoder::decode(&mut codec, &mut bodies).unwrap().is_some() {}
        let body_end = codec.decode_eof(&mut bodies);
        if boundaries.contains(&k) {
            assert_eq!(end.unwrap(), None, "cut at {k}");
            assert_eq!(body_end.unwrap(), None, "cut at {k}");
            continue;
        }
        for err in [end.unwrap_err(), body_end.unwrap_err()] {
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "cut at {k}");
            let FrameError::Decode(e) = frame_error(&err) else {
                panic!("cut at {k}: {err:?}")
            };
            // Counted from the start of the frame: where the input ended,
            // and what was missing: of the header while it is incomplete,
            // else of the body.
            let start = *boundaries.iter().rfind(|&&b| b < k).unwrap();
            let next = *boundaries.iter().find(|&&b| b > k).unwrap();
            let needed = if k - start < 4 {
                4 - (k - start)
            } else {
                next - k
            };
            assert_eq!(
                (e.kind(), e.offset()),
                (DecodeErrorKind::UnexpectedEnd { needed }, k - start),
                "cut at {k}"
            );
        }
    }
}

#[test]
fn a_body_that_does_not_decode_is_invalid_data_and_is_consumed() {
    let mut bytes = vec![1, 0, 0, 0, 9];
    bytes.extend(stream(&[Msg::Ping]));
    let mut typed = TypedCodec::<Msg>::new(Codec::new());
    let mut buf = BytesMut::from(&bytes[..]);
    let err = typed.decode(&mut buf).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    let FrameError::Decode(e) = frame_error(&err) else {
        panic!("{err:?}")
    };
    // The tag is a u32: one byte of it, at the body's start.
    assert_eq!(
        (e.kind(), e.offset()),
        (DecodeErrorKind::UnexpectedEnd { needed: 3 }, 4)
    );
    assert_eq!(typed.decode(&mut buf).unwrap(), Some(Msg::Ping));
}

#[test]
fn the_typed_decoder_keeps_the_codec_s_allocation_budget() {
    let big = Msg::Data(vec![7; 100]);
    let bytes = stream(std::slice::from_ref(&big));
    let mut typed = TypedCodec::<Msg>::new(Codec::new().with_max_alloc(200));
    assert_eq!(
        typed.decode(&mut BytesMut::from(&bytes[..])).unwrap(),
        Some(big)
    );
    let mut typed = TypedCodec::<Msg>::new(Codec::new().with_max_alloc(199));
    let err = typed.decode(&mut BytesMut::from(&bytes[..])).unwrap_err();
    let FrameError::Decode(e) = frame_error(&err) else {
        panic!("{err:?}")
    };
    assert_eq!(e.kind(), DecodeErrorKind::AllocLimit { limit: 199 });
}

// ---------------------------------------------------------------------------
// Over streams.

/// `FRAMES` messages from `a` to `b` and back: `b` echoes each one it
/// decodes as it arrives, while `a` is still writing.
async fn echo_both_ways<S>(a: S, b: S, chunk: usize)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let msgs: Vec<Msg> = (0..FRAMES).map(msg).collect();
    let echo = tokio::spawn(async move {
        let (mut read, mut write) = tokio::io::split(b);
        let mut typed = TypedCodec::<Msg>::new(Codec::new());
        let (mut input, mut output) = (BytesMut::new(), BytesMut::new());
        let mut echoed = 0;
        loop {
            while let Some(m) = typed.decode(&mut input)? {
                typed.encode(&m, &mut output)?;
                echoed += 1;
            }
            write.write_all_buf(&mut output).await?;
            if read.read_buf(&mut input).await? == 0 {
                assert_eq!(typed.decode_eof(&mut input)?, None);
                write.shutdown().await?;
                return Ok::<usize, io::Error>(echoed);
            }
        }
    });
    let (mut read, mut write) = tokio::io::split(a);
    let sent = msgs.clone();
    let writer =
        tokio::spawn(async move { write_all(&mut write, &mut Codec::new(), &sent, chunk).await });
    let back = read_all(&mut read, &mut TypedCodec::<Msg>::new(Codec::new()))
        .await
        .unwrap();
    writer.await.unwrap().unwrap();
    assert_eq!(echo.await.unwrap().unwrap(), FRAMES);
    assert_eq!(back.len(), FRAMES);
    assert!(back == msgs);
}

#[tokio::test]
async fn ten_thousand_frames_both_ways_over_duplex() {
    // A small pipe: frames are split across reads all the time.
    for (capacity, chunk) in [(61, 1), (4096, 100)] {
        let (a, b) = tokio::io::duplex(capacity);
        timeout(LIMIT, echo_both_ways(a, b, chunk))
            .await
            .expect("within the time limit");
    }
}

/// A connected pair of TCP streams on 127.0.0.1.
async fn tcp_pair() -> (TcpStream, TcpStream) {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (client, server) = tokio::join!(TcpStream::connect(addr), listener.accept());
    (client.unwrap(), server.unwrap().0)
}

#[tokio::test]
async fn ten_thousand_frames_both_ways_over_tcp() {
    timeout(LIMIT, async {
        let (a, b) = tcp_pair().await;
        echo_both_ways(a, b, 37).await;
    })
    .await
    .expect("within the time limit");
}

/// Sends `bytes` from one end and keeps it open; what the other end's
/// typed decoder makes of them.
async fn receive<S>(mut a: S, mut b: S, bytes: &[u8], codec: Codec) -> io::Result<Vec<Msg>>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    a.write_all(bytes).await?;
    a.flush().await?;
    let result = read_all(&mut b, &mut TypedCodec::<Msg>::new(codec)).await;
    drop(a);
    result
}

#[tokio::test]
async fn an_oversize_header_is_rejected_while_the_peer_holds_the_stream_open() {
    // The header announces 1 MiB; the body never comes, and the sender
    // does not close: the error must not wait for either.
    let header = (1u32 << 20).to_le_bytes();
    let codec = Codec::with_max_len(1024);
    let (a, b) = tokio::io::duplex(64);
    let err = timeout(LIMIT, receive(a, b, &header, codec))
        .await
        .expect("within the time limit")
        .unwrap_err();
    assert_eq!(
        *frame_error(&err),
        FrameError::TooLarge {
            len: 1 << 20,
            max: 1024
        }
    );
    let err = timeout(LIMIT, async {
        let (a, b) = tcp_pair().await;
        receive(a, b, &header, codec).await
    })
    .await
    .expect("within the time limit")
    .unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert!(matches!(frame_error(&err), FrameError::TooLarge { .. }));
}

#[tokio::test]
async fn a_stream_closed_inside_a_frame_is_unexpected_eof() {
    let mut bytes = stream(&[msg(1), msg(2)]);
    bytes.truncate(bytes.len() - 3);
    // Over duplex and TCP: the sender writes and closes.
    let (mut a, mut b) = tokio::io::duplex(64);
    let (mut c, mut d) = tcp_pair().await;
    for (writer, reader) in [
        (
            &mut a as &mut (dyn AsyncWrite + Unpin + Send),
            &mut b as &mut (dyn AsyncRead + Unpin + Send),
        ),
        (&mut c, &mut d),
    ] {
        let mut typed = TypedCodec::<Msg>::new(Codec::new());
        let result = timeout(LIMIT, async {
            let (sent, received) = tokio::join!(
                async {
                    writer.write_all(&bytes).await?;
                    writer.shutdown().await
                },
                read_all(reader, &mut typed)
            );
            sent.unwrap();
            received
        })
        .await
        .expect("within the time limit");
        let err = result.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        let FrameError::Decode(e) = frame_error(&err) else {
            panic!("{err:?}")
        };
        assert_eq!(e.kind(), DecodeErrorKind::UnexpectedEnd { needed: 3 });
    }
}

#[tokio::test]
async fn owned_values_forward_into_a_framed_sink_and_come_back_as_a_stream() {
    use futures_util::{SinkExt, StreamExt, stream};
    use tokio_util::codec::Framed;

    let msgs: Vec<Msg> = (0..FRAMES).map(msg).collect();
    let (a, b) = tokio::io::duplex(4096);
    let exchange = async {
        // Owned values: `stream.map(Ok).forward(framed)`, which needs
        // `Encoder<Msg>`, not only `Encoder<&Msg>`.
        let sending = async {
            let framed = Framed::new(a, TypedCodec::<Msg>::new(Codec::new()));
            stream::iter(msgs.clone()).map(Ok).forward(framed).await
        };
        let receiving = async {
            let mut framed = Framed::new(b, TypedCodec::<Msg>::new(Codec::new()));
            let mut got = Vec::new();
            while let Some(item) = framed.next().await {
                got.push(item?);
            }
            io::Result::Ok(got)
        };
        let (sent, got) = tokio::join!(sending, receiving);
        sent?;
        got
    };
    let got = timeout(LIMIT, exchange).await.expect("in time").unwrap();
    assert_eq!(got, msgs);

    // `send` of an owned value, and of a borrowed one, on the same sink.
    let (a, b) = tokio::io::duplex(4096);
    let mut left = Framed::new(a, TypedCodec::<Msg>::new(Codec::new()));
    let mut right = Framed::new(b, TypedCodec::<Msg>::new(Codec::new()));
    left.send(msg(1)).await.unwrap();
    left.send(&msg(2)).await.unwrap();
    assert_eq!(right.next().await.unwrap().unwrap(), msg(1));
    assert_eq!(right.next().await.unwrap().unwrap(), msg(2));
}
