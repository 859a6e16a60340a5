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
use crate::stack::Container;
use crate::trace::Trace;
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
        LEN_PREFIX
            .saturating_add(T::encoded_len_slice(a))
            .saturating_add(T::encoded_len_slice(b))
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
pub(crate) fn collection_len<'a, I, T>(len: usize, items: I) -> usize
where
    I: Iterator<Item = &'a T>,
    T: Marshal + ?Sized + 'a,
{
    LEN_PREFIX.saturating_add(match T::FIXED_LEN {
        Some(n) => n.saturating_mul(len),
        None => items.fold(0, |sum, item| sum.saturating_add(item.encoded_len())),
    })
}

/// Encodes a `u64` count, then each item in iteration order.
#[inline]
pub(crate) fn encode_collection<'a, I, T>(
    len: usize,
    items: I,
    w: &mut Writer<'_>,
) -> Result<(), Overflow>
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

/// The encoded length of a map: the prefix, then each key and value, using
/// their fixed lengths when they have them.
#[inline]
pub(crate) fn map_len<'a, I, K, V>(len: usize, entries: I) -> usize
where
    I: Iterator<Item = (&'a K, &'a V)>,
    K: Marshal + 'a,
    V: Marshal + 'a,
{
    LEN_PREFIX.saturating_add(match (K::FIXED_LEN, V::FIXED_LEN) {
        (Some(k), Some(v)) => k.saturating_add(v).saturating_mul(len),
        _ => entries.fold(0, |sum, (k, v)| {
            sum.saturating_add(k.encoded_len())
                .saturating_add(v.encoded_len())
        }),
    })
}

/// Encodes a `u64` count, then each key and value in iteration order.
#[inline]
pub(crate) fn encode_map<'a, I, K, V>(
    len: usize,
    entries: I,
    w: &mut Writer<'_>,
) -> Result<(), Overflow>
where
    I: Iterator<Item = (&'a K, &'a V)>,
    K: Marshal + 'a,
    V: Marshal + 'a,
{
    w.put_len(len)?;
    w.detached(|w| {
        for (k, v) in entries {
            k.encode(w)?;
            v.encode(w)?;
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
                map_len(self.len(), self.iter())
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                encode_map(self.len(), self.iter(), w)
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

// For other crates' maps and sets too (`foreign`).
#[cfg(feature = "hashbrown")]
pub(crate) use {map_impls, set_impls};

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
        // `string_at_start` gives a string of 1 to 16 bytes a capacity of 16.
        let capacity = if len == 0 { 0 } else { len.max(16) };
        r.charge_at(capacity, at)?;
        crate::mem::string_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))
    }
}

impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for Vec<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            T::decode_vec(r, len)
        })
    }

    const __TRACES: bool = T::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut Trace) -> Result<(), DecodeError> {
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            crate::trace::items::<T>(r, t, len)
        })
    }
}

impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for VecDeque<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Vec::<T>::decode(r).map(VecDeque::from)
    }

    const __TRACES: bool = T::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut Trace) -> Result<(), DecodeError> {
        Vec::<T>::__trace(r, t)
    }
}

impl<'de, K: Unmarshal<'de> + Ord, V: Unmarshal<'de>> Unmarshal<'de> for BTreeMap<K, V> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<(K, V), _>(r, const { Container::MAP.levels_of_entry::<K, V>() }, |r| {
            let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
            let mut map = BTreeMap::new();
            for i in 0..len {
                r.charge_alloc(Tree::<K, V>::entry_charge(i))?;
                let k = K::decode(r)?;
                map.insert(k, V::decode(r)?);
            }
            Ok(map)
        })
    }

    const __TRACES: bool = K::__TRACES || V::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut Trace) -> Result<(), DecodeError> {
        nest_unless_fixed::<(K, V), _>(r, const { Container::MAP.levels_of_entry::<K, V>() }, |r| {
            let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
            (0..len).try_for_each(|i| {
                r.charge_alloc(Tree::<K, V>::entry_charge(i))?;
                t.index(i, |t| entry::<K, V>(r, t))
            })
        })
    }
}

