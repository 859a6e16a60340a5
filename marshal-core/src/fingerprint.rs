//! Wire fingerprints: a compile-time hash of a type's wire shape, and an
//! envelope that writes it before a value and checks it when reading.
//!
//! [`Marshal::FINGERPRINT`] is folded from the fingerprints of a type's
//! parts: a struct from its fields' in order, an enum from its tag type and
//! each variant's tag and fields, a container from its elements'. Names never
//! enter it: not the names of the type, its fields or its variants, nor how
//! a field's type or a `with` module's path is spelled. A field's type
//! contributes its own `FINGERPRINT`, which is the same through an alias, a
//! re-export or a generic parameter. Pin it where a wire change must not go
//! unnoticed:
//!
//! ```
//! use marshal::Marshal;
//!
//! #[derive(Marshal)]
//! struct Order { id: u64, qty: u32 }
//!
//! // In a test or a const assertion; update the number only together with
//! // a deliberate wire-format change.
//! const _: () = assert!(<Order as Marshal>::FINGERPRINT == 0x0665_8ab0_c2fb_e1b6);
//! ```
//!
//! An extensible type's fingerprint (`#[marshal(extensible)]`) is that of
//! its version 1, marked as extensible: appending fields keeps it, any
//! change to a version-1 field changes it, and [`history`] gives every
//! version's.
//!
//! To guard data at rest or on the wire, write it with [`to_vec`] or
//! [`write_to`] and read it with [`from_bytes`]: data written under another
//! fingerprint is a [`FingerprintMismatch`](crate::DecodeErrorKind::FingerprintMismatch)
//! error instead of a misread value.
//!
//! # What it cannot see
//!
//! **`with` fields.** A field encoded `#[marshal(with = path)]` is written
//! by functions whose bytes the derive cannot inspect, so it contributes one
//! fixed marker, the same for every module, at its position among the
//! fields. The fingerprint therefore tells a `with` field from a field
//! encoded by its type, and notices `with` fields added, removed or moved;
//! it does not tell one `with` module from another (`be_u16` and `le_u32`
//! give the same fingerprint), nor notice that a module's encoding changed.
//! Version such a change yourself, for instance by writing the field with
//! an adapter (`#[marshal(as = A)]`) whose `MarshalAs::FINGERPRINT` says
//! what it writes: an adapted field contributes its adapter's fingerprint.
//!
//! ```
//! use marshal::Marshal;
//!
//! mod be_u16 {
//!     use marshal::{Overflow, Writer};
//!     pub fn encoded_len(_: &u16) -> usize { 2 }
//!     pub fn encode(v: &u16, w: &mut Writer<'_>) -> Result<(), Overflow> {
//!         w.put_array(v.to_be_bytes())
//!     }
//! }
//! mod le_u32 {
//!     use marshal::{Overflow, Writer};
//!     pub fn encoded_len(_: &u16) -> usize { 4 }
//!     pub fn encode(v: &u16, w: &mut Writer<'_>) -> Result<(), Overflow> {
//!         w.put_array(u32::from(*v).to_le_bytes())
//!     }
//! }
//!
//! #[derive(Marshal)]
//! struct Big { #[marshal(with = be_u16)] port: u16 }
//! #[derive(Marshal)]
//! struct Wide { #[marshal(with = le_u32)] port: u16 }
//! #[derive(Marshal)]
//! struct Plain { port: u16 }
//!
//! assert_eq!(Big::FINGERPRINT, Wide::FINGERPRINT);
//! assert_ne!(Big::FINGERPRINT, Plain::FINGERPRINT);
//! ```
//!
//! **Fields that name their own type.** A field whose type names the type
//! being derived (`Box<Self>`, `Vec<Tree>`) contributes one fixed marker
//! instead of its type's fingerprint, which would depend on itself. The
//! derive recognises such a field by the type's name, so a field of another
//! type that has the same name (`other::Tree` inside `Tree`) is taken for
//! one too.

use crate::error::{DecodeError, Overflow};
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
pub use crate::wire_hash::{
    OPAQUE, RECURSIVE, WITH, enumeration, extensible, leaf, mix, seq, tuple, variants,
};
use crate::writer::Writer;

