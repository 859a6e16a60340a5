//! Compile-time layout facts: whether a type's wire bytes are exactly its
//! bytes in memory. The type lives in `bytes.rs`, beside the unsafe code
//! that relies on it.

pub use crate::bytes::Layout;
