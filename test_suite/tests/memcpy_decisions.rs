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

/// Floats and bytes, back to back: bincode 2 writes them as they are in
/// memory (on a little-endian target) in every little-endian configuration.
/// `repr(C)`, so that the fields are in declaration order.
#[derive(Marshal, Unmarshal, Debug)]
#[repr(C)]
struct Vertex {
    position: [f32; 3],
    uv: [f32; 2],
    color: [u8; 4],
}

/// The layout of `T` in the configuration `D`, both traits agreeing.
fn memcpy_in<T, D>() -> bool
where
    T: marshal::config::MarshalIn<D> + for<'de> marshal::config::UnmarshalIn<'de, D>,
    D: marshal::config::Dialect,
{
    let encodes = <T as marshal::config::MarshalIn<D>>::__LAYOUT_IN.is_memcpy();
    let decodes = <T as marshal::config::UnmarshalIn<'_, D>>::__LAYOUT_IN.is_memcpy();
    assert_eq!(encodes, decodes);
    encodes
}

/// In another configuration, a struct is copied as its memory only when
/// every field's bytes there are its memory: never a variable-length or
/// big-endian integer wider than a byte, never a big-endian float.
#[test]
fn configurations_copy_only_what_they_write_as_memory() {
    use marshal::config::{BigEndian, Encoding, Fixint, Legacy, LittleEndian, Varint};
    type Standard = Encoding<LittleEndian, Varint>;
    type BigVarint = Encoding<BigEndian, Varint>;
    type BigFixed = Encoding<BigEndian, Fixint>;

    assert_eq!(memcpy_in::<Vertex, Standard>(), LITTLE);
    assert_eq!(memcpy_in::<Vertex, Legacy>(), LITTLE);
    assert!(!memcpy_in::<Vertex, BigFixed>());
    assert!(!memcpy_in::<Vertex, BigVarint>());
    // A `u32` is a varint in `standard()`, big-endian in `BigFixed`.
    assert_eq!(memcpy_in::<Ints, Legacy>(), LITTLE);
    assert!(!memcpy_in::<Ints, Standard>());
    assert!(!memcpy_in::<Ints, BigFixed>());
    // One byte is the same in every configuration.
    assert_eq!(memcpy_in::<[u8; 4], BigFixed>(), LITTLE);
    assert_eq!(memcpy_in::<i8, BigVarint>(), LITTLE);
    assert_eq!(memcpy_in::<f64, Standard>(), LITTLE);
    assert!(!memcpy_in::<u16, Standard>());
    assert!(!memcpy_in::<bool, Standard>());
    assert!(!memcpy_in::<Generic<u16>, Standard>());
    assert_eq!(memcpy_in::<Generic<f32>, Standard>(), LITTLE);
    assert!(!memcpy_in::<Generic<bool>, Standard>());
    // Zero-sized fields and transparent wrappers, as in `legacy()`.
    assert_eq!(memcpy_in::<Generic<Wrapping<f32>>, Standard>(), LITTLE);
    assert!(!memcpy_in::<Generic<Wrapping<u32>>, Standard>());
    assert!(memcpy_in::<PhantomData<String>, Standard>());
}

/// The bytes of a run copied as its memory are those of the run written
/// value by value: bincode 2's.
#[test]
fn a_copied_run_has_the_configurations_bytes() {
    let run: Vec<Vertex> = (0..5u8)
        .map(|i| Vertex {
            position: [f32::from(i), -1.5, 1e30],
            uv: [0.25, f32::from(i) / 3.0],
            color: [i, 255, 0, 7],
        })
        .collect();
    let standard = marshal::config::standard();
    let bytes = marshal::encode_to_vec(&run, standard);
    let mut expected = vec![5u8];
    for v in &run {
        for x in v.position.iter().chain(&v.uv) {
            expected.extend(x.to_le_bytes());
        }
        expected.extend(v.color);
    }
    assert_eq!(bytes, expected);
    assert_eq!(marshal::encoded_len_with(&run, standard), bytes.len());
    let (back, used) = marshal::decode_from_slice::<Vec<Vertex>, _>(&bytes, standard).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(marshal::encode_to_vec(&back, standard), bytes);
    // Cut short anywhere: the error of the same bytes read value by value
    // (as tuples, which are never copied as memory). Every byte pattern is
    // a value, so the only errors are the length's: a run the input cannot
    // hold is refused at its length, before anything is copied.
    type Tuples = Vec<([f32; 3], [f32; 2], [u8; 4])>;
    for cut in 0..bytes.len() {
        let copied = marshal::decode_from_slice::<Vec<Vertex>, _>(&bytes[..cut], standard);
        let each = marshal::decode_from_slice::<Tuples, _>(&bytes[..cut], standard);
        assert_eq!(copied.err(), each.err(), "cut at {cut}");
    }
    // Big-endian: each float's bytes reversed, never the memory.
    let big = marshal::encode_to_vec(&run, standard.with_big_endian());
    assert_eq!(&big[1..5], &run[0].position[0].to_be_bytes());
}

