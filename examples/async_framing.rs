//! Typed frames over TCP with tokio: a server and a client on 127.0.0.1
//! (port 0: the system picks a free one), each a tokio-util `Framed`
//! stream over `marshal::frame::TypedCodec`. A `Framed` is a `Stream` of
//! the values that arrive and a `Sink` of the values to send, so the code
//! is `StreamExt::next`, `SinkExt::send` and `StreamExt::forward`, with no
//! byte handling of its own.
//!
//! The client sends its requests from a task of their own
//! (`stream.map(Ok).forward(sink)`, owned values into the codec's sink)
//! while it reads and checks every reply, then says goodbye; the server
//! answers each request until then and closes. The whole exchange runs
//! under a timeout, so the program stops by itself either way.
//!
//! ```sh
//! cargo run --example async_framing --features tokio
//! ```
//!
//! In a program of your own, the dependencies are:
//!
//! ```toml
//! [dependencies]
//! marshalers = { version = "0.1", features = ["tokio"] }
//! tokio = { version = "1", features = ["rt", "net", "time"] }
//! tokio-util = { version = "0.7", features = ["codec"] }
//! futures-util = { version = "0.3", features = ["sink"] }
//! ```

use std::io;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt, stream};
use marshal::frame::{Codec, TypedCodec};
use marshal::{Marshal, Unmarshal};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// What travels either way: requests from the client, replies from the
/// server. One type, so that one codec reads and writes a `Framed`.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Message {
    Add { a: i64, b: i64 },
    Upper(String),
    Bye,
    Sum(i64),
    Text(String),
}

/// Requests the client sends before `Bye`.
const REQUESTS: i64 = 1000;

/// The longest the whole exchange may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Frames of at most 64 KiB, decoding into at most 64 KiB of memory each.
const CODEC: Codec = Codec::with_max_len(64 << 10).with_max_alloc(64 << 10);

/// The `i`th request, and the reply it should get.
fn request(i: i64) -> (Message, Message) {
    if i % 2 == 0 {
        (Message::Add { a: i, b: 2 * i }, Message::Sum(3 * i))
    } else {
        let text = format!("message {i}");
        let upper = text.to_uppercase();
        (Message::Upper(text), Message::Text(upper))
    }
}

/// Answers requests until `Bye`, then closes; returns how many it
/// answered.
async fn serve(listener: TcpListener) -> io::Result<u64> {
    let (stream, _) = listener.accept().await?;
    let mut framed = Framed::new(stream, TypedCodec::<Message>::new(CODEC));
    let mut answered = 0;
    while let Some(message) = framed.next().await {
        let reply = match message? {
            Message::Add { a, b } => Message::Sum(a + b),
            Message::Upper(text) => Message::Text(text.to_uppercase()),
            Message::Bye => break,
            other => return Err(io::Error::other(format!("not a request: {other:?}"))),
        };
        framed.send(reply).await?;
        answered += 1;
    }
    Ok(answered)
}

/// Sends every request from a task of its own while it checks the
/// replies in order; returns how many were answered.
async fn client(port: u16) -> io::Result<u64> {
    let stream = TcpStream::connect(("127.0.0.1", port)).await?;
    let (sink, mut replies) = Framed::new(stream, TypedCodec::<Message>::new(CODEC)).split();
    let requests = (0..REQUESTS).map(|i| request(i).0).chain([Message::Bye]);
    let sending = tokio::spawn(stream::iter(requests).map(Ok).forward(sink));
    let mut answered = 0;
    for i in 0..REQUESTS {
        let reply = replies.next().await.transpose()?;
        let expected = request(i).1;
        if reply.as_ref() != Some(&expected) {
            return Err(io::Error::other(format!(
                "request {i}: expected {expected:?}, got {reply:?}"
            )));
        }
        answered += 1;
    }
    sending.await.map_err(io::Error::other)??;
    // The server closes after `Bye`: the stream ends between frames.
    if let Some(extra) = replies.next().await {
        return Err(io::Error::other(format!("a reply after Bye: {extra:?}")));
    }
    Ok(answered)
}

async fn run() -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let port = listener.local_addr()?.port();
    let server = tokio::spawn(serve(listener));
    let checked = client(port).await?;
    let answered = server.await.map_err(io::Error::other)??;
    println!("client: {checked} replies checked over 127.0.0.1:{port}");
    println!("server: {answered} requests answered, then Bye");
    assert_eq!((checked, answered), (REQUESTS as u64, REQUESTS as u64));
    Ok(())
}

fn main() -> io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        match tokio::time::timeout(TIMEOUT, run()).await {
            Ok(result) => result,
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the exchange took over 10 s",
            )),
        }
    })
}