impl<'de, T: Unmarshal<'de> + Ord> Unmarshal<'de> for BTreeSet<T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            let mut set = BTreeSet::new();
            for i in 0..len {
                r.charge_alloc(Tree::<T, ()>::entry_charge(i))?;
                set.insert(T::decode(r)?);
            }
            Ok(set)
        })
    }

    const __TRACES: bool = T::__TRACES;

    fn __trace(r: &mut Reader<'de>, t: &mut Trace) -> Result<(), DecodeError> {
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            (0..len).try_for_each(|i| {
                r.charge_alloc(Tree::<T, ()>::entry_charge(i))?;
                t.index(i, |t| T::__trace(r, t))
            })
        })
    }
}

/// A hash map's `Unmarshal` (std's, hashbrown's): [`decode_hash_map`] into
/// a table made `with_capacity_and_hasher`, each entry inserted.
macro_rules! hash_map_unmarshal {
    ($(#[$attr:meta])* $($map:ident)::+) => {
        $(#[$attr])*
        impl<'de, K, V, S> Unmarshal<'de> for $($map)::+<K, V, S>
        where
            K: Unmarshal<'de> + Eq + core::hash::Hash,
            V: Unmarshal<'de>,
            S: core::hash::BuildHasher + Default,
        {
            const MIN_LEN: usize = LEN_PREFIX;

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                decode_hash_map(
                    r,
                    |capacity| Self::with_capacity_and_hasher(capacity, S::default()),
                    |map, k, v| {
                        map.insert(k, v);
                    },
                )
            }

            const __TRACES: bool = K::__TRACES || V::__TRACES;

            fn __trace(
                r: &mut Reader<'de>,
                t: &mut $crate::trace::Trace,
            ) -> Result<(), DecodeError> {
                $crate::impls::collections::trace_hash_map::<K, V>(r, t)
            }
        }
    };
}

/// A hash set's `Unmarshal` (std's, hashbrown's): [`decode_hash_set`] into
/// a table made `with_capacity_and_hasher`, each item inserted.
macro_rules! hash_set_unmarshal {
    ($(#[$attr:meta])* $($set:ident)::+) => {
        $(#[$attr])*
        impl<'de, T, S> Unmarshal<'de> for $($set)::+<T, S>
        where
            T: Unmarshal<'de> + Eq + core::hash::Hash,
            S: core::hash::BuildHasher + Default,
        {
            const MIN_LEN: usize = LEN_PREFIX;

            #[inline]
            fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                decode_hash_set(
                    r,
                    |capacity| Self::with_capacity_and_hasher(capacity, S::default()),
                    |set, item| {
                        set.insert(item);
                    },
                )
            }

            const __TRACES: bool = T::__TRACES;

            fn __trace(
                r: &mut Reader<'de>,
                t: &mut $crate::trace::Trace,
            ) -> Result<(), DecodeError> {
                $crate::impls::collections::trace_hash_set::<T>(r, t)
            }
        }
    };
}

// For hashbrown's maps and sets too (`foreign`).
#[cfg(feature = "hashbrown")]
pub(crate) use {hash_map_unmarshal, hash_set_unmarshal};

hash_map_unmarshal! {
    #[cfg(feature = "std")]
    std::collections::HashMap
}

hash_set_unmarshal! {
    #[cfg(feature = "std")]
    std::collections::HashSet
}

/// Decodes a hash map (std's, or hashbrown's): the length checked against
/// the input first, one level of the depth limit, a table made by
/// `with_capacity` for as many entries as [`table_capacity`] allows, then
/// each key and value, passed to `insert` in order.
#[cfg(any(feature = "std", feature = "hashbrown"))]
#[inline]
pub(crate) fn decode_hash_map<'de, K, V, M>(
    r: &mut Reader<'de>,
    with_capacity: impl FnOnce(usize) -> M,
    mut insert: impl FnMut(&mut M, K, V),
) -> Result<M, DecodeError>
where
    K: Unmarshal<'de>,
    V: Unmarshal<'de>,
{
    nest_unless_fixed::<(K, V), _>(r, const { Container::MAP.levels_of_entry::<K, V>() }, |r| {
        let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
        let mut map = with_capacity(table_capacity::<(K, V)>(r, len)?);
        for _ in 0..len {
            let k = K::decode(r)?;
            insert(&mut map, k, V::decode(r)?);
        }
        Ok(map)
    })
}

/// The trace of a hash map (std's, or hashbrown's), read as
/// [`decode_hash_map`] reads it.
#[cfg(any(feature = "std", feature = "hashbrown"))]
pub(crate) fn trace_hash_map<'de, K, V>(
    r: &mut Reader<'de>,
    t: &mut Trace,
) -> Result<(), DecodeError>
where
    K: Unmarshal<'de>,
    V: Unmarshal<'de>,
{
    nest_unless_fixed::<(K, V), _>(r, const { Container::MAP.levels_of_entry::<K, V>() }, |r| {
        let len = r.take_len(K::MIN_LEN.saturating_add(V::MIN_LEN))?;
        table_capacity::<(K, V)>(r, len)?;
        (0..len).try_for_each(|i| t.index(i, |t| entry::<K, V>(r, t)))
    })
}

