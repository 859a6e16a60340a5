//! Length-delimited frames, for sending values over a stream.
//!
//! A frame is a 4-byte little-endian `u32` giving the body's length, then
//! the body: one value's encoding (`WIRE_FORMAT.md`, section
//! "Length-delimited frames"). A [`Codec`] writes the header and the body in
//! one pass, and reads frames back from the front of a byte buffer: a whole
//! frame's value, or how many more bytes must arrive first. A
//! [`FrameReader`] (feature `std`) reads them from any `std::io::Read`
//! stream, one at a time, into one buffer it reuses. Frames whose body is longer than the codec's limit are rejected on
//! both sides before anything is allocated or read.
//!
//! A codec writes and reads bodies in [`config::legacy()`]'s bytes, or in
//! another configuration's with [`Codec::with_config`] (bincode 2's
//! `standard()`, big-endian, ...: see [`config`]); the
//! header is the same little-endian `u32` in every configuration, and
//! [`FrameReader`] and `TypedCodec` read what the codec they are given
//! writes.
//!
//! ```
//! use marshal::frame::{Codec, Decoded};
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Msg<'a> { id: u32, text: &'a str }
//!
//! let codec = Codec::new();
//! let mut stream = Vec::new();
//! codec.encode_into_vec(&Msg { id: 1, text: "hi" }, &mut stream)?;
//! codec.encode_into_vec(&Msg { id: 2, text: "there" }, &mut stream)?;
//!
//! // Bytes arrive in pieces; decode whatever whole frames are there.
//! let received = &stream[..25];
//! let Decoded::Frame { value, len } = codec.decode::<Msg>(received)? else { panic!() };
//! assert_eq!((value, len), (Msg { id: 1, text: "hi" }, 18));
//! assert_eq!(codec.decode::<Msg>(&received[len..])?, Decoded::Incomplete { needed: 14 });
//! # Ok::<(), marshal::frame::FrameError>(())
//! ```
//!
//! # Reading from a stream
//!
//! [`FrameReader::new(reader, codec)`](FrameReader) (feature `std`) reads
//! the frames a `Codec` writes from any blocking `std::io::Read`:
//! `next_frame()` lends the next body, for decoding borrowed values with
//! [`from_bytes`](crate::from_bytes), and `read::<T>()` decodes an owned
//! one. Both return `Ok(None)` when the stream ends between frames and an
//! `UnexpectedEof` error when it ends inside one; a header over the codec's
//! `max_len` is refused before anything is allocated for its body; a body
//! that does not decode is an `InvalidData` error wrapping the
//! [`FrameError`]. The reader keeps one buffer (8 KiB at first), reads as
//! much into it as the stream hands over, and grows it only as bytes
//! arrive: it doubles when full of a frame that is not whole, never past
//! twice the bytes received nor past a header plus `max_len`. So a header
//! announcing 8 MiB with three bytes behind it costs 8 KiB, and once the
//! buffer has grown, `next_frame` allocates nothing. Interrupted reads are
//! retried.
//!
//! Values written back to back without frames (what repeated
//! [`encode_into_vec`](crate::encode_into_vec) calls append) come back with
//! [`marshal::iter`](crate::iter); values may borrow from the bytes. It
//! ends after the last value, or after the first error, whose offset counts
//! from the start of the bytes.
//! [`DecodeError::is_incomplete`](crate::DecodeError::is_incomplete) says
//! whether decoding stopped because the input ended before the value did
//! (more bytes could complete it) rather than at invalid data.
//!
//! ```
//! use marshal::frame::{Codec, FrameReader};
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Quote<'a> { seq: u64, symbol: &'a str }
//!
//! // Frames, read back from any `io::Read` (here a byte slice; a
//! // `TcpStream` is the same).
//! let codec = Codec::new();
//! let mut stream = Vec::with_capacity(256);
//! for seq in 0..3 {
//!     codec.encode_into_vec(&Quote { seq, symbol: "ACME" }, &mut stream)?;
//! }
//! let mut frames = FrameReader::new(&stream[..], codec);
//! while let Some(body) = frames.next_frame()? {
//!     let quote: Quote = marshal::from_bytes(body)?; // borrows from the reader's buffer
//!     assert_eq!(quote.symbol, "ACME");
//! }
//!
//! // Values back to back, and a cut one at the end: the whole values come
//! // out, then an error that more bytes could mend.
//! let mut log = Vec::new();
//! marshal::encode_into_vec(&Quote { seq: 1, symbol: "ACME" }, &mut log);
//! marshal::encode_into_vec(&Quote { seq: 2, symbol: "GLOBEX" }, &mut log);
//! let mut values = marshal::iter::<Quote>(&log[..log.len() - 3]);
//! assert_eq!(values.next().unwrap()?, Quote { seq: 1, symbol: "ACME" });
//! let err = values.next().unwrap().unwrap_err();
//! assert!(err.is_incomplete());
//! assert_eq!(values.position(), 20); // where the cut value starts, to keep
//! assert!(values.next().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/framing.rs` sends frames over TCP on 127.0.0.1 and reads them
//! back with a `FrameReader`.
//!
//! # With tokio
//!
//! With the `tokio` feature, [`Codec`] is a tokio-util `Encoder` of any
//! `&T: Marshal` and a `Decoder` of frame bodies (`BytesMut`), and
//! `TypedCodec<T>` encodes `T` and `&T` and decodes owned `T`s, so a
//! `Framed` of it is a `Stream` and a `Sink` of `T`s. The encoder writes
//! header and body in place, with no intermediate buffer: in one pass when
//! the spare capacity holds the frame, else after one `reserve` of exactly
//! the frame's length. The decoder rejects a header over the codec's limit
//! before its body is buffered, grows its buffer only as the body arrives
//! (never by more than it already holds, so a header announcing 8 MiB costs
//! nothing until the 8 MiB come), keeps the codec's allocation budget, and
//! reports a stream that ends inside a frame as an `UnexpectedEof` error at
//! `decode_eof`. Every error is a `std::io::Error` whose source is the
//! [`FrameError`]. Hand either codec to `FramedRead`, `FramedWrite` or
//! `Framed`.
//!
#![cfg_attr(feature = "tokio", doc = "```")]
#![cfg_attr(not(feature = "tokio"), doc = "```ignore")]
//! use bytes::BytesMut;
//! use marshal::frame::{Codec, TypedCodec};
//! use marshal::{Marshal, Unmarshal};
//! use tokio_util::codec::{Decoder, Encoder};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Msg { id: u32, text: String }
//!
//! let mut codec = TypedCodec::<Msg>::new(Codec::new().with_max_alloc(1 << 20));
//! let mut buf = BytesMut::new();
//! codec.encode(Msg { id: 1, text: "hi".into() }, &mut buf)?;
//! assert_eq!(codec.decode(&mut buf)?, Some(Msg { id: 1, text: "hi".into() }));
//! assert_eq!(codec.decode(&mut buf)?, None);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! `examples/async_framing.rs` is a tokio server and client over `Framed`,
//! with `SinkExt` and `StreamExt`, and lists the dependencies a program of
//! your own declares for it.

