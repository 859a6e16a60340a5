//! Compile-time layouts: static sizes usable in const contexts, size
//! contracts, memcpy-equivalent types and wire fingerprints.

use std::borrow::Cow;

use marshal::fingerprint::Fingerprinted;
use marshal::{DecodeErrorKind, Marshal, Unmarshal};

// ---------------------------------------------------------------------------
// Static sizes and size contracts.

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[marshal(size = 16)]
struct Header {
    magic: [u8; 4],
    version: u16,
    flags: u16,
    len: u64,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(max_size = 13)]
#[marshal(tag_type = u8)]
enum Reply {
    Ok,
    Value(u64),
    Pair(u32, u64),
}

#[test]
fn fixed_len_sizes_a_stack_buffer_at_compile_time() {
    const N: usize = marshal::fixed_len::<Header>();
    const M: usize = marshal::max_len::<Reply>();
    let mut buf = [0u8; N];
    let header = Header {
        magic: *b"MRSH",
        version: 2,
        flags: 0x0101,
        len: 9,
    };
    assert_eq!(N, 16);
    assert_eq!(M, 13);
    assert_eq!(header.write_to(&mut buf), N);
    assert_eq!(&buf[..4], b"MRSH");
    assert_eq!(marshal::from_bytes::<Header>(&buf).unwrap(), header);

    let mut reply = [0u8; M];
    let n = Reply::Pair(1, 2).write_to(&mut reply);
    assert_eq!(n, M);
    assert_eq!(
        marshal::from_bytes::<Reply>(&reply[..n]).unwrap(),
        Reply::Pair(1, 2)
    );
}

#[test]
fn contracts_hold_for_every_variant() {
    for reply in [Reply::Ok, Reply::Value(7), Reply::Pair(1, 2)] {
        assert!(reply.encoded_len() <= 13);
    }
    assert_eq!(<Header as Marshal>::FIXED_LEN, Some(16));
    assert_eq!(<Reply as Marshal>::FIXED_LEN, None);
}

