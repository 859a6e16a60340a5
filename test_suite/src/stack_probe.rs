//! The stack probe of the depth-limit suites (`stack_depth`, `serde_stack`,
//! `foreign_types`): a value that decodes from nothing, at the bottom of a
//! nesting, whose decoders record how deep the stack is; and decoding on a
//! thread of a given stack size, reporting the stack the deepest probe
//! found below the thread's frame.

use std::cell::Cell;

use marshal::{DecodeError, DecodeErrorKind, Reader, Unmarshal};
use serde::{Deserialize, Deserializer};

/// The stack of a spawned thread unless it asks for another.
pub const THREAD_STACK: usize = 2 << 20;

/// The most stack the nesting the default depth limit allows may take:
/// half of [`THREAD_STACK`], leaving the rest to the caller's frames and
/// the bottom value's own decode.
pub const NESTING_STACK: usize = 1 << 20;

thread_local! {
    /// The lowest address of a local in a probe's decoder since the last
    /// reset.
    static DEEPEST: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Records `local`, a local in its caller's frame, if it lies deeper than
/// any before.
fn record(local: &u8) {
    let at = std::ptr::from_ref(std::hint::black_box(local)).addr();
    DEEPEST.with(|d| d.set(d.get().min(at)));
}

/// A zero-sized value, nothing on the wire, whose decoders (marshal's and
/// serde's) record how deep the stack is.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
pub struct Probe;

impl<'de> Unmarshal<'de> for Probe {
    #[inline(never)]
    fn decode(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let local = 0u8;
        record(&local);
        Ok(Probe)
    }
}

/// In every configuration but `legacy()` too (see `marshal::config`).
impl<'de, E, I> marshal::config::UnmarshalIn<'de, marshal::config::Encoding<E, I>> for Probe
where
    E: marshal::config::Endian,
    I: marshal::config::IntEncoding,
{
    const MIN_LEN_IN: usize = 0;

    #[inline(never)]
    fn decode_in(_: &mut Reader<'de>) -> Result<Self, DecodeError> {
        let local = 0u8;
        record(&local);
        Ok(Probe)
    }
}

impl<'de> Deserialize<'de> for Probe {
    #[inline(never)]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let local = 0u8;
        record(&local);
        <()>::deserialize(d)?;
        Ok(Probe)
    }
}

/// What `decode` did with `input` on a thread with a stack of `stack_size`
/// bytes, under a depth limit of `max_depth` (the default for `None`): the
/// result (the error's kind and offset), and the stack the deepest
/// [`Probe`] found below the thread's frame before the decode. The reader
/// has an arena, so that shapes of bumpalo's containers decode too.
///
/// # Panics
///
/// When the thread cannot be spawned or the decode panics.
pub fn decode_on_thread(
    decode: fn(&mut Reader<'_>) -> Result<(), DecodeError>,
    input: Vec<u8>,
    max_depth: Option<u32>,
    stack_size: usize,
) -> (Result<(), (DecodeErrorKind, usize)>, usize) {
    std::thread::Builder::new()
        .stack_size(stack_size)
        .spawn(move || {
            DEEPEST.with(|d| d.set(usize::MAX));
            let local = 0u8;
            let top = std::ptr::from_ref(std::hint::black_box(&local)).addr();
            let bump = bumpalo::Bump::new();
            let mut r = Reader::new(&input).with_arena(&bump);
            if let Some(depth) = max_depth {
                r = r.with_max_depth(depth);
            }
            let result = decode(&mut r).map_err(|e| (e.kind(), e.offset()));
            let deepest = DEEPEST.with(Cell::get);
            (result, top.saturating_sub(deepest))
        })
        .expect("spawn")
        .join()
        .expect("the decoding thread panicked")
}