use core::fmt;

use marshal_core::__facade::encode_exact_in;
use marshal_core::config::UnmarshalIn;
use marshal_core::config::{self, Config, Configuration, Fixint, LittleEndian, MarshalIn, NoLimit};
use marshal_core::{BufferTooSmall, DecodeError, LengthMismatch, Writer};
#[cfg(doc)]
use marshal_core::{Marshal, Unmarshal};

#[cfg(feature = "std")]
mod reader;
#[cfg(feature = "std")]
pub use reader::FrameReader;
#[cfg(feature = "tokio")]
mod tokio_codec;
#[cfg(feature = "tokio")]
pub use tokio_codec::TypedCodec;

/// The length of a frame header: a little-endian `u32` body length.
///
/// ```
/// let codec = marshal::frame::Codec::new();
/// assert_eq!(codec.frame_len(&()), marshal::frame::HEADER_LEN);
/// ```
pub const HEADER_LEN: usize = 4;

/// The body-length limit of [`Codec::new`]: 8 MiB.
///
/// ```
/// use marshal::frame::{Codec, DEFAULT_MAX_LEN};
/// assert_eq!(Codec::default().max_len(), DEFAULT_MAX_LEN);
/// ```
pub const DEFAULT_MAX_LEN: usize = 8 << 20;

/// The largest body length a header can state: `u32::MAX` (or `usize::MAX`
/// where that is smaller).
///
/// ```
/// # #[cfg(target_pointer_width = "64")]
/// assert_eq!(marshal::frame::MAX_LEN_LIMIT, u32::MAX as usize);
/// ```
pub const MAX_LEN_LIMIT: usize = if (u32::MAX as u64) < usize::MAX as u64 {
    u32::MAX as usize
} else {
    usize::MAX
};

