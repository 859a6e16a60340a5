//! tokio-util's `Encoder` and `Decoder` for frames (feature `tokio`): the
//! impls on [`Codec`], and [`TypedCodec`].

use core::fmt;
use core::marker::PhantomData;
use std::io;

use ::bytes::{Buf, BytesMut};
use marshal_core::config::UnmarshalIn;
use marshal_core::config::{Config, Configuration, Fixint, LittleEndian, MarshalIn, NoLimit};
use marshal_core::{DecodeError, Reader};
use tokio_util::codec::{Decoder, Encoder};

use super::{Codec, Decoded, FrameError, HEADER_LEN};

/// Appends `value`'s frame to `dst`: [`Codec::encode_to_bytes_mut`], in
/// one pass straight into the spare capacity when it holds the frame, else
/// sized, `reserve`d exactly (at most one reallocation) and written. On
/// error `dst` keeps its length and contents.
fn encode_frame<T: MarshalIn<C::Dialect> + ?Sized, C: Config>(
    codec: &Codec<C>,
    value: &T,
    dst: &mut BytesMut,
) -> Result<(), FrameError> {
    codec.encode_to_bytes_mut(value, dst).map(drop)
}

/// The length of the whole frame at the front of `src`, or `None` while it
/// is incomplete. The header is checked against the limit as soon as it is
/// in. Room for the rest of the body grows with what has arrived: each call
/// reserves at most as many bytes as `src` already holds, so the buffer
/// never takes more than a few times the bytes received, whatever length
/// the header announces (a peer that announces 8 MiB and sends three bytes
/// costs nothing more), and a large frame still arrives in a few
/// reallocations.
fn frame_len<C: Config>(codec: &Codec<C>, src: &mut BytesMut) -> Result<Option<usize>, FrameError> {
    match codec.split(src)? {
        Decoded::Frame { len, .. } => Ok(Some(len)),
        Decoded::Incomplete { needed } => {
            if src.len() >= HEADER_LEN {
                src.reserve(needed.min(src.len()));
            }
            Ok(None)
        }
    }
}

/// The error for a stream that ended `received` bytes into a frame of
/// which `needed` more were missing: `UnexpectedEof`, with an
/// [`UnexpectedEnd`](crate::DecodeErrorKind::UnexpectedEnd) at the
/// end of what arrived (counted from the start of the frame) as its
/// source.
fn ended_inside(received: &[u8], needed: usize) -> io::Error {
    let mut r = Reader::new(received);
    let end = r
        .take(received.len())
        .and_then(|_| r.take(needed))
        .err()
        // `needed > 0`: taking more than there is fails.
        .unwrap_or(DecodeError::custom(
            &"stream ended inside a frame",
            received.len(),
        ));
    io::Error::new(io::ErrorKind::UnexpectedEof, FrameError::Decode(end))
}

/// At the end of the stream: the last frame, if one is whole, `None` if
/// nothing is left, else the error of [`ended_inside`].
fn at_eof<D: Decoder<Error = io::Error>, C: Config>(
    decoder: &mut D,
    codec: Codec<C>,
    src: &mut BytesMut,
) -> io::Result<Option<D::Item>> {
    if let Some(item) = decoder.decode(src)? {
        return Ok(Some(item));
    }
    if src.is_empty() {
        return Ok(None);
    }
    match codec.split(src)? {
        Decoded::Incomplete { needed } => Err(ended_inside(src, needed)),
        // `decode` returned `None`, so the frame is not whole.
        Decoded::Frame { .. } => Ok(None),
    }
}

/// Writes `value`'s frame into `dst` in place, with no intermediate
/// buffer, as [`Codec::encode_to_bytes_mut`] does: in one pass when the
/// spare capacity holds the frame (the value is not sized first, and
/// nothing is allocated); else the value is sized once, one `reserve` of
/// exactly the frame's length is made, and header and body are written.
///
/// # Errors
///
/// `InvalidData` with a [`FrameError`] as its source, and `dst` left as it
/// was: [`TooLarge`](FrameError::TooLarge) when the body exceeds the
/// codec's limit, [`LengthMismatch`](FrameError::LengthMismatch) when the
/// value is sized and its `encode` disagrees with its `encoded_len`.
///
/// ```
/// use bytes::BytesMut;
/// use marshal::frame::{Codec, FrameError};
/// use tokio_util::codec::Encoder;
///
/// let mut codec = Codec::with_max_len(16);
/// let mut dst = BytesMut::new();
/// codec.encode(&(1u16, 2u16), &mut dst)?;
/// codec.encode("hi", &mut dst)?;
/// assert_eq!(dst, &[4, 0, 0, 0, 1, 0, 2, 0, 10, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i'][..]);
///
/// let err = codec.encode("a longer string", &mut dst).unwrap_err();
/// let source = err.get_ref().and_then(|e| e.downcast_ref::<FrameError>());
/// assert_eq!(source, Some(&FrameError::TooLarge { len: 23, max: 16 }));
/// assert_eq!(dst.len(), 22);
/// # Ok::<(), std::io::Error>(())
/// ```
impl<T: MarshalIn<C::Dialect> + ?Sized, C: Config> Encoder<&T> for Codec<C> {
    type Error = io::Error;

