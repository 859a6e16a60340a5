//! Reading frames from a blocking `std::io::Read` stream.

use std::io::{self, ErrorKind, Read};
use std::vec::Vec;

use marshal_core::config::{Config, Configuration, Fixint, LittleEndian, NoLimit, UnmarshalIn};

use super::{Codec, Decoded, FrameError, HEADER_LEN};

/// The buffer's first size, and the least it grows by: what one `read`
/// asks for at first.
const INITIAL_LEN: usize = 8 << 10;

/// Reads frames, one at a time, from a blocking stream: a socket, a pipe,
/// a file.
///
/// The reader keeps one buffer, which it reads the stream into in large
/// pieces (so a stream of small frames costs few `read` calls) and reuses
/// for every frame. [`next_frame`](FrameReader::next_frame) returns the next
/// frame's body borrowed from it, for decoding values that borrow with
/// [`from_bytes`](crate::from_bytes); [`read`](FrameReader::read) decodes
/// one owned value. Once the buffer has grown to the largest frame, reading
/// allocates nothing.
///
/// The buffer grows only as bytes arrive: it starts at 8 KiB, and each time
/// it is full of a frame that is not whole it doubles. So it is never more
/// than the larger of 8 KiB and twice the bytes of one frame received, nor
/// more than the larger of 8 KiB and a header plus the codec's
/// [`max_len`](Codec::max_len): a header announcing 8 MiB followed by three
/// bytes costs 8 KiB, not 8 MiB, and a header announcing more than
/// `max_len` is refused before anything is read or allocated for its body.
/// The codec's [allocation budget](Codec::with_max_alloc) bounds what
/// [`read`](FrameReader::read) allocates for each value.
///
/// Reads that fail with [`ErrorKind::Interrupted`] are retried.
///
/// ```
/// use marshal::frame::{Codec, FrameReader};
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Msg { id: u32, text: String }
///
/// let codec = Codec::new();
/// let mut stream = Vec::new();
/// codec.encode_into_vec(&Msg { id: 1, text: "hi".into() }, &mut stream)?;
/// codec.encode_into_vec(&Msg { id: 2, text: "there".into() }, &mut stream)?;
///
/// // Any `io::Read`: here a byte slice.
/// let mut frames = FrameReader::new(&stream[..], codec);
/// assert_eq!(frames.read::<Msg>()?, Some(Msg { id: 1, text: "hi".into() }));
/// assert_eq!(frames.read::<Msg>()?, Some(Msg { id: 2, text: "there".into() }));
/// assert_eq!(frames.read::<Msg>()?, None); // the stream ended between frames
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FrameReader<R, C = Configuration<LittleEndian, Fixint, NoLimit>> {
    inner: R,
    codec: Codec<C>,
    /// Bytes read from `inner`: `buf[start..filled]` are not consumed yet,
    /// `buf[filled..]` is room for the next read (zeroed once, when the
    /// buffer grew).
    buf: Vec<u8>,
    start: usize,
    filled: usize,
}

impl<R: Read, C: Config> FrameReader<R, C> {
    /// A reader of `reader`'s frames, with `codec`'s length limit and
    /// allocation budget. Allocates nothing until the first read.
    ///
    /// ```
    /// use marshal::frame::{Codec, FrameReader};
    ///
    /// let frames = FrameReader::new(std::io::empty(), Codec::with_max_len(1024));
    /// assert_eq!(frames.codec().max_len(), 1024);
    /// ```
    pub fn new(reader: R, codec: Codec<C>) -> Self {
        FrameReader {
            inner: reader,
            codec,
            buf: Vec::new(),
            start: 0,
            filled: 0,
        }
    }

