//! indexmap's `IndexMap` and `IndexSet`, with any hasher (feature
//! `indexmap`).

use core::alloc::Layout;
use core::hash::{BuildHasher, Hash};

use ::indexmap::{IndexMap, IndexSet};

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::impls::collections::table_bytes;
use crate::impls::nest_unless_fixed;
use crate::reader::Reader;
use crate::stack::Container;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// A map, as indexmap's `serde` support writes it and as for `BTreeMap`: a
/// `u64` count, then each key and value in the map's order, so the bytes
/// keep the insertion order and reading them back restores it.
///
/// ```
/// use indexmap::IndexMap;
/// use marshal::{Marshal, Unmarshal};
///
/// let mut prices = IndexMap::new();
/// prices.insert("pear", 3u32);
/// prices.insert("apple", 2);
/// let bytes = marshal::to_vec(&prices);
/// let back: IndexMap<&str, u32> = marshal::from_bytes(&bytes)?;
/// assert_eq!(back.keys().copied().collect::<Vec<_>>(), ["pear", "apple"]);
/// assert_eq!(<IndexMap<&str, u32>>::FINGERPRINT, <std::collections::BTreeMap<&str, u32>>::FINGERPRINT);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<K: Marshal, V: Marshal, S> Marshal for IndexMap<K, V, S> {
    const FINGERPRINT: u64 = fp::mix(fp::mix(fp::leaf("map"), K::FINGERPRINT), V::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        8usize.saturating_add(match (K::FIXED_LEN, V::FIXED_LEN) {
            (Some(k), Some(v)) => k.saturating_add(v).saturating_mul(self.len()),
            _ => self.iter().fold(0, |sum, (k, v)| {
                sum.saturating_add(k.encoded_len())
                    .saturating_add(v.encoded_len())
            }),
        })
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

/// A set, as indexmap's `serde` support writes it: a `u64` count, then the
/// items in the set's order.
///
/// ```
/// use indexmap::IndexSet;
///
/// let set: IndexSet<u8> = [3, 1, 2].into_iter().collect();
/// let bytes = marshal::to_vec(&set);
/// assert_eq!(bytes, [3, 0, 0, 0, 0, 0, 0, 0, 3, 1, 2]);
/// assert_eq!(marshal::from_bytes::<IndexSet<u8>>(&bytes)?, set);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<T: Marshal, S> Marshal for IndexSet<T, S> {
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        8usize.saturating_add(match T::FIXED_LEN {
            Some(n) => n.saturating_mul(self.len()),
            None => self
                .iter()
                .fold(0, |sum, item| sum.saturating_add(item.encoded_len())),
        })
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_len(self.len())?;
        for item in self {
            item.encode(w)?;
        }
        Ok(())
    }
}

/// The size of one of indexmap's entries holding an `E` (a key and a
/// value, or an item): the entry and its `usize` hash, laid out as a
/// `repr(C)` struct, which is at least their size in any order.
const fn entry_size<E>() -> usize {
    match Layout::new::<usize>().extend(Layout::new::<E>()) {
        Ok((entry, _)) => entry.pad_to_align().size(),
        Err(_) => usize::MAX,
    }
}

/// How many of `len` entries holding an `E` an index map or set should
/// make room for before decoding them. It holds them twice: in a vector of
/// entries, and in a hash table of their indices. Under an allocation
/// budget it is all of them, charged for both; without, what
/// [`Reader::capacity_for`] allows, charging each entry its size and four
/// table slots, and only for four entries or more.
#[inline]
fn capacity<E>(r: &mut Reader<'_>, len: usize) -> Result<usize, DecodeError> {
    if r.has_budget() {
        let entries = len.saturating_mul(entry_size::<E>());
        r.charge_alloc(entries.saturating_add(table_bytes::<usize>(len)))?;
        return Ok(len);
    }
    let slots = 4 * (core::mem::size_of::<usize>() + 1);
    Ok(r.capacity_by_size(len, entry_size::<E>().saturating_add(slots), 4))
}