/// Encodes values as frames and reads frames back, with a limit on the
/// body length.
///
/// ```
/// use marshal::frame::{Codec, Decoded, FrameError};
///
/// let codec = Codec::with_max_len(16);
/// let mut buf = [0u8; 64];
/// let n = codec.write_to(&7u64, &mut buf)?;
/// assert_eq!(buf[..n], [8, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0]);
/// assert_eq!(codec.decode::<u64>(&buf[..n])?, Decoded::Frame { value: 7, len: 12 });
///
/// // Too long for this codec, on either side.
/// assert_eq!(codec.write_to(&[0u8; 20], &mut buf), Err(FrameError::TooLarge { len: 20, max: 16 }));
/// assert_eq!(codec.decode::<u64>(&[17, 0, 0, 0]), Err(FrameError::TooLarge { len: 17, max: 16 }));
/// # Ok::<(), FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Codec<C = Configuration<LittleEndian, Fixint, NoLimit>> {
    max_len: usize,
    /// The allocation budget of each decode, `usize::MAX` for none.
    max_alloc: usize,
    /// The bodies' configuration: [`config::legacy()`] unless
    /// [`with_config`](Codec::with_config) chose another.
    config: C,
}

impl Default for Codec {
    fn default() -> Self {
        Self::new()
    }
}

/// What [`Codec::decode`] and [`Codec::split`] found at the front of a
/// buffer.
///
/// ```
/// use marshal::frame::{Codec, Decoded};
///
/// let codec = Codec::new();
/// assert_eq!(codec.split(&[2, 0]).unwrap(), Decoded::Incomplete { needed: 2 });
/// assert_eq!(codec.split(&[2, 0, 0, 0, 9]).unwrap(), Decoded::Incomplete { needed: 1 });
/// assert_eq!(
///     codec.split(&[2, 0, 0, 0, 9, 9, 5]).unwrap(),
///     Decoded::Frame { value: &[9, 9][..], len: 6 }
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decoded<T> {
    /// A whole frame.
    Frame {
        /// The frame's value (for [`Codec::split`], its body).
        value: T,
        /// The frame's length, header included: where the next frame starts.
        len: usize,
    },
    /// The buffer holds only the start of a frame.
    Incomplete {
        /// How many more bytes must arrive before the frame is whole. While
        /// the header itself is incomplete, this counts only the rest of the
        /// header: the body's length is not known yet.
        needed: usize,
    },
}

/// Why a frame could not be written or read.
///
/// ```
/// use marshal::frame::{Codec, FrameError};
///
/// let err = Codec::with_max_len(4).decode::<u8>(&[5, 0, 0, 0]).unwrap_err();
/// assert_eq!(err, FrameError::TooLarge { len: 5, max: 4 });
/// assert_eq!(err.to_string(), "frame body of 5 bytes exceeds the limit of 4");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FrameError {
    /// The body is longer than the codec's limit.
    TooLarge {
        /// The body's length: the value's encoded length, or the length a
        /// received header states.
        len: usize,
        /// The codec's limit.
        max: usize,
    },
    /// The output buffer cannot hold the frame ([`Codec::write_to`]).
    BufferTooSmall(BufferTooSmall),
    /// The value's `encode` disagreed with its `encoded_len` or its type's
    /// `MAX_LEN`, a broken manual [`Marshal`] implementation: no frame was
    /// written, since its header would not match its body.
    LengthMismatch(LengthMismatch),
    /// The body is not a valid encoding of the value, or has bytes left
    /// over after it. The offset counts from the start of the frame.
    Decode(DecodeError),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::TooLarge { len, max } => {
                write!(f, "frame body of {len} bytes exceeds the limit of {max}")
            }
            FrameError::BufferTooSmall(e) => write!(f, "frame does not fit: {e}"),
            FrameError::LengthMismatch(e) => write!(f, "frame not written: {e}"),
            FrameError::Decode(e) => write!(f, "invalid frame body: {e}"),
        }
    }
}

impl core::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            FrameError::TooLarge { .. } => None,
            FrameError::BufferTooSmall(e) => Some(e),
            FrameError::LengthMismatch(e) => Some(e),
            FrameError::Decode(e) => Some(e),
        }
    }
}

impl From<DecodeError> for FrameError {
    fn from(e: DecodeError) -> Self {
        FrameError::Decode(e)
    }
}

