//! Manual `Marshal` implementations that lie about their lengths, through
//! every output target.
//!
//! A wrong `encoded_len`, `FIXED_LEN` or `MAX_LEN` is a bug in user code; it
//! must never cause undefined behaviour, the targets that return a `Result`
//! must return an error for it and leave their output as it was, and the
//! others may panic, with a message naming the inconsistency.
//!
//! The one-pass targets (`write_to`, `try_write_to` and their `_uninit`
//! forms) call `encoded_len` only when the encoding does not fit: a too-large
//! `encoded_len` goes unnoticed there, and the length returned is the one
//! `encode` wrote. The tests below pin that too.

use std::io::{self, Write};
use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

use bytes::{BufMut, BytesMut};
use marshal::frame::{Codec, FrameError};
use marshal::{BufferTooSmall, LengthMismatch, Marshal, Overflow, Writer};
use marshal_test_suite::fixtures::{Liar, put_body};

// ---------------------------------------------------------------------------
// The liars.

/// `FIXED_LEN` (and so `MAX_LEN`) and `encoded_len` are `FIXED`; `encode`
/// writes `WRITES` bytes.
#[derive(Clone, Copy)]
struct FixedLiar<const FIXED: usize, const WRITES: usize>;

impl<const FIXED: usize, const WRITES: usize> Marshal for FixedLiar<FIXED, WRITES> {
    const FIXED_LEN: Option<usize> = Some(FIXED);
    fn encoded_len(&self) -> usize {
        FIXED
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        put_body(w, WRITES)
    }
}

/// `MAX_LEN` is `MAX`; `encoded_len` and `encode` agree on `LEN`.
#[derive(Clone, Copy)]
struct MaxLiar<const MAX: usize, const LEN: usize>;

impl<const MAX: usize, const LEN: usize> Marshal for MaxLiar<MAX, LEN> {
    const MAX_LEN: Option<usize> = Some(MAX);
    fn encoded_len(&self) -> usize {
        LEN
    }
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        put_body(w, LEN)
    }
}

/// `encoded_len` too small, too large and saturated; and the truth.
type TooSmall = Liar<4, 8>;
type TooLarge = Liar<12, 8>;
type Saturated = Liar<{ usize::MAX }, 8>;
type Honest = Liar<8, 8>;
/// Past the 256 bytes `encode_to_buf_mut` stages on the stack.
type LongTooLarge = Liar<300, 8>;
type LongTooSmall = Liar<300, 400>;
/// `FIXED_LEN` too small and too large.
type FixedTooSmall = FixedLiar<2, 8>;
type FixedTooLarge = FixedLiar<16, 8>;
/// `MAX_LEN` too small (the stack buffers of `write_all` are 256 bytes),
/// and too large, which is only a loose bound.
type MaxTooSmall = MaxLiar<4, 300>;
type MaxTooSmallFits = MaxLiar<4, 8>;
type MaxTooLarge = MaxLiar<16, 8>;

const BODY: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

const LONG: LengthMismatch = LengthMismatch::Long { encoded_len: 4 };
const SHORT: LengthMismatch = LengthMismatch::Short {
    encoded_len: 12,
    written: 8,
};

// ---------------------------------------------------------------------------
// Helpers.

/// An `io::Write` that records every call.
#[derive(Default)]
struct Recorder {
    calls: usize,
    bytes: Vec<u8>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.calls += 1;
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.calls += 1;
        Ok(())
    }
}

/// The error of `marshal::write_all`, which must have written nothing.
#[track_caller]
fn write_all_error<T: Marshal + ?Sized>(value: &T) -> io::Error {
    let mut out = Recorder::default();
    let mut scratch = Vec::new();
    let err = marshal::write_all(value, &mut out, &mut scratch).unwrap_err();
    assert_eq!(out.calls, 0, "write_all wrote despite the error");
    err
}

