//! Which derived structs are memcpy-equivalent: those whose fields all are,
//! back to back with no padding. The derive leaves out the layout proof for
//! a struct with a field that can never qualify, so such structs (and every
//! enum) stay opaque, while the others keep their proof.

use std::marker::PhantomData;
use std::num::Wrapping;

use marshal::{Marshal, Unmarshal, is_memcpy_equivalent};

/// Both traits' layouts agree.
fn memcpy<T: Marshal + for<'de> Unmarshal<'de>>() -> bool {
    let encodes = is_memcpy_equivalent::<T>();
    let decodes = <T as Unmarshal>::__LAYOUT.is_memcpy();
    assert_eq!(encodes, decodes);
    encodes
}

const LITTLE: bool = cfg!(target_endian = "little");

#[derive(Marshal, Unmarshal)]
struct Ints {
    a: u32,
    b: i32,
    c: f32,
}

/// `repr(C)`, so that the fields are in declaration order: 8 + 8 + 12 + 12
/// bytes, no padding.
#[derive(Marshal, Unmarshal)]
#[repr(C)]
struct Nested {
    path: ::core::primitive::u64,
    wrapped: Wrapping<u64>,
    ints: Ints,
    more: [u32; 3],
    nothing: (),
    marker: PhantomData<String>,
}

#[derive(Marshal, Unmarshal)]
struct Generic<T> {
    a: T,
    b: T,
}

#[derive(Marshal, Unmarshal)]
struct Newtype(u64);

#[test]
fn qualifying_structs_keep_their_proof() {
    assert_eq!(memcpy::<Ints>(), LITTLE);
    assert_eq!(memcpy::<Nested>(), LITTLE);
    assert_eq!(memcpy::<Generic<u16>>(), LITTLE);
    assert_eq!(memcpy::<Newtype>(), LITTLE);
    // Generic over a type that does not qualify.
    assert!(!memcpy::<Generic<bool>>());
    assert!(!memcpy::<Generic<Option<u16>>>());
}

#[derive(Marshal, Unmarshal)]
struct WithBool {
    a: u8,
    b: bool,
}

#[derive(Marshal, Unmarshal)]
struct WithChar {
    a: u32,
    b: char,
}

#[derive(Marshal, Unmarshal)]
struct WithString {
    a: u64,
    b: String,
}

#[derive(Marshal, Unmarshal)]
struct WithVec {
    a: u64,
    b: Vec<u64>,
}

#[derive(Marshal, Unmarshal)]
struct WithOption {
    a: u64,
    b: Option<u64>,
}

#[derive(Marshal, Unmarshal)]
struct WithTuple {
    a: u64,
    b: (u32, u32),
}

#[derive(Marshal, Unmarshal)]
struct WithArrayOfBool {
    a: u64,
    b: [bool; 8],
}

#[derive(Marshal, Unmarshal)]
struct WithSkip {
    a: u64,
    #[marshal(skip)]
    _cache: u64,
}

#[derive(Marshal, Unmarshal)]
enum Unit {
    A,
    B,
}

#[test]
fn structs_that_cannot_qualify_are_opaque() {
    assert!(!memcpy::<WithBool>());
    assert!(!memcpy::<WithChar>());
    assert!(!memcpy::<WithString>());
    assert!(!memcpy::<WithVec>());
    assert!(!memcpy::<WithOption>());
    assert!(!memcpy::<WithTuple>());
    assert!(!memcpy::<WithArrayOfBool>());
    assert!(!memcpy::<WithSkip>());
    assert!(!memcpy::<Unit>());
}

#[derive(Marshal, Unmarshal)]
struct Borrowed<'a> {
    a: u64,
    b: &'a str,
}

#[test]
fn a_struct_with_a_reference_is_opaque() {
    assert!(!is_memcpy_equivalent::<Borrowed<'_>>());
    assert!(!<Borrowed<'_> as Unmarshal>::__LAYOUT.is_memcpy());
}

#[test]
fn the_bytes_do_not_depend_on_it() {
    let unit = marshal::to_vec(&[Unit::B, Unit::A]);
    assert_eq!(unit, [1, 0, 0, 0, 0, 0, 0, 0]);
    let back: [Unit; 2] = marshal::from_bytes(&unit).unwrap();
    assert!(matches!(back, [Unit::B, Unit::A]));
    let option = WithOption { a: 1, b: Some(2) };
    let bytes = marshal::to_vec(&option);
    assert_eq!(bytes, [1, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0]);
    let back: WithOption = marshal::from_bytes(&bytes).unwrap();
    assert_eq!((back.a, back.b), (1, Some(2)));
}