/// An array whose items' bytes are their memory is read with one check and
/// one copy in a configuration, as in `legacy()`: its bytes are those of
/// the items written one by one, and input too short for it is refused at
/// the array's start. Where the items are not their memory (big-endian
/// floats), each is read in turn, and the error is at the item cut short.
#[test]
fn an_array_of_memory_is_one_copy_in_every_configuration() {
    let standard = marshal::config::standard();
    let value = [1.5f32, -0.0, f32::MAX];
    let bytes = marshal::encode_to_vec(&value, standard);
    let items: Vec<u8> = value.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(bytes, items);
    assert_eq!(marshal::encoded_len_with(&value, standard), 12);
    assert_eq!(
        marshal::decode_from_slice::<[f32; 3], _>(&bytes, standard),
        Ok((value, 12))
    );
    let cut = marshal::decode_from_slice::<[f32; 3], _>(&bytes[..9], standard).unwrap_err();
    let legacy = marshal::from_bytes::<[f32; 3]>(&bytes[..9]).unwrap_err();
    assert_eq!(cut, legacy);
    assert_eq!(cut.offset(), if LITTLE { 0 } else { 8 });
    let big = standard.with_big_endian();
    let be_bytes = marshal::encode_to_vec(&value, big);
    assert_eq!(&be_bytes[..4], &value[0].to_be_bytes());
    let cut = marshal::decode_from_slice::<[f32; 3], _>(&be_bytes[..9], big).unwrap_err();
    assert_eq!(cut.offset(), 8);
}

/// A struct whose bytes are its memory is read with one check and one
/// load in a configuration, on its own (`decode_in`, here inside an
/// `Option`) as when built in place (in a `Box`): input too short for it
/// is refused at its start, as in `legacy()`. Where its bytes are not its
/// memory (big-endian floats), each field is read in turn, and the error
/// is at the field cut short.
#[test]
fn a_struct_of_memory_is_one_read_in_every_configuration() {
    let vertex = Vertex {
        position: [1.0, -2.5, 3.25],
        uv: [0.5, 0.75],
        color: [9, 8, 7, 6],
    };
    let standard = marshal::config::standard();
    let bytes = marshal::encode_to_vec(&Some(&vertex), standard);
    assert_eq!(bytes.len(), 1 + 24);
    let (back, used) = marshal::decode_from_slice::<Option<Vertex>, _>(&bytes, standard).unwrap();
    assert_eq!(used, bytes.len());
    assert_eq!(marshal::encode_to_vec(&back, standard), bytes);
    // Cut in the middle of `uv`: at the vertex's start (after the
    // `Option`'s tag) when read as memory, both ways.
    let on_its_own =
        marshal::decode_from_slice::<Option<Vertex>, _>(&bytes[..15], standard).unwrap_err();
    let in_place =
        marshal::decode_from_slice::<Option<Box<Vertex>>, _>(&bytes[..15], standard).unwrap_err();
    assert_eq!(on_its_own, in_place);
    let legacy = marshal::from_bytes::<Option<Vertex>>(&bytes[..15]).unwrap_err();
    assert_eq!(on_its_own, legacy);
    assert_eq!(on_its_own.offset(), if LITTLE { 1 } else { 13 });
    let big = standard.with_big_endian();
    let bytes = marshal::encode_to_vec(&Some(&vertex), big);
    let on_its_own =
        marshal::decode_from_slice::<Option<Vertex>, _>(&bytes[..15], big).unwrap_err();
    let in_place =
        marshal::decode_from_slice::<Option<Box<Vertex>>, _>(&bytes[..15], big).unwrap_err();
    assert_eq!((on_its_own.offset(), in_place.offset()), (13, 13));
}
