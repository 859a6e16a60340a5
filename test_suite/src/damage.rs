//! Damaged copies of encodings, and the check that marshal and bincode
//! agree on bytes: the cross-checks of `bincode_compat`, `serde_bridge` and
//! `foreign_types` decode the same bytes with both and compare.

use std::fmt::Debug;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use serde::Serialize;

/// Where to damage an encoding ([`damaged_copies`]): up to three positions,
/// each with a byte.
pub fn damage() -> impl Strategy<Value = Vec<(usize, u8)>> {
    vec((any::<usize>(), any::<u8>()), 0..4)
}

/// Damaged copies of `bytes`: followed by a zero byte, and for each
/// `(at, byte)` of `damage` (`at` taken modulo the length), cut short at
/// `at`, with the byte at `at` changed to `byte`, and with `byte` inserted
/// at `at`. Of empty `bytes`, only the first.
///
/// ```
/// use marshal_test_suite::damage::damaged_copies;
///
/// assert_eq!(
///     damaged_copies(&[1, 2], &[(3, 9)]),
///     [vec![1, 2, 0], vec![1], vec![1, 9], vec![9, 1, 2]]
/// );
/// ```
pub fn damaged_copies(bytes: &[u8], damage: &[(usize, u8)]) -> Vec<Vec<u8>> {
    let mut copies = vec![[bytes, &[0]].concat()];
    if bytes.is_empty() {
        return copies;
    }
    for &(at, byte) in damage {
        copies.push(bytes[..at % bytes.len()].to_vec());
        let mut changed = bytes.to_vec();
        changed[at % bytes.len()] = byte;
        copies.push(changed);
        let mut inserted = bytes.to_vec();
        inserted.insert(at % (bytes.len() + 1), byte);
        copies.push(inserted);
    }
    copies
}

/// Whether `a` and `b` are equal, or their bincode bytes are (NaNs).
pub fn same<T: Serialize + PartialEq>(a: &T, b: &T) -> bool {
    a == b || bincode::serialize(a).ok() == bincode::serialize(b).ok()
}

/// Checks that marshal and bincode read `input` alike: `ours` and `theirs`,
/// what each decoded from it, are both errors or both values that are
/// [`same`].
///
/// ```
/// use marshal_test_suite::damage::agree;
///
/// let input = [1, 0, 0, 0];
/// let ours = marshal::from_bytes::<u32>(&input);
/// assert!(agree(&input, ours, bincode::deserialize::<u32>(&input)).is_ok());
/// let ours = marshal::from_bytes::<u32>(&input[..3]);
/// assert!(agree(&input[..3], ours, Ok(1)).is_err());
/// ```
///
/// # Errors
///
/// When they do not.
pub fn agree<T, E>(
    input: &[u8],
    ours: Result<T, E>,
    theirs: bincode::Result<T>,
) -> Result<(), TestCaseError>
where
    T: Serialize + PartialEq + Debug,
    E: Debug,
{
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) if same(a, b) => {}
        (Err(_), Err(_)) => {}
        _ => prop_assert!(
            false,
            "marshal {:?}, bincode {:?}, for {:02x?}",
            ours,
            theirs.map_err(|e| e.to_string()),
            input
        ),
    }
    Ok(())
}