/// The trace of a map's entry: its key, then its value.
fn entry<'de, K: Unmarshal<'de>, V: Unmarshal<'de>>(
    r: &mut Reader<'de>,
    t: &mut Trace,
) -> Result<(), DecodeError> {
    K::__trace(r, t)?;
    V::__trace(r, t)
}

/// Decodes a hash set (std's, or hashbrown's), as [`decode_hash_map`] does
/// a map.
#[cfg(any(feature = "std", feature = "hashbrown"))]
#[inline]
pub(crate) fn decode_hash_set<'de, T, M>(
    r: &mut Reader<'de>,
    with_capacity: impl FnOnce(usize) -> M,
    mut insert: impl FnMut(&mut M, T),
) -> Result<M, DecodeError>
where
    T: Unmarshal<'de>,
{
    nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
        let len = r.take_len(T::MIN_LEN)?;
        let mut set = with_capacity(table_capacity::<T>(r, len)?);
        for _ in 0..len {
            insert(&mut set, T::decode(r)?);
        }
        Ok(set)
    })
}

/// The trace of a hash set (std's, or hashbrown's), read as
/// [`decode_hash_set`] reads it.
#[cfg(any(feature = "std", feature = "hashbrown"))]
pub(crate) fn trace_hash_set<'de, T: Unmarshal<'de>>(
    r: &mut Reader<'de>,
    t: &mut Trace,
) -> Result<(), DecodeError> {
    nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
        let len = r.take_len(T::MIN_LEN)?;
        table_capacity::<T>(r, len)?;
        (0..len).try_for_each(|i| t.index(i, |t| T::__trace(r, t)))
    })
}

/// How many of `len` entries of type `E` a hash table should make room for
/// before decoding them, within the allowance of
/// [`Reader::capacity_for`]. A table takes more memory than its entries:
/// with std's load factor of 7/8 rounded up to a power of two, up to about
/// 2.3 slots per entry, and a control byte per slot plus one group of them.
/// So each entry is charged four times its size plus four bytes, and a
/// table is allocated up front only for four entries or more; that covers
/// the table's memory for every entry size.
///
/// Under an allocation budget the table is made for all `len` entries at
/// once, so it never grows, and charged [`table_bytes`] for them.
#[cfg(any(feature = "std", feature = "hashbrown"))]
#[inline]
pub(crate) fn table_capacity<E>(r: &mut Reader<'_>, len: usize) -> Result<usize, DecodeError> {
    if r.has_budget() {
        r.charge_alloc(table_bytes::<E>(len))?;
        return Ok(len);
    }
    Ok(r.capacity_by_size(len, 4 * (core::mem::size_of::<E>() + 1), 4))
}

