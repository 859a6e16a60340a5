//! Encoding into `bytes` buffers, and decoding from `Bytes`.
//!
//! [`encode_to_bytes_mut`] encodes a value straight into the `BytesMut`'s
//! spare capacity, in one pass when it fits there and otherwise after one
//! reservation: no intermediate buffer, no zeroing. [`encode_to_buf_mut`] does the same for any `BufMut` whose
//! current chunk can hold the value. [`decode_from_bytes`] reads one owned
//! value off the front of a `Bytes`; values that borrow (`&str`, `&[u8]`)
//! decode from `&bytes[..]` with [`from_bytes`](crate::from_bytes) or
//! [`Unmarshal::read_from`] as from any slice.
//!
//! ```
//! use bytes::BytesMut;
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Msg { id: u32, body: String }
//!
//! let mut out = BytesMut::new();
//! marshal::buf::encode_to_bytes_mut(&Msg { id: 1, body: "a".into() }, &mut out);
//! marshal::buf::encode_to_bytes_mut(&Msg { id: 2, body: "bc".into() }, &mut out);
//!
//! let mut received = out.freeze();
//! let first: Msg = marshal::buf::decode_from_bytes(&mut received)?;
//! let second: Msg = marshal::buf::decode_from_bytes(&mut received)?;
//! assert_eq!((first.id, second.body.as_str()), (1, "bc"));
//! assert!(received.is_empty());
//! # Ok::<(), marshal::DecodeError>(())
//! ```

use ::bytes::{Buf, BufMut, Bytes, BytesMut};
use marshal_core::__facade::{
    assert_allocatable, encode_exact, length_mismatch, locate, may_fit, try_append_to_buf_mut,
};
use marshal_core::{BufferTooSmall, DecodeError, Marshal, Reader, Unmarshal, Writer};

/// Appends the encoding of `value` to `buf` and returns its length,
/// written once, straight into the spare capacity.
///
/// When `buf`'s spare capacity holds the encoding, it takes one pass: the
/// value is written without being sized first, and nothing is allocated.
/// Only when it does not fit is it sized with
/// [`encoded_len`](Marshal::encoded_len), one `reserve` of exactly that
/// many bytes made (at most one reallocation), and the value written
/// again. This is the path of every target that appends values to a
/// `BytesMut`.
///
/// # Panics
///
/// When the value does not fit the spare capacity and is too large to
/// encode (its `encoded_len`, which saturates at `usize::MAX`, is more than
/// `buf` can grow to), and when it does not fit and its `encode` does not
/// write exactly `encoded_len` bytes (a broken manual [`Marshal`]
/// implementation: the message names the
/// [`LengthMismatch`](crate::LengthMismatch)). `buf` keeps its length and
/// contents. In one pass `encoded_len` is not called, so a value whose
/// `encode` disagrees with it goes unnoticed, as in [`Marshal::write_to`]:
/// the length returned is the one written.
///
/// ```
/// use bytes::BytesMut;
///
/// let mut buf = BytesMut::with_capacity(64);
/// assert_eq!(marshal::buf::encode_to_bytes_mut(&(1u8, "hi"), &mut buf), 11);
/// assert_eq!(buf, &[1, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i'][..]);
/// assert_eq!(buf.capacity(), 64); // one pass, in place
///
/// // Too long for the room left: sized, reserved, written.
/// assert_eq!(marshal::buf::encode_to_bytes_mut(&[0u8; 60][..], &mut buf), 68);
/// assert_eq!(buf.len(), 79);
/// ```
#[track_caller]
pub fn encode_to_bytes_mut<T: Marshal + ?Sized>(value: &T, buf: &mut BytesMut) -> usize {
    let start = buf.len();
    // `chunk_mut` of a full `BytesMut` would reserve: look first.
    if may_fit::<T>(buf.capacity() - start)
        && try_append_to_buf_mut(buf, |w| value.encode(w)).is_ok()
    {
        return buf.len() - start;
    }
    append_exact(value, value.encoded_len(), buf)
}

/// Appends `value`, whose `encoded_len` is `len`, to `buf`.
#[inline]
#[track_caller]
fn append_exact<T: Marshal + ?Sized>(value: &T, len: usize, buf: &mut BytesMut) -> usize {
    assert_allocatable(buf.len(), len);
    buf.reserve(len);
    // After `reserve(len)` the chunk is the whole spare capacity, at least
    // `len` bytes.
    match try_append_to_buf_mut(buf, |w| encode_exact(value, len, w)) {
        Ok(()) => len,
        Err(mismatch) => length_mismatch(mismatch),
    }
}

