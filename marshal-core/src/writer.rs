//! The byte cursor that encoders write through.

use core::fmt;
use core::mem::MaybeUninit;

use crate::error::Overflow;
use crate::mem::Cursor;

/// A forward-only cursor over a caller-provided byte buffer, which may be
/// uninitialized memory.
///
/// Every [`Marshal::encode`](crate::Marshal::encode) implementation writes its
/// bytes through a `Writer`. Each `put_*` method checks the remaining space once
/// and either writes everything it was given or nothing, returning
/// [`Overflow`] when the buffer is too short; a failed call leaves the writer
/// as it was.
///
/// A writer made by [`new_uninit`](Writer::new_uninit) fills fresh memory
/// without zeroing it first, and [`into_written`](Writer::into_written)
/// hands back what was written as ordinary initialized bytes. A writer never
/// reads the buffer and never writes anything but initialized bytes into it.
///
/// # Example
///
/// ```
/// use marshal::Writer;
///
/// let mut buf = [0u8; 6];
/// let mut w = Writer::new(&mut buf);
/// w.put_array(7u32.to_le_bytes()).unwrap();
/// w.put_slice(b"hi").unwrap();
/// assert_eq!(w.written(), 6);
/// assert!(w.put_slice(b"!").is_err());
/// assert_eq!(buf, [7, 0, 0, 0, b'h', b'i']);
/// ```
pub struct Writer<'a> {
    out: Cursor<'a>,
}

impl fmt::Debug for Writer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Writer")
            .field("written", &self.written())
            .field("remaining", &self.remaining())
            .finish()
    }
}

impl<'a> Writer<'a> {
    /// Creates a writer that fills `buf` from its first byte.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let w = marshal::Writer::new(&mut buf);
    /// assert_eq!(w.remaining(), 4);
    /// ```
    #[inline]
    pub fn new(buf: &'a mut [u8]) -> Self {
        Writer {
            out: Cursor::new(buf),
        }
    }

    /// Creates a writer that fills `buf`, memory that need not be
    /// initialized, from its first byte. Nothing is zeroed: each byte is
    /// written once, by the encoder. Get the written bytes back with
    /// [`into_written`](Writer::into_written).
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    /// use marshal::{Marshal, Writer};
    ///
    /// let mut buf = [MaybeUninit::<u8>::uninit(); 16];
    /// let mut w = Writer::new_uninit(&mut buf);
    /// (1u16, "ok").encode(&mut w).unwrap();
    /// assert_eq!(w.into_written(), [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'o', b'k']);
    /// ```
    #[inline]
    pub fn new_uninit(buf: &'a mut [MaybeUninit<u8>]) -> Self {
        Writer {
            out: Cursor::new_uninit(buf),
        }
    }

    /// Runs `f` on a writer over `out`, then hands back the cursor the
    /// writer holds by then (`f` may have replaced it) with `f`'s result:
    /// how `mem`, which knows only cursors and checks the one it gets back,
    /// gives encoders a writer over memory it set aside.
    #[inline]
    pub(crate) fn lend<R>(
        out: Cursor<'a>,
        f: impl FnOnce(&mut Writer<'a>) -> R,
    ) -> (Cursor<'a>, R) {
        let mut w = Writer { out };
        let result = f(&mut w);
        (w.out, result)
    }

    /// The bytes written so far, initialized, for as long as the buffer was
    /// borrowed: the way to read back what was written into uninitialized
    /// memory.
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_slice(b"abc").unwrap();
    /// let written: &mut [u8] = w.into_written();
    /// assert_eq!(written, b"abc");
    /// ```
    #[inline]
    pub fn into_written(self) -> &'a mut [u8] {
        self.out.into_written()
    }

    /// The number of bytes written so far.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_u8(1).unwrap();
    /// assert_eq!(w.written(), 1);
    /// ```
    #[inline]
    pub fn written(&self) -> usize {
        self.out.written()
    }

