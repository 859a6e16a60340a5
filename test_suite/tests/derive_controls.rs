//! The derive's controls over what it generates: `#[marshal(bound = "...")]`
//! and `#[marshal(bound(encode = "...", decode = "..."))]`, which replace
//! the inferred bounds of the impls, and `#[marshal(use_discriminant = ...)]`,
//! which says whether an enum's Rust discriminants are its wire tags. Each
//! type derives both traits; its bytes are pinned and decode back.
//!
//! The compile errors of these attributes are UI tests: `bound-*.rs`,
//! `duplicate-bound.rs`, `use-discriminant-*.rs`, `*discriminant*.rs` in
//! `tests/ui/`.

use std::borrow::Cow;
use std::marker::PhantomData;

use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::checks::{assert_decode_error, borrows_from};
use marshal_test_suite::fixtures::NotMarshal;
use marshal_test_suite::golden::{hex, row};

fn assert_marshal<T: Marshal + ?Sized>() {}

fn assert_unmarshal<T: for<'de> Unmarshal<'de>>() {}

/// `value` encodes to `bytes` (in WIRE_FORMAT.md's notation) and those
/// bytes decode to a value that `same` finds equal, for types that borrow
/// from their input or cannot derive `PartialEq`.
#[track_caller]
fn borrowed_row<'de, T>(value: &T, bytes: &'de [u8], same: impl Fn(&T, &T) -> bool) -> T
where
    T: Marshal + Unmarshal<'de>,
{
    assert_eq!(marshal::to_vec(value), bytes, "encoding");
    assert_eq!(value.encoded_len(), bytes.len(), "encoded_len");
    let back = marshal::from_bytes::<T>(bytes).expect("decoding");
    assert!(same(value, &back), "decoded another value");
    back
}

// ---------------------------------------------------------------------------
// `bound`
// ---------------------------------------------------------------------------

/// A generic `Cow<'a, T>` field: the inferred decode bound would be
/// `T: Unmarshal<'de>`, which asks for a sized `T` and, through `Cow`'s own
/// impl, `T: Clone`, so `Shared<str>` could not decode at all. The decode
/// bound says what `Cow` needs; the encode bound stays inferred.
#[derive(Marshal, Unmarshal)]
#[marshal(bound(decode = "T: marshal::cow::CowUnmarshal<'de>"))]
struct Shared<'a, T: ToOwned + ?Sized> {
    id: u8,
    c: Cow<'a, T>,
}

fn same_shared<T: ToOwned + PartialEq + ?Sized>(a: &Shared<T>, b: &Shared<T>) -> bool {
    a.id == b.id && *a.c == *b.c
}

#[test]
fn decode_bound_fixes_a_generic_cow() {
    // `str` borrows from the input.
    let text = Shared::<str> {
        id: 1,
        c: Cow::Borrowed("hi"),
    };
    let bytes = hex("01 02 00 00 00 00 00 00 00 68 69");
    let back = borrowed_row(&text, &bytes, same_shared);
    assert!(matches!(back.c, Cow::Borrowed(s) if borrows_from(&bytes, s.as_bytes())));

    // `[u8]` borrows too; `[u32]` and a sized `u16` are owned.
    let raw = Shared::<[u8]> {
        id: 2,
        c: Cow::Owned(vec![7, 8]),
    };
    let bytes = hex("02 02 00 00 00 00 00 00 00 07 08");
    let back = borrowed_row(&raw, &bytes, same_shared);
    assert!(matches!(back.c, Cow::Borrowed(s) if borrows_from(&bytes, s)));

    let words = Shared::<[u32]> {
        id: 3,
        c: Cow::Borrowed(&[1, 2]),
    };
    let bytes = hex("03 02 00 00 00 00 00 00 00 01 00 00 00 02 00 00 00");
    assert!(matches!(
        borrowed_row(&words, &bytes, same_shared).c,
        Cow::Owned(_)
    ));

    let number = Shared::<u16> {
        id: 4,
        c: Cow::Owned(0x0102),
    };
    let bytes = hex("04 02 01");
    assert!(matches!(
        borrowed_row(&number, &bytes, same_shared).c,
        Cow::Owned(0x0102)
    ));
    assert_eq!(<Shared<u16>>::FIXED_LEN, Some(3));
    assert_eq!(<Shared<u16> as Unmarshal>::MIN_LEN, 3);
}