/// Appends the encoding of `value` to any `BufMut` and returns its
/// length.
///
/// When the buffer's current chunk (`chunk_mut`) holds the whole value,
/// which is always the case for a `&mut [u8]` and, once there is spare
/// capacity, for `BytesMut` and `Vec<u8>`, the value is encoded straight
/// into it. Otherwise (a chunk smaller than the value, as in a `Chain` of
/// buffers) it is encoded into a temporary, on the stack when it is at most
/// 256 bytes, and copied in with `put_slice`. For a `BytesMut`,
/// [`encode_to_bytes_mut`] reserves first and never copies.
///
/// # Panics
///
/// When `buf` has fewer than [`encoded_len`](Marshal::encoded_len) bytes of
/// room (`remaining_mut`), as `BufMut::put_slice` does. When the value's
/// `encode` does not write exactly `encoded_len` bytes (a broken manual
/// [`Marshal`] implementation: the message names the
/// [`LengthMismatch`](crate::LengthMismatch)); `buf` is not advanced.
///
/// ```
/// use bytes::BufMut;
///
/// let mut arr = [0u8; 8];
/// let mut slice = &mut arr[..];
/// assert_eq!(marshal::buf::encode_to_buf_mut(&0x0102u16, &mut slice), 2);
/// assert_eq!(slice.remaining_mut(), 6);
/// assert_eq!(arr[..2], [2, 1]);
///
/// // A chain of two small buffers: encoded on the stack, then copied.
/// let (mut a, mut b) = ([0u8; 3], [0u8; 3]);
/// let mut chain = (&mut a[..]).chain_mut(&mut b[..]);
/// marshal::buf::encode_to_buf_mut(&0x0102_0304u32, &mut chain);
/// assert_eq!((a, b), ([4, 3, 2], [1, 0, 0]));
/// ```
#[track_caller]
pub fn encode_to_buf_mut<T, B>(value: &T, buf: &mut B) -> usize
where
    T: Marshal + ?Sized,
    B: BufMut + ?Sized,
{
    let len = value.encoded_len();
    if len > buf.remaining_mut() {
        buffer_too_small(BufferTooSmall {
            needed: len,
            available: buf.remaining_mut(),
        });
    }
    if buf.chunk_mut().len() >= len {
        return match try_append_to_buf_mut(buf, |w| encode_exact(value, len, w)) {
            Ok(()) => len,
            Err(mismatch) => length_mismatch(mismatch),
        };
    }
    const STACK: usize = 256;
    if len <= STACK {
        let mut tmp = [core::mem::MaybeUninit::uninit(); STACK];
        let mut w = Writer::new_uninit(&mut tmp[..len]);
        if let Err(mismatch) = encode_exact(value, len, &mut w) {
            length_mismatch(mismatch);
        }
        buf.put_slice(w.into_written());
    } else {
        // `to_vec` checks the length.
        buf.put_slice(&crate::to_vec(value));
    }
    len
}

/// Encodes `value` into a new `Bytes`: one allocation of exactly
/// [`encoded_len`](Marshal::encoded_len) bytes, written once.
///
/// # Panics
///
/// Like [`encode_to_bytes_mut`]: when the value is too large to encode, or
/// disagrees with its `encoded_len`.
///
/// ```
/// let bytes = marshal::buf::to_bytes(&[1u32, 2]);
/// assert_eq!(bytes, &[1, 0, 0, 0, 2, 0, 0, 0][..]);
/// ```
#[must_use]
#[track_caller]
pub fn to_bytes<T: Marshal + ?Sized>(value: &T) -> Bytes {
    let len = value.encoded_len();
    assert_allocatable(0, len);
    let mut buf = BytesMut::with_capacity(len);
    append_exact(value, len, &mut buf);
    buf.freeze()
}

/// Decodes one value from the front of `buf` and advances `buf` past it,
/// leaving any bytes after it for the next call. On error `buf` is left as
/// it was.
///
/// The value must own its data (`T: for<'de> Unmarshal<'de>`), since it
/// outlives the bytes it was read from; to borrow from a `Bytes`, decode
/// from `&bytes[..]` with [`from_bytes`](crate::from_bytes).
///
/// ```
/// use bytes::Bytes;
///
/// let mut buf = Bytes::from(marshal::to_vec(&(7u8, String::from("hi"))));
/// let (n, s): (u8, String) = marshal::buf::decode_from_bytes(&mut buf)?;
/// assert_eq!((n, s.as_str()), (7, "hi"));
/// assert!(buf.is_empty());
///
/// let mut short = Bytes::from_static(&[1, 0]);
/// assert!(marshal::buf::decode_from_bytes::<u32>(&mut short).is_err());
/// assert_eq!(short.len(), 2);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub fn decode_from_bytes<T>(buf: &mut Bytes) -> Result<T, DecodeError>
where
    T: for<'de> Unmarshal<'de>,
{
    let mut r = Reader::new(buf);
    let value = match T::decode(&mut r) {
        Ok(value) => value,
        // With its site, as `from_bytes` finds it.
        Err(e) => return Err(locate::<T>(|| Reader::new(buf), &r, e)),
    };
    let used = r.position();
    buf.advance(used);
    Ok(value)
}

#[cold]
#[inline(never)]
#[track_caller]
fn buffer_too_small(err: BufferTooSmall) -> ! {
    panic!("marshal: {err}")
}
