//! A small seeded generator, for suites that need the same "random" values
//! on every run without proptest.

/// Marsaglia's xorshift64: `next` is never 0 for a seed that is not 0.
///
/// ```
/// use marshal_test_suite::rng::XorShift;
///
/// let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
/// let (a, b) = (rng.next(), rng.next());
/// assert_ne!(a, b);
/// assert!(rng.below(10) < 10);
/// ```
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number.
    #[allow(clippy::should_implement_trait)] // Not an iterator: it never ends.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n` must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
