//! Typed frames over TCP with tokio: a server and a client on 127.0.0.1
//! (port 0: the system picks a free one) exchange requests and replies
//! through `marshal::frame::TypedCodec`, the tokio-util codec of
//! `marshal::frame::Codec`'s frames.
//!
//! The client sends a fixed number of requests, checks every reply, then
//! says goodbye; the server answers until then and closes. The whole
//! exchange runs under a timeout, so the program stops by itself either
//! way.
//!
//! ```sh
//! cargo run --example async_framing --features tokio
//! ```

use std::io;
use std::time::Duration;

use bytes::BytesMut;
use marshal::frame::{Codec, TypedCodec};
use marshal::{Marshal, Unmarshal};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder};

/// What the client asks.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Request {
    Add { a: i64, b: i64 },
    Upper(String),
    Bye,
}

/// What the server answers.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Reply {
    Sum(i64),
    Text(String),
}

/// Requests the client sends before `Bye`.
const REQUESTS: i64 = 1000;

/// The longest the whole exchange may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Frames of at most 64 KiB, decoding into at most 64 KiB of memory each.
const CODEC: Codec = Codec::with_max_len(64 << 10).with_max_alloc(64 << 10);

/// The next frame's value from `stream`: what `tokio_util`'s `FramedRead`
/// does for each item. `None` at the end of the stream between frames; an
/// `UnexpectedEof` error if it ends inside one.
async fn next<R, D>(
    stream: &mut R,
    buf: &mut BytesMut,
    codec: &mut D,
) -> io::Result<Option<D::Item>>
where
    R: AsyncRead + Unpin,
    D: Decoder<Error = io::Error>,
{
    loop {
        if let Some(item) = codec.decode(buf)? {
            return Ok(Some(item));
        }
        if stream.read_buf(buf).await? == 0 {
            return codec.decode_eof(buf);
        }
    }
}

async fn serve(listener: TcpListener) -> io::Result<u64> {
    let (mut stream, _) = listener.accept().await?;
    let (mut requests, mut replies) = (
        TypedCodec::<Request>::new(CODEC),
        TypedCodec::<Reply>::new(CODEC),
    );
    let (mut input, mut output) = (BytesMut::new(), BytesMut::new());
    let mut answered = 0;
    while let Some(request) = next(&mut stream, &mut input, &mut requests).await? {
        let reply = match request {
            Request::Add { a, b } => Reply::Sum(a + b),
            Request::Upper(text) => Reply::Text(text.to_uppercase()),
            Request::Bye => break,
        };
        replies.encode(&reply, &mut output)?;
        stream.write_all_buf(&mut output).await?;
        answered += 1;
    }
    Ok(answered)
}

async fn client(port: u16) -> io::Result<(u64, u64)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await?;
    let (mut requests, mut replies) = (
        TypedCodec::<Request>::new(CODEC),
        TypedCodec::<Reply>::new(CODEC),
    );
    let (mut input, mut output) = (BytesMut::new(), BytesMut::new());
    let mut sent = 0;
    for i in 0..REQUESTS {
        let (request, expected) = if i % 2 == 0 {
            (Request::Add { a: i, b: 2 * i }, Reply::Sum(3 * i))
        } else {
            let text = format!("message {i}");
            (
                Request::Upper(text.clone()),
                Reply::Text(text.to_uppercase()),
            )
        };
        requests.encode(&request, &mut output)?;
        sent += output.len() as u64;
        stream.write_all_buf(&mut output).await?;
        let reply = next(&mut stream, &mut input, &mut replies).await?;
        if reply.as_ref() != Some(&expected) {
            return Err(io::Error::other(format!(
                "request {i}: expected {expected:?}, got {reply:?}"
            )));
        }
    }
    requests.encode(&Request::Bye, &mut output)?;
    sent += output.len() as u64;
    stream.write_all_buf(&mut output).await?;
    // The server closes after `Bye`: the stream ends between frames.
    if let Some(extra) = next(&mut stream, &mut input, &mut replies).await? {
        return Err(io::Error::other(format!("a reply after Bye: {extra:?}")));
    }
    Ok((REQUESTS as u64, sent))
}

async fn run() -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
    let port = listener.local_addr()?.port();
    let server = tokio::spawn(serve(listener));
    let (requests, sent) = client(port).await?;
    let answered = server.await.map_err(io::Error::other)??;
    println!("client: {requests} requests over 127.0.0.1:{port}, {sent} bytes of frames sent");
    println!("server: {answered} replies, then Bye");
    assert_eq!(answered, requests);
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
