#![doc = include_str!("../README.md")]
#![no_std]
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
pub use marshal_core::{
    BufferTooSmall, DecodeError, DecodeErrorKind, Marshal, Overflow, Reader, Unmarshal, Writer,
    fingerprint, fixed_len, from_bytes, from_bytes_limited, is_memcpy_equivalent, max_len,
};
// Documented by marshal-core's module docs, like `time`.
#[cfg(feature = "alloc")]
pub use marshal_core::cow;
#[cfg(feature = "alloc")]
pub use marshal_core::{encode_into_vec, to_vec};

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
/// does. Attributes:
///
/// - `#[marshal(skip)]` on a field: not encoded.
/// - `#[marshal(with = path)]` on a field: encoded by
///   `path::encoded_len(&T) -> usize` and
///   `path::write_to(&T, &mut [u8]) -> usize`.
/// - `#[marshal(tag = N)]` on a variant: wire tag `N` instead of the index.
/// - `#[marshal(tag_type = u8 | u16 | u32)]` on an enum: the tag's width.
/// - `#[marshal(crate = path)]` on the type: where this crate is.
/// - `#[marshal(size = N)]` on the type: a compile-time contract that
///   `FIXED_LEN == Some(N)`; otherwise the build fails at the attribute,
///   with a message giving both sizes (or saying the size is not fixed).
/// - `#[marshal(max_size = N)]` on the type: a compile-time contract that
///   `MAX_LEN == Some(N)`; otherwise the build fails at the attribute, with
///   a message giving both sizes.
/// - `#[marshal(bound = "T: Trait, ...")]` on the type: the where-clause of
///   both impls, in place of the bounds the derive infers (`T: Marshal` for
///   a parameter an encoded field mentions, `T: Unmarshal<'de>` and
///   `T: Default` for decoding); the type's own bounds stay.
///   `#[marshal(bound(encode = "...", decode = "..."))]` gives each impl
///   its own (a key left out keeps that impl's inferred bounds); in
///   `decode`, `'de` names the input's lifetime, as in serde (where no
///   `for<'de>` binds one of its own).
/// - `#[marshal(use_discriminant = true | false)]` on an enum: whether its
///   Rust discriminants (`A = 10`) are its wire tags, or the declaration
///   indexes are, as in bincode. An enum with explicit discriminants must
///   say which. With `true`, the derive evaluates discriminants written as
///   integer literals, counts on from them as Rust does for variants
///   without one, and checks that every tag is non-negative, fits the tag
///   type and is distinct; a discriminant of any other form is an error
///   unless no tag comes from it. `tag = N` still overrides.
/// - `#[marshal(extensible)]` on the type: written with its body's length,
///   so that later versions can add fields (and an enum variants) that
///   earlier versions skip. `#[marshal(since = N)]` marks a field or
///   variant added in version `N`; a `since` field carries
///   `#[marshal(default)]` or `#[marshal(default = path)]` for data
///   written before it. `#[marshal(other)]` marks the unit variant that
///   unknown variants decode as. `#[marshal(history = [0x..., ...])]` pins
///   the fingerprints of the released versions: when their fields change,
///   the build fails at the attribute. See the crate docs, "Evolving
///   types".
/// - `#[marshal(default = path)]` on a `skip` field: decoded as `path()`
///   instead of `Default::default()`, so the field's type needs no
///   `Default`.
///
/// `tag`, `tag_type`, `use_discriminant = true` and `extensible` leave
/// bincode's format.
///
/// ```
/// use marshal::Marshal;
///
/// mod be_u16 {
///     pub fn encoded_len(_: &u16) -> usize { 2 }
///     pub fn write_to(v: &u16, buf: &mut [u8]) -> usize {
///         buf[..2].copy_from_slice(&v.to_be_bytes());
///         2
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
/// attributes: a `skip` field is filled with `Default::default()`, a
/// `with = path` field is read by
/// `path::read_from(&'de [u8]) -> Result<(T, usize), DecodeError>`
/// (returning the value and the bytes it used), and `tag`/`tag_type` (and
/// `use_discriminant`) select the variant. A tag that names no variant is an
/// [`InvalidTag`](DecodeErrorKind::InvalidTag) error, except in an
/// extensible enum with an `other` variant, which it decodes as. In an
/// extensible type, a `since` field that the body does not reach (data
/// from an older version) is its `default`, and what is left of the body
/// after the last field (from a newer version) is skipped. `bound = "..."` or
/// `bound(decode = "...")` is the impl's where-clause instead of the
/// inferred `T: Unmarshal<'de>` and `T: Default`, where `'de` is the
/// input's lifetime. The `size = N` and
/// `max_size = N` contracts are checked by `#[derive(Marshal)]`, against the
/// `FIXED_LEN` and `MAX_LEN` it computes (see [`Marshal`](derive@Marshal)).
///
/// ```
/// use marshal::{DecodeError, Marshal, Unmarshal};
///
/// mod be_u16 {
///     use marshal::DecodeError;
///     pub fn encoded_len(_: &u16) -> usize { 2 }
///     pub fn write_to(v: &u16, buf: &mut [u8]) -> usize {
///         buf[..2].copy_from_slice(&v.to_be_bytes());
///         2
///     }
///     pub fn read_from(buf: &[u8]) -> Result<(u16, usize), DecodeError> {
///         match buf {
///             [a, b, ..] => Ok((u16::from_be_bytes([*a, *b]), 2)),
///             _ => Err(DecodeError::custom(&"port needs two bytes", 0)),
///         }
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
