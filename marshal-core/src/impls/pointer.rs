//! References and smart pointers encode as the value they point to.
//!
//! `Box`, `Rc` and `Arc` are how types recurse, so their size constants do
//! not depend on the pointee: a constant that depended on itself could not be
//! computed. They report no `FIXED_LEN` or `MAX_LEN`, and `MIN_LEN` 0.
//! References and `Cow` forward the pointee's constants.

use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

/// `$consts` is `forward` to report the pointee's size constants, or
/// `opaque` to report none.
macro_rules! deref_impls {
    ($($(#[$cfg:meta])* [$($gen:tt)*] $ty:ty => $consts:ident;)*) => {$(
        $(#[$cfg])*
        impl<$($gen)*> Marshal for $ty {
            const FIXED_LEN: Option<usize> = size_consts!($consts FIXED_LEN);
            const MAX_LEN: Option<usize> = size_consts!($consts MAX_LEN);
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
    )*};
}

macro_rules! size_consts {
    (forward $name:ident) => {
        T::$name
    };
    (opaque $name:ident) => {
        None
    };
}

deref_impls! {
    ['a, T: Marshal + ?Sized] &'a T => forward;
    ['a, T: Marshal + ?Sized] &'a mut T => forward;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::boxed::Box<T> => opaque;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::rc::Rc<T> => opaque;
    #[cfg(feature = "alloc")]
    [T: Marshal + ?Sized] alloc::sync::Arc<T> => opaque;
    #[cfg(feature = "alloc")]
    ['a, T: Marshal + alloc::borrow::ToOwned + ?Sized] alloc::borrow::Cow<'a, T> => forward;
}

#[cfg(feature = "alloc")]
pub(crate) mod decode {
    use alloc::borrow::Cow;
    use alloc::boxed::Box;
    use alloc::rc::Rc;
    use alloc::sync::Arc;
    use alloc::vec::Vec;
    use core::alloc::{Layout, LayoutError};

    use crate::cow::CowUnmarshal;
    use crate::error::DecodeError;
    use crate::impls::nest_unless_fixed;
    use crate::impls::seq::{LEN_PREFIX, decode_str};
    use crate::mem::box_built;
    use crate::reader::Reader;
    use crate::stack::Container;
    use crate::trace::Trace;
    use crate::traits::Unmarshal;

    /// Smart pointers to sized values decode the value and wrap it; to
    /// `str` and `[T]`, a `&str` or a `Vec<T>` and convert it. Under an
    /// allocation budget, `$bytes` gives what the pointer's own allocation
    /// asks for (charged at the value's start, or for `str` and `[T]` at
    /// their contents', before it is made) and `$from_vec` what converting
    /// a `Vec` asks for beyond the `Vec`, which its decoder has charged.
    macro_rules! owning_pointer_impls {
        ($($ptr:ident => $bytes:ident, $from_vec:ident, $make:ident;)*) => {$(
            impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for $ptr<T> {
                #[inline]
                fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    nest_unless_fixed::<T, _>(r, const { Container::POINTER.levels::<T>() }, |r| {
                        r.charge_alloc($bytes(Ok(Layout::new::<T>())))?;
                        $make(r)
                    })
                }

                const __TRACES: bool = T::__TRACES;

                fn __trace(r: &mut Reader<'de>, t: &mut Trace) -> Result<(), DecodeError> {
                    nest_unless_fixed::<T, _>(r, const { Container::POINTER.levels::<T>() }, |r| {
                        r.charge_alloc($bytes(Ok(Layout::new::<T>())))?;
                        T::__trace(r, t)
                    })
                }
            }

            impl<'de> Unmarshal<'de> for $ptr<str> {
                const MIN_LEN: usize = LEN_PREFIX;

                #[inline]
                fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let s = decode_str(r)?;
                    r.charge_at($bytes(Layout::array::<u8>(s.len())), r.position() - s.len())?;
                    Ok($ptr::from(s))
                }
            }

            impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for $ptr<[T]> {
                const MIN_LEN: usize = LEN_PREFIX;

                #[inline]
                fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let start = r.position();
                    let items = Vec::<T>::decode(r)?;
                    r.charge_at($from_vec(&items), start + LEN_PREFIX)?;
                    Ok($ptr::from(items))
                }
            }
        )*};
    }

    owning_pointer_impls! {
        Box => boxed, boxed_from_vec, box_in_place;
        Rc => counted, counted_from_vec, rc_of_value;
        Arc => counted, counted_from_vec, arc_of_value;
    }

    /// A `Box<T>` whose value decodes straight into its allocation.
    #[inline(always)]
    fn box_in_place<'de, T: Unmarshal<'de>>(r: &mut Reader<'de>) -> Result<Box<T>, DecodeError> {
        if !T::__IN_PLACE {
            return T::decode(r).map(Box::new);
        }
        box_built(|place| T::__decode_in(r, place))
    }

    /// An `Rc<T>` of a decoded `T`.
    #[inline(always)]
    fn rc_of_value<'de, T: Unmarshal<'de>>(r: &mut Reader<'de>) -> Result<Rc<T>, DecodeError> {
        T::decode(r).map(Rc::new)
    }

    /// An `Arc<T>` of a decoded `T`.
    #[inline(always)]
    fn arc_of_value<'de, T: Unmarshal<'de>>(r: &mut Reader<'de>) -> Result<Arc<T>, DecodeError> {
        T::decode(r).map(Arc::new)
    }

    /// What `Box::new` and `Box::from(&str)` ask the allocator for to hold
    /// a value of `layout`: its size (nothing for zero-sized values).
    pub(crate) const fn boxed(layout: Result<Layout, LayoutError>) -> usize {
        match layout {
            Ok(layout) => layout.size(),
            Err(_) => usize::MAX,
        }
    }

    /// What `Rc` and `Arc` ask for to hold a value of `layout`: their
    /// strong and weak counts, then the value.
    pub(crate) const fn counted(layout: Result<Layout, LayoutError>) -> usize {
        match layout {
            Ok(layout) => match Layout::new::<[usize; 2]>().extend(layout) {
                Ok((inner, _)) => inner.pad_to_align().size(),
                Err(_) => usize::MAX,
            },
            Err(_) => usize::MAX,
        }
    }

    /// What `Box<[T]>::from(items)` asks for: nothing when `items` has no
    /// spare capacity (the box takes over its buffer, which is how the
    /// vector decodes under a budget), else the shrunk buffer.
    pub(crate) fn boxed_from_vec<T>(items: &Vec<T>) -> usize {
        if items.capacity() == items.len() {
            0
        } else {
            boxed(Layout::array::<T>(items.len()))
        }
    }

    /// What `Rc<[T]>::from(items)` and `Arc<[T]>::from(items)` ask for: a
    /// new allocation of the counts and the items, into which they move.
    pub(crate) fn counted_from_vec<T>(items: &[T]) -> usize {
        counted(Layout::array::<T>(items.len()))
    }

    impl<'de> CowUnmarshal<'de> for str {
        const MIN_LEN: usize = LEN_PREFIX;

        #[inline]
        fn decode_cow<'a>(r: &mut Reader<'de>) -> Result<Cow<'a, Self>, DecodeError>
        where
            'de: 'a,
        {
            decode_str(r).map(Cow::Borrowed)
        }
    }

    impl<'de, T: Unmarshal<'de> + Clone> CowUnmarshal<'de> for [T] {
        const MIN_LEN: usize = LEN_PREFIX;

        #[inline]
        fn decode_cow<'a>(r: &mut Reader<'de>) -> Result<Cow<'a, Self>, DecodeError>
        where
            'de: 'a,
        {
            nest_unless_fixed::<T, _>(r, const { Container::SEQUENCE.levels::<T>() }, |r| {
                let len = r.take_len(T::MIN_LEN)?;
                T::decode_cow_slice(r, len)
            })
        }
    }

    impl<'de, T: Unmarshal<'de> + Clone> CowUnmarshal<'de> for T {
        const MIN_LEN: usize = <T as Unmarshal>::MIN_LEN;
        const __DECODE_STACK: usize = crate::stack::fields(&[crate::nesting::field_of::<T>()]);

        #[inline]
        fn decode_cow<'a>(r: &mut Reader<'de>) -> Result<Cow<'a, Self>, DecodeError>
        where
            'de: 'a,
        {
            T::decode(r).map(Cow::Owned)
        }
    }

    impl<'de: 'a, 'a, T: CowUnmarshal<'de> + ?Sized> Unmarshal<'de> for Cow<'a, T> {
        const MIN_LEN: usize = T::MIN_LEN;
        const __DECODE_STACK: usize =
            crate::stack::value::<Self>().saturating_add(<T as CowUnmarshal>::__DECODE_STACK);

        #[inline]
        fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            T::decode_cow(r)
        }
    }
}
