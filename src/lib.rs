#![doc = include_str!("../README.md")]
//! # Supported types
//!
//! All integers (`usize`/`isize` as 8 bytes), `f32`, `f64`, `bool`, `char`,
//! `()`, `str`, `[T]`, `[T; N]`, tuples up to 16, `Option`, `&T`, `&mut T`,
//! `Box`, `Rc`, `Arc`, `Cow`, `String`, `Vec`, `VecDeque`, `BTreeMap`,
//! `BTreeSet`, `HashMap` and `HashSet` (any hasher), `NonZero*`, `Wrapping`,
//! `Saturating`, `PhantomData`, `Duration`, `SystemTime`, the `core::net`
//! address types, and the timestamps of [`marshal::time`](time).
//!
//! With a feature each (see the README's features table), other crates'
//! types, with the bytes bincode 1.3 writes through each crate's own `serde`
//! support: uuid's `Uuid` (24 bytes: a length of 16, then the bytes;
//! fixed), indexmap's `IndexMap` and `IndexSet` (any hasher; the map's order
//! is kept), smallvec's `SmallVec`, arrayvec's `ArrayVec` and `ArrayString`,
//! heapless's `Vec` and `String`, bytes' `Bytes` and `BytesMut`,
//! hashbrown's `HashMap` and `HashSet` (any hasher, without `std`),
//! rust_decimal's `Decimal` (its string, at most 39 bytes), compact_str's
//! `CompactString` and smol_str's `SmolStr` (inline strings charge no
//! allocation budget). The bounded containers have a `MAX_LEN` (the length
//! prefix and their capacity's worth of items), so a struct holding a
//! `heapless::Vec<u16, 8>` keeps its `MAX_LEN` and can take a `max_size`
//! contract; a length beyond the capacity is an `OverCapacity` error.
//!
//! `test_suite/tests/foreign_types.rs` compares each with bincode 1.3.
//!
//! Any other type that implements serde's `Serialize` and `Deserialize`
//! encodes through the serde bridge, [`marshal::serde`](mod@crate::serde)
//! (feature `serde`), with bincode 1.3's bytes; a field of a derived type
//! uses it with `#[marshal(with = marshal::serde::field)]`.
//! `test_suite/tests/serde_bridge.rs` compares 48 serde types with bincode
//! 1.3 in both directions.
//!
//! A type with none of these, or one to be written as another type, is a
//! field `#[marshal(as = A)]` with an adapter (see [`adapters`]: written as
//! the `U` it converts into with `FromInto<U>` or `TryFromInto<U>`, by an
//! adapter of your own, or by a `remote` mirror of a foreign struct or
//! enum), keeping its sizes (`test_suite/tests/adapters.rs`,
//! `test_suite/tests/remote.rs`). chrono's, time's and jiff's types are
//! written as bincode 1.3 writes them through their `serde` support with
//! `#[marshal(as = marshal::adapters::SerdeForm)]`
//! (`test_suite/tests/serde_form.rs`).
//!
//! # Decoding
//!
//! | function | reads |
//! | --- | --- |
//! | [`T::read_from(&buf)`](Unmarshal::read_from) | one value from the front of `buf`; returns it with the bytes used |
//! | [`marshal::from_bytes::<T>(&buf)`](from_bytes) | exactly one value; trailing bytes are `TrailingBytes` |
//! | [`marshal::from_bytes_limited::<T>(&buf, max_alloc)`](from_bytes_limited) | the same, asking the allocator for at most `max_alloc` bytes in all (else `AllocLimit`) |
//! | [`marshal::from_bytes_into(&buf, &mut slot)`](from_bytes_into) | exactly one value, built in the caller's `MaybeUninit<T>` |
//! | [`marshal::iter::<T>(&buf)`](iter) | the values written back to back, one per iteration, until the end or the first error |
//! | `marshal::frame::FrameReader::new(reader, codec)` | frames from any `std::io::Read`, one at a time (see [`frame`]) |
//!
//! `&'de str`, `&'de [u8]`, `&'de [u8; N]`, `Cow<'de, str>` and
//! `Cow<'de, [u8]>` borrow from the input (`marshal::cow` says which `Cow`s
//! borrow); everything else (owned strings, vectors, boxes, maps) decodes
//! under the `alloc` feature. A type with no borrowed fields decodes from
//! any input's lifetime: name it with [`UnmarshalOwned`], as serde's
//! `DeserializeOwned`. Errors carry a [kind](DecodeErrorKind) and the byte
//! offset of the offending item; [`DecodeError`] is 24 bytes and allocates
//! nothing.
//!
//! What hostile input can cost is bounded:
//!
//! - A length prefix is checked against the remaining input before
//!   anything is allocated, and what collections allocate ahead of their
//!   items is at most four times the input.
//! - Collections and boxes may nest 256 levels of small values deep, a
//!   level of a large value counting as several by the stack it may take
//!   ([`Reader::with_max_depth`] changes the limit), so no input can make
//!   nesting overflow a spawned thread's 2 MiB stack, whatever the derived
//!   type, in debug and release builds alike. On the serde route, whose
//!   frames serde's code decides, a level is charged for the fields and
//!   variants serde names too: the promise holds for serde's derived types
//!   and for hand-written `Deserialize` impls whose frames hold no more
//!   (see [`marshal::serde`](mod@crate::serde)).
//! - For untrusted input, an allocation budget ([`from_bytes_limited`],
//!   [`Reader::with_max_alloc`], `frame::Codec::with_max_alloc`) bounds all
//!   the memory a decode asks for, items included: without one, 4 KiB of
//!   one-byte `None`s of `Option<[u64; 64]>` (520 bytes each in memory) make
//!   a decode ask for 8 MB before their last byte turns out bad; with one,
//!   the same decode stops with `AllocLimit` before it allocates past the
//!   budget. Fields read by a `with` module or an adapter (`as = A`) are
//!   read through the same reader, within its depth limit and budget.
//!
//! ```
//! use marshal::{DecodeErrorKind, Unmarshal, UnmarshalOwned};
//!
//! #[derive(Unmarshal, Debug, PartialEq)]
//! struct Batch { ids: Vec<u32>, note: String }
//!
//! /// Decodes from a buffer the caller reuses: nothing borrows from it.
//! fn decode_owned<T: UnmarshalOwned>(buf: &[u8]) -> Result<T, marshal::DecodeError> {
//!     marshal::from_bytes_limited(buf, 1 << 20)
//! }
//!
//! let bytes = [2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'o', b'k'];
//! let batch: Batch = decode_owned(&bytes)?;
//! assert_eq!(batch, Batch { ids: vec![1, 2], note: "ok".into() });
//!
//! // A length the input cannot hold: an error before anything is allocated.
//! let err = decode_owned::<Batch>(&[0xff; 8]).unwrap_err();
//! assert!(matches!(err.kind(), DecodeErrorKind::LengthOverflow { .. }));
//! # Ok::<(), marshal::DecodeError>(())
//! ```
//!
//! # Output targets
//!
//! Size once, then encode straight into wherever the bytes go: fresh memory
//! is never zeroed first, and nothing passes through an intermediate
//! buffer. A reused `Vec` or `BytesMut` with room for the value takes it in
//! one pass, without sizing it first; only a value that does not fit is
//! sized, room made, and written (`BENCHMARKS.md`, "One pass into a reused
//! buffer").
//!
//! | call | writes into | global-heap allocations |
//! | --- | --- | --- |
//! | [`value.write_to(&mut buf)`](Marshal::write_to) | a `&mut [u8]` | none |
//! | [`value.write_to_uninit(&mut buf)`](Marshal::write_to_uninit) | a `&mut [MaybeUninit<u8>]`; returns the written `&mut [u8]` | none |
//! | `marshal::to_vec(&value)` | a new `Vec` | one, of exactly `encoded_len()` bytes |
//! | `marshal::encode_into_vec(&value, &mut vec)` | the end of a `Vec` | at most one; none with enough capacity (then one pass, no sizing) |
//! | `marshal::write_all(&value, &mut w, &mut scratch)` | any `io::Write` | none when `MAX_LEN <= 256` (stack buffer); else only while `scratch` grows |
//! | `marshal::arena::encode(&bump, &value)` (feature `bumpalo`) | a bumpalo arena | none: one bump allocation of exactly `encoded_len()` bytes |
//! | `marshal::arena::encode_batch(&bump, &items)` | one contiguous arena block, and each item's range | none: sized in one pass, two bump allocations |
//! | `marshal::buf::encode_to_bytes_mut(&value, &mut b)` (feature `bytes`) | a `BytesMut` (`encode_to_buf_mut`: any `BufMut`) | at most one `reserve`; none with enough capacity (then one pass, no sizing) |
//! | [`marshal::frame::Codec`](frame::Codec) | length-delimited frames for streams: a `u32` LE length, then the value | as `encode_into_vec`, `encode_to_bytes_mut` and `write_all` |
//! | `marshal::par::encode_batch(&items, &mut out, &mut ends)` (feature `rayon`) | one `Vec`, written on every core | at most one for the bytes and one for the end offsets |
//!
//! ```
//! use std::mem::MaybeUninit;
//! use marshal::Marshal;
//!
//! let mut stack = [MaybeUninit::<u8>::uninit(); 32];
//! let bytes: &mut [u8] = (7u32, "hi").write_to_uninit(&mut stack);
//! assert_eq!(bytes, [7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
//!
//! // Appended to a reused buffer: one pass when it has room.
//! let mut out = Vec::with_capacity(64);
//! marshal::encode_into_vec(&(7u32, "hi"), &mut out);
//! marshal::encode_into_vec(&1u8, &mut out);
//! assert_eq!(out.len(), 14 + 1);
//! ```
//!
//! `write_to` panics if the buffer is shorter than the value;
//! [`try_write_to`](Marshal::try_write_to) returns
//! [`BufferTooSmall { needed, available }`](BufferTooSmall) instead.
//!
//! # Layouts checked at compile time
//!
//! - [`marshal::fixed_len::<T>()`](fixed_len) and
//!   [`marshal::max_len::<T>()`](max_len) are const fns, so
//!   `[0u8; marshal::fixed_len::<Header>()]` sizes a stack buffer; a type
//!   without a fixed size is a compile error there.
//! - `#[marshal(size = 16)]` and `#[marshal(max_size = 32)]` are size
//!   contracts: the build fails at the attribute, stating both numbers (or
//!   naming the first field without a fixed size), when the type's computed
//!   size differs (see [`Marshal`](derive@Marshal)).
//! - A struct whose wire bytes are exactly its memory (integers, floats,
//!   arrays and such structs, back to back with no padding, proved with
//!   `size_of` and `offset_of!`; no `repr` needed) is memcpy-equivalent:
//!   [`marshal::is_memcpy_equivalent::<T>()`](is_memcpy_equivalent).
//! - [`Marshal::FINGERPRINT`] hashes the wire shape (never names). Pin it
//!   with `const _: () = assert!(<Order as Marshal>::FINGERPRINT == 0x...);`
//!   to catch wire changes, and use [`marshal::fingerprint`](fingerprint)'s
//!   `to_vec` and `from_bytes` to reject data written under another shape.
//!
//! ```
//! use marshal::{Marshal, Unmarshal};
//!
//! #[derive(Marshal, Unmarshal)]
//! #[marshal(size = 12)]
//! struct Header { kind: u32, len: u64 }
//!
//! let mut buf = [0u8; marshal::fixed_len::<Header>()];
//! Header { kind: 1, len: 2 }.write_to(&mut buf);
//! assert!(marshal::is_memcpy_equivalent::<[u32; 4]>());
//! ```
//!
//! # Coming from bincode
//!
//! The bytes are bincode 1.3's (default options; bincode 2's
//! `config::legacy()`), so data already written by bincode reads back, and
//! peers still on bincode read what marshal writes. Each bincode 1 call has
//! a replacement on both routes: the derive route (`#[derive(Marshal,
//! Unmarshal)]`, exact sizes and in-place encoding) and the serde route
//! (feature `serde`: the same types' existing `Serialize` and
//! `Deserialize`, unchanged).
//!
//! | bincode 1.3 | derive route | serde route |
//! | --- | --- | --- |
//! | `bincode::serialize(&v)?` | `marshal::to_vec(&v)` | `marshal::serde::to_vec(&v)?` |
//! | `bincode::serialize_into(&mut w, &v)?` | `marshal::write_all(&v, &mut w, &mut scratch)?` (any `io::Write`); `v.write_to(&mut buf)` into a slice | `w.write_all(&marshal::serde::to_vec(&v)?)?`; `marshal::serde::write_to(&v, &mut buf)?` into a slice |
//! | `bincode::serialized_size(&v)?` (a `u64`) | `v.encoded_len()` (a `usize`) | `marshal::serde::encoded_len(&v)?` |
//! | `bincode::deserialize(&bytes)?` | `marshal::from_bytes(&bytes)?`, or `T::read_from(&bytes)?.0` to ignore trailing bytes as bincode does | `marshal::serde::from_bytes(&bytes)?`, or `marshal::serde::read_from(&bytes)?.0` |
//! | `bincode::deserialize_from(r)?` | read the bytes (`r.read_to_end(&mut buf)?`), then `T::read_from(&buf)?`, which returns the bytes used; `marshal::frame::Codec` for a stream of values | the same with `marshal::serde::read_from(&buf)?` |
//!
//! ```rust,ignore
//! #[derive(Marshal, Unmarshal, Serialize, Deserialize, Debug, PartialEq)]
//! struct Order { id: u64, symbol: String, legs: Vec<(u32, f64)> }
//!
//! let order = Order { id: 7, symbol: "ACME".into(), legs: vec![(1, 99.5)] };
//! let old = bincode::serialize(&order)?;
//!
//! assert_eq!(marshal::to_vec(&order), old); // derive route
//! assert_eq!(marshal::serde::to_vec(&order)?, old); // serde route
//! assert_eq!(order.encoded_len() as u64, bincode::serialized_size(&order)?);
//! assert_eq!(marshal::from_bytes::<Order>(&old)?, order);
//! assert_eq!(marshal::serde::from_bytes::<Order>(&old)?, order);
//! ```
//!
//! (`test_suite/tests/from_bincode.rs` runs this example and every row of
//! the table against the `bincode` 1.3 crate.) What differs is in
//! `WIRE_FORMAT.md`'s table of deviations: chiefly, `marshal::from_bytes`
//! rejects trailing bytes that `bincode::deserialize` ignores, and decoding
//! has a depth limit and length checks that bincode lacks. The errors
//! differ too: [`DecodeError`] carries a kind and an offset, not bincode's
//! `Box<ErrorKind>`; derive-route encoding cannot fail.
//!
//! **Timestamps.** With the features `chrono`, `time` and `jiff`, those
//! crates' date and time types have marshal's own fixed-size layouts
//! (`WIRE_FORMAT.md`, sections 19 to 23), not the bytes bincode 1.3 wrote
//! through each crate's `serde` support (chrono's and jiff's strings,
//! time's tuples of calendar fields). To keep reading data bincode wrote,
//! mark such fields `#[marshal(as = marshal::adapters::SerdeForm)]` (or
//! `as = Option<SerdeForm>`, `as = Vec<SerdeForm>`, ...):
//! [`adapters::SerdeForm`] writes and reads bincode 1.3's bytes, without
//! serde and without allocating. `test_suite/tests/serde_form.rs` checks
//! every such type against bincode 1.3 and the crates' `serde` support.
//!
//! **Other crates' types** with neither `Marshal` nor the bytes you need:
//! an adapter (`#[marshal(as = A)]`, see [`adapters`]) writes the field as
//! another type (`FromInto<U>`, `TryFromInto<U>`, or one of your own),
//! where serde_with would have used `#[serde_as(as = ...)]`.
//!
//! ## From bincode 2, and bincode 1's `DefaultOptions`
//!
//! bincode 2's configurations, and bincode 1.3's `DefaultOptions`, have
//! their bytes on the derive route too, through [`config`] and entry
//! points named as bincode 2's. A migration is a change of crate name and
//! derive:
//!
//! | bincode | marshal |
//! | --- | --- |
//! | `#[derive(bincode::Encode, bincode::Decode)]` | `#[derive(Marshal, Unmarshal)]` |
//! | `bincode::config::standard()`, `legacy()` | `marshal::config::standard()`, `legacy()` |
//! | `.with_big_endian()`, `.with_little_endian()`, `.with_variable_int_encoding()`, `.with_fixed_int_encoding()`, `.with_limit::<N>()` | the same methods |
//! | `bincode::encode_to_vec(&v, config)?` | `marshal::encode_to_vec(&v, config)` (cannot fail) |
//! | `bincode::encode_into_slice(&v, &mut buf, config)?` | `marshal::encode_into_slice(&v, &mut buf, config)?` ([`BufferTooSmall`]) |
//! | `bincode::decode_from_slice::<T, _>(&bytes, config)?` | `marshal::decode_from_slice::<T, _>(&bytes, config)?` |
//! | `bincode::borrow_decode_from_slice::<T, _>(&bytes, config)?` | `marshal::decode_from_slice::<T, _>(&bytes, config)?`: a type with `&str` fields borrows |
//! | the length of `v`: `encode_into_writer(&v, SizeWriter::default(), config)` | `marshal::encoded_len_with(&v, config)` |
//! | bincode 1.3: `bincode::DefaultOptions::new().serialize(&v)?` | `marshal::encode_to_vec(&v, config::standard())` |
//! | bincode 1.3: `DefaultOptions::new().deserialize(&bytes)?` (rejects trailing bytes) | `marshal::decode_from_slice::<T, _>(&bytes, config::standard())?`, then check that the length used is `bytes.len()` |
//! | bincode 1.3: `.with_big_endian()`, `.with_fixint_encoding()` | `config::standard().with_big_endian()`, `config::legacy()` |
//! | `bincode::serde::encode_to_vec(&v, config)?`, `encode_into_slice` | `marshal::serde::encode_to_vec(&v, config)?`, `encode_into_slice` (feature `serde`) |
//! | `bincode::serde::decode_from_slice::<T, _>(&bytes, config)?`, `borrow_decode_from_slice` | `marshal::serde::decode_from_slice::<T, _>(&bytes, config)?`, `borrow_decode_from_slice` |
//! | frames and batches in a configuration | [`frame::Codec::new().with_config(config)`](frame::Codec::with_config); `par::encode_batch_with`, `to_vec_with`, `decode_batch_with` (feature `rayon`) |
//!
//! With the feature `config`:
//!
//! ```
//! # #[cfg(feature = "config")] {
//! use marshal::{Marshal, Unmarshal, config};
//!
//! #[derive(Marshal, Unmarshal, Debug, PartialEq)]
//! struct Order { id: u64, symbol: String, legs: Vec<(u32, f64)> }
//!
//! let order = Order { id: 7, symbol: "ACME".into(), legs: vec![(1, 99.5)] };
//! let bytes = marshal::encode_to_vec(&order, config::standard());
//! assert_eq!(bytes.len(), marshal::encoded_len_with(&order, config::standard()));
//! assert_eq!(bytes[..6], [7, 4, b'A', b'C', b'M', b'E']);
//! let (back, used) = marshal::decode_from_slice::<Order, _>(&bytes, config::standard())?;
//! assert_eq!((back, used), (order, bytes.len()));
//! # }
//! # Ok::<(), marshal::DecodeError>(())
//! ```
//!
//! (`test_suite/tests/configs.rs` checks every configuration against the
//! `bincode` 2.0 and 1.3 crates, and each row of this table.) The same
//! derive serves every configuration (with the feature `config`; without
//! it, derived types have `legacy()` alone), but only `legacy()` carries
//! bumpalo's arena types and manual impls yet (a field `with` a module has
//! the module's bytes in every configuration): `WIRE_FORMAT.md`, section
//! 29. As
//! for `legacy()`, decoding has a depth limit and length checks that
//! bincode lacks, and rejects a `Duration`'s nanoseconds of 10⁹ or more,
//! which bincode 2 carries into its seconds.
#![no_std]
// On docs.rs: "Available on crate feature X only" on every gated item.
#![cfg_attr(docsrs, feature(doc_cfg))]
// The facade is safe code only; see POLICIES.md.
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub use marshal_core::LengthMismatch;
// Documented by marshal-core's module docs; a doc comment here would be
// prepended to them, running two summaries together.
#[cfg(feature = "serde")]
pub use marshal_core::serde;
pub use marshal_core::time;
// Documented by marshal-core's module docs, like `time`.
pub use marshal_core::adapters;
pub use marshal_core::{
    BufferTooSmall, DecodeError, DecodeErrorKind, ErrorPath, MAX_STEPS, Marshal, MarshalAs,
    Overflow, Reader, Site, Step, Unmarshal, UnmarshalAs, UnmarshalOwned, Writer, config,
    decode_from_slice, encode_into_slice, encoded_len_with, error_path, fingerprint, fixed_len,
    from_bytes, from_bytes_into, from_bytes_limited, is_memcpy_equivalent, max_len,
};
// Documented by marshal-core's module docs, like `time`.
#[cfg(feature = "alloc")]
pub use marshal_core::cow;
#[cfg(feature = "alloc")]
pub use marshal_core::{encode_into_vec, encode_to_vec, to_vec};

