//! Strings, slices, arrays, tuples and `Option`.

use crate::error::{DecodeError, Overflow, StdEnum};
use crate::fingerprint as fp;
use crate::len::{add, mul, sum};
use crate::mem::Layout;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// Bytes in a length prefix.
pub(crate) const LEN_PREFIX: usize = 8;

/// A string is a `u64` byte count, then its UTF-8 bytes.
impl Marshal for str {
    const FINGERPRINT: u64 = fp::leaf("str");

    #[inline]
    fn encoded_len(&self) -> usize {
        // A `str` is at most `isize::MAX` bytes: this cannot wrap.
        LEN_PREFIX + self.len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_prefixed(self.as_bytes())
    }
}

/// Borrows the string's bytes from the input after checking they are UTF-8.
impl<'de: 'a, 'a> Unmarshal<'de> for &'a str {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        decode_str(r)
    }
}

/// Reads a length-prefixed UTF-8 string, borrowed from the input.
#[inline]
pub(crate) fn decode_str<'de>(r: &mut Reader<'de>) -> Result<&'de str, DecodeError> {
    let (window, len, at) = take_string(r)?;
    crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
}

/// Consumes a string's length prefix and bytes, and returns the input from
/// the string's start on (the string and whatever follows it: short strings
/// are checked and copied with loads that run past their end), its length
/// and its offset.
#[inline]
pub(crate) fn take_string<'de>(
    r: &mut Reader<'de>,
) -> Result<(&'de [u8], usize, usize), DecodeError> {
    let len = r.take_len(1)?;
    let at = r.position();
    let window = r.peek_rest();
    r.take(len)?;
    Ok((window, len, at))
}

/// Borrows the bytes from the input.
impl<'de: 'a, 'a> Unmarshal<'de> for &'a [u8] {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let len = r.take_len(1)?;
        r.take(len)
    }
}

/// Borrows the array from the input.
impl<'de: 'a, 'a, const N: usize> Unmarshal<'de> for &'a [u8; N] {
    const MIN_LEN: usize = N;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let bytes = r.take(N)?;
        // `take(N)` returned exactly N bytes.
        bytes
            .try_into()
            .map_err(|_| DecodeError::unexpected_end(N, at))
    }
}

/// A slice is a `u64` element count, then each element.
impl<T: Marshal> Marshal for [T] {
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        // Lengths saturate: elements filling `usize` stay `usize::MAX`.
        LEN_PREFIX.saturating_add(T::encoded_len_slice(self))
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_len(self.len())?;
        T::encode_slice(self, w)
    }
}

/// An array is its elements, with no length prefix.
impl<T: Marshal, const N: usize> Marshal for [T; N] {
    const FIXED_LEN: Option<usize> = mul(T::FIXED_LEN, N);
    const MAX_LEN: Option<usize> = mul(T::MAX_LEN, N);
    const FINGERPRINT: u64 = fp::mix(fp::mix(fp::leaf("array"), N as u64), T::FINGERPRINT);
    const __LAYOUT: Layout<Self> = Layout::array(T::__LAYOUT);

    #[inline]
    fn encoded_len(&self) -> usize {
        match Self::FIXED_LEN {
            Some(n) => n,
            None => T::encoded_len_slice(self),
        }
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        // Wire bytes that are the memory, of a length known at compile
        // time: a plain copy, which compiles to a few whole stores.
        if let Some(bytes) = crate::mem::memory_of(T::__LAYOUT, self.as_slice()) {
            return w.put_copy(bytes);
        }
        T::encode_slice(self, w)
    }
}

impl<'de, T: Unmarshal<'de>, const N: usize> Unmarshal<'de> for [T; N] {
    const MIN_LEN: usize = T::MIN_LEN.saturating_mul(N);
    const MIN_LEN_IS_EXACT: bool = N == 0 || T::MIN_LEN_IS_EXACT;
    const __LAYOUT: Layout<Self> = Layout::array(T::__LAYOUT);
    const __DECODE_STACK: usize = crate::nesting::array::<T, N>();

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        T::decode_array(r)
    }

    const __TRACES: bool = T::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut crate::trace::Trace) -> Result<(), DecodeError> {
        crate::trace::array::<T, N>(r, t)
    }
}

