//! How [`Cow`] decodes: borrowing from the input where the input already
//! holds the value's bytes (`Cow<str>` and `Cow<[u8]>`), owning a decoded
//! value for everything else.
//!
//! `Cow<'a, T>` is [`Unmarshal`](crate::Unmarshal) for every `T` that is
//! [`CowUnmarshal`], which this crate implements for `str`, for slices
//! `[T]` (borrowed for `[u8]`, owned for other items) and for every sized
//! `Unmarshal + Clone` type (owned). Code that decodes a `Cow` never names
//! the trait; it appears only in the bounds of generic code.
//!
//! ```
//! use std::borrow::Cow;
//!
//! let bytes = marshal::to_vec(&("hi", [1u8, 2].as_slice(), [3u32].as_slice(), 4u16));
//! let (s, b, w, n): (Cow<str>, Cow<[u8]>, Cow<[u32]>, Cow<u16>) =
//!     marshal::from_bytes(&bytes).unwrap();
//! assert!(matches!(s, Cow::Borrowed("hi")));
//! assert!(matches!(b, Cow::Borrowed(&[1, 2])));
//! assert!(matches!(w, Cow::Owned(_)) && w[..] == [3]);
//! assert!(matches!(n, Cow::Owned(4)));
//! ```

use alloc::borrow::{Cow, ToOwned};

use crate::error::DecodeError;
use crate::reader::Reader;

/// How a `Cow<'_, Self>` decodes: borrowed from the input for `str` and
/// `[u8]`, owned for everything else.
///
/// ```
/// use std::borrow::Cow;
/// use marshal::cow::CowUnmarshal;
///
/// /// Decodes a `Cow` of any type that can be decoded as one.
/// fn decode<'de, T: CowUnmarshal<'de> + ?Sized>(bytes: &'de [u8]) -> Cow<'de, T> {
///     marshal::from_bytes(bytes).unwrap()
/// }
///
/// let bytes = marshal::to_vec("hi");
/// assert!(matches!(decode::<str>(&bytes), Cow::Borrowed("hi")));
/// ```
pub trait CowUnmarshal<'de>: ToOwned {
    /// The fewest bytes a value encodes to.
    ///
    /// ```
    /// use marshal::cow::CowUnmarshal;
    /// assert_eq!(<str as CowUnmarshal>::MIN_LEN, 8);
    /// ```
    const MIN_LEN: usize;

    /// The stack [`decode_cow`](CowUnmarshal::decode_cow) takes on the
    /// way to a deeper level, beyond the `Cow`'s own copies, as for
    /// `Unmarshal::__DECODE_STACK`. Not part of the public API.
    #[doc(hidden)]
    const __DECODE_STACK: usize = 0;

    /// Reads a value, borrowing from the input where possible.
    ///
    /// ```
    /// use marshal::Reader;
    /// use marshal::cow::CowUnmarshal;
    ///
    /// let mut r = Reader::new(&[1, 0, 0, 0, 0, 0, 0, 0, b'a']);
    /// assert_eq!(str::decode_cow(&mut r).unwrap(), "a");
    /// ```
    fn decode_cow<'a>(r: &mut Reader<'de>) -> Result<Cow<'a, Self>, DecodeError>
    where
        'de: 'a;
}