impl From<BufferTooSmall> for FrameError {
    fn from(e: BufferTooSmall) -> Self {
        FrameError::BufferTooSmall(e)
    }
}

impl From<LengthMismatch> for FrameError {
    fn from(e: LengthMismatch) -> Self {
        FrameError::LengthMismatch(e)
    }
}

#[cfg(feature = "std")]
impl From<FrameError> for std::io::Error {
    /// `InvalidData` for a frame over the limit (sent or received), a
    /// value that disagrees with its lengths or a body that does not
    /// decode, `InvalidInput` for an output buffer too small.
    fn from(e: FrameError) -> Self {
        let kind = match e {
            FrameError::BufferTooSmall(_) => std::io::ErrorKind::InvalidInput,
            FrameError::TooLarge { .. } | FrameError::LengthMismatch(_) | FrameError::Decode(_) => {
                std::io::ErrorKind::InvalidData
            }
        };
        std::io::Error::new(kind, e)
    }
}

impl Codec {
    /// A codec whose limit is [`DEFAULT_MAX_LEN`] (8 MiB).
    ///
    /// ```
    /// assert_eq!(marshal::frame::Codec::new().max_len(), 8 << 20);
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Codec {
            max_len: DEFAULT_MAX_LEN,
            max_alloc: usize::MAX,
            config: config::legacy(),
        }
    }

    /// A codec that rejects bodies longer than `max_len` bytes (capped at
    /// [`MAX_LEN_LIMIT`]).
    ///
    /// ```
    /// use marshal::frame::{Codec, MAX_LEN_LIMIT};
    /// assert_eq!(Codec::with_max_len(1024).max_len(), 1024);
    /// assert_eq!(Codec::with_max_len(usize::MAX).max_len(), MAX_LEN_LIMIT);
    /// ```
    #[must_use]
    pub const fn with_max_len(max_len: usize) -> Self {
        Codec {
            max_len: if max_len < MAX_LEN_LIMIT {
                max_len
            } else {
                MAX_LEN_LIMIT
            },
            max_alloc: usize::MAX,
            config: config::legacy(),
        }
    }
}

impl<C: Config> Codec<C> {
    /// The same codec, writing and reading bodies in `config`'s dialect
    /// (see [`config`]): bincode 2's `standard()`, big-endian
    /// bytes, ... The header stays a little-endian `u32` in every
    /// configuration. A configuration's
    /// [`with_limit`](config::Configuration::with_limit) becomes the
    /// codec's allocation budget; without one, the codec keeps its own
    /// ([`with_max_alloc`](Codec::with_max_alloc)).
    ///
    /// ```
    /// use marshal::config;
    /// use marshal::frame::{Codec, Decoded};
    ///
    /// let codec = Codec::new().with_config(config::standard());
    /// let mut buf = [0u8; 16];
    /// let n = codec.write_to(&(300u32, "hi"), &mut buf)?;
    /// assert_eq!(buf[..n], [6, 0, 0, 0, 251, 44, 1, 2, b'h', b'i']);
    /// assert_eq!(codec.decode::<(u32, &str)>(&buf[..n])?, Decoded::Frame { value: (300, "hi"), len: 10 });
    ///
    /// let limited = codec.with_config(config::standard().with_limit::<64>());
    /// assert_eq!(limited.max_alloc(), Some(64));
    /// # Ok::<(), marshal::frame::FrameError>(())
    /// ```
    #[must_use]
    pub const fn with_config<C2: Config>(self, config: C2) -> Codec<C2> {
        Codec {
            max_len: self.max_len,
            max_alloc: match C2::LIMIT {
                Some(limit) => limit,
                None => self.max_alloc,
            },
            config,
        }
    }

    /// The bodies' configuration.
    ///
    /// ```
    /// use marshal::config;
    /// use marshal::frame::Codec;
    ///
    /// assert_eq!(Codec::new().config(), config::legacy());
    /// assert_eq!(Codec::new().with_config(config::standard()).config(), config::standard());
    /// ```
    #[must_use]
    pub const fn config(&self) -> C {
        self.config
    }

    /// The longest body this codec writes or accepts.
    ///
    /// ```
    /// assert_eq!(marshal::frame::Codec::with_max_len(9).max_len(), 9);
    /// ```
    #[must_use]
    pub const fn max_len(&self) -> usize {
        self.max_len
    }

