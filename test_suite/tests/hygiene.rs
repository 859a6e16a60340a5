//! `#[derive(Marshal)]` expands to working code whatever names are in scope
//! where it is used: prelude names shadowed by unrelated items, no prelude at
//! all, fields named like the expansion's locals, and a renamed crate.

use marshal::Marshal;

/// Every prelude item and runtime name the expansion could reach for by its
/// short name is shadowed by something unusable.
mod shadowed {
    #![allow(dead_code, non_camel_case_types, unused_macros)]

    struct Result;
    struct Ok;
    struct Err;
    struct Option;
    struct Some;
    struct None;
    struct Vec;
    struct String;
    struct Box;
    struct Marshal;
    struct Writer;
    struct Overflow;
    struct __private;
    struct core;
    struct std;
    struct marshal;
    type u8 = ();
    type u16 = ();
    type u32 = ();
    type bool = ();
    trait Sized {}
    trait Into {}
    trait From {}
    fn drop() {}

    macro_rules! debug_assert_eq {
        ($($t:tt)*) => {
            compile_error!("the shadowing debug_assert_eq! was used")
        };
    }
    macro_rules! unreachable {
        ($($t:tt)*) => {
            compile_error!("the shadowing unreachable! was used")
        };
    }

    #[derive(::marshal::Marshal)]
    pub(crate) struct S {
        pub(crate) a: ::core::primitive::u32,
        pub(crate) b: ::std::string::String,
    }

    #[derive(::marshal::Marshal)]
    pub(crate) struct Tuple(
        pub(crate) ::core::primitive::u16,
        pub(crate) ::core::primitive::bool,
    );

    #[derive(::marshal::Marshal)]
    pub(crate) struct Unit;

    #[derive(::marshal::Marshal)]
    #[marshal(tag_type = u8)]
    pub(crate) enum E {
        A,
        B(::core::primitive::u16),
        C {
            x: ::core::primitive::bool,
            #[marshal(skip)]
            y: ::core::primitive::u8,
        },
    }

    #[derive(::marshal::Marshal)]
    pub(crate) enum Wide {
        #[marshal(tag = 7)]
        A(::core::primitive::u8),
    }

    #[derive(::marshal::Marshal)]
    pub(crate) enum Empty {}

    #[derive(::marshal::Marshal)]
    pub(crate) struct G<'a, T, const N: usize>
    where
        T: ::core::marker::Copy,
    {
        pub(crate) t: T,
        pub(crate) v: ::std::vec::Vec<T>,
        pub(crate) arr: [T; N],
        pub(crate) s: &'a ::core::primitive::str,
        pub(crate) o: ::core::option::Option<T>,
    }

    pub(crate) mod be16 {
        pub(crate) fn encoded_len(_: &::core::primitive::u16) -> usize {
            2
        }

        pub(crate) fn encode(
            v: &::core::primitive::u16,
            w: &mut ::marshal::Writer<'_>,
        ) -> ::core::result::Result<(), ::marshal::Overflow> {
            w.put_array(v.to_be_bytes())
        }
    }

    #[derive(::marshal::Marshal)]
    pub(crate) struct With {
        #[marshal(with = be16)]
        pub(crate) x: ::core::primitive::u16,
    }

    /// A foreign type, its mirror, and fields adapted by both.
    pub(crate) mod other {
        pub(crate) struct Pair {
            pub(crate) a: ::core::primitive::u8,
            b: ::core::primitive::u8,
        }

        impl Pair {
            pub(crate) fn new(a: ::core::primitive::u8, b: ::core::primitive::u8) -> Self {
                Pair { a, b }
            }

            pub(crate) fn b(&self) -> ::core::primitive::u8 {
                self.b
            }
        }
    }

    #[derive(::marshal::Marshal, ::marshal::Unmarshal)]
    #[marshal(remote = other::Pair)]
    pub(crate) struct PairDef {
        a: ::core::primitive::u8,
        #[marshal(getter = other::Pair::b)]
        b: ::core::primitive::u8,
    }

    impl ::core::convert::From<PairDef> for other::Pair {
        fn from(def: PairDef) -> Self {
            other::Pair::new(def.a, def.b)
        }
    }

    #[derive(::marshal::Marshal, ::marshal::Unmarshal)]
    pub(crate) struct Adapted {
        #[marshal(as = ::std::vec::Vec<::marshal::adapters::Same>)]
        pub(crate) v: ::std::vec::Vec<::core::primitive::u8>,
        #[marshal(as = ::core::option::Option<PairDef>)]
        pub(crate) pair: ::core::option::Option<other::Pair>,
    }
}

