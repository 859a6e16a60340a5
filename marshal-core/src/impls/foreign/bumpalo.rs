//! bumpalo's `Vec`, `String` and `Box` (feature `bumpalo`): the bytes of
//! the standard library's `Vec`, `String` and `Box`, decoded into the
//! arena that the reader carries ([`Reader::with_arena`]).

use bumpalo::Bump;
use bumpalo::boxed::Box;
use bumpalo::collections::{String, Vec};

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::impls::nest_unless_fixed;
use crate::impls::seq::{LEN_PREFIX, take_string};
use crate::reader::Reader;
use crate::stack::Container;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// A sequence, as for `Vec`: a `u64` count, then the items.
///
/// ```
/// use bumpalo::{Bump, collections::Vec};
/// use marshal::Marshal;
///
/// let bump = Bump::new();
/// let v = bumpalo::vec![in &bump; 1u32, 2, 3];
/// assert_eq!(marshal::to_vec(&v), marshal::to_vec(&vec![1u32, 2, 3]));
/// assert_eq!(Vec::<u32>::FINGERPRINT, <std::vec::Vec<u32>>::FINGERPRINT);
/// ```
impl<T: Marshal> Marshal for Vec<'_, T> {
    const FINGERPRINT: u64 = fp::seq(T::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        <[T]>::encoded_len(self)
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        <[T]>::encode(self, w)
    }
}

/// A string, as for `String`: a `u64` byte count, then the UTF-8 bytes.
impl Marshal for String<'_> {
    const FINGERPRINT: u64 = <str as Marshal>::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_str().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_str().encode(w)
    }
}

/// The value it points to, as for `Box`; like `Box`, it reports no
/// `FIXED_LEN` or `MAX_LEN`, so that types recurse through it.
impl<T: Marshal + ?Sized> Marshal for Box<'_, T> {
    const FINGERPRINT: u64 = T::FINGERPRINT;

    #[inline]
    fn encoded_len(&self) -> usize {
        T::encoded_len(self)
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        T::encode(self, w)
    }
}

/// The reader's arena, or a [`NoArena`](crate::DecodeErrorKind::NoArena)
/// error for `ty` where the value starts.
#[inline]
fn arena<'de>(r: &Reader<'de>, ty: &'static &'static str) -> Result<&'de Bump, DecodeError> {
    match r.arena() {
        Some(bump) => Ok(bump),
        None => Err(DecodeError::no_arena(ty, r.position())),
    }
}

/// Decoded as a `Vec` is, into the reader's arena: the length checked
/// against the input first, one level of the depth limit (none for
/// fixed-size items), room for the items allocated ahead of them only as
/// [`Reader::try_capacity_for`] allows (all of them, charged, under an
/// allocation budget).
///
/// ```
/// use bumpalo::{Bump, collections::Vec};
/// use marshal::{DecodeErrorKind, Reader, Unmarshal};
///
/// let bytes = marshal::to_vec(&vec![vec![1u8], vec![2, 3]]);
/// let bump = Bump::new();
/// let v = Vec::<Vec<u8>>::decode(&mut Reader::new(&bytes).with_arena(&bump))?;
/// assert_eq!(v, [&[1][..], &[2, 3]]);
///
/// // Without an arena: an error where the value starts.
/// let err = Vec::<Vec<u8>>::decode(&mut Reader::new(&bytes)).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::NoArena { ty: "bumpalo::collections::Vec" });
/// assert_eq!(err.offset(), 0);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de: 'b, 'b, T: Unmarshal<'de>> Unmarshal<'de> for Vec<'b, T> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let bump = arena(r, &"bumpalo::collections::Vec")?;
        nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
            let len = r.take_len(T::MIN_LEN)?;
            let mut items = Vec::new_in(bump);
            let capacity = r.try_capacity_for::<T>(len)?;
            if items.try_reserve_exact(capacity).is_err() {
                return Err(DecodeError::arena_full(r.position()));
            }
            // Fixed-size items: one check for the run, then each item
            // reads from exactly its share.
            if T::MIN_LEN_IS_EXACT && T::MIN_LEN > 0 {
                let mut run = r.split(len.saturating_mul(T::MIN_LEN))?;
                for _ in 0..len {
                    let at = run.position();
                    push(&mut items, T::decode(&mut run)?, at)?;
                }
                return Ok(items);
            }
            for _ in 0..len {
                let at = r.position();
                push(&mut items, T::decode(r)?, at)?;
            }
            Ok(items)
        })
    }
}

/// Pushes `item`, which starts at `at`, growing `items` when it is full
/// (only past the room [`Reader::try_capacity_for`] allowed ahead of the
/// items), or fails with `ArenaFull` when the arena cannot grow it.
#[inline]
fn push<T>(items: &mut Vec<'_, T>, item: T, at: usize) -> Result<(), DecodeError> {
    if items.len() == items.capacity() && items.try_reserve(1).is_err() {
        return Err(DecodeError::arena_full(at));
    }
    items.push(item);
    Ok(())
}

/// Decoded as a `String` is, into the reader's arena: the bytes are
/// checked once, then copied into one arena allocation of exactly their
/// length, which is what the allocation budget is charged.
///
/// ```
/// use bumpalo::{Bump, collections::String};
/// use marshal::{Reader, Unmarshal};
///
/// let bytes = marshal::to_vec("héllo");
/// let bump = Bump::new();
/// let s = String::decode(&mut Reader::new(&bytes).with_arena(&bump))?;
/// assert_eq!(s, "héllo");
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de: 'b, 'b> Unmarshal<'de> for String<'b> {
    const MIN_LEN: usize = LEN_PREFIX;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let bump = arena(r, &"bumpalo::collections::String")?;
        let (window, len, at) = take_string(r)?;
        r.charge_at(len, at)?;
        let s = crate::mem::str_at_start(window, len).ok_or(DecodeError::invalid_utf8(at))?;
        crate::mem::string_in(s, bump).ok_or(DecodeError::arena_full(at))
    }
}

/// Decoded as a `Box` is, into the reader's arena: one level of the depth
/// limit (none for a fixed-size value), the value's size charged to the
/// allocation budget before it decodes.
///
/// ```
/// use bumpalo::{Bump, boxed::Box, collections::String};
/// use marshal::{Reader, Unmarshal};
///
/// let bytes = marshal::to_vec(&std::boxed::Box::new((7u8, "x")));
/// let bump = Bump::new();
/// let b = Box::<(u8, String)>::decode(&mut Reader::new(&bytes).with_arena(&bump))?;
/// assert_eq!((b.0, b.1.as_str()), (7, "x"));
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de: 'b, 'b, T: Unmarshal<'de>> Unmarshal<'de> for Box<'b, T> {
    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let bump = arena(r, &"bumpalo::boxed::Box")?;
        nest_unless_fixed::<T, _>(r, const { Container::POINTER.levels::<T>() }, |r| {
            let at = r.position();
            r.charge_alloc(core::mem::size_of::<T>())?;
            crate::mem::box_with(bump, || DecodeError::arena_full(at), || T::decode(r))
        })
    }
}