    fn encode(&mut self, value: &T, dst: &mut BytesMut) -> io::Result<()> {
        Ok(encode_frame(self, value, dst)?)
    }
}

/// Splits whole frames off the front of the buffer and yields each body,
/// undecoded, for borrowed decoding with [`from_bytes`](crate::from_bytes).
///
/// A header announcing a body over the codec's limit is an error as soon
/// as the header is in, before any of the body is buffered. Room for the
/// body is reserved only once the header has passed, and then in steps as
/// the body arrives, never more at a time than the bytes already buffered:
/// a header announcing 8 MiB costs no memory until the 8 MiB come. At the end of the
/// stream (`decode_eof`), bytes of an incomplete frame are an
/// `UnexpectedEof` error.
///
/// # Errors
///
/// `InvalidData` with [`FrameError::TooLarge`] as its source for an
/// oversize header; `UnexpectedEof` with a [`FrameError::Decode`] of kind
/// [`UnexpectedEnd`](crate::DecodeErrorKind::UnexpectedEnd) for a
/// stream that ends inside a frame: its offset is where the input ended,
/// counted from the start of the frame, and `needed` what was missing (of
/// the header, if that was cut, else of the body).
///
/// In method syntax, `codec.decode(..)` is [`Codec::decode`], which reads
/// a value from a slice; call this one as `Decoder::decode(&mut codec, ..)`
/// (as `FramedRead` does).
///
/// ```
/// use bytes::BytesMut;
/// use marshal::frame::{Codec, FrameError};
/// use tokio_util::codec::Decoder;
///
/// let mut codec = Codec::with_max_len(16);
/// let mut src = BytesMut::from(&[2, 0, 0, 0, b'h', b'i', 3, 0][..]);
/// let body = Decoder::decode(&mut codec, &mut src)?.unwrap();
/// assert_eq!(&body[..], b"hi");
/// assert_eq!(Decoder::decode(&mut codec, &mut src)?, None); // half a header
///
/// // At the end of the stream, that half header is an error.
/// let err = codec.decode_eof(&mut src).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
///
/// // A header over the limit is rejected before its body arrives.
/// let mut src = BytesMut::from(&[17, 0, 0, 0][..]);
/// let err = Decoder::decode(&mut codec, &mut src).unwrap_err();
/// let source = err.get_ref().and_then(|e| e.downcast_ref::<FrameError>());
/// assert_eq!(source, Some(&FrameError::TooLarge { len: 17, max: 16 }));
/// # Ok::<(), std::io::Error>(())
/// ```
impl<C: Config> Decoder for Codec<C> {
    type Item = BytesMut;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        let Some(len) = frame_len(self, src)? else {
            return Ok(None);
        };
        let mut body = src.split_to(len);
        body.advance(HEADER_LEN);
        Ok(Some(body))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<BytesMut>> {
        let codec = *self;
        at_eof(self, codec, src)
    }
}

/// A tokio-util codec of typed frames: decodes each frame into an owned
/// `T`, and encodes a `T` or a `&T`, with the frame format and the limits
/// of the [`Codec`] it is made with. Hand it to `Framed`, `FramedRead` or
/// `FramedWrite` for a `Stream` of `T`s and a `Sink` of `T`s (or `&T`s).
///
/// Decoding honours the codec's body-length limit (an oversize header is an
/// error before its body is buffered) and its allocation budget
/// ([`Codec::with_max_alloc`]); encoding writes the frame in place, as
/// [`Codec`]'s `Encoder` does.
///
/// # Errors
///
/// Every error is a `std::io::Error` with the [`FrameError`] as its source:
/// `InvalidData` for an oversize frame (sent or received), a value whose
/// lengths disagree or a body that does not decode (with the offset from
/// the start of the frame); `UnexpectedEof` for a stream that ends inside
/// a frame. A frame whose body does not decode is consumed all the same,
/// so that decoding can go on with the next frame.
///
/// ```
/// use bytes::BytesMut;
/// use marshal::frame::{Codec, FrameError, TypedCodec};
/// use marshal::{DecodeErrorKind, Marshal, Unmarshal};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Msg { id: u32, text: String }
///
/// let mut codec = TypedCodec::<Msg>::new(Codec::new());
/// let mut buf = BytesMut::new();
/// codec.encode(&Msg { id: 1, text: "hi".into() }, &mut buf)?;
/// codec.encode(&Msg { id: 2, text: "there".into() }, &mut buf)?;
///
/// assert_eq!(codec.decode(&mut buf)?, Some(Msg { id: 1, text: "hi".into() }));
/// assert_eq!(codec.decode(&mut buf)?, Some(Msg { id: 2, text: "there".into() }));
/// assert_eq!(codec.decode(&mut buf)?, None);
///
/// // A body that is not a `Msg`: `id`, then a string that is not UTF-8.
/// buf.extend_from_slice(&[13, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xff]);
/// let err = codec.decode(&mut buf).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// let Some(FrameError::Decode(e)) = err.get_ref().and_then(|e| e.downcast_ref()) else {
///     panic!()
/// };
/// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidUtf8, 16));
/// assert!(buf.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct TypedCodec<T, C = Configuration<LittleEndian, Fixint, NoLimit>> {
    codec: Codec<C>,
    marker: PhantomData<fn(&T) -> T>,
}