#[cfg(feature = "bumpalo")]
pub mod arena;
#[cfg(feature = "bytes")]
pub mod buf;
pub mod frame;
#[cfg(feature = "std")]
mod io;
#[cfg(feature = "rayon")]
pub mod par;
#[cfg(feature = "std")]
pub use io::write_all;
mod values;
pub use values::{Values, iter};

/// Derives [`Marshal`]: an exact `encoded_len`, an in-place encoder, and
/// the compile-time `FIXED_LEN` and `MAX_LEN`.
///
/// Structs encode their fields in declaration order; enums a `u32` tag (the
/// variant's declaration index) and then the variant's fields, as bincode
/// does. [`Unmarshal`](derive@Unmarshal) reads the same bytes back and
/// honours the same attributes.
///
/// # Attributes
///
/// | attribute | on | effect |
/// | --- | --- | --- |
/// | `#[marshal(skip)]` | field | not encoded; decoded as `Default::default()` |
/// | `#[marshal(as = A)]` | field | encoded and decoded by the adapter `A` (`A: MarshalAs<T> + UnmarshalAs<'de, T>`; see [`adapters`]): the field keeps its sizes (`FIXED_LEN`, `MAX_LEN`, `MIN_LEN`), reads through the caller's reader, and contributes the adapter's fingerprint; adapters compose, `as = Vec<A>`, `Option<A>`, `[A; N]`, `Box<A>`, tuples |
/// | `#[marshal(with = path)]` | field | encoded by `path::encoded_len(&T) -> usize` and `path::encode(&T, &mut Writer) -> Result<(), Overflow>`, which must write exactly that many bytes (fewer or more is an error of the encode, in every build), decoded by `path::decode(&mut Reader<'de>) -> Result<T, DecodeError>`, through the caller's reader: its depth limit, allocation budget and offsets apply. (These replace the earlier `write_to(&T, &mut [u8]) -> usize` and `read_from(&[u8]) -> Result<(T, usize), DecodeError>`, which read through a reader of the module's own.) The field has no known size; prefer an adapter (`as`) |
/// | `#[marshal(tag = N)]` | variant | wire tag `N` instead of the declaration index (leaves bincode's format) |
/// | `#[marshal(tag_type = u8 \| u16 \| u32)]` | enum | width of the wire tag; default `u32` (anything else leaves bincode's format) |
/// | `#[marshal(use_discriminant = true \| false)]` | enum | required once an enum has explicit discriminants (`A = 10`): `true` makes each variant's discriminant its wire tag (leaves bincode's format), `false` keeps the declaration index, as bincode does |
/// | `#[marshal(crate = path)]` | struct, enum | where the `marshal` crate is, if renamed or re-exported |
/// | `#[marshal(size = N)]` | struct, enum | compile-time contract that `FIXED_LEN == Some(N)`: otherwise the build fails at the attribute with a message giving both sizes (or naming the first field whose size is not fixed) |
/// | `#[marshal(max_size = N)]` | struct, enum | compile-time contract that `MAX_LEN == Some(N)`: otherwise the build fails at the attribute with a message giving both sizes (or naming the first unbounded field) |
/// | `#[marshal(bound = "T: Trait, ...")]` | struct, enum | the where-clause of both impls instead of the inferred bounds; the type's own bounds stay |
/// | `#[marshal(bound(encode = "...", decode = "..."))]` | struct, enum | the where-clause of each impl; a key left out keeps that impl's inferred bounds; in `decode`, `'de` names the input's lifetime, as in serde (where no `for<'de>` binds one of its own) |
/// | `#[marshal(extensible)]` | struct, enum | written with its body's length, so that later versions can add fields and variants (see [Evolving types](#evolving-types); leaves bincode's format) |
/// | `#[marshal(since = N)]` | field, variant | added in version `N` (2 or more) of an extensible type |
/// | `#[marshal(default)]`, `#[marshal(default = path)]` | field | the value of a `since` field missing from older data, or of a `skip` field: `Default::default()`, or `path()` (a `fn() -> T`, which needs no `Default`) |
/// | `#[marshal(other)]` | unit variant | what variants unknown to this version of an extensible enum decode as |
/// | `#[marshal(remote = path::Type)]` | struct, enum | the type is a local mirror of the foreign `path::Type` (its fields or variants, with the same names and types, in the same order: the order is what decides the bytes, and it is not checked): besides its own impls, it is an adapter for the foreign type (`MarshalAs<path::Type>`, `UnmarshalAs`), so a field of the foreign type can be `#[marshal(as = Mirror)]` (or `as = Vec<Mirror>`, ...), with the bytes and sizes a derive on the foreign definition would have. The mirror is checked against the foreign definition at compile time: a field of another type, a field or variant one has and the other lacks, is an error at the mirror (with a `getter`, the foreign fields are private: only those the mirror reads are checked). A foreign struct is built of the mirror's fields, or, with a `getter`, through `From<Mirror>` |
/// | `#[marshal(getter = path)]` | field of a `remote` struct mirror | reads the foreign field through `path(&Foreign)` (returning the field's type or a reference to it) instead of by name, for a private field; decoding then builds the foreign value with `From<Mirror>`, which you implement |
/// | `#[marshal(recursive)]` | field | the field's type leads back to this type through other types (mutual recursion, as an expression holding statements that hold expressions): mark one field of each such cycle. Its type's constants are not used (its fingerprint is a fixed marker, as a field naming its own type has), so none depends on itself; without the mark, the build fails with a cycle detected at `FINGERPRINT`. With the feature `config`, the field's type must carry every configuration the type does |
/// | `#[marshal(history = [0x..., ...])]` | extensible struct, enum | compile-time contract that the released versions' fingerprints are these, oldest first: otherwise the build fails at the attribute, naming the version and both fingerprints |
///
/// Generic parameters get a `T: Marshal` (or `T: Unmarshal<'de>`) bound
/// when a field that is encoded mentions them (not inside `PhantomData`),
/// and `T: Default` when a skipped field does (unless it has
/// `default = path`), or a `since` field with `default`. `bound` replaces
/// these where they are wrong: a generic `Cow<'a, T>` field decodes with
/// `#[marshal(bound(decode = "T: marshal::cow::CowUnmarshal<'de>"))]`, since
/// the inferred `T: Unmarshal<'de>` asks for a sized `T: Clone` (ruling out
/// `Cow<str>`), and `bound = ""` suits a field like `Id<T>` that is
/// `Marshal` whatever `T` is.
///
/// Under `use_discriminant = true`, the derive evaluates each discriminant
/// written as an integer literal (`A = 10`, `B = 0x20`, `C = -1`); a variant
/// without one counts on from the one before, from 0, as in Rust. A tag
/// cannot be negative, and the derive cannot evaluate a discriminant of any
/// other form (`A = BASE + 1`): either is a compile error unless no tag
/// comes from it, because the variant has a `tag = N` (which always
/// overrides) and the next variant a discriminant of its own. The tags are
/// checked to fit `tag_type` and to be distinct.
///
/// A `Cow` field borrows from the input where it can (`Cow<'a, str>`,
/// `Cow<'a, [u8]>`). No input outlives `'static`, so a `Cow<'static, T>`
/// field (also inside an `Option`, `Vec`, `Box`, array or tuple) is read
/// owned, through [`adapters::Owned`], with the same bytes, sizes and
/// fingerprint.
///
/// Recursive types work: `Box`, `Rc` and `Arc` (and fields naming their
/// own type) contribute no size constants, so none depends on itself.
/// Types that lead back to each other need one field of the cycle marked
/// `#[marshal(recursive)]`:
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// enum Expr {
///     Lit(i64),
///     Block(#[marshal(recursive)] Vec<Stmt>),
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// enum Stmt {
///     Let(String, Box<Expr>),
///     Expr(Expr),
/// }
///
/// let program = Expr::Block(vec![Stmt::Let("x".into(), Box::new(Expr::Lit(1)))]);
/// let bytes = marshal::to_vec(&program);
/// assert_eq!(marshal::from_bytes::<Expr>(&bytes)?, program);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// Without the mark, each type's fingerprint depends on itself:
///
/// ```compile_fail,E0391
/// #[derive(marshal::Marshal)]
/// enum Expr {
///     Lit(i64),
///     Block(Vec<Stmt>),
/// }
///
/// #[derive(marshal::Marshal)]
/// enum Stmt {
///     Expr(Box<Expr>),
/// }
/// ```
///
/// Mistakes are compile errors at the offending tokens, all reported at
/// once, each saying what to do instead.
///
/// # Evolving types
///
/// What one version of a type writes, the next version reads, and the
/// previous one too. Mark the type `#[marshal(extensible)]` from its first
/// release; later versions add fields at the end, each with the version
/// that added it and a default for data written before it, and add
/// variants:
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// mod v1 {
///     use marshal::{Marshal, Unmarshal};
///
///     #[derive(Marshal, Unmarshal, Debug, PartialEq)]
///     #[marshal(extensible)]
///     pub struct User {
///         pub id: u64,
///         pub name: String,
///     }
///
///     #[derive(Marshal, Unmarshal, Debug, PartialEq)]
///     #[marshal(extensible)]
///     pub enum Event {
///         Login { user: u64 },
///         Logout { user: u64 },
///         #[marshal(other)]
///         Unknown,
///     }
/// }
///
/// mod v3 {
///     use marshal::{Marshal, Unmarshal};
///
///     #[derive(Marshal, Unmarshal, Debug, PartialEq)]
///     pub enum Plan { Free, Pro { seats: u16 } }
///
///     pub fn default_plan() -> Plan { Plan::Free }
///
///     #[derive(Marshal, Unmarshal, Debug, PartialEq)]
///     // Versions 1 and 2 are released: their fields must stay as they are.
///     #[marshal(extensible, history = [0x3df4_088e_86bc_3ca4, 0x7398_b795_2eda_d394])]
///     pub struct User {
///         pub id: u64,
///         pub name: String,
///         #[marshal(since = 2, default)]
///         pub email: Option<String>,
///         #[marshal(since = 3, default = default_plan)]
///         pub plan: Plan,
///     }
///
///     #[derive(Marshal, Unmarshal, Debug, PartialEq)]
///     #[marshal(extensible)]
///     pub enum Event {
///         Login { user: u64 },
///         Logout { user: u64, #[marshal(since = 2, default)] reason: Option<String> },
///         #[marshal(other)]
///         Unknown,
///         #[marshal(since = 3)]
///         Ban { user: u64, days: u16 },
///     }
/// }
///
/// // Version 3 writes; version 1 reads what it knows and skips the rest.
/// let new = v3::User { id: 7, name: "ann".into(), email: Some("a@b".into()), plan: v3::Plan::Pro { seats: 5 } };
/// let old: v1::User = marshal::from_bytes(&marshal::to_vec(&new))?;
/// assert_eq!(old, v1::User { id: 7, name: "ann".into() });
///
/// // Version 1 writes; version 3 fills in the defaults.
/// let back: v3::User = marshal::from_bytes(&marshal::to_vec(&old))?;
/// assert_eq!(back, v3::User { id: 7, name: "ann".into(), email: None, plan: v3::Plan::Free });
///
/// // Variants too: one the reader does not know is its `other` variant.
/// let ban = marshal::to_vec(&v3::Event::Ban { user: 7, days: 30 });
/// assert_eq!(marshal::from_bytes::<v1::Event>(&ban)?, v1::Event::Unknown);
/// let logout = marshal::to_vec(&v3::Event::Logout { user: 7, reason: Some("idle".into()) });
/// assert_eq!(marshal::from_bytes::<v1::Event>(&logout)?, v1::Event::Logout { user: 7 });
///
/// // Inside containers and other types, element by element.
/// let old_list: Vec<v1::User> = marshal::from_bytes(&marshal::to_vec(&vec![new]))?;
/// assert_eq!(old_list.len(), 1);
///
/// // The fingerprint is version 1's, so appending fields keeps it; the
/// // history has every version's.
/// assert_eq!(v1::User::FINGERPRINT, v3::User::FINGERPRINT);
/// assert_eq!(marshal::fingerprint::history::<v3::User>().len(), 3);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// - **The bytes.** An extensible struct is its body's length as a `u32`,
///   then its fields as before; an extensible enum is its tag, then the
///   length, then the variant's fields (`WIRE_FORMAT.md`, section 28). The
///   length is filled in after the body is written: encoding stays one
///   pass, allocates nothing, and `encoded_len()` stays exact. `FIXED_LEN`
///   and `MAX_LEN` count the four bytes; `MIN_LEN` is what version 1 needs.
///   Types without the attribute keep bincode's bytes.
/// - **Reading.** A reader reads the fields it knows while the body has
///   bytes: a field added later (`since`) that the body does not reach
///   takes its default, and bytes after the last field it knows are
///   skipped. A body length past the end of the input is `LengthOverflow`,
///   and more input may complete it; a version-1 field missing, or a field
///   cut by the body's end, is `BodyOverrun` (or `LengthOverflow` for a
///   length prefix longer than the rest of the body), which no more input
///   mends. Never a panic. A variant a reader does not know decodes as its
///   `#[marshal(other)]` variant; without one it is `InvalidTag`.
/// - **Checked at compile time.** `since` never decreases in declaration
///   order, and a `since` field needs `default` or `default = path`.
///   `since`, `other` and `history` need `extensible`; `other` is one unit
///   variant. A `history` that no longer matches the released versions
///   fails the build at the attribute, naming the version and both
///   fingerprints.
///
/// `cargo run --example evolution` writes version-1 bytes and reads them
/// as version 3, then the reverse. What it costs: `cargo bench -p
/// marshal-benches --bench evolution` times the saves dataset with every
/// struct and enum extensible against the plain one; `BENCHMARKS.md` has
/// the figures.
///
/// # Examples
///
/// ```
/// use marshal::Marshal;
///
/// mod be_u16 {
///     use marshal::{Overflow, Writer};
///     pub fn encoded_len(_: &u16) -> usize { 2 }
///     pub fn encode(v: &u16, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         w.put_array(v.to_be_bytes())
///     }
/// }
///
/// #[derive(Marshal)]
/// #[marshal(tag_type = u8)]
/// enum Frame<'a> {
///     Ping,
///     #[marshal(tag = 7)]
///     Data {
///         #[marshal(with = be_u16)]
///         port: u16,
///         body: &'a [u8],
///         #[marshal(skip)]
///         cached_crc: Option<u32>,
///     },
/// }
///
/// let frame = Frame::Data { port: 80, body: b"hi", cached_crc: None };
/// assert_eq!(marshal::to_vec(&frame), [7, 0, 80, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
/// assert_eq!(marshal::to_vec(&Frame::Ping), [0]);
/// ```
///
/// Size contracts hold:
///
/// ```
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// #[marshal(size = 8)]
/// struct Pair {
///     a: u32,
///     b: u32,
/// }
///
/// #[derive(Marshal)]
/// #[marshal(max_size = 9, tag_type = u8)]
/// enum Reply {
///     Ok,
///     Value(u64),
/// }
///
/// assert_eq!(Pair::FIXED_LEN, Some(8));
/// assert_eq!(Reply::MAX_LEN, Some(9));
/// ```
///
/// or the build fails:
///
/// ```compile_fail,E0080
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// #[marshal(size = 9)]
/// struct Pair {
///     a: u32,
///     b: u32,
/// }
/// ```
///
/// A bound replaces the inferred one where that is wrong: decoding a generic
/// `Cow<'a, T>` needs `T: CowUnmarshal<'de>`, whereas the inferred
/// `T: Unmarshal<'de>` would ask for a sized `T: Clone`, ruling out `str`.
///
/// ```
/// use std::borrow::Cow;
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal)]
/// #[marshal(bound(decode = "T: marshal::cow::CowUnmarshal<'de>"))]
/// struct Doc<'a, T: ToOwned + ?Sized> {
///     body: Cow<'a, T>,
/// }
///
/// let bytes = marshal::to_vec(&Doc::<str> { body: Cow::Owned("hi".into()) });
/// let doc: Doc<str> = marshal::from_bytes(&bytes)?;
/// assert!(matches!(doc.body, Cow::Borrowed("hi")));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// Discriminants as tags:
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// #[marshal(tag_type = u16, use_discriminant = true)]
/// enum Status {
///     Ok = 200,
///     Created,
///     NotFound = 404,
/// }
///
/// assert_eq!(marshal::to_vec(&Status::Created), 201u16.to_le_bytes());
/// assert_eq!(marshal::to_vec(&Status::NotFound), 404u16.to_le_bytes());
/// assert_eq!(marshal::from_bytes::<Status>(&[0xc8, 0])?, Status::Ok);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// and an enum with discriminants that does not say whether they are its
/// tags does not build:
///
/// ```compile_fail
/// #[derive(marshal::Marshal)]
/// enum Status {
///     Ok = 200,
///     NotFound = 404,
/// }
/// ```
///
/// An extensible type's released versions, pinned:
///
/// ```
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// #[marshal(extensible, history = [0x3df4_088e_86bc_3ca4])]
/// struct User {
///     id: u64,
///     name: String,
///     #[marshal(since = 2, default)]
///     email: Option<String>,
/// }
///
/// assert_eq!(marshal::fingerprint::history::<User>()[0], User::FINGERPRINT);
/// ```
///
/// and a change to them fails the build (here `id`, released as a `u64`):
///
/// ```compile_fail,E0080
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// #[marshal(extensible, history = [0x3df4_088e_86bc_3ca4])]
/// struct User {
///     id: u32,
///     name: String,
/// }
/// ```
pub use marshal_derive::Marshal;