/// The fingerprint of each version of `T`, oldest first: the entry at
/// index `k` covers the fields (and variants) of versions 1 to `k + 1`, so
/// the first is [`FINGERPRINT`](Marshal::FINGERPRINT). An extensible type
/// has one entry per version, from 1 to its highest `since` (a version
/// that added nothing repeats the one before it); any other type has one
/// entry. Pin the released ones with `#[marshal(extensible, history = [...])]`
/// and the build fails when a released version's fields change.
///
/// ```
/// use marshal::{Marshal, fingerprint};
///
/// #[derive(Marshal)]
/// #[marshal(extensible)]
/// struct User {
///     id: u64,
///     #[marshal(since = 2, default)]
///     email: Option<String>,
///     #[marshal(since = 4, default)]
///     score: u32,
/// }
///
/// #[derive(Marshal)]
/// #[marshal(extensible)]
/// struct UserV1 {
///     id: u64,
/// }
///
/// let history = fingerprint::history::<User>();
/// assert_eq!(history.len(), 4);
/// assert_eq!(history[0], User::FINGERPRINT);
/// assert_eq!(history[0], UserV1::FINGERPRINT); // appending keeps it
/// assert_ne!(history[1], history[0]);
/// assert_eq!(history[2], history[1]); // version 3 added nothing
/// assert_ne!(history[3], history[2]);
///
/// assert_eq!(fingerprint::history::<u32>(), [u32::FINGERPRINT]);
/// ```
#[must_use]
pub const fn history<T: Marshal + ?Sized>() -> &'static [u64] {
    T::__HISTORY
}

/// A value preceded by its type's [`FINGERPRINT`](Marshal::FINGERPRINT) as
/// a little-endian `u64`. Decoding checks the fingerprint before the value.
///
/// ```
/// use marshal::fingerprint::Fingerprinted;
/// use marshal::{DecodeErrorKind, Marshal};
///
/// let bytes = marshal::to_vec(&Fingerprinted(7u32));
/// assert_eq!(bytes.len(), 8 + 4);
/// let Fingerprinted(v): Fingerprinted<u32> = marshal::from_bytes(&bytes).unwrap();
/// assert_eq!(v, 7);
///
/// let err = marshal::from_bytes::<Fingerprinted<i32>>(&bytes).unwrap_err();
/// assert!(matches!(err.kind(), DecodeErrorKind::FingerprintMismatch { .. }));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Fingerprinted<T>(pub T);

impl<T: Marshal> Marshal for Fingerprinted<T> {
    const FIXED_LEN: Option<usize> = crate::len::add(Some(8), T::FIXED_LEN);
    const MAX_LEN: Option<usize> = crate::len::add(Some(8), T::MAX_LEN);
    const FINGERPRINT: u64 = mix(leaf("fingerprinted"), T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        8 + self.0.encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(T::FINGERPRINT.to_le_bytes())?;
        self.0.encode(w)
    }
}

impl<'de, T: Marshal + Unmarshal<'de>> Unmarshal<'de> for Fingerprinted<T> {
    const MIN_LEN: usize = 8usize.saturating_add(T::MIN_LEN);
    const MIN_LEN_IS_EXACT: bool = T::MIN_LEN_IS_EXACT;
    const __DECODE_STACK: usize = crate::stack::fields(&[crate::nesting::field_of::<T>()]);

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let at = r.position();
        let found = u64::from_le_bytes(r.take_array()?);
        if found != T::FINGERPRINT {
            return Err(DecodeError::fingerprint_mismatch(found, at));
        }
        T::decode(r).map(Fingerprinted)
    }
}

/// Writes `value` preceded by its fingerprint into `buf`, returning the
/// bytes written; see [`Marshal::write_to`] for when it panics.
///
/// ```
/// let mut buf = [0u8; 16];
/// let n = marshal::fingerprint::write_to(&1u16, &mut buf);
/// assert_eq!(n, 10);
/// assert_eq!(marshal::fingerprint::from_bytes::<u16>(&buf[..n]).unwrap(), 1);
/// ```
#[track_caller]
pub fn write_to<T: Marshal>(value: &T, buf: &mut [u8]) -> usize {
    Fingerprinted(value).write_to(buf)
}

/// Encodes `value` preceded by its fingerprint into a new `Vec`.
///
/// ```
/// let bytes = marshal::fingerprint::to_vec(&"hi");
/// assert_eq!(bytes.len(), 8 + 8 + 2);
/// ```
#[cfg(feature = "alloc")]
pub fn to_vec<T: Marshal>(value: &T) -> alloc::vec::Vec<u8> {
    crate::to_vec(&Fingerprinted(value))
}

/// Decodes a value written by [`write_to`] or [`to_vec`], rejecting data
/// written under another fingerprint with
/// [`FingerprintMismatch`](crate::DecodeErrorKind::FingerprintMismatch).
///
/// ```
/// use marshal::DecodeErrorKind;
///
/// let bytes = marshal::fingerprint::to_vec(&(1u8, 2u8));
/// assert_eq!(marshal::fingerprint::from_bytes::<(u8, u8)>(&bytes).unwrap(), (1, 2));
///
/// let err = marshal::fingerprint::from_bytes::<u16>(&bytes).unwrap_err();
/// assert!(matches!(err.kind(), DecodeErrorKind::FingerprintMismatch { .. }));
/// assert!(err.to_string().starts_with("fingerprint mismatch"));
/// ```
pub fn from_bytes<'de, T: Marshal + Unmarshal<'de>>(input: &'de [u8]) -> Result<T, DecodeError> {
    crate::from_bytes::<Fingerprinted<T>>(input).map(|f| f.0)
}
