//! Owned strings, vectors, maps and sets (feature `alloc`; hash maps and sets
//! need `std`).

use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use super::seq::LEN_PREFIX;
use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

impl Marshal for String {
    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_str().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_str().encode(w)
    }
}

impl<T: Marshal> Marshal for Vec<T> {
    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_slice().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_slice().encode(w)
    }
}

impl<T: Marshal> Marshal for VecDeque<T> {
    #[inline]
    fn encoded_len(&self) -> usize {
        let (a, b) = self.as_slices();
        LEN_PREFIX + T::encoded_len_slice(a) + T::encoded_len_slice(b)
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        let (a, b) = self.as_slices();
        w.put_len(self.len())?;
        T::encode_slice(a, w)?;
        T::encode_slice(b, w)
    }
}

/// The encoded length of a collection: the prefix, then each item, using the
/// item's fixed length when it has one.
#[inline]
fn collection_len<'a, I, T>(len: usize, items: I) -> usize
where
    I: Iterator<Item = &'a T>,
    T: Marshal + ?Sized + 'a,
{
    LEN_PREFIX
        + match T::FIXED_LEN {
            Some(n) => n.saturating_mul(len),
            None => items.map(T::encoded_len).sum(),
        }
}

/// Encodes a `u64` count, then each item in iteration order.
#[inline]
fn encode_collection<'a, I, T>(len: usize, items: I, w: &mut Writer<'_>) -> Result<(), Overflow>
where
    I: Iterator<Item = &'a T>,
    T: Marshal + ?Sized + 'a,
{
    w.put_len(len)?;
    for item in items {
        item.encode(w)?;
    }
    Ok(())
}

/// Maps encode as a count, then key and value pairs in iteration order.
macro_rules! map_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            #[inline]
            fn encoded_len(&self) -> usize {
                LEN_PREFIX
                    + match (K::FIXED_LEN, V::FIXED_LEN) {
                        (Some(k), Some(v)) => k.saturating_add(v).saturating_mul(self.len()),
                        _ => self.iter().map(|(k, v)| k.encoded_len() + v.encoded_len()).sum(),
                    }
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                w.put_len(self.len())?;
                for (k, v) in self {
                    k.encode(w)?;
                    v.encode(w)?;
                }
                Ok(())
            }
        }
    )*};
}

/// Sets encode as a count, then each item in iteration order.
macro_rules! set_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            #[inline]
            fn encoded_len(&self) -> usize {
                collection_len(self.len(), self.iter())
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                encode_collection(self.len(), self.iter(), w)
            }
        }
    )*};
}

map_impls! {
    [K: Marshal, V: Marshal] BTreeMap<K, V>;
    #[cfg(feature = "std")]
    [K: Marshal, V: Marshal, S] std::collections::HashMap<K, V, S>;
}

set_impls! {
    [T: Marshal] BTreeSet<T>;
    #[cfg(feature = "std")]
    [T: Marshal, S] std::collections::HashSet<T, S>;
}