/// The error of `Codec::write_all`, which must have written nothing.
#[track_caller]
fn frame_write_all_error<T: Marshal + ?Sized>(value: &T) -> io::Error {
    let mut out = Recorder::default();
    let mut scratch = Vec::new();
    let err = Codec::new()
        .write_all(value, &mut out, &mut scratch)
        .unwrap_err();
    assert_eq!(out.calls, 0, "Codec::write_all wrote despite the error");
    err
}

/// `err` is `InvalidData` wrapping `E`, equal to `expected`.
#[track_caller]
fn assert_wraps<E>(err: io::Error, expected: E)
where
    E: std::error::Error + PartialEq + Send + Sync + 'static,
{
    assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
    let inner = err.into_inner().expect("a wrapped error");
    assert_eq!(inner.downcast_ref::<E>(), Some(&expected));
}

/// The error of `Codec::encode_into_vec`, which must leave the vector as
/// it was.
#[track_caller]
fn frame_vec_error<T: Marshal + ?Sized>(value: &T) -> FrameError {
    let mut out = Vec::with_capacity(4);
    out.extend_from_slice(&[0xaa, 0xbb]);
    let err = Codec::new().encode_into_vec(value, &mut out).unwrap_err();
    assert_eq!(out, [0xaa, 0xbb]);
    err
}

/// The error of `Codec::write_to` into 512 bytes.
#[track_caller]
fn frame_slice_error<T: Marshal + ?Sized>(value: &T) -> FrameError {
    Codec::new().write_to(value, &mut [0u8; 512]).unwrap_err()
}

/// Every `Result` target that sizes its output by `encoded_len` rejects
/// `value` with `expected`.
#[track_caller]
fn assert_rejected_by_sized_targets<T: Marshal + ?Sized>(value: &T, expected: LengthMismatch) {
    assert_eq!(
        frame_slice_error(value),
        FrameError::LengthMismatch(expected)
    );
    assert_eq!(frame_vec_error(value), FrameError::LengthMismatch(expected));
    assert_wraps(
        frame_write_all_error(value),
        FrameError::LengthMismatch(expected),
    );
    assert_wraps(write_all_error(value), expected);
}

/// `f`'s panic message; `f` must panic.
#[track_caller]
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("no panic");
    match (
        payload.downcast_ref::<String>(),
        payload.downcast_ref::<&str>(),
    ) {
        (Some(s), _) => s.clone(),
        (None, Some(s)) => s.to_string(),
        (None, None) => String::new(),
    }
}

// ---------------------------------------------------------------------------
// The truth, for contrast: every target accepts it.

#[test]
fn an_honest_value_goes_through_every_target() {
    let v = Honest {};
    assert_eq!(v.try_write_to(&mut [0; 8]), Ok(8));
    assert_eq!(marshal::to_vec(&v), BODY);
    let codec = Codec::new();
    let mut out = Vec::new();
    assert_eq!(codec.encode_into_vec(&v, &mut out), Ok(12));
    assert_eq!(codec.write_to(&v, &mut [0; 12]), Ok(12));
    let mut rec = Recorder::default();
    assert_eq!(codec.write_all(&v, &mut rec, &mut Vec::new()).unwrap(), 12);
    assert_eq!(
        marshal::write_all(&v, &mut rec, &mut Vec::new()).unwrap(),
        8
    );
    assert_eq!(rec.calls, 2);
    // A MAX_LEN too large is only a loose bound.
    let v = MaxTooLarge {};
    assert_eq!(
        marshal::write_all(&v, &mut rec, &mut Vec::new()).unwrap(),
        8
    );
    assert_eq!(codec.write_all(&v, &mut rec, &mut Vec::new()).unwrap(), 12);
    // So is one past the stack buffer.
    let v = MaxLiar::<1000, 8> {};
    assert_eq!(
        marshal::write_all(&v, &mut rec, &mut Vec::new()).unwrap(),
        8
    );
    let bump = bumpalo::Bump::new();
    assert_eq!(marshal::arena::encode(&bump, &Honest {}), BODY);
    assert_eq!(marshal::arena::encode_batch(&bump, [Honest {}; 2]).len(), 2);
    let mut buf = BytesMut::new();
    assert_eq!(marshal::buf::encode_to_bytes_mut(&Honest {}, &mut buf), 8);
}

