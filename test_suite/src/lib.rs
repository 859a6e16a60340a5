//! What marshal's integration tests (`tests/*.rs` in this package) share:
//!
//! - [`counting`]: a counting global allocator, for the tests that measure
//!   what encoding and decoding allocate;
//! - [`budget`]: the least allocation budget a decode succeeds under;
//! - [`golden`]: the byte notation of WIRE_FORMAT.md's tables and the check
//!   of one table row;
//! - [`strategies`]: the proptest configuration and the value strategies
//!   several property suites draw from;
//! - [`fixtures`]: `with` modules and small types the suites encode;
//! - [`checks`]: checks of decoding: the error both entry points report,
//!   and whether a decoded value borrows from its input;
//! - [`damage`]: damaged copies of encodings, and the check that marshal
//!   and bincode read bytes alike;
//! - [`dialects`]: the other configurations' dialects, and what a type
//!   with bytes in each of them implements;
//! - [`stack_probe`]: a value whose decoder records how deep the stack is,
//!   and decoding on a thread of a given stack size;
//! - [`rng`]: a seeded generator for values that must not change between
//!   runs;
//! - [`properties!`]: one property test per row of a table of types, all
//!   through the same check.
//!
//! The package publishes nothing: this library exists so that each test
//! binary does not carry its own copy of these.

pub mod budget;
pub mod checks;
pub mod counting;
pub mod damage;
pub mod dialects;
pub mod fixtures;
pub mod golden;
pub mod rng;
pub mod stack_probe;
pub mod strategies;

#[doc(hidden)]
pub use proptest as __proptest;

/// One proptest test per row of a table, each passing the generated value
/// to the same check.
///
/// The first line binds the check: `check = |value| expression;`, where the
/// expression has type `Result<(), TestCaseError>` and sees `value` as a
/// reference to the row's value. Each row then reads `name: Type;` (values
/// from `any::<Type>()`) or `name: Type = strategy;`, and becomes the test
/// `name`. The tests run with [`strategies::config`] unless a
/// `config = expression;` line comes first.
///
/// The check is expanded into every test on its own, so a `static` declared
/// in it is one per test: `tests/props.rs` counts the values each test has
/// seen that way. `tests/decode_roundtrip.rs`, `tests/props.rs` and
/// `tests/bincode_compat.rs` show every form. (There is no runnable example
/// here: the tests it defines exist only in test builds, and a doc test is
/// not one.)
#[macro_export]
macro_rules! properties {
    (
        check = |$value:ident| $check:expr;
        $($rows:tt)*
    ) => {
        $crate::properties! {
            config = $crate::strategies::config();
            check = |$value| $check;
            $($rows)*
        }
    };
    (
        config = $config:expr;
        check = |$value:ident| $check:expr;
        $($name:ident: $ty:ty $(= $strategy:expr)?;)*
    ) => {
        $crate::__proptest::proptest! {
            #![proptest_config($config)]
            $(
                #[test]
                // A row's type is spelled out once, however long it is.
                #[allow(clippy::type_complexity)]
                fn $name(generated in $crate::__strategy!($ty $(, $strategy)?)) {
                    let generated: $ty = generated;
                    let $value = &generated;
                    $check?;
                }
            )*
        }
    };
}

/// The strategy of a [`properties!`] row: the one it names, or
/// `any::<Type>()`.
#[doc(hidden)]
#[macro_export]
macro_rules! __strategy {
    ($ty:ty) => {
        $crate::__proptest::prelude::any::<$ty>()
    };
    ($ty:ty, $strategy:expr) => {
        $strategy
    };
}
