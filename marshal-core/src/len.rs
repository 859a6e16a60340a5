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
