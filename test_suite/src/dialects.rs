//! The configurations' dialects other than `legacy()`'s, by name, and
//! [`InEvery`]: what a type with bytes in each of them implements.
//!
//! ```
//! use marshal_test_suite::dialects::InEvery;
//!
//! fn in_every<T: InEvery>() {}
//! in_every::<(u32, String)>();
//! ```

use marshal::config::{BigEndian, Encoding, Fixint, LittleEndian, MarshalIn, UnmarshalIn, Varint};

/// `config::standard()`'s dialect.
pub type Standard = Encoding<LittleEndian, Varint>;
/// `config::standard().with_big_endian()`'s dialect.
pub type StandardBig = Encoding<BigEndian, Varint>;
/// `config::legacy().with_big_endian()`'s dialect.
pub type LegacyBig = Encoding<BigEndian, Fixint>;

/// A type that encodes and decodes in every configuration but
/// `legacy()`.
pub trait InEvery:
    MarshalIn<Standard>
    + for<'de> UnmarshalIn<'de, Standard>
    + MarshalIn<StandardBig>
    + for<'de> UnmarshalIn<'de, StandardBig>
    + MarshalIn<LegacyBig>
    + for<'de> UnmarshalIn<'de, LegacyBig>
{
}

impl<T> InEvery for T where
    T: MarshalIn<Standard>
        + for<'de> UnmarshalIn<'de, Standard>
        + MarshalIn<StandardBig>
        + for<'de> UnmarshalIn<'de, StandardBig>
        + MarshalIn<LegacyBig>
        + for<'de> UnmarshalIn<'de, LegacyBig>
{
}
