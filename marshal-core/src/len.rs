//! Const arithmetic on encoded lengths: how the length constants
//! (`FIXED_LEN`, `MAX_LEN`, `MIN_LEN`, `MIN_LEN_IS_EXACT`) of a compound type
//! are folded from its parts', by the implementations here and, through
//! `__private`, by derived ones. `None` is an unknown (or unbounded) length.

/// `a + b`, or `None` when either is unknown or the sum overflows.
#[must_use]
pub const fn add(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => a.checked_add(b),
        _ => None,
    }
}

/// `a * n`; `Some(0)` when `n == 0` whatever `a` is.
#[must_use]
pub(crate) const fn mul(a: Option<usize>, n: usize) -> Option<usize> {
    if n == 0 {
        return Some(0);
    }
    match a {
        Some(a) => a.checked_mul(n),
        None => None,
    }
}

/// The sum of all lengths, `None` if any is `None`.
#[must_use]
pub const fn sum(lens: &[Option<usize>]) -> Option<usize> {
    let mut acc = Some(0);
    let mut i = 0;
    while i < lens.len() {
        acc = add(acc, lens[i]);
        i += 1;
    }
    acc
}

/// The saturating sum of minimum lengths.
#[must_use]
pub const fn min_sum(lens: &[usize]) -> usize {
    let mut acc: usize = 0;
    let mut i = 0;
    while i < lens.len() {
        acc = acc.saturating_add(lens[i]);
        i += 1;
    }
    acc
}

/// A type's [`FIXED_LEN`](crate::Marshal::FIXED_LEN) and
/// [`MAX_LEN`](crate::Marshal::MAX_LEN) together (`Marshal::__SIZES`): a
/// derived struct folds its fields' into its own with one list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// The fixed length, if any.
    pub fixed: Option<usize>,
    /// The bound on the length, if any.
    pub max: Option<usize>,
}

impl Sizes {
    /// A field whose sizes its type does not give: one encoded `with` a
    /// module, or naming the type being derived.
    pub const UNKNOWN: Sizes = Sizes {
        fixed: None,
        max: None,
    };

    /// The sizes of `fields` one after another.
    #[must_use]
    pub const fn sum(fields: &[Sizes]) -> Sizes {
        let mut acc = Sizes {
            fixed: Some(0),
            max: Some(0),
        };
        let mut i = 0;
        while i < fields.len() {
            acc.fixed = add(acc.fixed, fields[i].fixed);
            acc.max = add(acc.max, fields[i].max);
            i += 1;
        }
        acc
    }
}

/// What a derived struct's decoder reads of a field's type
/// (`Unmarshal::__PART`): its [`MIN_LEN`](crate::Unmarshal::MIN_LEN),
/// [`MIN_LEN_IS_EXACT`](crate::Unmarshal::MIN_LEN_IS_EXACT) and stack
/// (`Unmarshal::__STACK_FIELD`), so that one list of the fields gives the
/// struct's three constants (see [`Part::sum`]).
#[derive(Clone, Copy)]
pub struct Part {
    min: usize,
    exact: bool,
    stack: crate::stack::Field,
}

/// The fields of a derived struct, summed (`Unmarshal::__PARTS`): its
/// `MIN_LEN`, `MIN_LEN_IS_EXACT` and `__DECODE_STACK`; or the same of a
/// derived enum, from its variants' fields.
#[derive(Clone, Copy)]
pub struct Parts {
    /// The fewest bytes the fields take (saturating).
    pub min: usize,
    /// Whether every value of every field takes exactly its fewest bytes.
    pub exact: bool,
    /// The stack the struct's decoder takes on the way to a deeper level.
    pub stack: usize,
}