/// `Marshal` and `Unmarshal` for every `T`: no field holds a `T`.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Id<T> {
    raw: u32,
    _of: PhantomData<T>,
}

impl<T> Id<T> {
    fn new(raw: u32) -> Self {
        Id {
            raw,
            _of: PhantomData,
        }
    }
}

/// The inferred bounds would be `T: Marshal` and `T: Unmarshal<'de>`, from
/// `Id<T>`, which needs neither; `bound = ""` gives both impls none.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "")]
struct Ref<T> {
    id: Id<T>,
    count: u8,
}

/// The same for an enum.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "")]
enum Either<L, R> {
    Left(Id<L>),
    Right { id: Id<R> },
}

#[test]
fn empty_bound_needs_nothing_of_the_parameters() {
    assert_marshal::<Ref<NotMarshal>>();
    assert_unmarshal::<Ref<NotMarshal>>();
    row(
        Ref::<NotMarshal> {
            id: Id::new(0x0102_0304),
            count: 9,
        },
        "04 03 02 01 09",
    );
    assert_eq!(<Ref<NotMarshal>>::FIXED_LEN, Some(5));

    row(
        Either::<NotMarshal, Handle>::Left(Id::new(1)),
        "00 00 00 00 01 00 00 00",
    );
    row(
        Either::<NotMarshal, Handle>::Right { id: Id::new(2) },
        "01 00 00 00 02 00 00 00",
    );
}

/// A parameter only in a skipped field: the inferred decode bound is
/// `T: Default` (for the `Option<T>`, which is `Default` anyway).
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "")]
struct Cached<T> {
    key: u16,
    #[marshal(skip)]
    cache: Option<T>,
}

/// Not `Default`, nor `Marshal`.
#[derive(Debug, PartialEq)]
struct Handle(u8);

#[test]
fn bound_replaces_the_inferred_default_bound() {
    assert_unmarshal::<Cached<Handle>>();
    let value = Cached {
        key: 7,
        cache: Some(Handle(1)),
    };
    assert_eq!(marshal::to_vec(&value), [7, 0]);
    let back: Cached<Handle> = marshal::from_bytes(&[7, 0]).unwrap();
    assert_eq!(
        back,
        Cached {
            key: 7,
            cache: None
        }
    );
}

/// Both traits in one, for a shared bound.
trait Wire: Marshal + for<'de> Unmarshal<'de> {}

impl Wire for u16 {}
impl Wire for String {}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "T: Wire")]
struct Pair<T> {
    first: T,
    rest: Vec<T>,
}

/// The type's own bounds stay beside the given ones: here they are all it
/// needs.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "")]
struct Own<T>
where
    T: Wire,
{
    value: T,
}

#[test]
fn shared_bound_is_the_where_clause_of_both_impls() {
    row(
        Pair {
            first: 1u16,
            rest: vec![2],
        },
        "01 00 01 00 00 00 00 00 00 00 02 00",
    );
    row(
        Pair {
            first: String::from("a"),
            rest: vec![],
        },
        "01 00 00 00 00 00 00 00 61 00 00 00 00 00 00 00 00",
    );
    row(Own { value: 5u16 }, "05 00");
}

/// One key alone replaces that impl's bounds and leaves the other's
/// inferred: `Marshal` for any `T`, `Unmarshal` when `T: Unmarshal`.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound(encode = ""))]
struct EncodeOnly<T> {
    id: Id<T>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound(encode = "T: Wire", decode = "T: Wire"))]
struct EachImpl<T> {
    value: T,
}

#[test]
fn each_impl_takes_its_own_bound() {
    assert_marshal::<EncodeOnly<NotMarshal>>();
    assert_unmarshal::<EncodeOnly<u8>>();
    row(EncodeOnly::<u8> { id: Id::new(3) }, "03 00 00 00");
    assert_eq!(
        marshal::to_vec(&EncodeOnly::<NotMarshal> { id: Id::new(3) }),
        [3, 0, 0, 0]
    );
    row(EachImpl { value: 0x0a0bu16 }, "0b 0a");
}