/// Decoded as a `HashMap` is: the length checked against the input first,
/// one level of the depth limit, and under an allocation budget both of the
/// map's allocations charged for every entry before they are made. A
/// repeated key keeps its first place and its last value, as indexmap's
/// `serde` support does.
///
/// ```
/// use indexmap::IndexMap;
/// use marshal::DecodeErrorKind;
///
/// let map: IndexMap<u32, u32> = (0..100).map(|i| (i, i)).collect();
/// let bytes = marshal::to_vec(&map);
/// assert!(marshal::from_bytes_limited::<IndexMap<u32, u32>>(&bytes, 8192).is_ok());
/// let err = marshal::from_bytes_limited::<IndexMap<u32, u32>>(&bytes, 1024).unwrap_err();
/// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::AllocLimit { limit: 1024 }, 8));
/// ```
impl<'de, K, V, S> Unmarshal<'de> for IndexMap<K, V, S>
where
    K: Unmarshal<'de> + Hash + Eq,
    V: Unmarshal<'de>,
    S: BuildHasher + Default,
{
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<(K, V), _>(r, const { Container::MAP.levels_of_entry::<K, V>() }, |r| {
            let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
            let mut map =
                IndexMap::with_capacity_and_hasher(capacity::<(K, V)>(r, len)?, S::default());
            for _ in 0..len {
                let k = K::decode(r)?;
                map.insert(k, V::decode(r)?);
            }
            Ok(map)
        })
    }
}

/// As for `IndexMap`; a repeated item keeps its first place.
///
/// ```
/// use indexmap::IndexSet;
///
/// let bytes = marshal::to_vec(&vec![2u8, 1, 2]);
/// let set: IndexSet<u8> = marshal::from_bytes(&bytes)?;
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), [2, 1]);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de, T, S> Unmarshal<'de> for IndexSet<T, S>
where
    T: Unmarshal<'de> + Hash + Eq,
    S: BuildHasher + Default,
{
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            let mut set = IndexSet::with_capacity_and_hasher(capacity::<T>(r, len)?, S::default());
            for _ in 0..len {
                set.insert(T::decode(r)?);
            }
            Ok(set)
        })
    }
}

/// In every `Encoding`: the length, then the entries in the configuration,
/// decoded and charged as above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, UnmarshalIn};
    use crate::impls::dialect::take_len;

    crate::impls::dialect::collection_in!(IndexMap<K, V; S>, IndexSet<T; S>);

    impl<'de, E, I, K, V, S> UnmarshalIn<'de, Encoding<E, I>> for IndexMap<K, V, S>
    where
        E: Endian,
        I: IntEncoding,
        K: UnmarshalIn<'de, Encoding<E, I>> + Hash + Eq,
        V: UnmarshalIn<'de, Encoding<E, I>>,
        S: BuildHasher + Default,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.nest_levels(const { Container::MAP.levels_of_value::<(K, V)>() }, |r| {
                let len = take_len::<E, I>(r, K::MIN_LEN_IN.saturating_add(V::MIN_LEN_IN))?;
                let mut map =
                    IndexMap::with_capacity_and_hasher(capacity::<(K, V)>(r, len)?, S::default());
                for _ in 0..len {
                    let k = K::decode_in(r)?;
                    map.insert(k, V::decode_in(r)?);
                }
                Ok(map)
            })
        }
    }

    impl<'de, E, I, T, S> UnmarshalIn<'de, Encoding<E, I>> for IndexSet<T, S>
    where
        E: Endian,
        I: IntEncoding,
        T: UnmarshalIn<'de, Encoding<E, I>> + Hash + Eq,
        S: BuildHasher + Default,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.nest_levels(const { Container::SEQUENCE.levels_of_value::<T>() }, |r| {
                let len = take_len::<E, I>(r, T::MIN_LEN_IN)?;
                let mut set =
                    IndexSet::with_capacity_and_hasher(capacity::<T>(r, len)?, S::default());
                for _ in 0..len {
                    set.insert(T::decode_in(r)?);
                }
                Ok(set)
            })
        }
    }
}
