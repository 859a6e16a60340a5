//! Owned strings, vectors, maps and sets (feature `alloc`; hash maps and sets
//! need `std`).

use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use super::nest_unless_fixed;
use super::seq::{LEN_PREFIX, take_string};
use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

impl Marshal for String {
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

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
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

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
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

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
    w.detached(|w| {
        for item in items {
            item.encode(w)?;
        }
        Ok(())
    })
}

/// Maps encode as a count, then key and value pairs in iteration order.
macro_rules! map_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            const FINGERPRINT: u64 = fp::mix(fp::mix(fp::leaf("map"), K::FINGERPRINT), V::FINGERPRINT);

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
                w.detached(|w| {
                    for (k, v) in self {
                        k.encode(w)?;
                        v.encode(w)?;
                    }
                    Ok(())
                })
            }
        }
    )*};
}

/// Sets encode as a count, then each item in iteration order.
macro_rules! set_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            // The same bytes as a sequence.
            const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

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

/// An owned string: one allocation of exactly its length.
impl<'de> Unmarshal<'de> for String {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let (window, len, at) = take_string(r)?;
        crate::mem::string_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
    }
}

impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for Vec<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            T::decode_vec(r, len)
        })
    }
}

impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for VecDeque<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Vec::<T>::decode(r).map(VecDeque::from)
    }
}

impl<'de, K: Unmarshal<'de> + Ord, V: Unmarshal<'de>> Unmarshal<'de> for BTreeMap<K, V> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<(K, V), _>(r, |r| {
            let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
            let mut map = BTreeMap::new();
            for _ in 0..len {
                let k = K::decode(r)?;
                map.insert(k, V::decode(r)?);
            }
            Ok(map)
        })
    }
}

impl<'de, T: Unmarshal<'de> + Ord> Unmarshal<'de> for BTreeSet<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            let mut set = BTreeSet::new();
            for _ in 0..len {
                set.insert(T::decode(r)?);
            }
            Ok(set)
        })
    }
}

#[cfg(feature = "std")]
impl<'de, K, V, S> Unmarshal<'de> for std::collections::HashMap<K, V, S>
where
    K: Unmarshal<'de> + Eq + core::hash::Hash,
    V: Unmarshal<'de>,
    S: core::hash::BuildHasher + Default,
{
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<(K, V), _>(r, |r| {
            let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
            let mut map =
                Self::with_capacity_and_hasher(table_capacity::<(K, V)>(r, len), S::default());
            for _ in 0..len {
                let k = K::decode(r)?;
                map.insert(k, V::decode(r)?);
            }
            Ok(map)
        })
    }
}

#[cfg(feature = "std")]
impl<'de, T, S> Unmarshal<'de> for std::collections::HashSet<T, S>
where
    T: Unmarshal<'de> + Eq + core::hash::Hash,
    S: core::hash::BuildHasher + Default,
{
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            let mut set = Self::with_capacity_and_hasher(table_capacity::<T>(r, len), S::default());
            for _ in 0..len {
                set.insert(T::decode(r)?);
            }
            Ok(set)
        })
    }
}

/// How many of `len` entries of type `E` a hash table should make room for
/// before decoding them, within the allowance of
/// [`Reader::capacity_for`]. A table takes more memory than its entries:
/// with std's load factor of 7/8 rounded up to a power of two, up to about
/// 2.3 slots per entry, and a control byte per slot plus one group of them.
/// So each entry is charged four times its size plus four bytes, and a
/// table is allocated up front only for four entries or more; that covers
/// the table's memory for every entry size.
#[cfg(feature = "std")]
#[inline]
fn table_capacity<E>(r: &mut Reader<'_>, len: usize) -> usize {
    r.capacity_by_size(len, 4 * (core::mem::size_of::<E>() + 1), 4)
}