/// `'de` in a decode bound is the input's lifetime: `T` may borrow from it.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound(decode = "T: marshal::Unmarshal<'de>"))]
struct Labelled<'a, T> {
    label: &'a str,
    value: T,
}

#[test]
fn de_in_a_decode_bound_is_the_input_lifetime() {
    let value = Labelled {
        label: "x",
        value: "yz",
    };
    let bytes = hex("01 00 00 00 00 00 00 00 78 02 00 00 00 00 00 00 00 79 7a");
    let back = borrowed_row(&value, &bytes, |a, b| a == b);
    assert!(borrows_from(&bytes, back.value.as_bytes()));
    assert!(borrows_from(&bytes, back.label.as_bytes()));
}

/// A `'de` that a `for<'de>` binds is that one, not the input's: so the
/// shared bound can say it, though the `Marshal` impl has no input.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound = "T: marshal::Marshal + for<'de> marshal::Unmarshal<'de>")]
struct Owned<T> {
    value: T,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(bound(decode = "for<'de> T: marshal::Unmarshal<'de>"))]
struct OwnedToo<T> {
    value: T,
}

#[test]
fn a_de_bound_by_for_is_its_own() {
    row(Owned { value: 7u8 }, "07");
    row(
        OwnedToo {
            value: String::from("a"),
        },
        "01 00 00 00 00 00 00 00 61",
    );
}

// ---------------------------------------------------------------------------
// `use_discriminant`
// ---------------------------------------------------------------------------

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[marshal(use_discriminant = true)]
enum Status {
    Ok = 10,
    Moved = 20,
    Gone = 30,
}

/// The same enum numbered by position.
#[derive(
    Marshal, Unmarshal, Debug, PartialEq, Clone, Copy, serde::Serialize, serde::Deserialize,
)]
#[marshal(use_discriminant = false)]
enum ByIndex {
    Ok = 10,
    Moved = 20,
    Gone = 30,
}

#[test]
fn discriminants_are_the_tags() {
    row(Status::Ok, "0a 00 00 00");
    row(Status::Moved, "14 00 00 00");
    row(Status::Gone, "1e 00 00 00");
    // The Rust values are unchanged: the attribute only picks the tags.
    assert_eq!(Status::Moved as u8, 20);
    for tag in [0u32, 1, 2, 11, 21, 31] {
        assert_decode_error::<Status>(
            &tag.to_le_bytes(),
            DecodeErrorKind::InvalidTag { tag, ty: "Status" },
            0,
        );
    }
    assert_eq!(Status::FIXED_LEN, Some(4));
}

#[test]
fn without_discriminants_the_tags_are_indexes_as_in_bincode() {
    for (value, index) in [(ByIndex::Ok, 0u32), (ByIndex::Moved, 1), (ByIndex::Gone, 2)] {
        let bytes = marshal::to_vec(&value);
        assert_eq!(bytes, index.to_le_bytes());
        assert_eq!(bytes, bincode::serialize(&value).unwrap());
        assert_eq!(marshal::from_bytes::<ByIndex>(&bytes), Ok(value));
    }
    assert_decode_error::<ByIndex>(
        &10u32.to_le_bytes(),
        DecodeErrorKind::InvalidTag {
            tag: 10,
            ty: "ByIndex",
        },
        0,
    );
    assert_eq!(ByIndex::Moved as u8, 20);
}

/// Variants without a discriminant count on from the one before, from 0,
/// as in Rust.
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
#[marshal(use_discriminant = true)]
enum Counted {
    A,
    B = 5,
    C,
    D = 2,
    E,
}

#[test]
fn implicit_discriminants_count_on() {
    for (value, tag) in [
        (Counted::A, 0u32),
        (Counted::B, 5),
        (Counted::C, 6),
        (Counted::D, 2),
        (Counted::E, 3),
    ] {
        assert_eq!(value as u32, tag);
        row(value, &format!("{tag:02x} 00 00 00"));
    }
}

