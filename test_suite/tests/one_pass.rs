//! One pass into reused buffers: `encode_into_vec`,
//! `buf::encode_to_bytes_mut`, `Codec::encode_into_vec` and
//! `Codec::encode_to_bytes_mut` write a value straight into spare capacity
//! that holds it, without sizing it first, and size it only when it does
//! not fit. The bytes are those of the sized path whatever the capacity;
//! with enough of it nothing is allocated (a counting allocator) and
//! `encoded_len` is not called (a value that counts its calls).
//!
//! The counting allocator is `src/counting.rs`.

use std::cell::Cell;
use std::collections::BTreeMap;

use bytes::BytesMut;
use marshal::frame::{Codec, FrameError, HEADER_LEN};
use marshal::{Marshal, Overflow, Writer};
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::strategies::{arb_multibyte_string, config};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;

marshal_test_suite::counting_allocator!();

#[derive(Marshal, Arbitrary, Debug, Clone, PartialEq)]
enum Kind {
    Plain,
    Tagged(#[proptest(strategy = "arb_multibyte_string()")] String),
    Sized { w: u32, h: u32 },
}

#[derive(Marshal, Arbitrary, Debug, Clone, PartialEq)]
struct Entry {
    id: u64,
    #[proptest(strategy = "arb_multibyte_string()")]
    name: String,
    #[proptest(strategy = "vec(any::<u32>(), 0..8)")]
    values: Vec<u32>,
    kind: Kind,
    #[proptest(strategy = "proptest::collection::btree_map(any::<u16>(), any::<bool>(), 0..4)")]
    flags: BTreeMap<u16, bool>,
    note: Option<char>,
}

#[derive(Marshal, Arbitrary, Debug, Clone, PartialEq)]
#[marshal(extensible)]
struct Evolving {
    id: u32,
    #[proptest(strategy = "vec(any::<Entry>(), 0..3)")]
    entries: Vec<Entry>,
}

/// Counts the calls of its `encoded_len`: zero in one pass.
struct Counted<'a, T> {
    value: T,
    sized: &'a Cell<usize>,
}

impl<T: Marshal> Marshal for Counted<'_, T> {
    fn encoded_len(&self) -> usize {
        self.sized.set(self.sized.get() + 1);
        self.value.encoded_len()
    }

    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.value.encode(w)
    }
}

/// The spare capacities to try for an encoding of `len` bytes: none, too
/// little by one, exactly enough, and plenty.
fn spares(len: usize) -> [usize; 5] {
    [0, len / 2, len.saturating_sub(1), len, len + 64]
}

/// A vector holding `prefix` with exactly `spare` bytes of spare capacity.
fn vec_with_spare(prefix: &[u8], spare: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(prefix.len() + spare);
    v.extend_from_slice(prefix);
    v.shrink_to(prefix.len() + spare);
    assert!(v.capacity() >= prefix.len() + spare);
    v
}

/// A `BytesMut` holding `prefix` with at least `spare` bytes of spare
/// capacity.
fn bytes_with_spare(prefix: &[u8], spare: usize) -> BytesMut {
    let mut b = BytesMut::with_capacity(prefix.len() + spare);
    b.extend_from_slice(prefix);
    b
}

const PREFIX: &[u8] = &[0xaa, 0xbb, 0xcc];

/// Every one-pass target gives the sized bytes for `value`, whatever the
/// spare capacity, and leaves the prefix alone.
fn same_bytes_as_sized<T: Marshal + ?Sized>(value: &T) -> Result<(), TestCaseError> {
    let sized = marshal::to_vec(value);
    let codec = Codec::new();
    let mut frame = vec![0u8; HEADER_LEN + sized.len()];
    prop_assert_eq!(codec.write_to(value, &mut frame), Ok(frame.len()));
    let want = |body: &[u8]| [PREFIX, body].concat();

    for spare in spares(sized.len()) {
        let mut v = vec_with_spare(PREFIX, spare);
        prop_assert_eq!(marshal::encode_into_vec(value, &mut v), sized.len());
        prop_assert_eq!(&v, &want(&sized), "encode_into_vec, spare {}", spare);

        let mut b = bytes_with_spare(PREFIX, spare);
        prop_assert_eq!(
            marshal::buf::encode_to_bytes_mut(value, &mut b),
            sized.len()
        );
        prop_assert_eq!(
            &b[..],
            &want(&sized)[..],
            "encode_to_bytes_mut, spare {}",
            spare
        );
    }
    for spare in spares(frame.len()) {
        let mut v = vec_with_spare(PREFIX, spare);
        prop_assert_eq!(codec.encode_into_vec(value, &mut v), Ok(frame.len()));
        prop_assert_eq!(&v, &want(&frame), "Codec::encode_into_vec, spare {}", spare);

        let mut b = bytes_with_spare(PREFIX, spare);
        prop_assert_eq!(codec.encode_to_bytes_mut(value, &mut b), Ok(frame.len()));
        prop_assert_eq!(
            &b[..],
            &want(&frame)[..],
            "Codec::encode_to_bytes_mut, spare {}",
            spare
        );
    }
    Ok(())
}