/// `None` is the byte 0; `Some(v)` is the byte 1, then `v`.
impl<T: Marshal> Marshal for Option<T> {
    const FIXED_LEN: Option<usize> = match T::FIXED_LEN {
        Some(0) => Some(1),
        _ => None,
    };
    const MAX_LEN: Option<usize> = add(Some(1), T::MAX_LEN);
    const FINGERPRINT: u64 = fp::mix(fp::leaf("option"), T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        match self {
            None => 1,
            Some(v) => v.encoded_len().saturating_add(1),
        }
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            None => w.put_u8(0),
            Some(v) => {
                let some = |w: &mut Writer<'_>| {
                    w.put_u8(1)?;
                    v.encode(w)
                };
                // A fixed-size value: one bounds check, tag included.
                match T::FIXED_LEN {
                    Some(n) => w.exact(n.saturating_add(1), some),
                    None => some(w),
                }
            }
        }
    }
}

impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for Option<T> {
    const MIN_LEN: usize = 1;
    const __DECODE_STACK: usize = crate::stack::fields(&[crate::nesting::field_of::<T>()]);

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        match r.take_u8()? {
            0 => Ok(None),
            1 => T::decode(r).map(Some),
            tag => Err(DecodeError::invalid_std_tag(
                tag.into(),
                StdEnum::Option,
                at,
            )),
        }
    }

    const __TRACES: bool = T::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut crate::trace::Trace) -> Result<(), DecodeError> {
        if r.peek_rest().first() == Some(&1) {
            r.take_u8()?;
            return T::__trace(r, t);
        }
        Self::decode(r).map(drop)
    }
}

/// A tuple is its elements in order.
macro_rules! tuple_impls {
    ($(($($name:ident . $idx:tt),+))*) => {$(
        impl<$($name: Marshal),+> Marshal for ($($name,)+) {
            const FIXED_LEN: Option<usize> = sum(&[$($name::FIXED_LEN),+]);
            const MAX_LEN: Option<usize> = sum(&[$($name::MAX_LEN),+]);
            const FINGERPRINT: u64 = fp::tuple(&[$($name::FINGERPRINT),+]);

            #[inline]
            fn encoded_len(&self) -> usize {
                match Self::FIXED_LEN {
                    Some(n) => n,
                    None => 0usize $(.saturating_add(self.$idx.encoded_len()))+,
                }
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                $(self.$idx.encode(w)?;)+
                Ok(())
            }
        }

        impl<'de, $($name: Unmarshal<'de>),+> Unmarshal<'de> for ($($name,)+) {
            const MIN_LEN: usize = 0usize $(.saturating_add($name::MIN_LEN))+;
            const MIN_LEN_IS_EXACT: bool = true $(&& $name::MIN_LEN_IS_EXACT)+;
            const __DECODE_STACK: usize =
                crate::stack::fields(&[$(crate::nesting::field_of::<$name>()),+]);

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                Ok(($($name::decode(r)?,)+))
            }

            const __TRACES: bool = false $(|| $name::__TRACES)+;

            fn __trace(r: &mut Reader<'de>, t: &mut crate::trace::Trace) -> Result<(), DecodeError> {
                $(t.element(&["tuple", stringify!($idx)], |t| $name::__trace(r, t))?;)+
                Ok(())
            }
        }
    )*};
}

tuple_impls! {
    (A.0)
    (A.0, B.1)
    (A.0, B.1, C.2)
    (A.0, B.1, C.2, D.3)
    (A.0, B.1, C.2, D.3, E.4)
    (A.0, B.1, C.2, D.3, E.4, F.5)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11, M.12)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11, M.12, N.13)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11, M.12, N.13, O.14)
    (A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11, M.12, N.13, O.14, P.15)
}
