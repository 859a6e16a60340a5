//! hashbrown's `HashMap` and `HashSet`, with any hasher (feature
//! `hashbrown`): hash maps and sets without `std`.

use ::hashbrown::{HashMap, HashSet};

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::impls::collections::{
    collection_len, decode_hash_map, decode_hash_set, encode_collection, encode_map,
    hash_map_unmarshal, hash_set_unmarshal, map_impls, map_len, set_impls,
};
use crate::impls::seq::LEN_PREFIX;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

map_impls! {
    /// A map, as hashbrown's `serde` support writes it and as for std's
    /// `HashMap`: a `u64` count, then each key and value in the map's
    /// iteration order. The same bytes, and the same fingerprint, as std's
    /// `HashMap` and `BTreeMap` holding the same entries in that order.
    ///
    /// ```
    /// use hashbrown::HashMap;
    /// use marshal::{Marshal, Unmarshal};
    /// use std::hash::{BuildHasherDefault, DefaultHasher};
    ///
    /// type Map<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;
    ///
    /// let mut stock: Map<&str, u32> = Map::default();
    /// stock.insert("pear", 3);
    /// let bytes = marshal::to_vec(&stock);
    /// assert_eq!(bytes, marshal::to_vec(&std::collections::BTreeMap::from([("pear", 3u32)])));
    /// let back: Map<&str, u32> = marshal::from_bytes(&bytes)?;
    /// assert_eq!(back, stock);
    /// assert_eq!(<Map<&str, u32>>::FINGERPRINT, <std::collections::HashMap<&str, u32>>::FINGERPRINT);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    [K: Marshal, V: Marshal, S] HashMap<K, V, S>;
}

set_impls! {
    /// A set, as hashbrown's `serde` support writes it and as for std's
    /// `HashSet`: a `u64` count, then the items in the set's iteration
    /// order.
    ///
    /// ```
    /// use hashbrown::HashSet;
    /// use std::hash::{BuildHasherDefault, DefaultHasher};
    ///
    /// let set: HashSet<u8, BuildHasherDefault<DefaultHasher>> = [7].into_iter().collect();
    /// let bytes = marshal::to_vec(&set);
    /// assert_eq!(bytes, [1, 0, 0, 0, 0, 0, 0, 0, 7]);
    /// assert_eq!(marshal::from_bytes::<HashSet<u8, BuildHasherDefault<DefaultHasher>>>(&bytes)?, set);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    [T: Marshal, S] HashSet<T, S>;
}

hash_map_unmarshal! {
    /// Decoded as std's `HashMap` is, by the same code: the length checked
    /// against the input first, one level of the depth limit, and under an
    /// allocation budget the table charged for every entry before it is made
    /// (hashbrown 0.17's table is the one std's `HashMap` uses). A repeated key
    /// keeps its last value, as hashbrown's `serde` support does.
    ///
    /// ```
    /// use hashbrown::HashMap;
    /// use marshal::DecodeErrorKind;
    /// use std::hash::{BuildHasherDefault, DefaultHasher};
    ///
    /// type Map = HashMap<u32, u32, BuildHasherDefault<DefaultHasher>>;
    ///
    /// let map: Map = (0..100).map(|i| (i, i)).collect();
    /// let bytes = marshal::to_vec(&map);
    /// assert!(marshal::from_bytes_limited::<Map>(&bytes, 4096).is_ok());
    /// let err = marshal::from_bytes_limited::<Map>(&bytes, 1024).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::AllocLimit { limit: 1024 }, 8));
    ///
    /// // A hostile length: more entries than the input has bytes.
    /// let err = marshal::from_bytes::<Map>(&u64::MAX.to_le_bytes()).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: u64::MAX });
    /// ```
    HashMap
}

hash_set_unmarshal! {
    /// As for `HashMap`; a repeated item keeps its first copy.
    ///
    /// ```
    /// use hashbrown::HashSet;
    /// use std::hash::{BuildHasherDefault, DefaultHasher};
    ///
    /// let bytes = marshal::to_vec(&vec![2u8, 1, 2]);
    /// let set: HashSet<u8, BuildHasherDefault<DefaultHasher>> = marshal::from_bytes(&bytes)?;
    /// assert_eq!(set.len(), 2);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    HashSet
}

// In every `Encoding`: as std's maps and sets.
crate::impls::dialect::hash_impls_in!(HashMap, HashSet);