// ---------------------------------------------------------------------------
// Targets that return a `Result`.

#[test]
fn the_frame_targets_and_write_all_reject_an_encoded_len_too_small() {
    assert_rejected_by_sized_targets(&TooSmall {}, LONG);
    assert_rejected_by_sized_targets(&LongTooSmall {}, LengthMismatch::Long { encoded_len: 300 });
}

#[test]
fn the_frame_targets_and_write_all_reject_an_encoded_len_too_large() {
    assert_rejected_by_sized_targets(&TooLarge {}, SHORT);
    assert_rejected_by_sized_targets(
        &LongTooLarge {},
        LengthMismatch::Short {
            encoded_len: 300,
            written: 8,
        },
    );
}

#[test]
fn the_frame_targets_and_write_all_refuse_a_saturated_encoded_len() {
    let v = Saturated {};
    let too_large = FrameError::TooLarge {
        len: usize::MAX,
        max: Codec::new().max_len(),
    };
    assert_eq!(frame_slice_error(&v), too_large);
    assert_eq!(frame_vec_error(&v), too_large);
    assert_wraps(frame_write_all_error(&v), too_large);
    assert_eq!(write_all_error(&v).kind(), io::ErrorKind::OutOfMemory);
}

#[test]
fn fixed_len_liars_are_rejected_on_the_stack_paths_too() {
    // FIXED_LEN is MAX_LEN, so `write_all` encodes them on the stack.
    assert_rejected_by_sized_targets(&FixedTooSmall {}, LengthMismatch::Long { encoded_len: 2 });
    assert_rejected_by_sized_targets(
        &FixedTooLarge {},
        LengthMismatch::Short {
            encoded_len: 16,
            written: 8,
        },
    );
    // Inside containers, which trust FIXED_LEN for their own lengths and
    // checks.
    assert_rejected_by_sized_targets(
        &[FixedTooSmall {}; 3],
        LengthMismatch::Long { encoded_len: 6 },
    );
    assert_rejected_by_sized_targets(
        &vec![FixedTooLarge {}; 2],
        LengthMismatch::Short {
            encoded_len: 8 + 32,
            written: 8 + 16,
        },
    );
    assert_rejected_by_sized_targets(
        &Some(FixedTooSmall {}),
        LengthMismatch::Long { encoded_len: 3 },
    );
}

#[test]
fn write_all_rejects_a_max_len_too_small() {
    // Was a panic: "range end index 304 out of range for slice of length
    // 256" in `Codec::write_all`, "buffer too small" in `write_all`.
    let v = MaxTooSmall {};
    let above = LengthMismatch::AboveMax {
        encoded_len: 300,
        max_len: 4,
    };
    assert_wraps(frame_write_all_error(&v), FrameError::LengthMismatch(above));
    assert_wraps(write_all_error(&v), above);
    // Rejected even when the encoding would fit the stack buffer.
    let v = MaxTooSmallFits {};
    let above = LengthMismatch::AboveMax {
        encoded_len: 8,
        max_len: 4,
    };
    assert_wraps(frame_write_all_error(&v), FrameError::LengthMismatch(above));
    assert_wraps(write_all_error(&v), above);
    // The targets that do not read MAX_LEN encode it.
    assert_eq!(marshal::to_vec(&MaxTooSmall {}).len(), 300);
    let mut out = Vec::new();
    assert_eq!(
        Codec::new().encode_into_vec(&MaxTooSmall {}, &mut out),
        Ok(304)
    );
}

