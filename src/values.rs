//! Iterating over values written back to back.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use marshal_core::{DecodeError, Reader, Unmarshal};

/// Decodes the values written back to back in `input`, such as repeated
/// [`encode_into_vec`](crate::encode_into_vec) calls append, one per
/// iteration. No length or count comes first: the values simply follow
/// one another, each where the previous one ended.
///
/// The iterator ends after the last value, when `input` is used up, and
/// after the first error, which it yields: its offset counts from the start
/// of `input`. Values may borrow from `input` (`T: Unmarshal<'a>`), as
/// with [`from_bytes`](crate::from_bytes); collections in them are
/// preallocated from one allowance of four times `input`'s length, shared
/// by all the values (see [`Reader::capacity_for`]).
///
/// A buffer that holds whole values and then the start of one more ends in
/// an error for which [`DecodeError::is_incomplete`] is true: the values
/// before it came out whole, and [`Values::position`] says where the cut
/// one starts, to keep for when the rest of it arrives.
///
/// A type that encodes to zero bytes (`()`, unit structs) yields nothing
/// from empty input, and from anything else a
/// [`TrailingBytes`](crate::DecodeErrorKind::TrailingBytes) error at the
/// first byte: its values take no room, so the input cannot say how many
/// there are.
///
/// ```
/// use marshal::{DecodeErrorKind, Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Event<'a> { id: u32, name: &'a str }
///
/// let mut log = Vec::new();
/// marshal::encode_into_vec(&Event { id: 1, name: "start" }, &mut log);
/// marshal::encode_into_vec(&Event { id: 2, name: "stop" }, &mut log);
///
/// let events: Vec<Event> = marshal::iter(&log).collect::<Result<_, _>>()?;
/// assert_eq!(events, [Event { id: 1, name: "start" }, Event { id: 2, name: "stop" }]);
///
/// // Cut inside the second value: the first comes out, then the error,
/// // whose offset is where the cut value's name starts, in all of `log`.
/// let mut values = marshal::iter::<Event>(&log[..log.len() - 2]);
/// assert_eq!(values.next(), Some(Ok(Event { id: 1, name: "start" })));
/// let err = values.next().unwrap().unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::LengthOverflow { len: 4 }, 21));
/// assert!(err.is_incomplete());
/// assert_eq!(values.next(), None);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub fn iter<'a, T: Unmarshal<'a>>(input: &'a [u8]) -> Values<'a, T> {
    Values {
        input,
        reader: Reader::new(input),
        failed_at: None,
        _values: PhantomData,
    }
}

/// The iterator of [`iter`]: the values in a byte slice, one after another.
///
/// ```
/// let bytes = [1u8, 0, 2, 0];
/// let mut values = marshal::iter::<u16>(&bytes);
/// assert_eq!(values.next(), Some(Ok(1)));
/// assert_eq!((values.position(), values.rest()), (2, &[2, 0][..]));
/// assert_eq!(values.next(), Some(Ok(2)));
/// assert_eq!(values.next(), None);
/// ```
pub struct Values<'a, T> {
    input: &'a [u8],
    reader: Reader<'a>,
    /// Where the value that failed starts, once one has.
    failed_at: Option<usize>,
    _values: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for Values<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Values")
            .field("position", &self.position())
            .field("remaining", &self.rest().len())
            .field("failed", &self.failed_at.is_some())
            .finish()
    }
}

impl<T> Clone for Values<'_, T> {
    fn clone(&self) -> Self {
        Values {
            input: self.input,
            reader: self.reader.clone(),
            failed_at: self.failed_at,
            _values: PhantomData,
        }
    }
}

impl<'a, T> Values<'a, T> {
    /// Where the next value starts, counted from the start of the input;
    /// after an error, where the value that failed starts.
    ///
    /// ```
    /// let bytes = [1u8, 0, 0, 0, 7];
    /// let mut values = marshal::iter::<u32>(&bytes);
    /// assert_eq!(values.next(), Some(Ok(1)));
    /// assert_eq!(values.position(), 4);
    /// assert!(values.next().unwrap().is_err());
    /// assert_eq!(values.position(), 4);
    /// ```
    #[must_use]
    pub fn position(&self) -> usize {
        self.failed_at.unwrap_or(self.reader.position())
    }

    /// The input from [`position`](Values::position) on: the values not
    /// yet decoded or, after an error, the bytes from the value that
    /// failed.
    ///
    /// ```
    /// let bytes = [5u8, 1, 0];
    /// let mut values = marshal::iter::<u16>(&bytes[1..]);
    /// assert_eq!(values.rest(), [1, 0]);
    /// values.next();
    /// assert!(values.rest().is_empty());
    /// ```
    #[must_use]
    pub fn rest(&self) -> &'a [u8] {
        self.input.get(self.position()..).unwrap_or_default()
    }
}

impl<'a, T: Unmarshal<'a>> Iterator for Values<'a, T> {
    type Item = Result<T, DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed_at.is_some() || self.reader.remaining() == 0 {
            return None;
        }
        let start = self.reader.position();
        let err = match T::decode(&mut self.reader) {
            Ok(value) if self.reader.position() > start => return Some(Ok(value)),
            // A value of no bytes, with input left (so `finish` fails): the
            // bytes are not values of this type.
            Ok(_) => self.reader.finish().err()?,
            Err(e) => e,
        };
        self.failed_at = Some(start);
        Some(Err(err))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match (self.failed_at, self.reader.remaining()) {
            (Some(_), _) | (None, 0) => (0, Some(0)),
            // Each value takes at least a byte; an error ends it.
            (None, n) => (1, Some(n)),
        }
    }
}

impl<'a, T: Unmarshal<'a>> FusedIterator for Values<'a, T> {}