impl Parts {
    /// `Unmarshal::__PARTS` by default: a derived enum's from its
    /// `variants`, else a derived struct's from its `fields`.
    #[must_use]
    pub const fn of(
        fields: &[crate::trace::Named<'_>],
        variants: crate::trace::Variants<'_>,
    ) -> Parts {
        match variants.parts() {
            Some(parts) => parts,
            None => Part::named(fields),
        }
    }
}

impl Part {
    /// The part of a field of type `T`.
    #[must_use]
    pub(crate) const fn of<'de, T: crate::Unmarshal<'de>>() -> Part {
        Part {
            min: T::MIN_LEN,
            exact: T::MIN_LEN_IS_EXACT,
            stack: T::__STACK_FIELD,
        }
    }

    /// A field whose length its type does not give, as it names the type
    /// being derived: no fewest bytes, not exact, its type's stack.
    #[must_use]
    pub const fn unsized_field(stack: crate::stack::Field) -> Part {
        Part {
            min: 0,
            exact: false,
            stack,
        }
    }

    /// A field decoded `with` a module: no fewest bytes, not exact, the
    /// stack of a value of `T` on the frame.
    #[must_use]
    pub const fn with_module<T>() -> Part {
        Self::unsized_field(crate::stack::opaque_field::<T>())
    }

    /// A field not encoded (it takes its default): no bytes at all, and
    /// the stack of a value of `T` on the frame.
    #[must_use]
    pub const fn skipped<T>() -> Part {
        Part {
            min: 0,
            exact: true,
            stack: crate::stack::opaque_field::<T>(),
        }
    }

    /// The fields of a struct, in order: `MIN_LEN` the sum of theirs,
    /// exact when each is, and the stack of a frame decoding them in turn
    /// (`stack::fields`).
    #[must_use]
    pub const fn sum(fields: &[Part]) -> Parts {
        let mut parts = Parts {
            min: 0,
            exact: true,
            stack: crate::stack::FRAME,
        };
        let mut i = 0;
        while i < fields.len() {
            parts = fields[i].add_to(parts);
            i += 1;
        }
        parts
    }

