//! Behaviour of `#[derive(Marshal)]`: the exact bytes, `encoded_len`,
//! `FIXED_LEN` and `MAX_LEN` of derived types.
//!
//! Expected bytes are written out by hand from bincode 1.x's default rules:
//! little-endian integers, a `u64` length before strings and sequences, a
//! `u32` variant index before an enum's fields, and `Option` as a 0/1 byte.
//! Where a type also derives `serde::Serialize`, bincode itself is asked too.

use std::marker::PhantomData;

use marshal::{BufferTooSmall, Marshal, Writer};

/// Encodes `value` through every entry point, checks that they agree with
/// each other, with `encoded_len` and with the size constants, and returns
/// the bytes.
#[track_caller]
fn bytes<T: Marshal + ?Sized>(value: &T) -> Vec<u8> {
    let n = value.encoded_len();
    if let Some(fixed) = T::FIXED_LEN {
        assert_eq!(n, fixed, "encoded_len differs from FIXED_LEN");
    }
    if let Some(max) = T::MAX_LEN {
        assert!(n <= max, "encoded_len {n} exceeds MAX_LEN {max}");
    }

    // `write_to` writes exactly `n` bytes and leaves the rest alone.
    let mut buf = vec![0xA5; n + 3];
    assert_eq!(
        value.write_to(&mut buf),
        n,
        "write_to returned a wrong length"
    );
    assert!(
        buf[n..].iter().all(|&b| b == 0xA5),
        "write_to wrote past encoded_len"
    );
    buf.truncate(n);

    // An exact buffer is enough, one byte less is not.
    let mut exact = vec![0; n];
    assert_eq!(value.try_write_to(&mut exact), Ok(n));
    assert_eq!(exact, buf);
    if n > 0 {
        let mut short = vec![0; n - 1];
        assert_eq!(
            value.try_write_to(&mut short),
            Err(BufferTooSmall {
                needed: n,
                available: n - 1
            })
        );
    }

    // The low-level path through a `Writer`.
    let mut raw = vec![0; n];
    let mut w = Writer::new(&mut raw);
    value.encode(&mut w).unwrap();
    assert_eq!(w.written(), n);
    assert_eq!(raw, buf);

    assert_eq!(marshal::to_vec(value), buf);
    buf
}

/// Like [`bytes`], and also checks the result against bincode.
#[track_caller]
fn bincode_bytes<T: Marshal + serde::Serialize>(value: &T) -> Vec<u8> {
    let ours = bytes(value);
    assert_eq!(
        ours,
        bincode::serialize(value).unwrap(),
        "bincode disagrees"
    );
    ours
}

/// `(FIXED_LEN, MAX_LEN)` of `T`.
fn lens<T: Marshal + ?Sized>() -> (Option<usize>, Option<usize>) {
    (T::FIXED_LEN, T::MAX_LEN)
}

/// A `u64` length prefix.
fn len_prefix(n: u64) -> [u8; 8] {
    n.to_le_bytes()
}

/// Concatenates byte slices.
fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// A type that does not implement `Marshal`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct NotMarshal;

// ---------------------------------------------------------------------------
// Structs
// ---------------------------------------------------------------------------

#[derive(Marshal, serde::Serialize)]
struct Named {
    a: u8,
    b: u16,
    c: u32,
    d: i64,
    e: bool,
    f: char,
    s: String,
    v: Vec<u16>,
    o: Option<u32>,
    n: Option<u8>,
    t: (u8, i8),
}