#[test]
fn write_all_rejects_a_liar_whatever_scratch_holds() {
    // A warm scratch buffer with room to spare does not hide an overrun.
    let mut scratch = Vec::with_capacity(1024);
    scratch.extend_from_slice(&[9; 100]);
    let mut out = Recorder::default();
    let err = marshal::write_all(&TooSmall {}, &mut out, &mut scratch).unwrap_err();
    assert_wraps(err, LONG);
    let err = Codec::new()
        .write_all(&TooSmall {}, &mut out, &mut scratch)
        .unwrap_err();
    assert_wraps(err, FrameError::LengthMismatch(LONG));
    assert_eq!(out.calls, 0);
    // A vector with spare capacity takes the value in one pass, without
    // asking `encoded_len`: the header states the length written.
    let mut vec = Vec::with_capacity(1024);
    assert_eq!(Codec::new().encode_into_vec(&TooSmall {}, &mut vec), Ok(12));
    assert_eq!(vec[..4], [8, 0, 0, 0]);
}

#[test]
fn frame_errors_say_what_happened() {
    let err = frame_vec_error(&TooSmall {});
    assert_eq!(
        err.to_string(),
        "frame not written: encode needed more than the 4 bytes its encoded_len() reported \
         (a Marshal implementation whose lengths disagree with its encode)"
    );
    assert!(std::error::Error::source(&err).is_some());
    let io: io::Error = err.into();
    assert_eq!(io.kind(), io::ErrorKind::InvalidData);
    assert_eq!(
        SHORT.to_string(),
        "encode wrote 8 bytes, fewer than the 12 its encoded_len() reported (a Marshal \
         implementation whose lengths disagree with its encode)"
    );
}

#[test]
fn frame_write_to_leaves_the_buffer_as_it_was_when_the_frame_cannot_be_written() {
    let codec = Codec::with_max_len(16);
    let mut buf = [0xee; 64];
    assert_eq!(
        codec.write_to(&[0u8; 20], &mut buf),
        Err(FrameError::TooLarge { len: 20, max: 16 })
    );
    assert_eq!(
        codec.write_to("hello", &mut buf[..16]),
        Err(FrameError::BufferTooSmall(BufferTooSmall {
            needed: 17,
            available: 16
        }))
    );
    assert_eq!(buf, [0xee; 64]);
    // A liar writes nothing past its frame's length.
    assert!(codec.write_to(&TooSmall {}, &mut buf).is_err());
    assert_eq!(buf[8..], [0xee; 56]);
}

#[test]
fn the_one_pass_targets_check_encoded_len_only_when_the_encoding_does_not_fit() {
    // Sized by `encoded_len`: too small, so an error saying what
    // `encoded_len` reported.
    let v = TooSmall {};
    let mut buf = [0u8; 4];
    assert_eq!(
        v.try_write_to(&mut buf),
        Err(BufferTooSmall {
            needed: 4,
            available: 4
        })
    );
    let mut uninit = [MaybeUninit::uninit(); 4];
    assert_eq!(
        v.try_write_to_uninit(&mut uninit),
        Err(BufferTooSmall {
            needed: 4,
            available: 4
        })
    );
    // A FIXED_LEN too small inside a container fails its own check.
    assert_eq!(
        vec![FixedTooSmall {}; 3].try_write_to(&mut [0; 64]),
        Err(BufferTooSmall {
            needed: 14,
            available: 64
        })
    );
    // Where the encoding fits, `encoded_len` is not called: the length is
    // the one written.
    let mut buf = [0u8; 64];
    assert_eq!(TooSmall {}.try_write_to(&mut buf), Ok(8));
    assert_eq!(TooLarge {}.try_write_to(&mut buf), Ok(8));
    assert_eq!(Saturated {}.try_write_to(&mut buf), Ok(8));
    assert_eq!(TooLarge {}.write_to(&mut buf), 8);
    assert_eq!(buf[..8], BODY);
    let mut uninit = [MaybeUninit::uninit(); 64];
    assert_eq!(
        TooLarge {}
            .try_write_to_uninit(&mut uninit)
            .map(|b| b.len()),
        Ok(8)
    );
    assert_eq!(Saturated {}.write_to_uninit(&mut uninit), BODY);
}

