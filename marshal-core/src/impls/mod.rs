//! `Marshal` for the standard library's types.

#[cfg(feature = "alloc")]
mod collections;
pub(crate) mod dialect;
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
#[cfg(any(feature = "alloc", feature = "bumpalo"))]
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

/// `len` values of `T` whose bytes are their memory (`layout`, `T`'s in the
/// dialect being read, says so), in one copy: the allocation charged to
/// the budget first, then the bytes taken, as item-by-item decoding would
/// charge and take them. The length was checked against the input
/// already, so for an honest layout the bytes are there.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn vec_from_run<T>(
    r: &mut crate::Reader<'_>,
    layout: crate::mem::Layout<T>,
    len: usize,
) -> Result<alloc::vec::Vec<T>, crate::DecodeError> {
    let size = len.saturating_mul(core::mem::size_of::<T>());
    r.charge_alloc(size)?;
    let bytes = r.take(size)?;
    Ok(crate::mem::vec_from_memory(layout, bytes))
}

/// `N` values of `T` whose bytes are their memory (`layout`, `T`'s in the
/// dialect being read, says so), with one check and one copy: input too
/// short for all of them is refused at their start.
#[inline]
pub(crate) fn array_from_run<T, const N: usize>(
    r: &mut crate::Reader<'_>,
    layout: crate::mem::Layout<T>,
) -> Result<[T; N], crate::DecodeError> {
    let bytes = r.take(N.saturating_mul(core::mem::size_of::<T>()))?;
    Ok(crate::mem::array_from_memory(layout, bytes))
}

/// Appends `len` values of `T` to `out`, each decoded in dialect `D` in
/// place in its spare capacity (`UnmarshalIn::__decode_in_place`: in
/// `Legacy`, `Unmarshal::__decode_in`); past what its decoder reserved, a
/// value is decoded first and the `Vec` grown only for one that decoded.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn extend_decoded<'de, D, T>(
    out: &mut alloc::vec::Vec<T>,
    len: usize,
    r: &mut crate::Reader<'de>,
) -> Result<(), crate::DecodeError>
where
    D: crate::config::Dialect,
    T: crate::config::UnmarshalIn<'de, D>,
{
    let mut left = len;
    loop {
        let n = left.min(out.capacity() - out.len());
        crate::mem::extend_built(out, n, |place| T::__decode_in_place(r, place))?;
        left -= n;
        if left == 0 {
            return Ok(());
        }
        // Through a copy of the reader: `r` itself, whose address is never
        // passed to a function out of line, can stay in registers.
        r.local(|r| push_decoded::<D, T>(out, r))?;
        left -= 1;
    }
}

/// Pushes one decoded value to a full `Vec`: out of line, since decoders
/// reserve room for the values they expect.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn push_decoded<'de, D, T>(
    out: &mut alloc::vec::Vec<T>,
    r: &mut crate::Reader<'de>,
) -> Result<(), crate::DecodeError>
where
    D: crate::config::Dialect,
    T: crate::config::UnmarshalIn<'de, D>,
{
    out.push(T::decode_in(r)?);
    Ok(())
}