/// Derives [`Unmarshal`]: a decoder that borrows from its input where it can
/// and returns a [`DecodeError`] on any bad input.
///
/// It reads what `#[derive(Marshal)]` writes and honours the same
/// attributes (the table is on [`Marshal`](derive@Marshal#attributes)): a
/// `skip` field is filled with its default, a `with = path` field is read
/// by `path::decode`, an `as = A` field by its adapter, and `tag`/`tag_type` (and `use_discriminant`)
/// select the variant. A tag that names no variant is an
/// [`InvalidTag`](DecodeErrorKind::InvalidTag) error, except in an
/// extensible enum with an `other` variant, which it decodes as. In an
/// extensible type, a `since` field that the body does not reach (data
/// from an older version) is its `default`, and what is left of the body
/// after the last field (from a newer version) is skipped. `bound = "..."`
/// or `bound(decode = "...")` is the impl's where-clause instead of the
/// inferred `T: Unmarshal<'de>` and `T: Default`, where `'de` is the
/// input's lifetime.
///
/// ```
/// use marshal::{DecodeError, Marshal, Unmarshal};
///
/// mod be_u16 {
///     use marshal::{DecodeError, Overflow, Reader, Writer};
///     pub fn encoded_len(_: &u16) -> usize { 2 }
///     pub fn encode(v: &u16, w: &mut Writer<'_>) -> Result<(), Overflow> {
///         w.put_array(v.to_be_bytes())
///     }
///     pub fn decode(r: &mut Reader<'_>) -> Result<u16, DecodeError> {
///         let at = r.position();
///         r.take_array()
///             .map(u16::from_be_bytes)
///             .map_err(|_| DecodeError::custom(&"port needs two bytes", at))
///     }
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Endpoint<'a> {
///     host: &'a str,
///     #[marshal(with = be_u16)]
///     port: u16,
///     #[marshal(skip)]
///     resolved: Option<[u8; 4]>,
/// }
///
/// let bytes = marshal::to_vec(&Endpoint { host: "db", port: 5432, resolved: Some([1; 4]) });
/// let back: Endpoint = marshal::from_bytes(&bytes)?;
/// assert_eq!(back, Endpoint { host: "db", port: 5432, resolved: None });
///
/// let err = marshal::from_bytes::<Endpoint>(&bytes[..bytes.len() - 1]).unwrap_err();
/// assert_eq!(err.to_string(), "port needs two bytes at byte 10");
/// # Ok::<(), DecodeError>(())
/// ```
///
/// An extensible type, read from an older and a newer version's bytes:
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// #[marshal(extensible)]
/// struct Point { x: i32, y: i32, #[marshal(since = 2, default = one)] z: i32 }
///
/// fn one() -> i32 { 1 }
///
/// // Version 1 wrote `x` and `y`, in a body of 8 bytes.
/// let old = [8, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0];
/// assert_eq!(marshal::from_bytes::<Point>(&old)?, Point { x: 3, y: 4, z: 1 });
///
/// // Version 3 wrote a field after `z`, which this version skips.
/// let new = [16, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 9, 9, 9, 9];
/// assert_eq!(marshal::from_bytes::<Point>(&new)?, Point { x: 3, y: 4, z: 5 });
/// # Ok::<(), marshal::DecodeError>(())
/// ```
pub use marshal_derive::Unmarshal;

#[doc(hidden)]
pub mod __private {
    pub use marshal_core::__private::*;
}