// ---------------------------------------------------------------------------
// Targets that cannot return an error panic, naming the inconsistency.

fn to_vec<T: Marshal + ?Sized>(v: &T) {
    let _ = marshal::to_vec(v);
}

fn encode_into_vec<T: Marshal + ?Sized>(v: &T) {
    marshal::encode_into_vec(v, &mut Vec::new());
}

fn write_to_sized<T: Marshal + ?Sized>(v: &T) {
    v.write_to(&mut vec![0; v.encoded_len()]);
}

fn write_to_uninit_sized<T: Marshal + ?Sized>(v: &T) {
    v.write_to_uninit(&mut vec![MaybeUninit::uninit(); v.encoded_len()]);
}

fn write_to_64<T: Marshal + ?Sized>(v: &T) {
    v.write_to(&mut [0; 64]);
}

fn arena<T: Marshal + ?Sized>(v: &T) {
    marshal::arena::encode(&bumpalo::Bump::new(), v);
}

fn arena_batch<T: Marshal>(v: &T) {
    marshal::arena::encode_batch(&bumpalo::Bump::new(), [v, v]);
}

fn bytes_mut<T: Marshal + ?Sized>(v: &T) {
    marshal::buf::encode_to_bytes_mut(v, &mut BytesMut::new());
}

fn to_bytes<T: Marshal + ?Sized>(v: &T) {
    let _ = marshal::buf::to_bytes(v);
}

/// A `BufMut` whose chunk holds the value: encoded in place.
fn buf_mut_slice<T: Marshal + ?Sized>(v: &T) {
    let mut arr = [0u8; 512];
    marshal::buf::encode_to_buf_mut(v, &mut &mut arr[..]);
}

/// A `BufMut` of small chunks: staged on the stack up to 256 bytes,
/// through `to_vec` past that.
fn buf_mut_chain<T: Marshal + ?Sized>(v: &T) {
    let (mut a, mut b) = ([0u8; 3], [0u8; 509]);
    let mut chain = (&mut a[..]).chain_mut(&mut b[..]);
    marshal::buf::encode_to_buf_mut(v, &mut chain);
}

macro_rules! panics {
    ($($name:ident: $target:ident($value:expr), $expected:literal;)*) => {$(
        #[test]
        #[should_panic(expected = $expected)]
        fn $name() {
            $target(&$value);
        }
    )*};
}