/// `tag = N` overrides a variant's discriminant; the next variant still
/// counts on from the discriminant, as Rust does, not from the tag.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = true)]
enum Overridden {
    A = 1,
    #[marshal(tag = 100)]
    B = 7,
    C,
}

#[test]
fn tag_overrides_a_discriminant() {
    row(Overridden::A, "01 00 00 00");
    row(Overridden::B, "64 00 00 00");
    row(Overridden::C, "08 00 00 00");
    assert_decode_error::<Overridden>(
        &7u32.to_le_bytes(),
        DecodeErrorKind::InvalidTag {
            tag: 7,
            ty: "Overridden",
        },
        0,
    );
}

/// Narrow tags, and literals in any base, with a suffix or in parentheses.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u8, use_discriminant = true)]
#[repr(u8)]
enum Opcode {
    Nop = 0x90,
    Halt = 0o364,
    Int3 = (204),
    Max = 0xFFu8,
}

#[test]
fn discriminants_as_narrow_tags() {
    row(Opcode::Nop, "90");
    row(Opcode::Halt, "f4");
    row(Opcode::Int3, "cc");
    row(Opcode::Max, "ff");
    assert_eq!(Opcode::FIXED_LEN, Some(1));
}

/// Variants with fields (which need a `repr` for discriminants).
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u16, use_discriminant = true)]
#[repr(u16)]
enum Message<'a> {
    Ping = 1,
    Data(u16, &'a str) = 0x0100,
    Close { code: u8 },
}

#[test]
fn discriminants_of_variants_with_fields() {
    let same = |a: &Message, b: &Message| a == b;
    borrowed_row(&Message::Ping, &hex("01 00"), same);
    let bytes = hex("00 01 02 01 01 00 00 00 00 00 00 00 61");
    borrowed_row(&Message::Data(0x0102, "a"), &bytes, same);
    borrowed_row(&Message::Close { code: 3 }, &hex("01 01 03"), same);
}

/// With `use_discriminant = false`, the discriminants are not read at
/// all: negative ones and any constant expression are fine.
const BASE: isize = 40;

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = false)]
enum Unread {
    Minus = -1,
    Computed = BASE + 2,
    Next,
}

/// With `use_discriminant = true`, an expression the derive cannot read is
/// fine when no tag comes from it.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = true)]
enum Overruled {
    #[marshal(tag = 1)]
    A = BASE,
    B = -(-3),
    #[marshal(tag = 2)]
    C = -5,
    D = 9,
}

#[test]
fn discriminants_that_are_no_tags() {
    row(Unread::Minus, "00 00 00 00");
    row(Unread::Computed, "01 00 00 00");
    row(Unread::Next, "02 00 00 00");
    assert_eq!(Unread::Next as isize, 43);
    row(Overruled::A, "01 00 00 00");
    row(Overruled::B, "03 00 00 00");
    row(Overruled::C, "02 00 00 00");
    row(Overruled::D, "09 00 00 00");
}

/// Without explicit discriminants, `true` and `false` agree: the implicit
/// discriminants are the indexes.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(use_discriminant = true)]
enum Plain {
    A,
    B(u8),
}

#[test]
fn implicit_discriminants_are_indexes() {
    row(Plain::A, "00 00 00 00");
    row(Plain::B(5), "01 00 00 00 05");
}

/// What `use_discriminant = true` writes, spelled with `tag = N`.
#[derive(Marshal)]
enum StatusByTag {
    #[marshal(tag = 10)]
    Ok,
    #[marshal(tag = 20)]
    Moved,
    #[marshal(tag = 30)]
    Gone,
}

#[test]
fn the_fingerprint_sees_the_tags() {
    for (ours, tagged) in [
        (Status::Ok, StatusByTag::Ok),
        (Status::Moved, StatusByTag::Moved),
        (Status::Gone, StatusByTag::Gone),
    ] {
        assert_eq!(marshal::to_vec(&ours), marshal::to_vec(&tagged));
    }
    assert_eq!(Status::FINGERPRINT, StatusByTag::FINGERPRINT);
    assert_ne!(Status::FINGERPRINT, ByIndex::FINGERPRINT);
}
