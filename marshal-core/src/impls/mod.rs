//! `Marshal` for the standard library's types.

#[cfg(feature = "alloc")]
mod collections;
mod foreign;
mod net;
mod pointer;
mod primitive;
pub(crate) mod seq;
mod time;

/// Runs `f`, which decodes a collection or box of `T`, one nesting level
/// deeper ([`Reader::nest`]), charged `levels`: the units of the depth
/// limit for the stack that the container's decode and `T`'s may take at
/// that level (`Container::levels`). Unless `T` is fixed-size: such a
/// value holds no collection or box, so it cannot recurse.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn nest_unless_fixed<'de, T: crate::Unmarshal<'de>, R>(
    r: &mut crate::Reader<'de>,
    levels: u32,
    f: impl FnOnce(&mut crate::Reader<'de>) -> Result<R, crate::DecodeError>,
) -> Result<R, crate::DecodeError> {
    if T::MIN_LEN_IS_EXACT {
        f(r)
    } else {
        r.nest_levels(levels, f)
    }
}

/// Decodes the next value of a `Vec` into its first spare slot, in place;
/// when the `Vec` is full (past what its decoder reserved), decodes the
/// value first and grows the `Vec` only for one that decoded.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn push_next<'de, T: crate::Unmarshal<'de>>(
    out: &mut alloc::vec::Vec<T>,
    r: &mut crate::Reader<'de>,
) -> Result<(), crate::DecodeError> {
    if !T::__IN_PLACE {
        out.push(T::decode(r)?);
        return Ok(());
    }
    if out.len() == out.capacity() {
        // Through a copy of the reader: `r` itself, whose address is never
        // passed to a function out of line, can stay in registers.
        return r.local(|r| push_decoded(out, r));
    }
    crate::mem::push_built(out, |place| T::__decode_in(r, place))
}

/// [`push_next`] into a full `Vec`: out of line, since decoders reserve
/// room for the values they expect.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn push_decoded<'de, T: crate::Unmarshal<'de>>(
    out: &mut alloc::vec::Vec<T>,
    r: &mut crate::Reader<'de>,
) -> Result<(), crate::DecodeError> {
    out.push(T::decode(r)?);
    Ok(())
}