    /// The number of bytes that can still be written.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_u8(1).unwrap();
    /// assert_eq!(w.remaining(), 3);
    /// ```
    #[inline]
    pub fn remaining(&self) -> usize {
        self.out.remaining()
    }

    /// Writes one byte.
    ///
    /// ```
    /// let mut buf = [0u8; 1];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_u8(9).unwrap();
    /// assert!(w.put_u8(9).is_err());
    /// assert_eq!(buf, [9]);
    /// ```
    #[inline]
    pub fn put_u8(&mut self, byte: u8) -> Result<(), Overflow> {
        self.out.put_array([byte])
    }

    /// Writes a length prefix: `len` as a little-endian `u64`, as bincode
    /// does before strings, sequences and maps.
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// marshal::Writer::new(&mut buf).put_len(3).unwrap();
    /// assert_eq!(buf, [3, 0, 0, 0, 0, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn put_len(&mut self, len: usize) -> Result<(), Overflow> {
        // `usize` is at most 64 bits wide on every target Rust supports.
        self.out.put_array((len as u64).to_le_bytes())
    }

    /// Writes a fixed-size array of bytes with a single bounds check.
    ///
    /// ```
    /// let mut buf = [0u8; 2];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_array(0x0102u16.to_le_bytes()).unwrap();
    /// assert_eq!(buf, [2, 1]);
    /// ```
    #[inline]
    pub fn put_array<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), Overflow> {
        self.out.put_array(bytes)
    }

    /// Writes a byte slice with a single bounds check and one bulk copy.
    ///
    /// ```
    /// let mut buf = [0u8; 3];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_slice(b"abc").unwrap();
    /// assert_eq!(&buf, b"abc");
    /// ```
    #[inline]
    pub fn put_slice(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        self.out.put_slice(bytes)
    }

    /// Writes `bytes` after their length prefix (see
    /// [`put_len`](Writer::put_len)) with a single bounds check: how
    /// strings are encoded.
    ///
    /// ```
    /// let mut buf = [0u8; 10];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_prefixed(b"hi").unwrap();
    /// assert!(w.put_prefixed(b"").is_err());
    /// assert_eq!(buf, [2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
    /// ```
    #[inline]
    pub fn put_prefixed(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        self.out.put_prefixed(bytes)
    }

    /// Writes `prefix`, then `bytes`, with a single bounds check: a string
    /// after its fixed-width length in any byte order.
    #[inline]
    pub(crate) fn put_after<const N: usize>(
        &mut self,
        prefix: [u8; N],
        bytes: &[u8],
    ) -> Result<(), Overflow> {
        self.out.put_after(prefix, bytes)
    }

    /// [`put_slice`](Writer::put_slice) for bytes whose length is known at
    /// compile time: a plain copy, no short-copy branches.
    #[inline]
    pub(crate) fn put_copy(&mut self, bytes: &[u8]) -> Result<(), Overflow> {
        self.out.put_copy(bytes)
    }

    /// Runs `f` on a copy of this writer held in a local, then takes the
    /// copy's position back, whether `f` failed or not.
    ///
    /// The copy is what makes this worth having: bytes stored into the
    /// buffer cannot alias a local, so the compiler keeps its position in a
    /// register for the whole of `f`, where through `&mut self` it would
    /// store the position back to memory after every field.
    #[inline]
    pub(crate) fn detached<R>(&mut self, f: impl FnOnce(&mut Writer<'a>) -> R) -> R {
        let mut local = core::mem::replace(self, Writer::new(&mut []));
        let result = f(&mut local);
        *self = local;
        result
    }

    /// Claims the next `len` bytes and returns them for the caller to fill.
    ///
    /// The claimed bytes count as written: for a caller that fills a region
    /// of known length with code that writes into a slice. In a writer over uninitialized memory the claimed bytes are zeroed
    /// first (a `&mut [u8]` must not see uninitialized bytes); in one over
    /// initialized memory they are handed out as they are.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.reserve(2).unwrap().copy_from_slice(&[1, 2]);
    /// assert_eq!(w.written(), 2);
    /// assert!(w.reserve(3).is_err());
    /// ```
    #[inline]
    pub fn reserve(&mut self, len: usize) -> Result<&mut [u8], Overflow> {
        self.out.reserve(len)
    }

    /// Runs `f` on a writer over exactly the next `len` bytes, and counts
    /// what it wrote as written here. One bounds check covers the whole
    /// region, so when `f` writes a fixed number of bytes the checks inside
    /// it fold away: derived encoders use this for types with a
    /// [`FIXED_LEN`](crate::Marshal::FIXED_LEN).
    ///
    /// Returns [`Overflow`] when fewer than `len` bytes remain (without
    /// calling `f`) or when `f` does.
    ///
    /// # Panics
    ///
    /// When `f` replaces the writer it is given with one over other memory.
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.exact(6, |w| {
    ///     w.put_array(1u32.to_le_bytes())?;
    ///     w.put_array(2u16.to_le_bytes())
    /// })
    /// .unwrap();
    /// assert_eq!(w.written(), 6);
    /// assert!(w.exact(3, |_| Ok(())).is_err());
    /// assert_eq!(buf[..6], [1, 0, 0, 0, 2, 0]);
    /// ```
    #[inline]
    pub fn exact<F>(&mut self, len: usize, f: F) -> Result<(), Overflow>
    where
        F: FnOnce(&mut Writer<'_>) -> Result<(), Overflow>,
    {
        self.out.exact(len, |region| Writer::lend(region, f))
    }

    /// Writes a body of an extensible type: its length as a little-endian
    /// `u32`, then what `f` writes. The length is not known beforehand: four
    /// bytes are set aside, `f` writes the body through a writer over the
    /// rest of the buffer, and the length is filled in after it. So encoding
    /// stays one pass over the value, however deeply bodies nest, and
    /// nothing is allocated. Derived encoders of `#[marshal(extensible)]`
    /// types write through this (WIRE_FORMAT.md, "Extensible types").
    ///
    /// Returns [`Overflow`] when the length and body do not fit, or when `f`
    /// does; the writer is then as it was before the call.
    ///
    /// # Panics
    ///
    /// When the body is longer than `u32::MAX` bytes, which its length
    /// cannot say; and when `f` replaces the writer it is given with one
    /// over other memory.
    ///
    /// ```
    /// let mut buf = [0u8; 16];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.put_body(|w| {
    ///     w.put_array(7u16.to_le_bytes())?;
    ///     w.put_body(|w| w.put_slice(b"hi"))
    /// })
    /// .unwrap();
    /// assert_eq!(w.written(), 12);
    /// assert_eq!(buf[..12], [8, 0, 0, 0, 7, 0, 2, 0, 0, 0, b'h', b'i']);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn put_body<F>(&mut self, f: F) -> Result<(), Overflow>
    where
        F: FnOnce(&mut Writer<'_>) -> Result<(), Overflow>,
    {
        // Through this writer itself: nothing to set up, and the body's
        // writes check the buffer's end as any others do.
        self.put_body_ordered(false, f)
    }

    /// [`put_body`](Writer::put_body) with the length big-endian when
    /// `big_endian`: an extensible body in a big-endian configuration.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn put_body_ordered<F>(&mut self, big_endian: bool, f: F) -> Result<(), Overflow>
    where
        F: FnOnce(&mut Writer<'_>) -> Result<(), Overflow>,
    {
        let at = self.out.begin_body()?;
        let result = f(self);
        self.out.end_body(at, result, big_endian)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Buffers of `MaybeUninit::uninit()` bytes: Miri reports any read of
    // one the writer did not write.

    #[test]
    fn a_body_length_in_either_byte_order() {
        let mut buf = [MaybeUninit::<u8>::uninit(); 16];
        let mut w = Writer::new_uninit(&mut buf);
        w.put_body_ordered(true, |w| {
            w.put_u8(7)?;
            w.put_body_ordered(false, |w| w.put_array([8, 9]))
        })
        .unwrap();
        // A body that does not fit takes its length back.
        assert_eq!(
            w.put_body_ordered(true, |w| w.put_array([0; 9])),
            Err(Overflow)
        );
        assert_eq!(w.into_written(), [0, 0, 0, 7, 7, 2, 0, 0, 0, 8, 9]);
    }

    #[test]
    fn exact_counts_what_the_sub_writer_wrote() {
        let mut buf = [MaybeUninit::<u8>::uninit(); 8];
        let mut w = Writer::new_uninit(&mut buf);
        w.exact(4, |w| w.put_array([1, 2, 3, 4])).unwrap();
        // A sub-writer that writes less leaves the rest unwritten.
        w.exact(3, |w| w.put_u8(5)).unwrap();
        assert_eq!(w.written(), 5);
        // One that overruns its share fails.
        assert_eq!(w.exact(1, |w| w.put_array([0, 0])), Err(Overflow));
        // Reserving inside the region zeroes only there.
        w.exact(2, |w| {
            w.reserve(2)?[1] = 6;
            Ok(())
        })
        .unwrap();
        assert_eq!(w.into_written(), [1, 2, 3, 4, 5, 0, 6]);
    }

    #[test]
    #[should_panic(expected = "replaced the Writer")]
    fn exact_rejects_a_replaced_writer() {
        let mut buf = [MaybeUninit::<u8>::uninit(); 8];
        let mut outer = Writer::new_uninit(&mut buf);
        // `&mut []` is `'static`, so it may stand in for any writer.
        let _ = outer.exact(4, |w| {
            *w = Writer::new(&mut []);
            Ok(())
        });
    }

    #[test]
    fn put_body_patches_the_length_after_the_body() {
        let mut buf = [MaybeUninit::<u8>::uninit(); 16];
        let mut w = Writer::new_uninit(&mut buf);
        w.put_u8(9).unwrap();
        w.put_body(|w| w.put_slice(b"abc")).unwrap();
        // An empty body, and bodies nested in bodies.
        w.put_body(|w| w.put_body(|_| Ok(()))).unwrap();
        assert_eq!(w.written(), 16);
        assert_eq!(
            w.into_written(),
            [9, 3, 0, 0, 0, b'a', b'b', b'c', 4, 0, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn put_body_that_overflows_takes_back_what_it_wrote() {
        let mut buf = [0xEEu8; 7];
        let mut w = Writer::new(&mut buf);
        w.put_u8(1).unwrap();
        assert_eq!(w.put_body(|w| w.put_slice(b"ab")), Ok(()));
        assert_eq!(w.written(), 7);
        assert_eq!(buf, [1, 2, 0, 0, 0, b'a', b'b']);
        let mut buf = [0xEEu8; 6];
        let mut w = Writer::new(&mut buf);
        assert_eq!(w.put_body(|w| w.put_slice(b"abc")), Err(Overflow));
        assert_eq!(w.written(), 0);
        // Not even the length fits.
        let mut short = [0u8; 3];
        let mut w = Writer::new(&mut short);
        assert_eq!(w.put_body(|_| Ok(())), Err(Overflow));
        assert_eq!(w.written(), 0);
        // A body that fails after writing some of itself.
        let mut buf = [MaybeUninit::<u8>::uninit(); 9];
        let mut w = Writer::new_uninit(&mut buf);
        let result = w.put_body(|w| {
            w.put_slice(b"abcd")?;
            w.put_slice(b"ef")
        });
        assert_eq!(result, Err(Overflow));
        assert_eq!(w.written(), 0);
        w.put_slice(b"x").unwrap();
        assert_eq!(w.into_written(), b"x");
    }

    #[test]
    #[should_panic(expected = "replaced the Writer")]
    fn put_body_rejects_a_replaced_writer() {
        let mut buf = [MaybeUninit::<u8>::uninit(); 8];
        let mut w = Writer::new_uninit(&mut buf);
        let _ = w.put_body(|w| {
            *w = Writer::new(&mut []);
            Ok(())
        });
    }
}