/// No prelude at all: every name the expansion uses must be a full path.
mod no_prelude {
    #![no_implicit_prelude]
    #![allow(dead_code)]

    #[derive(::marshal::Marshal)]
    pub(crate) struct S<T> {
        pub(crate) a: u32,
        pub(crate) b: T,
        pub(crate) c: ::std::string::String,
    }

    #[derive(::marshal::Marshal)]
    #[marshal(tag_type = u16)]
    pub(crate) enum E<T> {
        A,
        B(u8, T),
        C {
            x: bool,
            #[marshal(skip)]
            skipped: ::std::vec::Vec<u8>,
        },
    }

    #[derive(::marshal::Marshal)]
    pub(crate) enum Empty {}

    pub(crate) mod be16 {
        pub(crate) fn encoded_len(_: &u16) -> usize {
            2
        }

        pub(crate) fn encode(
            v: &u16,
            w: &mut ::marshal::Writer<'_>,
        ) -> ::core::result::Result<(), ::marshal::Overflow> {
            w.put_array(v.to_be_bytes())
        }
    }

    #[derive(::marshal::Marshal)]
    pub(crate) struct With(#[marshal(with = be16)] pub(crate) u16);

    /// The renamed crate, with no prelude.
    pub(crate) mod renamed {
        #![no_implicit_prelude]

        use ::marshal as m;

        #[derive(m::Marshal)]
        #[marshal(crate = m, tag_type = u8)]
        pub(crate) enum R {
            A(u16),
            B,
        }
    }
}

/// The crate under another name, with the short names shadowed.
mod renamed_crate {
    #![allow(dead_code, non_camel_case_types)]

    use ::marshal as wire;

    struct Option;
    struct Result;
    struct marshal;

    #[derive(wire::Marshal)]
    #[marshal(crate = wire)]
    pub(crate) struct S {
        pub(crate) a: ::core::primitive::u16,
    }