// ---------------------------------------------------------------------------
// Memory-layout equivalence.

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy, Default)]
struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy, Default)]
struct Triangle {
    vertices: [Vec3; 3],
    normal: Vec3,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[repr(C)]
struct ReprC {
    a: u32,
    b: u32,
    c: u64,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[repr(transparent)]
struct Meters(f64);

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Pixel(u8, u8, u8, u8);

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Unit;

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Generic<T> {
    a: T,
    b: T,
}

/// Padding after `a` (4-byte alignment of `b`).
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[repr(C)]
struct Padded {
    a: u8,
    b: u32,
}

/// The default representation reorders these to (b, a, c): no padding, but
/// not in wire order.
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Reordered {
    a: u8,
    b: u32,
    c: u8,
    d: u16,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct WithBool {
    a: u8,
    b: bool,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct WithChar {
    c: char,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct WithSkip {
    a: u32,
    #[marshal(skip)]
    b: u32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
enum Dir {
    N,
    S,
}

#[derive(Marshal, Debug, PartialEq, Clone, Copy)]
struct WithRef<'a> {
    a: &'a u32,
}

const LE: bool = cfg!(target_endian = "little");

#[test]
fn types_that_qualify() {
    assert_eq!(marshal::is_memcpy_equivalent::<u8>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<i64>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<f32>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<[u16; 4]>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Vec3>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Triangle>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<[Triangle; 2]>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<ReprC>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Meters>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Pixel>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Generic<u32>>(), LE);
    assert_eq!(marshal::is_memcpy_equivalent::<Generic<Vec3>>(), LE);
    assert!(marshal::is_memcpy_equivalent::<Unit>());
    assert!(marshal::is_memcpy_equivalent::<()>());
    assert_eq!(
        marshal::is_memcpy_equivalent::<usize>(),
        LE && size_of::<usize>() == 8
    );
}

#[test]
fn types_that_must_not_qualify() {
    assert!(!marshal::is_memcpy_equivalent::<Padded>());
    assert!(!marshal::is_memcpy_equivalent::<Reordered>());
    assert!(!marshal::is_memcpy_equivalent::<WithBool>());
    assert!(!marshal::is_memcpy_equivalent::<bool>());
    assert!(!marshal::is_memcpy_equivalent::<char>());
    assert!(!marshal::is_memcpy_equivalent::<WithChar>());
    assert!(!marshal::is_memcpy_equivalent::<WithSkip>());
    assert!(!marshal::is_memcpy_equivalent::<Dir>());
    assert!(!marshal::is_memcpy_equivalent::<Option<u32>>());
    assert!(!marshal::is_memcpy_equivalent::<&u32>());
    assert!(!marshal::is_memcpy_equivalent::<WithRef<'static>>());
    assert!(!marshal::is_memcpy_equivalent::<std::num::NonZeroU32>());
    assert!(!marshal::is_memcpy_equivalent::<Generic<u8>>() || LE);
    assert!(!marshal::is_memcpy_equivalent::<Generic<Padded>>());
    assert!(!marshal::is_memcpy_equivalent::<(u32, u32)>());
    assert!(!marshal::is_memcpy_equivalent::<String>());
}

/// Deterministic values for the bulk-copy checks below.
fn mesh(n: usize) -> Vec<Triangle> {
    (0..n)
        .map(|i| {
            let f = i as f32;
            let v = |k: f32| Vec3 {
                x: f + k,
                y: -f * k,
                z: f / (k + 2.0),
            };
            Triangle {
                vertices: [v(0.5), v(1.5), v(2.5)],
                normal: v(-1.0),
            }
        })
        .collect()
}

/// The bytes a field-by-field encoder writes for `tris`.
fn field_by_field(tris: &[Triangle]) -> Vec<u8> {
    let mut out = (tris.len() as u64).to_le_bytes().to_vec();
    for t in tris {
        for v in t.vertices.iter().chain([&t.normal]) {
            for c in [v.x, v.y, v.z] {
                out.extend(c.to_le_bytes());
            }
        }
    }
    out
}

#[test]
fn memcpy_equivalent_slices_encode_and_decode_exactly() {
    for n in [0, 1, 2, 17, 1000] {
        let tris = mesh(n);
        let bytes = marshal::to_vec(&tris);
        assert_eq!(bytes, field_by_field(&tris), "{n} triangles");
        assert_eq!(tris.encoded_len(), bytes.len());
        let back: Vec<Triangle> = marshal::from_bytes(&bytes).unwrap();
        assert_eq!(back, tris);
        let arr: [Triangle; 2] = [mesh(2)[0], mesh(2)[1]];
        let arr_bytes = marshal::to_vec(&arr);
        assert_eq!(arr_bytes, field_by_field(&arr)[8..]);
        assert_eq!(
            marshal::from_bytes::<[Triangle; 2]>(&arr_bytes).unwrap(),
            arr
        );
        let boxed: Box<[Triangle]> = tris.clone().into_boxed_slice();
        assert_eq!(marshal::to_vec(&boxed), bytes);
        let cow: Cow<[Triangle]> = marshal::from_bytes(&bytes).unwrap();
        assert_eq!(&*cow, &tris[..]);
    }
}

#[test]
fn memcpy_equivalent_slices_reject_short_input() {
    let bytes = marshal::to_vec(&mesh(3));
    for len in 0..bytes.len() {
        assert!(marshal::from_bytes::<Vec<Triangle>>(&bytes[..len]).is_err());
    }
    // A run that ends inside the buffer is an error with the right offset.
    let err = marshal::from_bytes::<Vec<Vec3>>(&[2, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3]).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 2 });
}

#[test]
fn non_qualifying_slices_still_round_trip() {
    let padded = vec![Padded { a: 1, b: 2 }, Padded { a: 3, b: 4 }];
    let bytes = marshal::to_vec(&padded);
    assert_eq!(
        bytes,
        [2, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 4, 0, 0, 0]
    );
    assert_eq!(marshal::from_bytes::<Vec<Padded>>(&bytes).unwrap(), padded);
    let reordered = vec![Reordered {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    }];
    let bytes = marshal::to_vec(&reordered);
    assert_eq!(bytes[8..], [1, 2, 0, 0, 0, 3, 4, 0]);
    assert_eq!(
        marshal::from_bytes::<Vec<Reordered>>(&bytes).unwrap(),
        reordered
    );
}

// ---------------------------------------------------------------------------
// Wire fingerprints.

fn fp<T: Marshal + ?Sized>() -> u64 {
    T::FINGERPRINT
}

// The types below exist only to be fingerprinted.
#[allow(dead_code)]
mod v1 {
    use marshal::Marshal;

    #[derive(Marshal)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) qty: u32,
        pub(crate) side: Side,
    }

    #[derive(Marshal)]
    pub(crate) enum Side {
        Buy,
        Sell,
    }
}

#[allow(dead_code)]
mod renamed {
    use marshal::Marshal;

    #[derive(Marshal)]
    pub(crate) struct Trade {
        pub(crate) key: u64,
        pub(crate) amount: u32,
        pub(crate) direction: Direction,
    }

    #[derive(Marshal)]
    pub(crate) enum Direction {
        Long,
        Short,
    }
}

#[allow(dead_code)]
mod changed {
    use marshal::Marshal;

    #[derive(Marshal)]
    pub(crate) struct WiderQty {
        pub(crate) id: u64,
        pub(crate) qty: u64,
        pub(crate) side: super::v1::Side,
    }

    #[derive(Marshal)]
    pub(crate) struct Swapped {
        pub(crate) qty: u32,
        pub(crate) id: u64,
        pub(crate) side: super::v1::Side,
    }

    #[derive(Marshal)]
    pub(crate) struct NestedChange {
        pub(crate) id: u64,
        pub(crate) qty: u32,
        pub(crate) side: ThreeSides,
    }

    #[derive(Marshal)]
    pub(crate) enum ThreeSides {
        Buy,
        Sell,
        Hold,
    }

    #[derive(Marshal)]
    #[marshal(tag_type = u8)]
    pub(crate) enum NarrowSide {
        Buy,
        Sell,
    }

    #[derive(Marshal)]
    pub(crate) enum RetaggedSide {
        Buy,
        #[marshal(tag = 5)]
        Sell,
    }

    #[derive(Marshal)]
    pub(crate) enum PayloadSide {
        Buy,
        Sell(u8),
    }

    #[derive(Marshal)]
    pub(crate) struct Skipped {
        pub(crate) id: u64,
        pub(crate) qty: u32,
        pub(crate) side: super::v1::Side,
        #[marshal(skip)]
        pub(crate) cache: Vec<u8>,
    }
}

#[test]
fn names_do_not_change_the_fingerprint() {
    assert_eq!(fp::<v1::Order>(), fp::<renamed::Trade>());
    assert_eq!(fp::<v1::Side>(), fp::<renamed::Direction>());
    // A skipped field writes nothing, so it changes nothing.
    assert_eq!(fp::<v1::Order>(), fp::<changed::Skipped>());
}

#[test]
fn wire_changes_change_the_fingerprint() {
    let base = fp::<v1::Order>();
    let changed = [
        fp::<changed::WiderQty>(),
        fp::<changed::Swapped>(),
        fp::<changed::NestedChange>(),
    ];
    for c in changed {
        assert_ne!(c, base);
    }
    let side = fp::<v1::Side>();
    for c in [
        fp::<changed::ThreeSides>(),
        fp::<changed::NarrowSide>(),
        fp::<changed::RetaggedSide>(),
        fp::<changed::PayloadSide>(),
    ] {
        assert_ne!(c, side);
    }
}

#[test]
fn fingerprints_follow_the_wire_shape_of_std_types() {
    // Same bytes, same fingerprint.
    assert_eq!(fp::<Vec<u32>>(), fp::<[u32]>());
    assert_eq!(fp::<String>(), fp::<str>());
    assert_eq!(fp::<Box<u16>>(), fp::<u16>());
    assert_eq!(fp::<usize>(), fp::<u64>());
    // Different bytes, different fingerprints.
    let all = [
        fp::<u8>(),
        fp::<i8>(),
        fp::<u16>(),
        fp::<u32>(),
        fp::<i32>(),
        fp::<f32>(),
        fp::<u64>(),
        fp::<f64>(),
        fp::<bool>(),
        fp::<char>(),
        fp::<String>(),
        fp::<Vec<u8>>(),
        fp::<Option<u8>>(),
        fp::<[u8; 2]>(),
        fp::<[u8; 3]>(),
        fp::<(u8, u16)>(),
        fp::<(u16, u8)>(),
        fp::<std::collections::BTreeMap<u8, u16>>(),
        fp::<std::time::Duration>(),
    ];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

/// The pinning pattern from the docs. These values are part of the wire
/// contract: they change only with a deliberate format change.
#[test]
fn pinned_fingerprints() {
    const _: () = assert!(<u32 as Marshal>::FINGERPRINT == 0x4d2b_df19_3e85_26d1);
    assert_eq!(fp::<v1::Order>(), 0x743a_9dfc_975f_0f8d);
    assert_eq!(fp::<Triangle>(), 0xbb93_3639_5069_3c80);
}

#[test]
fn fingerprinted_data_is_checked() {
    let order = v1::Order {
        id: 1,
        qty: 2,
        side: v1::Side::Sell,
    };
    let bytes = marshal::fingerprint::to_vec(&order);
    assert_eq!(&bytes[..8], &fp::<v1::Order>().to_le_bytes());
    assert_eq!(&bytes[8..], &marshal::to_vec(&order)[..]);

    let mut buf = [0u8; 64];
    let n = marshal::fingerprint::write_to(&Header::default_for_test(), &mut buf);
    let header: Header = marshal::fingerprint::from_bytes(&buf[..n]).unwrap();
    assert_eq!(header, Header::default_for_test());

    // Read back as a type with another wire shape: a clear error at byte 0.
    let err = marshal::fingerprint::from_bytes::<Triangle>(&buf[..n]).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::FingerprintMismatch {
            found: fp::<Header>()
        }
    );
    assert_eq!(err.offset(), 0);
    assert!(err.to_string().contains("fingerprint mismatch"));

    let wrapped = Fingerprinted(Vec3::default());
    assert_eq!(<Fingerprinted<Vec3> as Marshal>::FIXED_LEN, Some(8 + 12));
    let bytes = marshal::to_vec(&wrapped);
    assert_eq!(
        marshal::from_bytes::<Fingerprinted<Vec3>>(&bytes).unwrap(),
        wrapped
    );
}

impl Header {
    fn default_for_test() -> Self {
        Header {
            magic: *b"TEST",
            version: 1,
            flags: 2,
            len: 3,
        }
    }
}