#[test]
fn named_struct() {
    let value = Named {
        a: 1,
        b: 0x0203,
        c: 0x0405_0607,
        d: -2,
        e: true,
        f: 'é',
        s: "hi".to_string(),
        v: vec![1, 0x0100],
        o: Some(7),
        n: None,
        t: (9, -1),
    };
    let expected = cat(&[
        &[1],
        &[0x03, 0x02],
        &[0x07, 0x06, 0x05, 0x04],
        &[0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        &[1],
        &[0xC3, 0xA9],
        &len_prefix(2),
        b"hi",
        &len_prefix(2),
        &[1, 0, 0, 1],
        &[1, 7, 0, 0, 0],
        &[0],
        &[9, 0xFF],
    ]);
    assert_eq!(value.encoded_len(), 48);
    assert_eq!(bincode_bytes(&value), expected);
    // `char` has no fixed length and `String` no bound at all.
    assert_eq!(lens::<Named>(), (None, None));
}

#[derive(Marshal, serde::Serialize)]
struct Fixed {
    a: u16,
    b: [u8; 3],
    c: bool,
}

#[test]
fn fixed_size_struct() {
    let value = Fixed {
        a: 0xBEEF,
        b: [1, 2, 3],
        c: false,
    };
    assert_eq!(bincode_bytes(&value), [0xEF, 0xBE, 1, 2, 3, 0]);
    assert_eq!(value.encoded_len(), 6);
    assert_eq!(lens::<Fixed>(), (Some(6), Some(6)));
}

#[derive(Marshal, serde::Serialize)]
struct Bounded {
    a: Option<u32>,
    c: char,
}

#[test]
fn bounded_struct() {
    // Variable length, but never more than 5 + 4 bytes.
    assert_eq!(lens::<Bounded>(), (None, Some(9)));
    let long = Bounded {
        a: Some(1), c: '€'
    };
    assert_eq!(long.encoded_len(), 8);
    assert_eq!(bincode_bytes(&long), [1, 1, 0, 0, 0, 0xE2, 0x82, 0xAC]);
    let longest = Bounded {
        a: Some(0x0A0B_0C0D),
        c: '🦀',
    };
    assert_eq!(longest.encoded_len(), 9);
    assert_eq!(
        bincode_bytes(&longest),
        [1, 0x0D, 0x0C, 0x0B, 0x0A, 0xF0, 0x9F, 0xA6, 0x80]
    );
    let short = Bounded { a: None, c: 'a' };
    assert_eq!(short.encoded_len(), 2);
    assert_eq!(bincode_bytes(&short), [0, b'a']);
}

#[derive(Marshal, serde::Serialize)]
struct Tuple(u32, String, i16);

#[test]
fn tuple_struct() {
    let value = Tuple(0xDEAD_BEEF, "ab".into(), -3);
    let expected = cat(&[
        &[0xEF, 0xBE, 0xAD, 0xDE],
        &len_prefix(2),
        b"ab",
        &[0xFD, 0xFF],
    ]);
    assert_eq!(value.encoded_len(), 16);
    assert_eq!(bincode_bytes(&value), expected);
    assert_eq!(lens::<Tuple>(), (None, None));
}

#[derive(Marshal, serde::Serialize)]
struct Newtype(u64);

#[test]
fn newtype_struct() {
    assert_eq!(bincode_bytes(&Newtype(258)), [2, 1, 0, 0, 0, 0, 0, 0]);
    assert_eq!(lens::<Newtype>(), (Some(8), Some(8)));
}

#[derive(Marshal, serde::Serialize)]
struct Unit;

#[derive(Marshal, serde::Serialize)]
struct EmptyBraces {}

#[derive(Marshal, serde::Serialize)]
struct EmptyParens();

#[test]
fn unit_and_empty_structs() {
    assert_eq!(bincode_bytes(&Unit), [0u8; 0]);
    assert_eq!(bincode_bytes(&EmptyBraces {}), [0u8; 0]);
    assert_eq!(bincode_bytes(&EmptyParens()), [0u8; 0]);
    assert_eq!(Unit.encoded_len(), 0);
    assert_eq!(lens::<Unit>(), (Some(0), Some(0)));
    assert_eq!(lens::<EmptyBraces>(), (Some(0), Some(0)));
    assert_eq!(lens::<EmptyParens>(), (Some(0), Some(0)));
}

// ---------------------------------------------------------------------------
// Enums
// ---------------------------------------------------------------------------

#[derive(Marshal, serde::Serialize)]
enum Shape {
    Empty,
    Circle(u32),
    Rect { w: u16, h: u16 },
    Pair(u8, u8),
    Label(String),
}

#[test]
fn enum_variants() {
    assert_eq!(bincode_bytes(&Shape::Empty), [0, 0, 0, 0]);
    assert_eq!(Shape::Empty.encoded_len(), 4);
    assert_eq!(bincode_bytes(&Shape::Circle(5)), [1, 0, 0, 0, 5, 0, 0, 0]);
    assert_eq!(Shape::Circle(5).encoded_len(), 8);
    let rect = Shape::Rect { w: 3, h: 0x0102 };
    assert_eq!(bincode_bytes(&rect), [2, 0, 0, 0, 3, 0, 2, 1]);
    assert_eq!(rect.encoded_len(), 8);
    assert_eq!(bincode_bytes(&Shape::Pair(7, 8)), [3, 0, 0, 0, 7, 8]);
    assert_eq!(Shape::Pair(7, 8).encoded_len(), 6);
    let label = Shape::Label("x".into());
    assert_eq!(
        bincode_bytes(&label),
        cat(&[&[4, 0, 0, 0], &len_prefix(1), b"x"])
    );
    assert_eq!(label.encoded_len(), 13);
    assert_eq!(lens::<Shape>(), (None, None));
}

#[derive(Marshal, serde::Serialize)]
enum Dir {
    N,
    E,
    S,
    W,
}

#[derive(Marshal, serde::Serialize)]
enum SameSize {
    A(u32),
    B(i32),
    C([u8; 4]),
    D { x: u16, y: u16 },
}

#[derive(Marshal, serde::Serialize)]
enum Mixed {
    A,
    B(u64),
    C { x: u8, y: Option<u16> },
}

#[derive(Marshal, serde::Serialize)]
enum One {
    Only(u8),
}

#[test]
fn enum_size_constants() {
    // Unit variants only: the tag is everything.
    assert_eq!(lens::<Dir>(), (Some(4), Some(4)));
    assert_eq!(bincode_bytes(&Dir::W), [3, 0, 0, 0]);

    // Every variant carries the same number of bytes.
    assert_eq!(lens::<SameSize>(), (Some(8), Some(8)));
    assert_eq!(bincode_bytes(&SameSize::A(1)), [0, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(
        bincode_bytes(&SameSize::B(-1)),
        [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(
        bincode_bytes(&SameSize::C(*b"abcd")),
        [2, 0, 0, 0, b'a', b'b', b'c', b'd']
    );
    assert_eq!(
        bincode_bytes(&SameSize::D { x: 1, y: 2 }),
        [3, 0, 0, 0, 1, 0, 2, 0]
    );

    // Variants of different sizes: bounded by the largest, 4 + 8.
    assert_eq!(lens::<Mixed>(), (None, Some(12)));
    assert_eq!(bincode_bytes(&Mixed::A), [0, 0, 0, 0]);
    assert_eq!(
        bincode_bytes(&Mixed::B(u64::MAX)),
        [1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    assert_eq!(Mixed::B(0).encoded_len(), 12);
    let c = Mixed::C {
        x: 9,
        y: Some(0x0A0B),
    };
    assert_eq!(bincode_bytes(&c), [2, 0, 0, 0, 9, 1, 0x0B, 0x0A]);
    assert_eq!(c.encoded_len(), 8);
    let c = Mixed::C { x: 9, y: None };
    assert_eq!(bincode_bytes(&c), [2, 0, 0, 0, 9, 0]);
    assert_eq!(c.encoded_len(), 6);

    assert_eq!(lens::<One>(), (Some(5), Some(5)));
    assert_eq!(bincode_bytes(&One::Only(0xAB)), [0, 0, 0, 0, 0xAB]);
}

/// Recursive, with fixed-size and variable fields in the same variant: the
/// length is each variant's fixed part plus its variable fields.
#[derive(Marshal, serde::Serialize)]
enum Chain {
    End,
    Link(u16, String, Box<Chain>, [u8; 2]),
    Fork {
        left: Box<Chain>,
        weight: u32,
        right: Option<Box<Chain>>,
    },
}

#[test]
fn recursive_enum_with_mixed_fields() {
    assert_eq!(lens::<Chain>(), (None, None));
    let end = Chain::End;
    assert_eq!(bincode_bytes(&end), [0, 0, 0, 0]);
    let link = Chain::Link(0x0102, "ab".into(), Box::new(Chain::End), [7, 8]);
    assert_eq!(
        bincode_bytes(&link),
        cat(&[
            &[1, 0, 0, 0, 2, 1],
            &len_prefix(2),
            b"ab",
            &[0, 0, 0, 0, 7, 8],
        ])
    );
    assert_eq!(link.encoded_len(), 4 + 2 + 10 + 4 + 2);
    let fork = Chain::Fork {
        left: Box::new(link),
        weight: 5,
        right: Some(Box::new(Chain::End)),
    };
    assert_eq!(fork.encoded_len(), 4 + 22 + 4 + 1 + 4);
    let bytes = bincode_bytes(&fork);
    assert_eq!(bytes[..4], [2, 0, 0, 0]);
    assert_eq!(bytes[26..], [5, 0, 0, 0, 1, 0, 0, 0, 0]);
}

#[derive(Marshal)]
enum Never {}

fn assert_marshal<T: Marshal + ?Sized>() {}

#[test]
fn empty_enum() {
    assert_marshal::<Never>();
    // No value exists, so there is no length to promise.
    assert_eq!(Never::FIXED_LEN, None);
    assert_eq!(Never::MAX_LEN, None);
    // It can still be named inside other types.
    assert_eq!(bytes(&None::<Never>), [0]);
    assert_eq!(lens::<Option<Never>>(), (None, None));
    assert_eq!(bytes(&Vec::<Never>::new()), len_prefix(0));
}

// ---------------------------------------------------------------------------
// `skip`
// ---------------------------------------------------------------------------

#[derive(Marshal)]
struct Skips {
    a: u8,
    #[marshal(skip)]
    cache: NotMarshal,
    b: u16,
    #[marshal(skip)]
    scratch: Vec<u64>,
}

#[test]
fn skip_struct_fields() {
    let value = Skips {
        a: 1,
        cache: NotMarshal,
        b: 0x0302,
        scratch: vec![1, 2, 3],
    };
    assert_eq!(bytes(&value), [1, 2, 3]);
    assert_eq!(value.encoded_len(), 3);
    // Skipped fields do not count towards the size constants either.
    assert_eq!(lens::<Skips>(), (Some(3), Some(3)));
    let _ = (&value.cache, &value.scratch);
}

#[derive(Marshal)]
struct SkipTuple(#[marshal(skip)] NotMarshal, u32, #[marshal(skip)] String);

#[test]
fn skip_tuple_struct_fields() {
    let value = SkipTuple(NotMarshal, 0x0102_0304, "ignored".into());
    assert_eq!(bytes(&value), [4, 3, 2, 1]);
    assert_eq!(lens::<SkipTuple>(), (Some(4), Some(4)));
    let _ = (&value.0, &value.2);
}

#[derive(Marshal)]
enum SkipVariants {
    Tuple(u8, #[marshal(skip)] NotMarshal, u16),
    Struct {
        #[marshal(skip)]
        hidden: NotMarshal,
        shown: u32,
    },
    AllSkipped(#[marshal(skip)] u64),
}

#[test]
fn skip_variant_fields() {
    let tuple = SkipVariants::Tuple(1, NotMarshal, 0x0203);
    assert_eq!(bytes(&tuple), [0, 0, 0, 0, 1, 3, 2]);
    assert_eq!(tuple.encoded_len(), 7);
    let strukt = SkipVariants::Struct {
        hidden: NotMarshal,
        shown: 9,
    };
    assert_eq!(bytes(&strukt), [1, 0, 0, 0, 9, 0, 0, 0]);
    assert_eq!(strukt.encoded_len(), 8);
    let all = SkipVariants::AllSkipped(5);
    assert_eq!(bytes(&all), [2, 0, 0, 0]);
    assert_eq!(all.encoded_len(), 4);
    if let SkipVariants::AllSkipped(skipped) = all {
        assert_eq!(skipped, 5);
    }
    // 7, 8 and 4 bytes: no fixed length, at most 8.
    assert_eq!(lens::<SkipVariants>(), (None, Some(8)));
    if let SkipVariants::Struct { hidden, .. } = strukt {
        assert_eq!(hidden, NotMarshal);
    }
}

/// `T` appears only in a skipped field, so it needs no `Marshal` bound.
#[derive(Marshal)]
struct SkipGeneric<T> {
    #[marshal(skip)]
    state: T,
    n: u8,
}

#[test]
fn skipped_generic_field_needs_no_bound() {
    let value = SkipGeneric {
        state: NotMarshal,
        n: 7,
    };
    assert_eq!(bytes(&value), [7]);
    assert_eq!(lens::<SkipGeneric<NotMarshal>>(), (Some(1), Some(1)));
    let _ = value.state;
}

// ---------------------------------------------------------------------------
// `with`
// ---------------------------------------------------------------------------

/// Encodes a `u32` big-endian.
mod be_u32 {
    pub(crate) fn encoded_len(_: &u32) -> usize {
        4
    }

    pub(crate) fn write_to(value: &u32, buf: &mut [u8]) -> usize {
        buf[..4].copy_from_slice(&value.to_be_bytes());
        4
    }
}

/// A type from "another crate" that does not implement `Marshal`.
mod other_crate {
    pub(crate) struct Rgb {
        pub(crate) r: u8,
        pub(crate) g: u8,
        pub(crate) b: u8,
    }
}

mod codecs {
    /// Encodes an [`Rgb`](crate::other_crate::Rgb) as a `#rrggbb` string.
    pub(crate) mod rgb_hex {
        use crate::other_crate::Rgb;

        pub(crate) fn encoded_len(_: &Rgb) -> usize {
            8 + 7
        }

        pub(crate) fn write_to(rgb: &Rgb, buf: &mut [u8]) -> usize {
            let text = format!("#{:02x}{:02x}{:02x}", rgb.r, rgb.g, rgb.b);
            buf[..8].copy_from_slice(&7u64.to_le_bytes());
            buf[8..15].copy_from_slice(text.as_bytes());
            15
        }
    }

    /// Writes only the element count of a sequence, whatever its elements
    /// (a `&Vec<T>` field coerces to the `&[T]` parameters).
    pub(crate) mod count_only {
        pub(crate) fn encoded_len<T>(_: &[T]) -> usize {
            8
        }

        pub(crate) fn write_to<T>(items: &[T], buf: &mut [u8]) -> usize {
            buf[..8].copy_from_slice(&(items.len() as u64).to_le_bytes());
            8
        }
    }
}

#[derive(Marshal)]
struct WithBe {
    a: u8,
    #[marshal(with = be_u32)]
    b: u32,
    c: u32,
}

#[test]
fn with_module() {
    let value = WithBe {
        a: 0xAA,
        b: 0x0102_0304,
        c: 0x0102_0304,
    };
    assert_eq!(bytes(&value), [0xAA, 1, 2, 3, 4, 4, 3, 2, 1]);
    assert_eq!(value.encoded_len(), 9);
    // A `with` module's length is known only at run time.
    assert_eq!(lens::<WithBe>(), (None, None));
}

#[derive(Marshal)]
struct WithPaths {
    #[marshal(with = "be_u32")]
    string_form: u32,
    #[marshal(with = "crate::codecs::rgb_hex")]
    string_path: other_crate::Rgb,
    #[marshal(with = codecs::rgb_hex)]
    relative_path: other_crate::Rgb,
    #[marshal(with = self::be_u32)]
    self_path: u32,
}

#[test]
fn with_path_forms() {
    let value = WithPaths {
        string_form: 0x0A0B_0C0D,
        string_path: other_crate::Rgb {
            r: 0xFF,
            g: 0x80,
            b: 0x00,
        },
        relative_path: other_crate::Rgb {
            r: 0x12,
            g: 0x34,
            b: 0xAB,
        },
        self_path: 1,
    };
    let expected = cat(&[
        &[0x0A, 0x0B, 0x0C, 0x0D],
        &len_prefix(7),
        b"#ff8000",
        &len_prefix(7),
        b"#1234ab",
        &[0, 0, 0, 1],
    ]);
    assert_eq!(value.encoded_len(), 4 + 15 + 15 + 4);
    assert_eq!(bytes(&value), expected);
}

/// `T` appears only in a field encoded `with` a module, so it needs no bound.
#[derive(Marshal)]
struct Counted<T> {
    #[marshal(with = codecs::count_only)]
    items: Vec<T>,
    tail: u8,
}

#[test]
fn with_generic_field_needs_no_bound() {
    let value = Counted {
        items: vec![NotMarshal; 3],
        tail: 0xEE,
    };
    assert_eq!(bytes(&value), cat(&[&len_prefix(3), &[0xEE]]));
    assert_eq!(lens::<Counted<NotMarshal>>(), (None, None));
}

#[derive(Marshal)]
enum WithVariants {
    Big(#[marshal(with = be_u32)] u32),
    Color {
        #[marshal(with = codecs::rgb_hex)]
        rgb: other_crate::Rgb,
        alpha: u8,
    },
}

#[test]
fn with_in_variants() {
    assert_eq!(
        bytes(&WithVariants::Big(0x0102_0304)),
        [0, 0, 0, 0, 1, 2, 3, 4]
    );
    let color = WithVariants::Color {
        rgb: other_crate::Rgb { r: 1, g: 2, b: 3 },
        alpha: 0x7F,
    };
    assert_eq!(color.encoded_len(), 4 + 15 + 1);
    assert_eq!(
        bytes(&color),
        cat(&[&[1, 0, 0, 0], &len_prefix(7), b"#010203", &[0x7F]])
    );
    assert_eq!(lens::<WithVariants>(), (None, None));
}

/// Claims 4 bytes but writes 2.
mod lying {
    pub(crate) fn encoded_len(_: &u32) -> usize {
        4
    }

    pub(crate) fn write_to(_: &u32, _: &mut [u8]) -> usize {
        2
    }
}

#[derive(Marshal)]
struct WithLiar {
    #[marshal(with = lying)]
    x: u32,
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "`lying::write_to` wrote a different number of bytes")]
fn with_module_length_mismatch_is_caught_in_debug() {
    let mut buf = [0u8; 8];
    WithLiar { x: 1 }.write_to(&mut buf);
}

// ---------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------

#[derive(Marshal)]
enum Tagged {
    #[marshal(tag = 10)]
    A,
    B(u8),
    #[marshal(tag = 0xFFFF_FFFF)]
    C,
    #[marshal(tag = 2)]
    D {
        x: u16,
    },
}

#[test]
fn explicit_tags() {
    assert_eq!(bytes(&Tagged::A), [10, 0, 0, 0]);
    // A variant without `tag` keeps its declaration index.
    assert_eq!(bytes(&Tagged::B(3)), [1, 0, 0, 0, 3]);
    assert_eq!(bytes(&Tagged::C), [0xFF, 0xFF, 0xFF, 0xFF]);
    assert_eq!(bytes(&Tagged::D { x: 0x0102 }), [2, 0, 0, 0, 2, 1]);
    assert_eq!(lens::<Tagged>(), (None, Some(6)));
}

#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum Small {
    A,
    #[marshal(tag = 255)]
    B(u16),
    C {
        x: u8,
    },
}

#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum Bit {
    Zero,
    One,
}

#[test]
fn tag_type_u8() {
    assert_eq!(bytes(&Small::A), [0]);
    assert_eq!(Small::A.encoded_len(), 1);
    assert_eq!(bytes(&Small::B(0x0102)), [255, 2, 1]);
    assert_eq!(Small::B(0).encoded_len(), 3);
    assert_eq!(bytes(&Small::C { x: 7 }), [2, 7]);
    assert_eq!(lens::<Small>(), (None, Some(3)));

    assert_eq!(bytes(&Bit::Zero), [0]);
    assert_eq!(bytes(&Bit::One), [1]);
    assert_eq!(lens::<Bit>(), (Some(1), Some(1)));
}

#[derive(Marshal)]
#[marshal(tag_type = u16)]
enum Medium {
    A(u8),
    #[marshal(tag = 0x1234)]
    B(u8),
    #[marshal(tag = 65535)]
    C(i8),
}

#[test]
fn tag_type_u16() {
    assert_eq!(bytes(&Medium::A(1)), [0, 0, 1]);
    assert_eq!(bytes(&Medium::B(2)), [0x34, 0x12, 2]);
    assert_eq!(bytes(&Medium::C(-1)), [0xFF, 0xFF, 0xFF]);
    assert_eq!(Medium::A(0).encoded_len(), 3);
    assert_eq!(lens::<Medium>(), (Some(3), Some(3)));
}

#[derive(Marshal, serde::Serialize)]
#[marshal(tag_type = u32)]
enum Wide {
    A,
    B(u16),
}

#[test]
fn tag_type_u32_is_the_default() {
    assert_eq!(bincode_bytes(&Wide::A), [0, 0, 0, 0]);
    assert_eq!(bincode_bytes(&Wide::B(5)), [1, 0, 0, 0, 5, 0]);
    assert_eq!(lens::<Wide>(), (None, Some(6)));
}

#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum EmptySmall {}

#[test]
fn empty_enum_with_tag_type() {
    assert_eq!(lens::<EmptySmall>(), (None, None));
}

// ---------------------------------------------------------------------------
// Generics
// ---------------------------------------------------------------------------

/// No `T: Marshal` written: the derive infers it.
#[derive(Marshal, serde::Serialize)]
struct Wrapper<T> {
    inner: T,
    count: u8,
}

#[derive(Marshal, serde::Serialize)]
struct Two<A, B> {
    a: Vec<A>,
    b: Option<B>,
}

#[test]
fn inferred_bounds() {
    let w = Wrapper {
        inner: 0x0102u16,
        count: 3,
    };
    assert_eq!(bincode_bytes(&w), [2, 1, 3]);
    assert_eq!(lens::<Wrapper<u16>>(), (Some(3), Some(3)));
    assert_eq!(lens::<Wrapper<String>>(), (None, None));
    assert_eq!(lens::<Wrapper<Option<u8>>>(), (None, Some(3)));

    let w = Wrapper {
        inner: "hi".to_string(),
        count: 0,
    };
    assert_eq!(bincode_bytes(&w), cat(&[&len_prefix(2), b"hi", &[0]]));

    let t = Two {
        a: vec![Dir::E, Dir::S],
        b: Some('z'),
    };
    assert_eq!(
        bincode_bytes(&t),
        cat(&[&len_prefix(2), &[1, 0, 0, 0, 2, 0, 0, 0], &[1, b'z']])
    );
    assert_eq!(lens::<Two<u8, u8>>(), (None, None));
}

#[derive(Marshal)]
struct Typed<T> {
    id: u32,
    _marker: PhantomData<T>,
}

#[derive(Marshal)]
struct TypedFull<T, U> {
    _a: std::marker::PhantomData<(T, NotMarshal)>,
    _b: core::marker::PhantomData<fn() -> U>,
    id: u8,
}

#[derive(Marshal)]
enum TypedEnum<T> {
    A(PhantomData<T>),
    B(u8),
}

#[test]
fn phantom_type_param_needs_no_bound() {
    let value: Typed<NotMarshal> = Typed {
        id: 7,
        _marker: PhantomData,
    };
    assert_eq!(bytes(&value), [7, 0, 0, 0]);
    assert_eq!(lens::<Typed<NotMarshal>>(), (Some(4), Some(4)));

    let value: TypedFull<NotMarshal, NotMarshal> = TypedFull {
        _a: PhantomData,
        _b: PhantomData,
        id: 1,
    };
    assert_eq!(bytes(&value), [1]);

    assert_eq!(
        bytes(&TypedEnum::<NotMarshal>::A(PhantomData)),
        [0, 0, 0, 0]
    );
    assert_eq!(bytes(&TypedEnum::<NotMarshal>::B(2)), [1, 0, 0, 0, 2]);
    assert_eq!(lens::<TypedEnum<NotMarshal>>(), (None, Some(5)));
}

#[derive(Marshal, serde::Serialize)]
struct Borrowed<'a> {
    name: &'a str,
    data: &'a [u8],
    nums: &'a [u16],
}

#[derive(Marshal)]
struct RefTo<'a, 'b: 'a, T: ?Sized> {
    first: &'a T,
    second: &'b mut T,
}

#[derive(Marshal)]
enum Cow2<'a> {
    Borrowed(&'a str),
    Owned(String),
}

#[test]
fn lifetimes() {
    let value = Borrowed {
        name: "ab",
        data: &[1, 2, 3],
        nums: &[0x0102],
    };
    let expected = cat(&[
        &len_prefix(2),
        b"ab",
        &len_prefix(3),
        &[1, 2, 3],
        &len_prefix(1),
        &[2, 1],
    ]);
    assert_eq!(value.encoded_len(), 31);
    assert_eq!(bincode_bytes(&value), expected);

    // `T: ?Sized` is kept, `T: Marshal` is added.
    let mut owned = String::from("cd");
    let value: RefTo<'_, '_, str> = RefTo {
        first: "e",
        second: owned.as_mut_str(),
    };
    assert_eq!(
        bytes(&value),
        cat(&[&len_prefix(1), b"e", &len_prefix(2), b"cd"])
    );
    let mut n = 5u16;
    let value = RefTo {
        first: &4u16,
        second: &mut n,
    };
    assert_eq!(bytes(&value), [4, 0, 5, 0]);
    assert_eq!(lens::<RefTo<'_, '_, u16>>(), (Some(4), Some(4)));

    assert_eq!(
        bytes(&Cow2::Borrowed("q")),
        cat(&[&[0, 0, 0, 0], &len_prefix(1), b"q"])
    );
    assert_eq!(
        bytes(&Cow2::Owned("q".into())),
        cat(&[&[1, 0, 0, 0], &len_prefix(1), b"q"])
    );
}

#[derive(Marshal)]
struct Arr<T, const N: usize> {
    items: [T; N],
}

#[derive(Marshal)]
struct Matrix<const R: usize, const C: usize> {
    cells: [[u8; C]; R],
}

#[test]
fn const_generics() {
    let value = Arr {
        items: [1u16, 2, 3],
    };
    assert_eq!(bytes(&value), [1, 0, 2, 0, 3, 0]);
    assert_eq!(lens::<Arr<u16, 3>>(), (Some(6), Some(6)));

    let empty: Arr<u8, 0> = Arr { items: [] };
    assert_eq!(bytes(&empty), [0u8; 0]);
    assert_eq!(lens::<Arr<u8, 0>>(), (Some(0), Some(0)));
    // Zero elements take zero bytes even when an element has no fixed size.
    assert_eq!(lens::<Arr<String, 0>>(), (Some(0), Some(0)));

    let strings = Arr {
        items: ["a".to_string(), "bc".to_string()],
    };
    assert_eq!(
        bytes(&strings),
        cat(&[&len_prefix(1), b"a", &len_prefix(2), b"bc"])
    );
    assert_eq!(lens::<Arr<String, 2>>(), (None, None));
    assert_eq!(lens::<Arr<Option<u8>, 4>>(), (None, Some(8)));

    let m = Matrix {
        cells: [[1, 2, 3], [4, 5, 6]],
    };
    assert_eq!(bytes(&m), [1, 2, 3, 4, 5, 6]);
    assert_eq!(lens::<Matrix<2, 3>>(), (Some(6), Some(6)));
}

#[derive(Marshal)]
struct WhereClause<T>
where
    T: Copy + Into<u64>,
{
    value: T,
    extra: u8,
}

#[derive(Marshal)]
enum WhereEnum<T, U>
where
    T: Clone,
    U: Default,
{
    A(T),
    B { u: U },
}

#[test]
fn where_clauses() {
    let value = WhereClause {
        value: 0x0102u16,
        extra: 3,
    };
    assert_eq!(bytes(&value), [2, 1, 3]);
    assert_eq!(u64::from(value.value), 0x0102);
    assert_eq!(lens::<WhereClause<u16>>(), (Some(3), Some(3)));

    let a: WhereEnum<u8, u32> = WhereEnum::A(9);
    assert_eq!(bytes(&a), [0, 0, 0, 0, 9]);
    let b: WhereEnum<u8, u32> = WhereEnum::B { u: 1 };
    assert_eq!(bytes(&b), [1, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(lens::<WhereEnum<u8, u32>>(), (None, Some(8)));
}

trait Family {
    type Item;
}

/// Does not implement `Marshal`; only its associated type does.
struct U16Family;

impl Family for U16Family {
    type Item = u16;
}

#[derive(Marshal)]
struct Assoc<F: Family> {
    item: F::Item,
    items: Vec<F::Item>,
}

#[derive(Marshal)]
struct FirstOf<I: Iterator> {
    first: Option<I::Item>,
}

#[test]
fn associated_type_fields() {
    // The bound is `F::Item: Marshal`, not `F: Marshal`.
    let value: Assoc<U16Family> = Assoc {
        item: 5,
        items: vec![6],
    };
    assert_eq!(bytes(&value), cat(&[&[5, 0], &len_prefix(1), &[6, 0]]));
    assert_eq!(lens::<Assoc<U16Family>>(), (None, None));

    let mut iter = vec![7u8].into_iter();
    let value: FirstOf<std::vec::IntoIter<u8>> = FirstOf { first: iter.next() };
    assert_eq!(bytes(&value), [1, 7]);
    assert_eq!(lens::<FirstOf<std::vec::IntoIter<u8>>>(), (None, Some(2)));
}

// ---------------------------------------------------------------------------
// Nesting
// ---------------------------------------------------------------------------

#[derive(Marshal, serde::Serialize)]
struct Outer {
    header: Tuple,
    shapes: Vec<Shape>,
    dir: Dir,
    inner: Option<Wrapper<Dir>>,
    fixed: [Fixed; 2],
}

#[derive(Marshal, serde::Serialize)]
struct AllFixed {
    dir: Dir,
    same: SameSize,
    fixed: Fixed,
    arr: [Dir; 2],
}

#[derive(Marshal)]
enum Nest {
    Small(Small),
    Wrapped(Wrapper<Bit>),
    Tagged(Box<Tagged>),
}

#[test]
fn nested_derived_types() {
    let value = Outer {
        header: Tuple(1, "h".into(), 2),
        shapes: vec![Shape::Circle(3), Shape::Empty],
        dir: Dir::S,
        inner: Some(Wrapper {
            inner: Dir::E,
            count: 4,
        }),
        fixed: [
            Fixed {
                a: 5,
                b: [6, 7, 8],
                c: true,
            },
            Fixed {
                a: 0,
                b: [0; 3],
                c: false,
            },
        ],
    };
    let expected = cat(&[
        &[1, 0, 0, 0],
        &len_prefix(1),
        b"h",
        &[2, 0],
        &len_prefix(2),
        &[1, 0, 0, 0, 3, 0, 0, 0],
        &[0, 0, 0, 0],
        &[2, 0, 0, 0],
        &[1, 1, 0, 0, 0, 4],
        &[5, 0, 6, 7, 8, 1],
        &[0, 0, 0, 0, 0, 0],
    ]);
    assert_eq!(value.encoded_len(), expected.len());
    assert_eq!(bincode_bytes(&value), expected);
    assert_eq!(lens::<Outer>(), (None, None));

    // Fixed sizes compose: 4 + 8 + 6 + 2 * 4.
    assert_eq!(lens::<AllFixed>(), (Some(26), Some(26)));
    let value = AllFixed {
        dir: Dir::N,
        same: SameSize::A(1),
        fixed: Fixed {
            a: 2,
            b: [3, 4, 5],
            c: true,
        },
        arr: [Dir::E, Dir::W],
    };
    assert_eq!(
        bincode_bytes(&value),
        cat(&[
            &[0, 0, 0, 0],
            &[0, 0, 0, 0, 1, 0, 0, 0],
            &[2, 0, 3, 4, 5, 1],
            &[1, 0, 0, 0, 3, 0, 0, 0],
        ])
    );

    assert_eq!(bytes(&Nest::Small(Small::B(1))), [0, 0, 0, 0, 255, 1, 0]);
    assert_eq!(
        bytes(&Nest::Wrapped(Wrapper {
            inner: Bit::One,
            count: 2
        })),
        [1, 0, 0, 0, 1, 2]
    );
    assert_eq!(
        bytes(&Nest::Tagged(Box::new(Tagged::C))),
        [2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF]
    );
    // Small is at most 3 bytes and Wrapper<Bit> exactly 2, but Box<Tagged>
    // reports no sizes (boxes are how types recurse), so neither does Nest.
    assert_eq!(lens::<Nest>(), (None, None));
    assert_eq!(lens::<Tagged>().1, Some(6));
}

// ---------------------------------------------------------------------------
// `crate = path`
// ---------------------------------------------------------------------------

use marshal as renamed;

#[derive(renamed::Marshal)]
#[marshal(crate = renamed)]
struct RenamedStruct {
    a: u16,
}

#[derive(renamed::Marshal)]
#[marshal(crate = "renamed", tag_type = u8)]
enum RenamedEnum<T> {
    A(T),
    B,
}

/// A crate that re-exports marshal, as a library wrapping it would.
mod facade {
    pub(crate) use ::marshal;
}

#[derive(facade::marshal::Marshal)]
#[marshal(crate = crate::facade::marshal)]
struct ThroughFacade<'a> {
    s: &'a str,
    #[marshal(with = be_u32)]
    n: u32,
}

#[test]
fn crate_path() {
    assert_eq!(bytes(&RenamedStruct { a: 0x0102 }), [2, 1]);
    assert_eq!(lens::<RenamedStruct>(), (Some(2), Some(2)));
    assert_eq!(bytes(&RenamedEnum::A(7u32)), [0, 7, 0, 0, 0]);
    assert_eq!(bytes(&RenamedEnum::<u32>::B), [1]);
    assert_eq!(lens::<RenamedEnum<u32>>(), (None, Some(5)));
    assert_eq!(
        bytes(&ThroughFacade { s: "x", n: 1 }),
        cat(&[&len_prefix(1), b"x", &[0, 0, 0, 1]])
    );
}
