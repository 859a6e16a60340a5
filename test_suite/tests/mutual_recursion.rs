//! Types that lead back to each other: one field of each cycle marked
//! `#[marshal(recursive)]` (without it, the fingerprints would depend on
//! themselves and the build fails with a cycle at `FINGERPRINT`). Their
//! bytes are bincode's, in `legacy()` and in every configuration; deep
//! input is `TooDeep`, not a stack overflow; and a marked field enters the
//! fingerprint as a field naming its own type does.

use marshal::config::{self, Config, MarshalIn, UnmarshalIn};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use serde::{Deserialize, Serialize};

/// An expression: a statement block leads back to expressions.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
enum Expr {
    Lit(i64),
    Name(String),
    Block(#[marshal(recursive)] Vec<Stmt>),
    Call { callee: String, args: Vec<Expr> },
}

#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
enum Stmt {
    Let(String, Box<Expr>),
    Expr(Expr),
    Return(Option<Expr>),
}

/// Structs: a directory of files, each with its parent.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
struct Dir {
    name: String,
    #[marshal(recursive)]
    files: Vec<File>,
    size: u64,
}

#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
struct File {
    name: String,
    parent: Option<Box<Dir>>,
}

/// A cycle of three, closed at the last.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
struct A {
    b: Option<Box<B>>,
    tag: u8,
}

#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
struct B(Vec<C>);

#[derive(
    Debug,
    Clone,
    PartialEq,
    Marshal,
    Unmarshal,
    Serialize,
    Deserialize,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
enum C {
    End,
    Back(#[marshal(recursive)] Box<A>),
}

fn program() -> Expr {
    Expr::Block(vec![
        Stmt::Let("x".into(), Box::new(Expr::Lit(-3))),
        Stmt::Expr(Expr::Call {
            callee: "print".into(),
            args: vec![
                Expr::Name("x".into()),
                Expr::Block(vec![Stmt::Return(Some(Expr::Lit(300)))]),
            ],
        }),
        Stmt::Return(None),
    ])
}

fn tree() -> Dir {
    let parent = Dir {
        name: "root".into(),
        files: vec![],
        size: 0,
    };
    Dir {
        name: "src".into(),
        files: vec![
            File {
                name: "lib.rs".into(),
                parent: Some(Box::new(parent)),
            },
            File {
                name: "main.rs".into(),
                parent: None,
            },
        ],
        size: 4096,
    }
}

fn cycle() -> A {
    A {
        b: Some(Box::new(B(vec![
            C::End,
            C::Back(Box::new(A { b: None, tag: 2 })),
        ]))),
        tag: 1,
    }
}

/// `value` in `legacy()`: bincode 1.3's bytes (through serde), read back,
/// `encoded_len` exact; every cut refused.
fn legacy<T>(value: &T)
where
    T: Marshal + for<'de> Unmarshal<'de> + Serialize + PartialEq + std::fmt::Debug,
{
    let bytes = marshal::to_vec(value);
    assert_eq!(bytes, bincode::serialize(value).unwrap());
    assert_eq!(value.encoded_len(), bytes.len());
    assert_eq!(&marshal::from_bytes::<T>(&bytes).unwrap(), value);
    for cut in 0..bytes.len() {
        assert!(
            marshal::from_bytes::<T>(&bytes[..cut]).is_err(),
            "cut at {cut}"
        );
    }
}

/// `value` in `c`: bincode 2's bytes in `b`, read back both ways.
fn in_config<T, C, B>(value: &T, c: C, b: B)
where
    T: MarshalIn<C::Dialect>
        + for<'de> UnmarshalIn<'de, C::Dialect>
        + bincode2::Encode
        + bincode2::Decode<()>
        + PartialEq
        + std::fmt::Debug,
    C: Config,
    B: bincode2::config::Config,
{
    let bytes = marshal::encode_to_vec(value, c);
    assert_eq!(bytes, bincode2::encode_to_vec(value, b).unwrap());
    assert_eq!(marshal::encoded_len_with(value, c), bytes.len());
    let (back, used) = marshal::decode_from_slice::<T, _>(&bytes, c).unwrap();
    assert_eq!((&back, used), (value, bytes.len()));
    let (theirs, _): (T, usize) = bincode2::decode_from_slice(&bytes, b).unwrap();
    assert_eq!(&theirs, value);
}

#[test]
fn mutually_recursive_types_have_bincodes_bytes() {
    legacy(&program());
    legacy(&tree());
    legacy(&cycle());
    use bincode2::config as b2;
    in_config(&program(), config::standard(), b2::standard());
    in_config(&tree(), config::standard(), b2::standard());
    in_config(&cycle(), config::standard(), b2::standard());
    in_config(
        &program(),
        config::standard().with_big_endian(),
        b2::standard().with_big_endian(),
    );
    in_config(
        &cycle(),
        config::legacy().with_big_endian(),
        b2::legacy().with_big_endian(),
    );
}

/// `levels` blocks, each holding one statement that is the next block, in
/// `c`'s bytes (tag 2 is `Block`, tag 1 `Stmt::Expr`, each list one long).
fn nested_blocks<C>(levels: usize, c: C) -> Vec<u8>
where
    C: Config,
    (u32, u64, u32): MarshalIn<C::Dialect>,
    (u32, i64): MarshalIn<C::Dialect>,
{
    let block_of_one = marshal::encode_to_vec(&(2u32, 1u64, 1u32), c);
    let mut bytes = block_of_one.repeat(levels);
    bytes.extend(marshal::encode_to_vec(&(0u32, 0i64), c));
    bytes
}

#[test]
fn deep_input_is_too_deep_not_a_stack_overflow() {
    // Half a million levels: far past the default limit of 256.
    let bytes = nested_blocks(500_000, config::legacy());
    let err = marshal::from_bytes::<Expr>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
    let bytes = nested_blocks(500_000, config::standard());
    let err = marshal::decode_from_slice::<Expr, _>(&bytes, config::standard()).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
    // Within the limit, the same shape decodes.
    let bytes = nested_blocks(10, config::standard());
    let (mut expr, _) = marshal::decode_from_slice::<Expr, _>(&bytes, config::standard()).unwrap();
    let mut levels = 0;
    while let Expr::Block(mut stmts) = expr {
        let Some(Stmt::Expr(inner)) = stmts.pop() else {
            panic!("a block of one expression")
        };
        expr = inner;
        levels += 1;
    }
    assert_eq!((levels, expr), (10, Expr::Lit(0)));
}

/// The same shapes, each closing its cycle on itself: a marked field's
/// fingerprint is that of a field naming its own type (names never enter
/// a fingerprint).
mod closed_on_themselves {
    // Only their fingerprints are read.
    #![allow(dead_code)]
    use marshal::Marshal;

    #[derive(Marshal)]
    pub(crate) enum Expr {
        Lit(i64),
        Name(String),
        Block(Vec<Expr>),
        Call { callee: String, args: Vec<Expr> },
    }

    #[derive(Marshal)]
    pub(crate) struct Dir {
        name: String,
        files: Vec<Dir>,
        size: u64,
    }
}

#[test]
fn a_marked_field_is_fingerprinted_as_recursion() {
    assert_eq!(Expr::FINGERPRINT, closed_on_themselves::Expr::FINGERPRINT);
    assert_eq!(Dir::FINGERPRINT, closed_on_themselves::Dir::FINGERPRINT);
    // Not a constant: the other fields still count.
    assert_ne!(Expr::FINGERPRINT, Dir::FINGERPRINT);
}
