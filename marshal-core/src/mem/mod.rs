//! The crate's only `unsafe` code, behind this one module boundary (the
//! crate root denies `unsafe_code` and allows it here alone). A leaf: it
//! uses nothing of the crate but its error types, and the layers above
//! (`Writer`, the traits, the output targets) are built on it. Each file
//! does one job:
//!
//! - [`cursor`]: the writer cursor, the storage behind `Writer`: writing
//!   into memory that may be uninitialized, and handing back the part that
//!   was written;
//! - [`copy`]: the inline copy of short runs of bytes that the cursor and
//!   string construction share, and the plain copy into uninitialized
//!   bytes under it;
//! - [`target`]: the output-target glue: a cursor over a `Vec`'s spare
//!   capacity, a `BufMut` chunk or an arena block, and committing what it
//!   wrote;
//! - [`place`]: values built in place: a [`Place`] for one value (a stack
//!   slot, a `Vec`'s next slot, a `Box`'s allocation, a field of a struct
//!   being built), and the [`Built`] that proves it was written;
//! - [`slots`]: values written in place: a `Vec`'s spare capacity handed
//!   out as runs that parallel tasks fill, committed once all are full;
//! - [`layout`]: memcpy layouts ([`Layout`]) and the bulk copies of runs of
//!   values that trust them, each given the layout it trusts;
//! - [`utf8`]: the UTF-8 fast paths, borrowing a `&str` from the input and
//!   building a `String` without validating twice;
//! - [`arena`]: bumpalo's `String` and `Box` built in an arena, an error
//!   rather than a panic when it cannot allocate;
//! - [`adapted`]: `As<A, T>`, a `T` seen, borrowed, as the adapter `A`
//!   writes it.
//!
//! Everything this module exports is safe to call from any code, with any
//! arguments, apart from [`Layout::structure`] and [`all_fields`], `unsafe
//! fn`s whose contracts the derive meets by construction. See
//! `POLICIES.md` for the rules every `unsafe` block follows.

mod adapted;
#[cfg(feature = "bumpalo")]
mod arena;
mod copy;
mod cursor;
mod layout;
mod place;
#[cfg(feature = "alloc")]
mod slots;
mod target;
mod utf8;

pub use adapted::As;
#[cfg(feature = "bumpalo")]
pub(crate) use arena::{box_with, string_in};
pub(crate) use cursor::Cursor;
pub use layout::Layout;
pub(crate) use layout::Primitive;
#[cfg(feature = "alloc")]
pub(crate) use layout::vec_from_memory;
pub(crate) use layout::{array_from_memory, memory_of, value_from_memory};
pub use place::{AllFields, Builder, Built, Field, Fields, Place, Written, all_fields, field};
#[cfg(feature = "alloc")]
pub(crate) use place::{box_built, extend_built};
pub(crate) use place::{build_in_checked, build_value};
#[cfg(feature = "alloc")]
pub use slots::{Slots, append_slots_to_vec};
#[cfg(feature = "bumpalo")]
pub use target::alloc_uninit;
#[cfg(feature = "bytes")]
pub(crate) use target::commit_to_buf_mut;
#[cfg(feature = "alloc")]
pub(crate) use target::commit_to_vec;
#[cfg(feature = "alloc")]
pub use target::{Filled, append_filled_to_vec};
pub(crate) use utf8::str_at_start;
#[cfg(feature = "alloc")]
pub(crate) use utf8::string_at_start;