/// At least what std's hash table (hashbrown) asks the allocator for to
/// hold `len` entries of type `E`: its buckets, a power of two with at
/// least one in eight left empty (and at most 16 for fewer than 15
/// entries, whatever the version's rule for small tables), padded to the
/// alignment of the control bytes (16, or `E`'s if larger), then a control
/// byte per bucket and a group of 16 more. An empty table allocates
/// nothing. (indexmap's index table is such a table of `usize`s; hashbrown
/// 0.17's `HashMap` is the same table.)
#[cfg(any(feature = "std", feature = "indexmap", feature = "hashbrown"))]
pub(crate) fn table_bytes<E>(len: usize) -> usize {
    let size = core::mem::size_of::<E>();
    let buckets = match len {
        0 => return 0,
        1..4 if size >= 4 => 4,
        4..8 if size >= 4 => 8,
        1..15 => 16,
        _ => match len
            .checked_mul(8)
            .and_then(|n| (n / 7).checked_next_power_of_two())
        {
            Some(buckets) => buckets,
            None => return usize::MAX,
        },
    };
    const GROUP: usize = 16;
    let align = core::mem::align_of::<E>().max(GROUP);
    buckets
        .checked_mul(size)
        .and_then(|entries| entries.checked_next_multiple_of(align))
        .and_then(|entries| entries.checked_add(buckets + GROUP))
        .unwrap_or(usize::MAX)
}

/// What decoding a `BTreeMap<K, V>` is charged against an allocation
/// budget, entry by entry before each entry decodes (a `BTreeSet<K>` is a
/// map with zero-sized values): never less than std's B-tree has asked the
/// allocator for once the entry is in.
///
/// Its nodes hold up to 11 entries: a leaf is a parent pointer, two
/// `u16`s and 11 keys and values, an internal node a leaf and 12 child
/// pointers ([`Tree::LEAF`] and [`Tree::INTERNAL`] are at least their
/// sizes). Insertion never frees a node and splits a full one so that both
/// halves keep at least 5 entries, so every node but the root holds 5 or
/// more. With `k` entries in, a tree of one leaf has no internal node, and
/// one of `l >= 2` leaves holds at least `5l` entries in them and exactly
/// `l - 1` in its internal nodes, so `l <= (k + 1) / 6`, and has at most
/// `(l - 2) / 5 + 1` internal nodes, which is at most `(k - 1) / 30 + 1`.
/// Charging the first entry a leaf, the twelfth an internal node as well
/// (the first split), and every entry after the first a sixth of a leaf and
/// a thirtieth of an internal node covers both counts.
struct Tree<K, V>(core::marker::PhantomData<(K, V)>);

/// What the `i`th entry of a `BTreeMap<K, V>` (a `BTreeSet<K>` with `V =
/// ()`) is charged against the allocation budget.
#[inline]
pub(crate) const fn tree_entry_charge<K, V>(i: usize) -> usize {
    Tree::<K, V>::entry_charge(i)
}

impl<K, V> Tree<K, V> {
    /// At least the size of a leaf node.
    const LEAF: usize = node_size(&[
        Ok(core::alloc::Layout::new::<usize>()),
        Ok(core::alloc::Layout::new::<[u16; 2]>()),
        core::alloc::Layout::array::<K>(11),
        core::alloc::Layout::array::<V>(11),
    ]);

    /// At least the size of an internal node: a leaf and 12 edges.
    const INTERNAL: usize = node_size(&[
        Ok(core::alloc::Layout::new::<usize>()),
        Ok(core::alloc::Layout::new::<[u16; 2]>()),
        core::alloc::Layout::array::<K>(11),
        core::alloc::Layout::array::<V>(11),
        core::alloc::Layout::array::<usize>(12),
    ]);

    /// What the `i`th entry (from 0) is charged.
    #[inline]
    const fn entry_charge(i: usize) -> usize {
        match i {
            0 => Self::LEAF,
            _ => {
                let each = Self::LEAF
                    .div_ceil(6)
                    .saturating_add(Self::INTERNAL.div_ceil(30));
                if i == 11 {
                    each.saturating_add(Self::INTERNAL)
                } else {
                    each
                }
            }
        }
    }
}

/// The size of a `repr(C)` struct of `fields` in this order: at least that
/// of a struct of them in whatever order the compiler picks, which sorts
/// them to waste the least padding; `usize::MAX` if it would be too large.
const fn node_size(fields: &[Result<core::alloc::Layout, core::alloc::LayoutError>]) -> usize {
    let mut layout = core::alloc::Layout::new::<()>();
    let mut i = 0;
    while i < fields.len() {
        layout = match &fields[i] {
            Ok(field) => match layout.extend(*field) {
                Ok((extended, _)) => extended,
                Err(_) => return usize::MAX,
            },
            Err(_) => return usize::MAX,
        };
        i += 1;
    }
    layout.pad_to_align().size()
}