    /// The same codec, with an allocation budget for every value it
    /// decodes: each [`decode`](Codec::decode) asks the allocator for at
    /// most `bytes` in all, or fails with
    /// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit) (see
    /// [`Reader::with_max_alloc`](crate::Reader::with_max_alloc)).
    /// The body-length limit bounds the bytes a peer may send; this bounds
    /// the memory they may turn into. `usize::MAX` means no budget, the
    /// default.
    ///
    /// ```
    /// use marshal::frame::{Codec, Decoded, FrameError};
    /// use marshal::DecodeErrorKind;
    ///
    /// let mut frame = Vec::new();
    /// Codec::new().encode_into_vec(&vec![0u64; 100], &mut frame)?;
    ///
    /// let codec = Codec::new().with_max_alloc(800);
    /// let Decoded::Frame { value, .. } = codec.decode::<Vec<u64>>(&frame)? else { panic!() };
    /// assert_eq!(value, [0; 100]);
    ///
    /// // The offset counts from the start of the frame: the items start
    /// // after the 4-byte header and the 8-byte length.
    /// let Err(FrameError::Decode(e)) = codec.with_max_alloc(799).decode::<Vec<u64>>(&frame) else {
    ///     panic!()
    /// };
    /// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::AllocLimit { limit: 799 }, 12));
    /// # Ok::<(), FrameError>(())
    /// ```
    #[must_use]
    pub const fn with_max_alloc(self, bytes: usize) -> Self {
        Codec {
            max_len: self.max_len,
            max_alloc: bytes,
            config: self.config,
        }
    }

    /// The allocation budget of each decode, if any.
    ///
    /// ```
    /// use marshal::frame::Codec;
    /// assert_eq!(Codec::new().max_alloc(), None);
    /// assert_eq!(Codec::new().with_max_alloc(1 << 20).max_alloc(), Some(1 << 20));
    /// ```
    #[must_use]
    pub const fn max_alloc(&self) -> Option<usize> {
        if self.max_alloc == usize::MAX {
            None
        } else {
            Some(self.max_alloc)
        }
    }

    /// The length of `value`'s frame, header included.
    ///
    /// ```
    /// let codec = marshal::frame::Codec::new();
    /// assert_eq!(codec.frame_len(&1u32), 4 + 4);
    /// ```
    #[must_use]
    pub fn frame_len<T: MarshalIn<C::Dialect> + ?Sized>(&self, value: &T) -> usize {
        HEADER_LEN.saturating_add(value.encoded_len_in())
    }

    fn check(&self, len: usize) -> Result<(), FrameError> {
        if len > self.max_len {
            return Err(FrameError::TooLarge {
                len,
                max: self.max_len,
            });
        }
        Ok(())
    }

    /// The length of the frame of a body of `len` bytes, if the codec may
    /// write one: the body is within the limit, and the frame's length fits
    /// `usize` (which only the limit of a target with a 32-bit `usize` can
    /// allow).
    fn frame_for(&self, len: usize) -> Result<usize, FrameError> {
        self.check(len)?;
        HEADER_LEN.checked_add(len).ok_or(FrameError::TooLarge {
            len,
            max: usize::MAX - HEADER_LEN,
        })
    }

    /// Writes `value`'s frame at the front of `buf` and returns its length:
    /// the value is sized once, and the header and body are written in one
    /// pass.
    ///
    /// # Errors
    ///
    /// [`TooLarge`](FrameError::TooLarge) when the body exceeds the limit
    /// (a value too large to encode, whose saturated length is
    /// `usize::MAX`, always does), [`BufferTooSmall`](FrameError::BufferTooSmall)
    /// when `buf` cannot hold the frame: for both, `buf` is left as it was.
    /// [`LengthMismatch`](FrameError::LengthMismatch) when the value's
    /// `encode` does not write exactly its `encoded_len` bytes; the frame's
    /// bytes in `buf` may then have been overwritten.
    ///
    /// ```
    /// let codec = marshal::frame::Codec::new();
    /// let mut buf = [0u8; 16];
    /// assert_eq!(codec.write_to("hi", &mut buf), Ok(4 + 8 + 2));
    /// assert_eq!(buf[..6], [10, 0, 0, 0, 2, 0]);
    /// assert!(codec.write_to("a longer string", &mut buf).is_err());
    /// ```
    pub fn write_to<T: MarshalIn<C::Dialect> + ?Sized>(
        &self,
        value: &T,
        buf: &mut [u8],
    ) -> Result<usize, FrameError> {
        let len = value.encoded_len_in();
        let needed = self.frame_for(len)?;
        let available = buf.len();
        let Some(frame) = buf.get_mut(..needed) else {
            return Err(FrameError::BufferTooSmall(BufferTooSmall {
                needed,
                available,
            }));
        };
        put_frame::<T, C::Dialect>(value, len, &mut Writer::new(frame))?;
        Ok(needed)
    }