    /// [`Part::sum`] of the parts of fields listed with their sites
    /// (`Unmarshal::__FIELDS`).
    #[must_use]
    pub const fn named(fields: &[crate::trace::Named<'_>]) -> Parts {
        let mut parts = Part::sum(&[]);
        let mut i = 0;
        while i < fields.len() {
            parts = fields[i].part.add_to(parts);
            i += 1;
        }
        parts
    }

    /// Whether a deeper level can be decoded inside one of `fields`.
    pub(crate) const fn nests(fields: &[crate::trace::Named<'_>]) -> bool {
        let mut i = 0;
        while i < fields.len() {
            if fields[i].part.stack.nests() {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `parts` and then this field.
    const fn add_to(self, parts: Parts) -> Parts {
        Parts {
            min: parts.min.saturating_add(self.min),
            exact: parts.exact && self.exact,
            stack: self.stack.add_to(parts.stack),
        }
    }
}

/// `len` less `n` bytes: an extensible struct's fields' fixed length, from
/// its `FIXED_LEN`, which counts the `n` bytes of its body's length too.
#[must_use]
pub const fn less(len: Option<usize>, n: usize) -> Option<usize> {
    match len {
        Some(len) => Some(len.saturating_sub(n)),
        None => None,
    }
}

/// A derived enum's `FIXED_LEN`: `head` bytes (its tag, and an extensible
/// enum's body length) and the fields of its variants, whose fixed lengths
/// are `variants` (`Marshal::__VARIANT_FIXED`), each the same; `None` when a
/// variant has none, when the variants differ, or for an enum without
/// variants.
#[must_use]
pub const fn fixed_len(head: usize, variants: &[Option<usize>]) -> Option<usize> {
    if variants.is_empty() {
        return None;
    }
    let first = variants[0];
    let mut i = 1;
    while i < variants.len() {
        match (variants[i], first) {
            (Some(n), Some(f)) if n == f => {}
            _ => return None,
        }
        i += 1;
    }
    add(Some(head), first)
}

/// A derived type's `MAX_LEN`: `head` bytes and the longest of its
/// variants' fields; `None` when a field is unbounded, or for an enum
/// without variants.
#[must_use]
pub const fn max_len(head: usize, variants: &[&[Option<usize>]]) -> Option<usize> {
    if variants.is_empty() {
        return None;
    }
    let mut acc = 0;
    let mut i = 0;
    while i < variants.len() {
        match sum(variants[i]) {
            Some(n) if n > acc => acc = n,
            Some(_) => {}
            None => return None,
        }
        i += 1;
    }
    add(Some(head), Some(acc))
}

/// A derived type's `MIN_LEN`: `head` bytes and the shortest of its
/// variants' fields' `MIN_LEN`s (0 for an enum without variants).
#[must_use]
pub const fn min_len(head: usize, variants: &[&[usize]]) -> usize {
    let mut acc = 0;
    let mut i = 0;
    while i < variants.len() {
        let n = min_sum(variants[i]);
        if i == 0 || n < acc {
            acc = n;
        }
        i += 1;
    }
    head + acc
}

/// A derived type's `MIN_LEN_IS_EXACT`, from its variants' fields'
/// `Unmarshal::__EXACT_LEN`s (a struct's one variant): every field exact, and every
/// variant the same length; `false` for an enum without variants.
#[must_use]
pub const fn is_exact(variants: &[&[Option<usize>]]) -> bool {
    if variants.is_empty() {
        return false;
    }
    let mut first = 0;
    let mut i = 0;
    while i < variants.len() {
        let fields = variants[i];
        let mut len: usize = 0;
        let mut j = 0;
        while j < fields.len() {
            match fields[j] {
                Some(n) => len = len.saturating_add(n),
                None => return false,
            }
            j += 1;
        }
        if i == 0 {
            first = len;
        } else if len != first {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stack;

    #[test]
    fn sizes_sum_each_constant_as_sum_does() {
        let fields = [
            Sizes {
                fixed: Some(8),
                max: Some(8),
            },
            Sizes {
                fixed: None,
                max: Some(5),
            },
        ];
        assert_eq!(
            Sizes::sum(&fields),
            Sizes {
                fixed: None,
                max: Some(13)
            }
        );
        assert_eq!(
            Sizes::sum(&[]),
            Sizes {
                fixed: Some(0),
                max: Some(0)
            }
        );
        assert_eq!(Sizes::sum(&[fields[0], Sizes::UNKNOWN]), Sizes::UNKNOWN);
        let huge = Sizes {
            fixed: Some(usize::MAX),
            max: Some(usize::MAX),
        };
        assert_eq!(Sizes::sum(&[huge, fields[0]]), Sizes::UNKNOWN);
    }

    #[test]
    fn parts_sum_as_min_sum_and_stack_fields_do() {
        let (a, b) = (Part::of::<u64>(), Part::of::<Option<u32>>());
        let parts = Part::sum(&[a, b, Part::skipped::<[u8; 64]>()]);
        assert_eq!(parts.min, min_sum(&[8, 1]));
        assert!(!parts.exact);
        assert_eq!(
            parts.stack,
            stack::fields(&[a.stack, b.stack, stack::opaque_field::<[u8; 64]>()])
        );
        // Exact only when every field is; a skipped field takes no bytes.
        let exact = Part::sum(&[a, Part::skipped::<u8>()]);
        assert_eq!((exact.min, exact.exact), (8, true));
        let with = Part::sum(&[a, Part::with_module::<u8>()]);
        assert_eq!((with.min, with.exact), (8, false));
        let none = Part::sum(&[]);
        assert_eq!((none.min, none.exact, none.stack), (0, true, stack::FRAME));
        let huge = Part {
            min: usize::MAX,
            ..a
        };
        assert_eq!(Part::sum(&[huge, a]).min, usize::MAX);
    }
}
