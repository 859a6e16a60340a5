//! smallvec's `SmallVec` (feature `smallvec`).

use ::smallvec::{Array, SmallVec};

use crate::error::{DecodeError, Overflow};
use crate::fingerprint as fp;
use crate::impls::nest_unless_fixed;
use crate::reader::Reader;
use crate::stack::Container;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// A sequence, as smallvec's `serde` support writes it and as for `Vec`: a
/// `u64` count, then the items. Runs of memcpy-equivalent items are one
/// copy.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
/// use smallvec::{smallvec, SmallVec};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Path { hops: SmallVec<[u16; 4]> }
///
/// let path = Path { hops: smallvec![1, 2, 3] };
/// let bytes = marshal::to_vec(&path);
/// assert_eq!(bytes, marshal::to_vec(&vec![1u16, 2, 3]));
/// let back: Path = marshal::from_bytes(&bytes)?;
/// assert_eq!(back, path);
/// assert!(!back.hops.spilled()); // three items fit inline
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<A: Array> Marshal for SmallVec<A>
where
    A::Item: Marshal,
{
    const FINGERPRINT: u64 = fp::seq(<A::Item as Marshal>::FINGERPRINT);

    #[inline]
    fn encoded_len(&self) -> usize {
        self.as_slice().encoded_len()
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.as_slice().encode(w)
    }
}

/// Decoded as a `Vec` is: the length checked against the input first, one
/// level of the depth limit, and under an allocation budget the spilled
/// items charged before they are allocated. Up to the inline capacity, the
/// items are decoded in place and nothing is allocated.
///
/// ```
/// use marshal::DecodeErrorKind;
/// use smallvec::SmallVec;
///
/// let bytes = marshal::to_vec(&vec![7u32; 6]);
/// let v: SmallVec<[u32; 2]> = marshal::from_bytes(&bytes)?;
/// assert!(v.spilled());
///
/// // Spilled: 6 × 4 bytes, charged before they are allocated.
/// let err = marshal::from_bytes_limited::<SmallVec<[u32; 2]>>(&bytes, 23).unwrap_err();
/// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 23 });
/// // Inline: nothing to charge.
/// let v: SmallVec<[u32; 8]> = marshal::from_bytes_limited(&bytes, 0)?;
/// assert_eq!(v.len(), 6);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
impl<'de, A: Array> Unmarshal<'de> for SmallVec<A>
where
    A::Item: Unmarshal<'de>,
{
    const MIN_LEN: usize = 8;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        nest_unless_fixed::<A::Item, _>(r, const { Container::SEQUENCE.levels::<A::Item>() }, |r| {
            let len = r.take_len(<A::Item as Unmarshal>::MIN_LEN)?;
            if len > A::size() {
                // The items spill: decode them as a `Vec`, whose buffer
                // the `SmallVec` takes over.
                return <A::Item as Unmarshal>::decode_vec(r, len).map(SmallVec::from_vec);
            }
            let mut items = SmallVec::new();
            for _ in 0..len {
                items.push(<A::Item as Unmarshal>::decode(r)?);
            }
            Ok(items)
        })
    }
}

/// In every `Encoding`: the items in the configuration, decoded as above.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, UnmarshalIn};

    super::super::slice_in! {
        [A: Array] SmallVec<A> => A::Item;
    }

    impl<'de, E: Endian, I: IntEncoding, A: Array> UnmarshalIn<'de, Encoding<E, I>> for SmallVec<A>
    where
        A::Item: UnmarshalIn<'de, Encoding<E, I>>,
    {
        const MIN_LEN_IN: usize = <u64 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

        #[inline]
        fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
            r.nest_levels(
                const { Container::SEQUENCE.levels_of_value::<A::Item>() },
                |r| {
                    let len = crate::impls::dialect::take_len::<E, I>(r, A::Item::MIN_LEN_IN)?;
                    if len > A::size() {
                        // The items spill: into a `Vec` as for one, whose buffer
                        // the `SmallVec` takes over.
                        let mut items =
                            alloc::vec::Vec::with_capacity(r.try_capacity_for::<A::Item>(len)?);
                        for _ in 0..len {
                            items.push(A::Item::decode_in(r)?);
                        }
                        return Ok(SmallVec::from_vec(items));
                    }
                    let mut items = SmallVec::new();
                    for _ in 0..len {
                        items.push(A::Item::decode_in(r)?);
                    }
                    Ok(items)
                },
            )
        }
    }
}