panics! {
    // encoded_len too small.
    too_small_to_vec: to_vec(TooSmall {}), "encode needed more than the 4 bytes its encoded_len() reported";
    too_small_encode_into_vec: encode_into_vec(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_write_to: write_to_sized(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_write_to_uninit: write_to_uninit_sized(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_arena: arena(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_arena_batch: arena_batch(TooSmall {}), "item 0 of the batch encoded differently from how it was sized: encode needed more than the 4 bytes";
    too_small_bytes_mut: bytes_mut(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_to_bytes: to_bytes(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_buf_mut_slice: buf_mut_slice(TooSmall {}), "encode needed more than the 4 bytes";
    too_small_buf_mut_chain: buf_mut_chain(TooSmall {}), "encode needed more than the 4 bytes";
    long_too_small_buf_mut_chain: buf_mut_chain(LongTooSmall {}), "encode needed more than the 300 bytes";

    // encoded_len too large.
    too_large_to_vec: to_vec(TooLarge {}), "encode wrote 8 bytes, fewer than the 12 its encoded_len() reported";
    too_large_encode_into_vec: encode_into_vec(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    too_large_arena: arena(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    too_large_arena_batch: arena_batch(TooLarge {}), "item 0 of the batch encoded differently from how it was sized: encode wrote 8 bytes, fewer than the 12";
    too_large_bytes_mut: bytes_mut(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    too_large_to_bytes: to_bytes(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    too_large_buf_mut_slice: buf_mut_slice(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    too_large_buf_mut_chain: buf_mut_chain(TooLarge {}), "encode wrote 8 bytes, fewer than the 12";
    long_too_large_buf_mut_chain: buf_mut_chain(LongTooLarge {}), "encode wrote 8 bytes, fewer than the 300";

    // encoded_len saturated: indistinguishable from a value too large to
    // encode.
    saturated_to_vec: to_vec(Saturated {}), "too large to encode";
    saturated_encode_into_vec: encode_into_vec(Saturated {}), "too large to encode";
    saturated_arena: arena(Saturated {}), "too large to encode";
    saturated_arena_batch: arena_batch(Saturated {}), "too large to encode";
    saturated_bytes_mut: bytes_mut(Saturated {}), "too large to encode";
    saturated_to_bytes: to_bytes(Saturated {}), "too large to encode";
    saturated_buf_mut_slice: buf_mut_slice(Saturated {}), "buffer too small: encoding needs 18446744073709551615 bytes, buffer has 512";

    // FIXED_LEN too small or too large, alone and inside containers.
    fixed_too_small_to_vec: to_vec(FixedTooSmall {}), "encode needed more than the 2 bytes";
    fixed_too_small_in_array_to_vec: to_vec([FixedTooSmall {}; 3]), "encode needed more than the 6 bytes";
    fixed_too_small_in_vec_write_to: write_to_64(vec![FixedTooSmall {}; 3]), "encode needed more than the 14 bytes";
    fixed_too_small_arena: arena([FixedTooSmall {}; 3]), "encode needed more than the 6 bytes";
    fixed_too_small_bytes_mut: bytes_mut(Some(FixedTooSmall {})), "encode needed more than the 3 bytes";
    fixed_too_large_to_vec: to_vec(FixedTooLarge {}), "encode wrote 8 bytes, fewer than the 16";
    fixed_too_large_in_vec_to_vec: to_vec(vec![FixedTooLarge {}; 2]), "encode wrote 24 bytes, fewer than the 40";
    fixed_too_large_arena_batch: arena_batch([FixedTooLarge {}; 2]), "item 0 of the batch encoded differently from how it was sized: encode wrote 16 bytes, fewer than the 32";
    fixed_too_large_buf_mut_chain: buf_mut_chain([FixedTooLarge {}; 2]), "encode wrote 16 bytes, fewer than the 32";
}

#[test]
fn infallible_targets_leave_their_output_as_it_was_when_they_panic() {
    let mut out = vec![0xaa, 0xbb];
    for message in [
        panic_message(|| {
            marshal::encode_into_vec(&TooSmall {}, &mut out);
        }),
        panic_message(|| {
            marshal::encode_into_vec(&TooLarge {}, &mut out);
        }),
    ] {
        assert!(message.contains("disagree with its encode"), "{message}");
    }
    assert_eq!(out, [0xaa, 0xbb]);

    let mut buf = BytesMut::from(&[0xaa, 0xbb][..]);
    panic_message(|| {
        marshal::buf::encode_to_bytes_mut(&TooSmall {}, &mut buf);
    });
    panic_message(|| {
        marshal::buf::encode_to_bytes_mut(&TooLarge {}, &mut buf);
    });
    assert_eq!(buf, &[0xaa, 0xbb][..]);

    // A `BufMut` is not advanced, whichever path the value takes.
    let mut arr = [0u8; 512];
    let mut slice = &mut arr[..];
    panic_message(|| {
        marshal::buf::encode_to_buf_mut(&TooLarge {}, &mut slice);
    });
    assert_eq!(slice.len(), 512);
    let (mut a, mut b) = ([0u8; 3], [0u8; 509]);
    let mut chain = (&mut a[..]).chain_mut(&mut b[..]);
    panic_message(|| {
        marshal::buf::encode_to_buf_mut(&TooLarge {}, &mut chain);
    });
    panic_message(|| {
        marshal::buf::encode_to_buf_mut(&LongTooLarge {}, &mut chain);
    });
    assert_eq!(chain.remaining_mut(), 512);
}
