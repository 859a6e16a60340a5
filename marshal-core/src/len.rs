//! Const arithmetic on encoded lengths: how the length constants
//! (`FIXED_LEN`, `MAX_LEN`, `MIN_LEN`, `MIN_LEN_IS_EXACT`) of a compound type
//! are folded from its parts', by the implementations here and, through
//! `__private`, by derived ones. `None` is an unknown (or unbounded) length.

/// The sum of the known lengths (saturating), the unknown ones counting 0:
/// the part of a variant's length that does not depend on the value.
#[must_use]
pub const fn known_sum(lens: &[Option<usize>]) -> usize {
    let mut acc: usize = 0;
    let mut i = 0;
    while i < lens.len() {
        if let Some(n) = lens[i] {
            acc = acc.saturating_add(n);
        }
        i += 1;
    }
    acc
}

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

/// The largest of the lengths, `None` if any is `None` or there are none.
#[must_use]
pub const fn max(lens: &[Option<usize>]) -> Option<usize> {
    if lens.is_empty() {
        return None;
    }
    let mut acc = 0;
    let mut i = 0;
    while i < lens.len() {
        match lens[i] {
            Some(n) if n > acc => acc = n,
            Some(_) => {}
            None => return None,
        }
        i += 1;
    }
    Some(acc)
}

/// The common length if every entry is the same `Some(n)`, else `None`.
#[must_use]
pub const fn same(lens: &[Option<usize>]) -> Option<usize> {
    if lens.is_empty() {
        return None;
    }
    let Some(first) = lens[0] else {
        return None;
    };
    let mut i = 1;
    while i < lens.len() {
        match lens[i] {
            Some(n) if n == first => {}
            _ => return None,
        }
        i += 1;
    }
    Some(first)
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

/// The smallest of the minimum lengths, 0 if there are none.
#[must_use]
pub const fn min_of(lens: &[usize]) -> usize {
    if lens.is_empty() {
        return 0;
    }
    let mut acc = lens[0];
    let mut i = 1;
    while i < lens.len() {
        if lens[i] < acc {
            acc = lens[i];
        }
        i += 1;
    }
    acc
}

/// Whether an enum whose variants have these `(MIN_LEN, MIN_LEN_IS_EXACT)`
/// always encodes to the same length: every variant exact, all equal.
#[must_use]
pub const fn same_exact(variants: &[(usize, bool)]) -> bool {
    if variants.is_empty() {
        return false;
    }
    let first = variants[0].0;
    let mut i = 0;
    while i < variants.len() {
        if !variants[i].1 || variants[i].0 != first {
            return false;
        }
        i += 1;
    }
    true
}
