// The slots one call of `append_slots_to_vec` hands out cannot be returned
// as another call's: each call brands its runs with a lifetime of its own,
// so the inner call cannot set its `Vec`'s length over the outer `Vec`'s
// slots (which would leave `inner` owning values it never received).
use marshal_core::__facade::append_slots_to_vec;

fn main() {
    let mut outer: Vec<u32> = Vec::with_capacity(1);
    let mut inner: Vec<u32> = Vec::with_capacity(1);
    let _ = append_slots_to_vec(&mut outer, 1, |mut outer_run| {
        let _ = outer_run.push(7);
        let _ = append_slots_to_vec(&mut inner, 1, |_inner_run| Ok::<_, ()>(outer_run));
        Err(())
    });
}
