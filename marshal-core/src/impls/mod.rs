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