    /// Appends `value`'s frame to `out` and returns its length, header and
    /// body written once, straight into the spare capacity.
    ///
    /// When `out`'s spare capacity holds the frame, it takes one pass: the
    /// header's four bytes are set aside, the body written after them
    /// without the value being sized first, and the header filled in with
    /// the length written; nothing is allocated. Only when the frame does
    /// not fit (or its body would exceed the limit) is the value sized,
    /// room made for exactly its frame (one reallocation), and the frame
    /// written again.
    ///
    /// # Errors
    ///
    /// [`TooLarge`](FrameError::TooLarge) when the body exceeds the limit;
    /// [`LengthMismatch`](FrameError::LengthMismatch) when the frame does
    /// not fit the spare capacity and the value's `encode` does not write
    /// exactly its `encoded_len` bytes. `out` keeps its length and
    /// contents. In one pass `encoded_len` is not called, so a value whose
    /// `encode` disagrees with it goes unnoticed: the header states the
    /// length written, which is the body's.
    ///
    /// ```
    /// let codec = marshal::frame::Codec::new();
    /// let mut out = Vec::with_capacity(16);
    /// codec.encode_into_vec(&1u8, &mut out)?;
    /// codec.encode_into_vec(&2u16, &mut out)?;
    /// assert_eq!(out, [1, 0, 0, 0, 1, 2, 0, 0, 0, 2, 0]);
    /// assert_eq!(out.capacity(), 16); // one pass each, in place
    ///
    /// // Does not fit the 5 bytes left: sized, one reallocation, written.
    /// assert_eq!(codec.encode_into_vec("hello", &mut out)?, 4 + 8 + 5);
    /// assert_eq!(out.len(), 28);
    /// # Ok::<(), marshal::frame::FrameError>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn encode_into_vec<T: MarshalIn<C::Dialect> + ?Sized>(
        &self,
        value: &T,
        out: &mut alloc::vec::Vec<u8>,
    ) -> Result<usize, FrameError> {
        let start = out.len();
        if self.may_fit::<T>(out.capacity() - start)
            && marshal_core::__facade::try_append_to_vec(out, |w| self.put_unsized(value, w))
                .is_ok()
        {
            return Ok(out.len() - start);
        }
        self.encode_into_vec_sized(value, out)
    }

    /// [`encode_into_vec`](Codec::encode_into_vec) without the one-pass
    /// attempt: sized, one reservation, written.
    #[cfg(feature = "alloc")]
    fn encode_into_vec_sized<T: MarshalIn<C::Dialect> + ?Sized>(
        &self,
        value: &T,
        out: &mut alloc::vec::Vec<u8>,
    ) -> Result<usize, FrameError> {
        let len = value.encoded_len_in();
        let frame = self.frame_for(len)?;
        out.reserve(frame);
        marshal_core::__facade::try_append_to_vec(out, |w| {
            put_frame::<T, C::Dialect>(value, len, w)
        })?;
        Ok(frame)
    }

    /// Appends `value`'s frame to a `BytesMut` and returns its length, as
    /// [`encode_into_vec`](Codec::encode_into_vec) does to a `Vec`: in one
    /// pass when the spare capacity holds it, else sized, `reserve`d
    /// exactly (at most one reallocation) and written. Feature `bytes`.
    ///
    /// # Errors
    ///
    /// Those of [`encode_into_vec`](Codec::encode_into_vec); `buf` keeps
    /// its length and contents.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use marshal::frame::{Codec, FrameError};
    ///
    /// let codec = Codec::with_max_len(8);
    /// let mut buf = BytesMut::with_capacity(64);
    /// assert_eq!(codec.encode_to_bytes_mut(&7u32, &mut buf)?, 8);
    /// assert_eq!(buf, &[4, 0, 0, 0, 7, 0, 0, 0][..]);
    /// assert_eq!(
    ///     codec.encode_to_bytes_mut("too long", &mut buf),
    ///     Err(FrameError::TooLarge { len: 16, max: 8 })
    /// );
    /// assert_eq!(buf.len(), 8);
    /// # Ok::<(), FrameError>(())
    /// ```
    #[cfg(feature = "bytes")]
    pub fn encode_to_bytes_mut<T: MarshalIn<C::Dialect> + ?Sized>(
        &self,
        value: &T,
        buf: &mut bytes::BytesMut,
    ) -> Result<usize, FrameError> {
        use marshal_core::__facade::try_append_to_buf_mut;
        let start = buf.len();
        // `chunk_mut` of a full `BytesMut` would reserve: look first.
        if self.may_fit::<T>(buf.capacity() - start)
            && try_append_to_buf_mut(buf, |w| self.put_unsized(value, w)).is_ok()
        {
            return Ok(buf.len() - start);
        }
        let len = value.encoded_len_in();
        let frame = self.frame_for(len)?;
        buf.reserve(frame);
        // After `reserve(frame)` the chunk is the whole spare capacity.
        try_append_to_buf_mut(buf, |w| put_frame::<T, C::Dialect>(value, len, w))?;
        Ok(frame)
    }

    /// Whether a frame of a `T` may fit in `room` bytes: see
    /// `marshal_core::__facade::may_fit`, with the header's four bytes.
    #[cfg(feature = "alloc")]
    #[inline]
    fn may_fit<T: MarshalIn<C::Dialect> + ?Sized>(&self, room: usize) -> bool {
        room > HEADER_LEN && marshal_core::__facade::may_fit_in::<T, C::Dialect>(room - HEADER_LEN)
    }

    /// Writes `value`'s frame through `w` in one pass, without sizing it:
    /// the header's four bytes set aside, the body written after them, the
    /// header filled in with its length. `Overflow` when the frame does
    /// not fit `w` or its body would exceed the limit; `w` is then as it
    /// was.
    #[cfg(feature = "alloc")]
    #[inline]
    fn put_unsized<T: MarshalIn<C::Dialect> + ?Sized>(
        &self,
        value: &T,
        w: &mut Writer<'_>,
    ) -> Result<(), marshal_core::Overflow> {
        // A writer of at most a header and `max_len` bytes: a longer body
        // overflows it. `max_len <= MAX_LEN_LIMIT`, so the body's length
        // fits the header's `u32` (`put_body`'s prefix).
        let room = w.remaining().min(HEADER_LEN.saturating_add(self.max_len));
        w.exact(room, |w| w.put_body(|w| value.encode_in(w)))
    }

    /// Writes `value`'s frame to `out` with one `write_all` and returns its
    /// length. Like [`write_all`](crate::write_all): a type whose
    /// [`MAX_LEN`](Marshal::MAX_LEN) leaves the frame within 256 bytes goes
    /// through a stack buffer, anything else through `scratch`, which the
    /// caller keeps for the next call.
    ///
    /// # Errors
    ///
    /// `InvalidData` wrapping [`FrameError::TooLarge`] when the body exceeds
    /// the limit, or [`FrameError::LengthMismatch`] when the value's `encode`
    /// does not write exactly its `encoded_len` bytes or that is more than
    /// its type's `MAX_LEN`: in both cases nothing is written to `out`. And
    /// whatever `out.write_all` returns.
    ///
    /// ```
    /// let codec = marshal::frame::Codec::new();
    /// let (mut out, mut scratch) = (Vec::new(), Vec::new());
    /// assert_eq!(codec.write_all(&7u32, &mut out, &mut scratch)?, 8);
    /// assert_eq!(codec.write_all("hey", &mut out, &mut scratch)?, 15);
    /// assert_eq!(out[..8], [4, 0, 0, 0, 7, 0, 0, 0]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn write_all<T, W>(
        &self,
        value: &T,
        out: &mut W,
        scratch: &mut std::vec::Vec<u8>,
    ) -> std::io::Result<usize>
    where
        T: MarshalIn<C::Dialect> + ?Sized,
        W: std::io::Write + ?Sized,
    {
        const STACK: usize = crate::io::STACK_LEN;
        if let Some(max) = T::__MAX_LEN.filter(|&max| max <= STACK - HEADER_LEN) {
            let len = value.encoded_len_in();
            if len > max {
                let mismatch = LengthMismatch::AboveMax {
                    encoded_len: len,
                    max_len: max,
                };
                return Err(FrameError::LengthMismatch(mismatch).into());
            }
            let needed = self.frame_for(len)?;
            let mut buf = [core::mem::MaybeUninit::uninit(); STACK];
            // `needed <= HEADER_LEN + max <= STACK`.
            let mut w = Writer::new_uninit(&mut buf[..needed]);
            put_frame::<T, C::Dialect>(value, len, &mut w).map_err(FrameError::from)?;
            let frame = w.into_written();
            out.write_all(frame)?;
            return Ok(frame.len());
        }
        scratch.clear();
        // Sized: the value's lengths are checked whatever `scratch` holds.
        let n = self.encode_into_vec_sized(value, scratch)?;
        out.write_all(scratch)?;
        Ok(n)
    }

    /// Finds the frame at the front of `buf` and returns its body, without
    /// decoding it.
    ///
    /// # Errors
    ///
    /// [`TooLarge`](FrameError::TooLarge) when the header states a body
    /// longer than the limit: as soon as the header is in, before the body
    /// arrives.
    ///
    /// ```
    /// use marshal::frame::{Codec, Decoded};
    ///
    /// let codec = Codec::new();
    /// let Decoded::Frame { value: body, len } = codec.split(&[1, 0, 0, 0, 42, 0xff])? else {
    ///     panic!("a whole frame is there");
    /// };
    /// assert_eq!((body, len), (&[42][..], 5));
    /// # Ok::<(), marshal::frame::FrameError>(())
    /// ```
    pub fn split<'b>(&self, buf: &'b [u8]) -> Result<Decoded<&'b [u8]>, FrameError> {
        let Some((header, rest)) = buf.split_first_chunk::<HEADER_LEN>() else {
            return Ok(Decoded::Incomplete {
                needed: HEADER_LEN - buf.len(),
            });
        };
        // A body length that does not fit `usize` is over any limit.
        let len = usize::try_from(u32::from_le_bytes(*header)).unwrap_or(usize::MAX);
        self.check(len)?;
        match rest.get(..len) {
            Some(body) => Ok(Decoded::Frame {
                value: body,
                len: HEADER_LEN + len,
            }),
            None => Ok(Decoded::Incomplete {
                needed: len - rest.len(),
            }),
        }
    }

    /// Decodes the frame at the front of `buf`: its value and length, or
    /// how many more bytes must arrive first. The body must be exactly one
    /// value. Values may borrow from `buf`.
    ///
    /// # Errors
    ///
    /// [`TooLarge`](FrameError::TooLarge) as for [`split`](Codec::split);
    /// [`Decode`](FrameError::Decode) when the body is not one valid value,
    /// with the offset counted from the start of the frame.
    ///
    /// ```
    /// use marshal::frame::{Codec, Decoded, FrameError};
    /// use marshal::DecodeErrorKind;
    ///
    /// let codec = Codec::new();
    /// let frame = [9, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, b'x'];
    /// assert_eq!(codec.decode::<&str>(&frame)?, Decoded::Frame { value: "x", len: 13 });
    /// assert_eq!(codec.decode::<&str>(&frame[..7])?, Decoded::Incomplete { needed: 6 });
    ///
    /// // A body with a byte left over after the value.
    /// let Err(FrameError::Decode(e)) = codec.decode::<u64>(&frame) else { panic!() };
    /// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::TrailingBytes { count: 1 }, 12));
    /// # Ok::<(), FrameError>(())
    /// ```
    pub fn decode<'b, T: UnmarshalIn<'b, C::Dialect>>(
        &self,
        buf: &'b [u8],
    ) -> Result<Decoded<T>, FrameError> {
        Ok(match self.split(buf)? {
            Decoded::Frame { value: body, len } => Decoded::Frame {
                value: T::__decode_whole(body, Some(self.max_alloc))
                    .map_err(|e| e.shifted(HEADER_LEN))?,
                len,
            },
            Decoded::Incomplete { needed } => Decoded::Incomplete { needed },
        })
    }
}

/// Writes the header for a body of `len` bytes and then `value`, checking
/// that it encodes to exactly `len` bytes; `w` has room for both.
fn put_frame<T: MarshalIn<D> + ?Sized, D: config::Dialect>(
    value: &T,
    len: usize,
    w: &mut Writer<'_>,
) -> Result<(), LengthMismatch> {
    // `len <= MAX_LEN_LIMIT`, so it fits the header.
    let header = u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes();
    if w.put_array(header).is_err() {
        // Only if the caller made no room: the body would not fit either.
        return Err(LengthMismatch::Long { encoded_len: len });
    }
    encode_exact_in(value, len, w)
}
