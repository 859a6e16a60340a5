//! What marshal's integration tests (`tests/*.rs` in this package) share:
//!
//! - [`counting`]: a counting global allocator, for the tests that measure
//!   what encoding and decoding allocate;
//! - [`golden`]: the byte notation of WIRE_FORMAT.md's tables and the check
//!   of one table row;
//! - [`strategies`]: the proptest configuration and the value strategies
//!   several property suites draw from;
//! - [`fixtures`]: `with` modules and small types the suites encode;
//! - [`rng`]: a seeded generator for values that must not change between
//!   runs.
//!
//! The package publishes nothing: this library exists so that each test
//! binary does not carry its own copy of these.

pub mod counting;
pub mod fixtures;
pub mod golden;
pub mod rng;
pub mod strategies;
