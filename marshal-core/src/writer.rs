//! The byte cursor that encoders write through.

use crate::error::Overflow;

/// A forward-only cursor over a caller-provided byte buffer.
///
/// Every [`Marshal::encode`](crate::Marshal::encode) implementation writes its
/// bytes through a `Writer`. Each `put_*` method checks the remaining space once
/// and either writes everything it was given or nothing, returning
/// [`Overflow`] when the buffer is too short; a failed call leaves the writer
/// as it was.
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
#[derive(Debug)]
pub struct Writer<'a> {
    rest: &'a mut [u8],
    capacity: usize,
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
        let capacity = buf.len();
        Writer {
            rest: buf,
            capacity,
        }
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
        self.capacity - self.rest.len()
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
        self.rest.len()
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
        self.put_array([byte])
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
        self.put_array((len as u64).to_le_bytes())
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
        self.reserve(N)?.copy_from_slice(&bytes);
        Ok(())
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
        self.reserve(bytes.len())?.copy_from_slice(bytes);
        Ok(())
    }

    /// Claims the next `len` bytes and returns them for the caller to fill.
    ///
    /// The claimed bytes count as written. This is how a `with` module's
    /// `write_to(&value, &mut [u8])` is given exactly its share of the buffer.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// let mut w = marshal::Writer::new(&mut buf);
    /// w.reserve(2).unwrap().copy_from_slice(&[1, 2]);
    /// assert_eq!(w.written(), 2);
    /// assert!(w.reserve(3).is_err());
    /// ```
    #[inline]
    pub fn reserve(&mut self, len: usize) -> Result<&'a mut [u8], Overflow> {
        if self.rest.len() < len {
            return Err(Overflow);
        }
        let (head, tail) = core::mem::take(&mut self.rest).split_at_mut(len);
        self.rest = tail;
        Ok(head)
    }
}