marshal_test_suite::properties! {
    check = |value| same_bytes_as_sized(value);

    one_pass_u32: u32;
    one_pass_string: String = arb_multibyte_string();
    one_pass_bytes: Vec<u8> = vec(any::<u8>(), 0..300);
    one_pass_option: Option<String> = proptest::option::of(arb_multibyte_string());
    one_pass_enum: Kind;
    one_pass_entry: Entry;
    one_pass_entries: Vec<Entry> = vec(any::<Entry>(), 0..8);
    one_pass_evolving: Evolving;
    one_pass_tuple: (u8, String, [u16; 4]) = (any::<u8>(), arb_multibyte_string(), any::<[u16; 4]>());
}

fn entry(i: u64) -> Entry {
    Entry {
        id: i,
        name: format!("entry-{i}"),
        values: (0..i as u32 % 7).collect(),
        kind: match i % 3 {
            0 => Kind::Plain,
            1 => Kind::Tagged("x".repeat(i as usize % 9)),
            _ => Kind::Sized { w: i as u32, h: 1 },
        },
        flags: (0..(i % 4) as u16).map(|k| (k, k % 2 == 0)).collect(),
        note: char::from_u32(0x61 + (i % 26) as u32),
    }
}

#[test]
fn enough_spare_capacity_means_no_allocation_and_no_sizing() {
    let entries: Vec<Entry> = (0..200).map(entry).collect();
    let total: usize = entries.iter().map(Marshal::encoded_len).sum();
    let codec = Codec::new();
    let sized = Cell::new(0);
    let counted = |e: &Entry| Counted {
        value: e.clone(),
        sized: &sized,
    };
    let values: Vec<Counted<'_, Entry>> = entries.iter().map(counted).collect();
    let guard = lock();

    let mut v = Vec::with_capacity(total);
    let (n, allocs) = measure(&guard, || {
        values
            .iter()
            .map(|e| marshal::encode_into_vec(e, &mut v))
            .sum::<usize>()
    });
    assert_eq!((n, allocs.count, sized.get()), (total, 0, 0), "{allocs:?}");
    assert_eq!(
        v,
        entries.iter().flat_map(marshal::to_vec).collect::<Vec<_>>()
    );

    let mut b = BytesMut::with_capacity(total);
    let (n, allocs) = measure(&guard, || {
        values
            .iter()
            .map(|e| marshal::buf::encode_to_bytes_mut(e, &mut b))
            .sum::<usize>()
    });
    assert_eq!((n, allocs.count, sized.get()), (total, 0, 0), "{allocs:?}");
    assert_eq!(b, v);

    let frames = total + HEADER_LEN * entries.len();
    let mut fv = Vec::with_capacity(frames);
    let mut fb = BytesMut::with_capacity(frames);
    let ((), allocs) = measure(&guard, || {
        for e in &values {
            codec.encode_into_vec(e, &mut fv).unwrap();
            codec.encode_to_bytes_mut(e, &mut fb).unwrap();
        }
    });
    assert_eq!((allocs.count, sized.get()), (0, 0), "{allocs:?}");
    assert_eq!((fv.len(), &fb[..]), (frames, &fv[..]));
    let want: Vec<u8> = entries
        .iter()
        .flat_map(|e| {
            let body = marshal::to_vec(e);
            [(body.len() as u32).to_le_bytes().to_vec(), body].concat()
        })
        .collect();
    assert_eq!(fv, want);
}

