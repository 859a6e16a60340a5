//! Length-delimited frames over a real TCP connection on 127.0.0.1.
//!
//! A client thread sends a hello, 20,000 quotes, some blobs up to 60 KiB and
//! a goodbye, each as one frame (a 4-byte little-endian length, then the
//! value), through a `BufWriter` and a reused scratch buffer. A server
//! thread reads them back with a `FrameReader` over a socket that hands it
//! at most 1,500 bytes per read, so frames arrive split; each body is lent
//! from the reader's one buffer and decoded with strings and blobs borrowed
//! straight from it. Both sides cap bodies at 64 KiB: the client's attempt
//! to send a 100 KiB blob is refused before any byte is written. The
//! listener binds an ephemeral port, every wait has a timeout, and the run
//! ends by itself.
//!
//! Run with `cargo run --example framing`.

use std::error::Error;
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use marshal::frame::{Codec, FrameError, FrameReader};
use marshal::{Marshal, Unmarshal};

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Message<'a> {
    Hello {
        client: &'a str,
        version: u16,
    },
    Quote {
        seq: u64,
        symbol: &'a str,
        bid: f64,
        ask: f64,
    },
    Blob {
        id: u32,
        data: &'a [u8],
    },
    Bye {
        sent: u64,
    },
}

const QUOTES: u64 = 20_000;
const MAX_BODY: usize = 64 * 1024;
const TIMEOUT: Duration = Duration::from_secs(10);

type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

fn blob(id: u32) -> Vec<u8> {
    (0..(id as usize * 6_000))
        .map(|i| (i % 251) as u8)
        .collect()
}

fn client(addr: SocketAddr) -> Result<u64> {
    let codec = Codec::with_max_len(MAX_BODY);
    let stream = TcpStream::connect_timeout(&addr, TIMEOUT)?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    let mut out = BufWriter::new(stream);
    let mut scratch = Vec::new();
    let mut sent = 0;

    codec.write_all(
        &Message::Hello {
            client: "framing-example",
            version: 1,
        },
        &mut out,
        &mut scratch,
    )?;
    sent += 1;
    let symbols = ["ACME", "GLOBEX", "INITECH", "UMBRELLA"];
    for seq in 0..QUOTES {
        let quote = Message::Quote {
            seq,
            symbol: symbols[seq as usize % symbols.len()],
            bid: 100.0 + seq as f64 / 100.0,
            ask: 100.5 + seq as f64 / 100.0,
        };
        codec.write_all(&quote, &mut out, &mut scratch)?;
        sent += 1;
    }
    for id in 1..=10 {
        let data = blob(id);
        codec.write_all(&Message::Blob { id, data: &data }, &mut out, &mut scratch)?;
        sent += 1;
    }

    // Over the limit: refused locally, nothing reaches the socket.
    let huge = vec![0u8; 100 * 1024];
    let err = codec
        .encode_into_vec(
            &Message::Blob {
                id: 99,
                data: &huge,
            },
            &mut Vec::new(),
        )
        .unwrap_err();
    assert!(matches!(err, FrameError::TooLarge { max: MAX_BODY, .. }));
    println!("client: refused to send a 100 KiB blob: {err}");

    codec.write_all(&Message::Bye { sent }, &mut out, &mut scratch)?;
    sent += 1;
    out.flush()?;
    Ok(sent)
}

#[derive(Debug, Default)]
struct Stats {
    frames: u64,
    bytes: u64,
    reads: u64,
}

/// A socket that hands over at most 1,500 bytes per read (one Ethernet
/// frame's worth), counting the reads.
struct Pieces<'s> {
    stream: TcpStream,
    reads: &'s mut u64,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        *self.reads += 1;
        let n = buf.len().min(1500);
        self.stream.read(&mut buf[..n])
    }
}

fn server(listener: TcpListener) -> Result<Stats> {
    let codec = Codec::with_max_len(MAX_BODY);
    // Accept with a deadline rather than blocking forever.
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + TIMEOUT;
    let stream = loop {
        match listener.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e.into()),
        }
    };
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(TIMEOUT))?;

    let mut stats = Stats::default();
    let mut reads = 0;
    let mut frames = FrameReader::new(
        Pieces {
            stream,
            reads: &mut reads,
        },
        codec,
    );
    let mut next_seq = 0;
    // Each body is lent from the reader's buffer; values borrow from it.
    while let Some(body) = frames.next_frame()? {
        stats.frames += 1;
        stats.bytes += (body.len() + marshal::frame::HEADER_LEN) as u64;
        match marshal::from_bytes::<Message>(body)? {
            Message::Hello { client, version } => {
                println!("server: hello from {client} v{version}");
            }
            Message::Quote { seq, bid, ask, .. } => {
                assert_eq!(seq, next_seq, "quotes arrive in order");
                assert!(bid < ask);
                next_seq += 1;
            }
            Message::Blob { id, data } => assert_eq!(data, blob(id)),
            Message::Bye { sent } => {
                assert_eq!(sent + 1, stats.frames, "every frame arrived");
                assert!(frames.buffer().is_empty(), "nothing after goodbye");
                drop(frames);
                stats.reads = reads;
                return Ok(stats);
            }
        }
    }
    Err("connection closed before goodbye".into())
}

fn main() -> Result<()> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    println!("server: listening on {addr}");
    let started = Instant::now();
    let server = thread::spawn(move || server(listener));
    let client = thread::spawn(move || client(addr));

    let sent = client.join().map_err(|_| "client panicked")??;
    let stats = server.join().map_err(|_| "server panicked")??;
    let elapsed = started.elapsed();

    println!(
        "sent {sent} frames; received {} frames, {} bytes in {} reads in {:.1} ms",
        stats.frames,
        stats.bytes,
        stats.reads,
        elapsed.as_secs_f64() * 1e3
    );
    assert_eq!(stats.frames, sent);
    Ok(())
}