    #[derive(wire::Marshal)]
    #[marshal(crate = "wire")]
    pub(crate) enum E<T> {
        A(T),
    }
}

/// Fields named like the locals of the expansion.
#[derive(Marshal)]
struct LocalNames {
    __w: u8,
    __n: u16,
    __value: u8,
    __len: u8,
    __written: u8,
    __f0: u8,
}

#[derive(Marshal)]
enum LocalVariantNames {
    /// Named fields whose names are the bindings of *other* positions.
    Swapped {
        __f1: u8,
        __f0: u16,
    },
    Tuple(u8, #[marshal(skip)] u8, u8),
    With {
        __w: u8,
        #[marshal(with = shadowed::be16)]
        __value: u16,
    },
}

#[track_caller]
fn bytes<T: Marshal + ?Sized>(value: &T) -> Vec<u8> {
    let v = marshal::to_vec(value);
    assert_eq!(v.len(), value.encoded_len());
    v
}

#[test]
fn shadowed_prelude() {
    let s = shadowed::S {
        a: 1,
        b: "x".into(),
    };
    assert_eq!(bytes(&s), [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, b'x']);
    assert_eq!(bytes(&shadowed::Tuple(0x0102, true)), [2, 1, 1]);
    assert_eq!(bytes(&shadowed::Unit), [0u8; 0]);
    assert_eq!(shadowed::Unit::FIXED_LEN, Some(0));

    assert_eq!(bytes(&shadowed::E::A), [0]);
    assert_eq!(bytes(&shadowed::E::B(0x0102)), [1, 2, 1]);
    assert_eq!(bytes(&shadowed::E::C { x: true, y: 9 }), [2, 1]);
    assert_eq!(shadowed::E::MAX_LEN, Some(3));
    assert_eq!(bytes(&shadowed::Wide::A(5)), [7, 0, 0, 0, 5]);
    assert_eq!(shadowed::Empty::FIXED_LEN, None);

    let g = shadowed::G {
        t: 1u8,
        v: vec![2],
        arr: [3, 4],
        s: "y",
        o: Some(5),
    };
    assert_eq!(
        bytes(&g),
        [
            1, //
            1, 0, 0, 0, 0, 0, 0, 0, 2, //
            3, 4, //
            1, 0, 0, 0, 0, 0, 0, 0, b'y', //
            1, 5,
        ]
    );
    assert_eq!(bytes(&shadowed::With { x: 0x0102 }), [1, 2]);
    let adapted = shadowed::Adapted {
        v: vec![7],
        pair: Some(shadowed::other::Pair::new(1, 2)),
    };
    let encoded = bytes(&adapted);
    assert_eq!(encoded, [1, 0, 0, 0, 0, 0, 0, 0, 7, 1, 1, 2]);
    let back = marshal::from_bytes::<shadowed::Adapted>(&encoded).unwrap();
    let pair = back.pair.expect("the pair was written");
    assert_eq!((back.v, pair.a, pair.b()), (vec![7], 1, 2));
}

#[test]
fn no_implicit_prelude() {
    let s = no_prelude::S {
        a: 2,
        b: 3u8,
        c: "z".into(),
    };
    assert_eq!(bytes(&s), [2, 0, 0, 0, 3, 1, 0, 0, 0, 0, 0, 0, 0, b'z']);
    assert_eq!(bytes(&no_prelude::E::<u8>::A), [0, 0]);
    assert_eq!(bytes(&no_prelude::E::B(1, 2u8)), [1, 0, 1, 2]);
    let c = no_prelude::E::<u8>::C {
        x: false,
        skipped: vec![1],
    };
    assert_eq!(bytes(&c), [2, 0, 0]);
    assert_eq!(no_prelude::E::<u8>::MAX_LEN, Some(4));
    assert_eq!(no_prelude::Empty::MAX_LEN, None);
    assert_eq!(bytes(&no_prelude::With(0x0A0B)), [0x0A, 0x0B]);
    assert_eq!(bytes(&no_prelude::renamed::R::A(1)), [0, 1, 0]);
    assert_eq!(bytes(&no_prelude::renamed::R::B), [1]);
}

#[test]
fn renamed_crate() {
    assert_eq!(bytes(&renamed_crate::S { a: 0x0102 }), [2, 1]);
    assert_eq!(renamed_crate::S::FIXED_LEN, Some(2));
    assert_eq!(bytes(&renamed_crate::E::A(3u8)), [0, 0, 0, 0, 3]);
}

#[test]
fn fields_named_like_expansion_locals() {
    let value = LocalNames {
        __w: 1,
        __n: 2,
        __value: 3,
        __len: 4,
        __written: 5,
        __f0: 6,
    };
    assert_eq!(bytes(&value), [1, 2, 0, 3, 4, 5, 6]);
    let swapped = LocalVariantNames::Swapped {
        __f1: 1,
        __f0: 0x0302,
    };
    assert_eq!(bytes(&swapped), [0, 0, 0, 0, 1, 2, 3]);
    let tuple = LocalVariantNames::Tuple(1, 2, 3);
    assert_eq!(bytes(&tuple), [1, 0, 0, 0, 1, 3]);
    if let LocalVariantNames::Tuple(_, skipped, _) = tuple {
        assert_eq!(skipped, 2);
    }
    let with = LocalVariantNames::With {
        __w: 9,
        __value: 0x0102,
    };
    assert_eq!(bytes(&with), [2, 0, 0, 0, 9, 1, 2]);
}

/// Type aliases shadowing primitive names do not leak into generated code.
/// (Constants named like the expansion's bindings, such as `__f0`, would:
/// an identifier pattern that names a constant in scope is a constant
/// pattern under any hygiene stable Rust offers.)
mod shadowed_primitives_and_locals {
    #![allow(non_camel_case_types, dead_code)]

    type usize = ();
    type u8 = ();
    type u32 = ();
    type u16 = ();

    #[derive(::marshal::Marshal, ::marshal::Unmarshal, Debug, PartialEq)]
    pub(crate) enum E {
        A(::core::primitive::u8),
        B { x: ::core::primitive::u32 },
    }

    #[derive(::marshal::Marshal, ::marshal::Unmarshal, Debug, PartialEq)]
    pub(crate) struct S {
        pub(crate) e: E,
    }
}

#[test]
fn shadowed_primitives_and_locals_round_trip() {
    use shadowed_primitives_and_locals::{E, S};
    let value = S { e: E::B { x: 9 } };
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes, [1, 0, 0, 0, 9, 0, 0, 0]);
    assert_eq!(marshal::from_bytes::<S>(&bytes).unwrap(), value);
    let value = S { e: E::A(7) };
    assert_eq!(
        marshal::from_bytes::<S>(&marshal::to_vec(&value)).unwrap(),
        value
    );
}
