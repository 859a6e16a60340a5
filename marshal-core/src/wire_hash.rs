//! The compile-time hash that wire fingerprints are folded with: FNV-1a
//! over the names of the wire grammar's leaves and the fingerprints of a
//! type's parts. [`fingerprint`](crate::fingerprint) re-exports it, beside
//! the `Fingerprinted` envelope; it lives apart from the envelope, which
//! encodes through the traits, so that the traits can name [`OPAQUE`], their
//! default, without the two depending on each other.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, continuing from `hash`.
const fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    hash
}

/// The fingerprint of a named leaf of the wire grammar.
#[doc(hidden)]
#[must_use]
pub const fn leaf(name: &str) -> u64 {
    fnv(FNV_OFFSET, name.as_bytes())
}

/// Folds `value` into `hash`.
#[doc(hidden)]
#[must_use]
pub const fn mix(hash: u64, value: u64) -> u64 {
    fnv(hash, &value.to_le_bytes())
}

/// A run of values written back to back: tuples, structs, a variant's
/// fields.
#[doc(hidden)]
#[must_use]
pub const fn tuple(parts: &[u64]) -> u64 {
    let mut hash = mix(leaf("tuple"), parts.len() as u64);
    let mut i = 0;
    while i < parts.len() {
        hash = mix(hash, parts[i]);
        i += 1;
    }
    hash
}

/// An enum: its tag width, then each variant's tag and fields.
#[doc(hidden)]
#[must_use]
pub const fn enumeration(tag_size: usize, variants: &[(u64, u64)]) -> u64 {
    let mut hash = mix(mix(leaf("enum"), tag_size as u64), variants.len() as u64);
    let mut i = 0;
    while i < variants.len() {
        hash = mix(mix(hash, variants[i].0), variants[i].1);
        i += 1;
    }
    hash
}

/// An enum, as [`enumeration`] folds it, from each variant's tag and its
/// fields' fingerprints: a derived enum's `FINGERPRINT`.
#[doc(hidden)]
#[must_use]
pub const fn variants(tag_size: usize, variants: &[(u64, &[u64])]) -> u64 {
    let mut hash = mix(mix(leaf("enum"), tag_size as u64), variants.len() as u64);
    let mut i = 0;
    while i < variants.len() {
        hash = mix(mix(hash, variants[i].0), tuple(variants[i].1));
        i += 1;
    }
    hash
}

/// An extensible type (a struct or an enum written with a body length)
/// whose version-1 shape is `inner`.
#[doc(hidden)]
#[must_use]
pub const fn extensible(inner: u64) -> u64 {
    mix(leaf("extensible"), inner)
}

/// A length-prefixed sequence of `item`.
#[doc(hidden)]
#[must_use]
pub const fn seq(item: u64) -> u64 {
    mix(leaf("seq"), item)
}

/// Stands for a field written by a `with` module, whatever the module and
/// however its path is spelled: what the module writes is unknown here.
#[doc(hidden)]
pub const WITH: u64 = fnv(FNV_OFFSET, b"with");

/// Stands for a field whose type contains the type being fingerprinted.
#[doc(hidden)]
pub const RECURSIVE: u64 = fnv(FNV_OFFSET, b"recursive");

/// The fingerprint of types whose implementation does not set one: the
/// default of [`Marshal::FINGERPRINT`](crate::Marshal::FINGERPRINT).
///
/// ```
/// use marshal::fingerprint::OPAQUE;
/// use marshal::{Marshal, Overflow, Writer};
///
/// /// A hand-written implementation that sets no fingerprint.
/// struct Zero;
/// impl Marshal for Zero {
///     fn encoded_len(&self) -> usize { 1 }
///     fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         w.put_array([0])
///     }
/// }
///
/// assert_eq!(Zero::FINGERPRINT, OPAQUE);
/// ```
pub const OPAQUE: u64 = fnv(FNV_OFFSET, b"opaque");
