//! The least allocation budget a decode succeeds under, found by bisection:
//! `alloc_budget`, `foreign_types` and `serde_bridge` check what decoding
//! asks of the allocator at that budget and below it.

use proptest::prop_assert;
use proptest::test_runner::TestCaseError;

use crate::counting::{lock, measure};

/// The least budget in `0..=max` under which `fits`, a decode under that
/// budget, succeeds, `fits` being monotone in the budget; `max` when no
/// smaller one does.
///
/// ```
/// use marshal_test_suite::budget::least_budget;
///
/// assert_eq!(least_budget(1000, |budget| budget >= 42), 42);
/// assert_eq!(least_budget(1000, |_| false), 1000);
///
/// let bytes = marshal::to_vec(&vec![1u32; 3]);
/// let fits = |budget| marshal::from_bytes_limited::<Vec<u32>>(&bytes, budget).is_ok();
/// assert_eq!(least_budget(1 << 20, fits), 3 * 4);
/// ```
pub fn least_budget(max: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, max);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// The [`least_budget`] of a decode that succeeds under 16 MiB, checked
/// against the allocator: at that budget the decode asks it for no more
/// bytes than the budget. The test binary installs the counting allocator
/// ([`counting_allocator!`](crate::counting_allocator)).
///
/// # Errors
///
/// When the decode fails under 16 MiB, or asks the allocator for more than
/// its least budget.
pub fn least_budget_within(fits: impl Fn(usize) -> bool) -> Result<usize, TestCaseError> {
    let max = 1 << 24;
    prop_assert!(fits(max));
    let lo = least_budget(max, &fits);
    let guard = lock();
    let (result, allocs) = measure(&guard, || fits(lo));
    prop_assert!(result);
    prop_assert!(allocs.total <= lo, "{:?} under a budget of {}", allocs, lo);
    Ok(lo)
}