#[test]
fn too_little_spare_capacity_means_one_sizing_and_one_allocation() {
    let e = entry(11);
    let len = e.encoded_len();
    let sized = Cell::new(0);
    let value = Counted {
        value: e.clone(),
        sized: &sized,
    };
    let guard = lock();
    for spare in [0, 1, len / 2, len - 1] {
        sized.set(0);
        let mut v = vec_with_spare(PREFIX, spare);
        let (n, allocs) = measure(&guard, || marshal::encode_into_vec(&value, &mut v));
        assert_eq!(n, len);
        // Sized once; at most one reallocation (none is needed when the
        // allocator handed out more capacity than asked for).
        assert_eq!(sized.get(), 1, "spare {spare}");
        assert!(allocs.count <= 1, "spare {spare}: {allocs:?}");
        assert_eq!(v, [PREFIX, &marshal::to_vec(&e)].concat());

        sized.set(0);
        let mut v = vec_with_spare(PREFIX, spare);
        let (n, allocs) = measure(&guard, || Codec::new().encode_into_vec(&value, &mut v));
        assert_eq!(n, Ok(HEADER_LEN + len));
        assert_eq!(sized.get(), 1, "frame, spare {spare}");
        assert!(allocs.count <= 1, "frame, spare {spare}: {allocs:?}");
    }
}

#[test]
fn a_frame_over_the_limit_is_refused_whatever_the_capacity() {
    let codec = Codec::with_max_len(16);
    let long = "seventeen bytes!!";
    assert_eq!(long.encoded_len(), 25);
    let too_large = FrameError::TooLarge { len: 25, max: 16 };
    for spare in [0, 10, 29, 1000] {
        let mut v = vec_with_spare(PREFIX, spare);
        assert_eq!(codec.encode_into_vec(long, &mut v), Err(too_large));
        assert_eq!(v, PREFIX);
        let mut b = bytes_with_spare(PREFIX, spare);
        assert_eq!(codec.encode_to_bytes_mut(long, &mut b), Err(too_large));
        assert_eq!(b, PREFIX);
    }
    // At the limit exactly: one pass.
    let at_limit = "eight by";
    assert_eq!(at_limit.encoded_len(), 16);
    let mut v = Vec::with_capacity(64);
    assert_eq!(codec.encode_into_vec(at_limit, &mut v), Ok(20));
    assert_eq!(v[..4], [16, 0, 0, 0]);
}

/// Claims 4 bytes, writes 8.
struct Liar;

impl Marshal for Liar {
    fn encoded_len(&self) -> usize {
        4
    }

    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array([1; 8])
    }
}

#[test]
fn one_pass_writes_what_encode_writes_and_says_so() {
    // With room, `encoded_len` is not asked: the bytes and the length are
    // those written, and a frame's header states them.
    let mut v = Vec::with_capacity(64);
    assert_eq!(marshal::encode_into_vec(&Liar, &mut v), 8);
    assert_eq!(v, [1; 8]);
    let mut v = Vec::with_capacity(64);
    assert_eq!(Codec::new().encode_into_vec(&Liar, &mut v), Ok(12));
    assert_eq!(v[..4], [8, 0, 0, 0]);
    let mut b = BytesMut::with_capacity(64);
    assert_eq!(marshal::buf::encode_to_bytes_mut(&Liar, &mut b), 8);
    // Without room, the sized path catches the disagreement.
    assert!(matches!(
        Codec::new().encode_into_vec(&Liar, &mut Vec::new()),
        Err(FrameError::LengthMismatch(_))
    ));
}

proptest! {
    #![proptest_config(config())]

    /// What a server loop does: clear and reuse one buffer, warm after the
    /// first case.
    #[test]
    fn a_warm_vector_reused_for_a_stream_gives_the_concatenated_encodings(
        entries in vec(any::<Entry>(), 0..20),
    ) {
        thread_local! {
            static OUT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        OUT.with_borrow_mut(|out| {
            out.clear();
            for e in &entries {
                marshal::encode_into_vec(e, out);
            }
            let want: Vec<u8> = entries.iter().flat_map(marshal::to_vec).collect();
            prop_assert_eq!(&*out, &want);
            Ok(())
        })?;
    }
}
