//! The estimates of [`stack`](crate::stack) for `Unmarshal` types, read from
//! their constants: what a container charges for a level around a type's
//! values, and a type's field in a decoder's frame. They sit apart from
//! `stack`, which the reader uses and which so names no trait.

use crate::stack::{self, Container, Field};
use crate::traits::Unmarshal;

impl Container {
    /// Units charged for a level of this container around a `T`.
    #[must_use]
    // Used by the containers of the `alloc` and `bumpalo` features.
    #[cfg(any(feature = "alloc", feature = "bumpalo"))]
    pub(crate) const fn levels<'de, T: Unmarshal<'de>>(self) -> u32 {
        self.charge::<T>(T::__DECODE_STACK)
    }

    /// Units charged for a level of a map from `K` to `V`, which decodes
    /// each key and value in turn.
    #[must_use]
    // Used by the containers of the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub(crate) const fn levels_of_entry<'de, K: Unmarshal<'de>, V: Unmarshal<'de>>(self) -> u32 {
        self.charge::<(K, V)>(nested::<K>().saturating_add(nested::<V>()))
    }
}

/// The stack `T`'s decode takes on the way to a deeper level: none if it is
/// fixed-size, since then no deeper level is inside it.
// Used by the containers of the `alloc` feature.
#[cfg(feature = "alloc")]
const fn nested<'de, T: Unmarshal<'de>>() -> usize {
    if T::MIN_LEN_IS_EXACT {
        0
    } else {
        T::__DECODE_STACK
    }
}

/// A field decoded by `T`'s [`Unmarshal`].
#[must_use]
pub(crate) const fn field_of<'de, T: Unmarshal<'de>>() -> Field {
    stack::field(size_of::<T>(), T::MIN_LEN_IS_EXACT, T::__DECODE_STACK)
}

/// `[T; N]` of a `T` that can nest: the array as it is built, several
/// times, and one element's decode.
#[must_use]
pub(crate) const fn array<'de, T: Unmarshal<'de>, const N: usize>() -> usize {
    stack::array(size_of::<[T; N]>(), field_of::<T>())
}
