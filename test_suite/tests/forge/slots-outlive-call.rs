// A run of slots cannot outlive the call that handed it out: kept, it
// would write into the `Vec`'s spare capacity after the call returned,
// over values pushed since.
use marshal_core::__facade::{Slots, append_slots_to_vec};

fn main() {
    let mut values: Vec<u32> = Vec::with_capacity(1);
    let mut kept: Option<Slots<'_, u32>> = None;
    let _ = append_slots_to_vec(&mut values, 1, |run| {
        kept = Some(run);
        Err(())
    });
    values.push(1);
    if let Some(run) = kept.as_mut() {
        let _ = run.push(2);
    }
}