impl<T, C: Config> TypedCodec<T, C> {
    /// A typed codec with `codec`'s limits.
    ///
    /// ```
    /// use marshal::frame::{Codec, TypedCodec};
    /// let codec = TypedCodec::<u64>::new(Codec::with_max_len(1024));
    /// assert_eq!(codec.codec().max_len(), 1024);
    /// ```
    #[must_use]
    pub const fn new(codec: Codec<C>) -> Self {
        TypedCodec {
            codec,
            marker: PhantomData,
        }
    }

    /// The frame codec, with its limits.
    ///
    /// ```
    /// use marshal::frame::{Codec, TypedCodec};
    /// let codec = TypedCodec::<String>::new(Codec::new().with_max_alloc(4096));
    /// assert_eq!(codec.codec().max_alloc(), Some(4096));
    /// ```
    #[must_use]
    pub const fn codec(&self) -> &Codec<C> {
        &self.codec
    }
}

impl<T> Default for TypedCodec<T> {
    /// A typed codec over [`Codec::new`].
    ///
    /// ```
    /// use marshal::frame::{DEFAULT_MAX_LEN, TypedCodec};
    /// assert_eq!(TypedCodec::<u8>::default().codec().max_len(), DEFAULT_MAX_LEN);
    /// ```
    fn default() -> Self {
        Self::new(Codec::new())
    }
}

impl<T, C: Config> Clone for TypedCodec<T, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, C: Config> Copy for TypedCodec<T, C> {}

impl<T, C: Config + fmt::Debug> fmt::Debug for TypedCodec<T, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedCodec")
            .field("type", &core::any::type_name::<T>())
            .field("codec", &self.codec)
            .finish()
    }
}

/// Writes `value`'s frame into `dst` in place, as [`Codec`]'s `Encoder`
/// does: for a value the caller keeps.
///
/// # Errors
///
/// As for [`Codec`]'s `Encoder`: `InvalidData` with the [`FrameError`] as
/// its source, and `dst` left as it was.
///
/// ```
/// use bytes::BytesMut;
/// use marshal::frame::{Codec, TypedCodec};
/// use tokio_util::codec::Encoder;
///
/// let mut codec = TypedCodec::<(u16, String)>::new(Codec::new());
/// let mut dst = BytesMut::new();
/// let value = (7, String::from("hi"));
/// codec.encode(&value, &mut dst)?;
/// assert_eq!(dst.len(), 4 + 2 + 8 + 2);
/// # Ok::<(), std::io::Error>(())
/// ```
impl<T: MarshalIn<C::Dialect>, C: Config> Encoder<&T> for TypedCodec<T, C> {
    type Error = io::Error;

    fn encode(&mut self, value: &T, dst: &mut BytesMut) -> io::Result<()> {
        Ok(encode_frame(&self.codec, value, dst)?)
    }
}

/// Writes `value`'s frame into `dst` in place and drops the value: what a
/// `Sink` of owned values needs, so that `stream.map(Ok).forward(framed)`
/// and `framed.send(value)` work with `Framed` and `FramedWrite`.
///
/// # Errors
///
/// As for [`Codec`]'s `Encoder`: `InvalidData` with the [`FrameError`] as
/// its source, and `dst` left as it was.
///
/// ```
/// use bytes::BytesMut;
/// use marshal::frame::{Codec, TypedCodec};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = TypedCodec::<String>::new(Codec::new());
/// let mut dst = BytesMut::new();
/// codec.encode(String::from("owned"), &mut dst)?;
/// assert_eq!(codec.decode(&mut dst)?.as_deref(), Some("owned"));
/// # Ok::<(), std::io::Error>(())
/// ```
impl<T: MarshalIn<C::Dialect>, C: Config> Encoder<T> for TypedCodec<T, C> {
    type Error = io::Error;

    fn encode(&mut self, value: T, dst: &mut BytesMut) -> io::Result<()> {
        Ok(encode_frame(&self.codec, &value, dst)?)
    }
}

impl<T: for<'de> UnmarshalIn<'de, C::Dialect>, C: Config> Decoder for TypedCodec<T, C> {
    type Item = T;
    type Error = io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<T>> {
        let Some(len) = frame_len(&self.codec, src)? else {
            return Ok(None);
        };
        let body = &src[HEADER_LEN..len];
        let value = T::__decode_whole(body, Some(self.codec.max_alloc))
            .map_err(|e| FrameError::Decode(e.shifted(HEADER_LEN)));
        src.advance(len);
        Ok(Some(value?))
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<T>> {
        let codec = self.codec;
        at_eof(self, codec, src)
    }
}