    /// The next frame's body, borrowed from the reader's buffer until the
    /// next call; `None` when the stream ends between frames.
    ///
    /// # Errors
    ///
    /// [`UnexpectedEof`](ErrorKind::UnexpectedEof) when the stream ends
    /// inside a frame (its header or its body). `InvalidData` wrapping
    /// [`FrameError::TooLarge`] when a header announces a body longer than
    /// the codec's limit; the reader stays at that header, so calling again
    /// returns the same error. `OutOfMemory` when the buffer cannot grow to
    /// the frame's length. And any error of the stream's `read` but
    /// [`Interrupted`](ErrorKind::Interrupted), which is retried; the bytes
    /// read so far stay buffered.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use marshal::frame::{Codec, FrameReader};
    ///
    /// let codec = Codec::new();
    /// let mut stream = Vec::new();
    /// codec.encode_into_vec("borrowed", &mut stream)?;
    /// codec.encode_into_vec("cut", &mut stream)?;
    /// stream.pop();
    ///
    /// let mut frames = FrameReader::new(&stream[..], codec);
    /// let body = frames.next_frame()?.unwrap();
    /// let text: &str = marshal::from_bytes(body)?;
    /// assert_eq!(text, "borrowed");
    /// let err = frames.next_frame().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::UnexpectedEof);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_frame(&mut self) -> io::Result<Option<&[u8]>> {
        loop {
            match self.codec.split(&self.buf[self.start..self.filled]) {
                Ok(Decoded::Frame { value, len }) => {
                    let body_start = self.start + (len - value.len());
                    self.start += len;
                    return Ok(Some(&self.buf[body_start..self.start]));
                }
                Ok(Decoded::Incomplete { needed }) => {
                    if !self.fill(needed)? {
                        return self.ended();
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Reads the next frame and decodes its body as one `T`, with the
    /// codec's allocation budget; `None` when the stream ends between
    /// frames.
    ///
    /// # Errors
    ///
    /// Those of [`next_frame`](FrameReader::next_frame), and `InvalidData`
    /// wrapping a [`FrameError::Decode`] when the body is not one valid
    /// `T`, its offset counted from the start of the frame (get it back
    /// with `err.get_ref()` and `downcast_ref::<FrameError>()`). That frame
    /// is consumed: the next call reads the one after it.
    ///
    /// ```
    /// use std::io::ErrorKind;
    /// use marshal::frame::{Codec, FrameError, FrameReader};
    /// use marshal::DecodeErrorKind;
    ///
    /// let codec = Codec::new();
    /// let mut stream = Vec::new();
    /// codec.encode_into_vec(&2u8, &mut stream)?; // not a bool
    /// codec.encode_into_vec(&true, &mut stream)?;
    ///
    /// let mut frames = FrameReader::new(&stream[..], codec);
    /// let err = frames.read::<bool>().unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::InvalidData);
    /// let Some(FrameError::Decode(e)) = err.get_ref().and_then(|e| e.downcast_ref()) else {
    ///     panic!("{err}")
    /// };
    /// assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::InvalidBool(2), 4));
    /// assert_eq!(frames.read::<bool>()?, Some(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read<T>(&mut self) -> io::Result<Option<T>>
    where
        T: for<'de> UnmarshalIn<'de, C::Dialect>,
    {
        let codec = self.codec;
        let Some(body) = self.next_frame()? else {
            return Ok(None);
        };
        let max_alloc = codec.max_alloc().unwrap_or(usize::MAX);
        match T::__decode_whole(body, Some(max_alloc)) {
            Ok(value) => Ok(Some(value)),
            Err(e) => Err(FrameError::Decode(e.shifted(HEADER_LEN)).into()),
        }
    }

    /// Reads more of the stream into the buffer, which holds the start of
    /// a frame that needs `needed` more bytes. Returns whether any arrived
    /// (`false` at the end of the stream).
    fn fill(&mut self, needed: usize) -> io::Result<bool> {
        if self.start == self.filled {
            (self.start, self.filled) = (0, 0);
        }
        if self.buf.len() - self.filled < needed && self.start > 0 {
            // The frame does not fit where it is: move it to the front.
            self.buf.copy_within(self.start..self.filled, 0);
            self.filled -= self.start;
            self.start = 0;
        }
        if self.filled == self.buf.len() {
            self.grow()?;
        }
        loop {
            match self.inner.read(&mut self.buf[self.filled..]) {
                Ok(0) => return Ok(false),
                Ok(n) if n <= self.buf.len() - self.filled => {
                    self.filled += n;
                    return Ok(true);
                }
                Ok(n) => {
                    return Err(io::Error::other(std::format!(
                        "the reader reported reading {n} bytes into a buffer of {}",
                        self.buf.len() - self.filled
                    )));
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Grows the full buffer, which holds the start of a frame that needs
    /// more bytes: to twice its length, at least [`INITIAL_LEN`], but no
    /// more than a frame can take unless that is less than `INITIAL_LEN`.
    fn grow(&mut self) -> io::Result<()> {
        let old = self.buf.len();
        let largest = HEADER_LEN.saturating_add(self.codec.max_len());
        let new = old
            .saturating_mul(2)
            .max(INITIAL_LEN)
            .min(largest.max(INITIAL_LEN));
        // The frame has more than `old` bytes and at most `largest`, so
        // `new > old`.
        self.buf.try_reserve_exact(new - old)?;
        self.buf.resize(new, 0);
        Ok(())
    }

    /// The result of the stream's end: `None` between frames, an
    /// `UnexpectedEof` error inside one.
    fn ended<'a>(&self) -> io::Result<Option<&'a [u8]>> {
        match self.filled - self.start {
            0 => Ok(None),
            partial => Err(io::Error::new(
                ErrorKind::UnexpectedEof,
                std::format!("the stream ended inside a frame, after {partial} of its bytes"),
            )),
        }
    }
}

impl<R, C: Config> FrameReader<R, C> {
    /// The codec the reader checks and decodes frames with.
    ///
    /// ```
    /// use marshal::frame::{Codec, FrameReader};
    /// let frames = FrameReader::new(&[][..], Codec::new());
    /// assert_eq!(frames.codec(), &Codec::new());
    /// ```
    pub fn codec(&self) -> &Codec<C> {
        &self.codec
    }

    /// The stream.
    ///
    /// ```
    /// use marshal::frame::{Codec, FrameReader};
    /// let frames = FrameReader::new(&[1u8, 2][..], Codec::new());
    /// assert_eq!(frames.get_ref().len(), 2);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The stream, mutably. Reading from it directly skips bytes the frame
    /// reader has not seen, which desynchronizes the frames unless it
    /// stops at a frame boundary (with [`buffer`](FrameReader::buffer)
    /// empty).
    ///
    /// ```
    /// use std::io::Cursor;
    /// use marshal::frame::{Codec, FrameReader};
    /// let mut frames = FrameReader::new(Cursor::new(vec![1u8, 2]), Codec::new());
    /// frames.get_mut().set_position(1);
    /// assert_eq!(frames.get_ref().position(), 1);
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The bytes read from the stream and not consumed yet: the start of
    /// the next frames.
    ///
    /// ```
    /// use marshal::frame::{Codec, FrameReader};
    ///
    /// let codec = Codec::new();
    /// let mut stream = Vec::new();
    /// codec.encode_into_vec(&1u8, &mut stream)?;
    /// codec.encode_into_vec(&2u8, &mut stream)?;
    /// let mut frames = FrameReader::new(&stream[..], codec);
    /// assert_eq!(frames.next_frame()?, Some(&[1][..]));
    /// assert_eq!(frames.buffer(), [1, 0, 0, 0, 2]); // read in one piece
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn buffer(&self) -> &[u8] {
        &self.buf[self.start..self.filled]
    }

    /// The stream, giving up the reader's buffer: bytes in
    /// [`buffer`](FrameReader::buffer) are lost.
    ///
    /// ```
    /// use marshal::frame::{Codec, FrameReader};
    /// let frames = FrameReader::new(&[9u8][..], Codec::new());
    /// assert_eq!(frames.into_inner(), [9]);
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }
}
