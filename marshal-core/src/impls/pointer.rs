//! References and smart pointers encode as the value they point to.

use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

macro_rules! deref_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            const FIXED_LEN: Option<usize> = T::FIXED_LEN;
            const MAX_LEN: Option<usize> = T::MAX_LEN;

            #[inline]
            fn encoded_len(&self) -> usize {
                T::encoded_len(self)
            }

            #[inline]
            fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                T::encode(self, w)
            }
        }
    )*};
}

deref_impls! {
    ['a, T: Marshal + ?Sized] &'a T;
    ['a, T: Marshal + ?Sized] &'a mut T;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::boxed::Box<T>;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::rc::Rc<T>;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::sync::Arc<T>;
    #[cfg(feature = "alloc")]
    ['a, T: Marshal + alloc::borrow::ToOwned + ?Sized] alloc::borrow::Cow<'a, T>;
}
