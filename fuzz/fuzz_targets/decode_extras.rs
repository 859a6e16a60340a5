//! Decodes arbitrary bytes as recursive types, timestamps and frames.
//!
//! - Recursive types, and types that lead back to each other: any nesting is either decoded or rejected (`TooDeep`
//!   past the reader's limit), never a stack overflow; what decodes
//!   re-encodes to the bytes that were read.
//! - Timestamps of every supported library: what decodes re-encodes to
//!   bytes that decode to an equal value.
//! - Frames: a decoded frame re-encodes to the very bytes of the frame.
#![no_main]

mod common;

use std::rc::Rc;

use libfuzzer_sys::fuzz_target;
use marshal::frame::{Codec, Decoded};
use marshal::{DecodeErrorKind, Marshal, Reader, Unmarshal};

use common::check;

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Tree {
    Leaf(u8),
    Node(Vec<Tree>),
    Boxed(Box<Tree>),
    Shared(Rc<Tree>),
    Pairs(Vec<(u8, Tree)>),
    Maybe(Option<Box<Tree>>),
}

/// Types that lead back to each other, the cycle marked at one field.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Expr {
    Lit(i8),
    Block(#[marshal(recursive)] Vec<Stmt>),
    Call(Box<Expr>, Vec<Expr>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Stmt {
    Let(u8, Option<Box<Expr>>),
    Expr(Expr),
}

/// A low depth limit is enforced: decoded or `TooDeep`, nothing else new.
fn check_depth(data: &[u8]) {
    let mut r = Reader::new(data).with_max_depth(3);
    match Tree::decode(&mut r) {
        Ok(tree) => {
            let used = r.position();
            assert_eq!(marshal::to_vec(&tree), data[..used]);
        }
        Err(e) => {
            if let DecodeErrorKind::TooDeep { limit } = e.kind() {
                assert_eq!(limit, 3);
            }
        }
    }
}

fn check_frame(data: &[u8]) {
    let codec = Codec::with_max_len(1 << 16);
    if let Ok(Decoded::Frame { value, len }) = codec.decode::<(u32, String)>(data) {
        let mut bytes = Vec::new();
        codec
            .encode_into_vec(&value, &mut bytes)
            .expect("frame re-encodes");
        assert_eq!(bytes, data[..len]);
    }
    if let Ok(Decoded::Frame { value, len }) = codec.split(data) {
        assert_eq!(len, value.len() + marshal::frame::HEADER_LEN);
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Tree>(data, true);
    check::<Expr>(data, true);
    check_depth(data);
    check_frame(data);

    check::<marshal::time::Timestamp>(data, true);
    check::<marshal::time::GoTime>(data, false);
    check::<std::time::SystemTime>(data, true);
    check::<chrono::DateTime<chrono::Utc>>(data, true);
    check::<chrono::DateTime<chrono::FixedOffset>>(data, true);
    check::<chrono::NaiveDate>(data, true);
    check::<chrono::NaiveTime>(data, true);
    check::<time::OffsetDateTime>(data, true);
    check::<time::Date>(data, true);
    check::<jiff::Timestamp>(data, true);
    check::<jiff::SignedDuration>(data, true);
});
