//! Evolving types: three versions of the same types (modules `v1`, `v2`,
//! `v3`), each `#[marshal(extensible)]`. What any version writes, every
//! version reads: a newer reader fills the fields an older writer did not
//! know with their defaults, an older reader skips what it does not know,
//! and a variant it does not know decodes as its `#[marshal(other)]`
//! variant. The types nest in containers, in plain structs and in each
//! other; hostile bodies are errors, never panics; encoding allocates
//! nothing. WIRE_FORMAT.md, section 28, and the derive's docs ("Evolving types") are
//! asserted here.
// The types' fields are read through `Debug` and `PartialEq`.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use marshal::config::{self, MarshalIn, UnmarshalIn};
use marshal::fingerprint::{self, Fingerprinted};
use marshal::{DecodeErrorKind, Marshal, Reader, Unmarshal};
use marshal_test_suite::counting::{lock, measure};
use marshal_test_suite::dialects::InEvery;
use marshal_test_suite::strategies::config_with_cases;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use proptest_derive::Arbitrary;

// ---------------------------------------------------------------------------
// Three versions of the same types.

mod v1 {
    use super::*;

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) name: String,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) enum Event {
        Login {
            user: u64,
        },
        Logout {
            user: u64,
        },
        #[marshal(other)]
        Unknown,
    }

    /// An extensible struct holding the others.
    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct Session {
        pub(crate) user: User,
        pub(crate) events: Vec<Event>,
    }

    /// A plain struct around them: its fields after the session must still
    /// be found where they are.
    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    pub(crate) struct Envelope {
        pub(crate) seq: u32,
        pub(crate) session: Session,
        pub(crate) trailer: u16,
    }

    /// An extensible enum without `other`.
    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible, tag_type = u8)]
    pub(crate) enum Strict {
        A,
        B(u8),
    }
}

mod v2 {
    use super::*;

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) name: String,
        #[marshal(since = 2, default)]
        pub(crate) email: Option<String>,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) enum Event {
        Login {
            user: u64,
        },
        Logout {
            user: u64,
            #[marshal(since = 2, default)]
            reason: Option<String>,
        },
        #[marshal(other)]
        Unknown,
        #[marshal(since = 2)]
        Rename {
            user: u64,
            to: String,
        },
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct Session {
        pub(crate) user: User,
        pub(crate) events: Vec<Event>,
        #[marshal(since = 2, default)]
        pub(crate) flags: u8,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    pub(crate) struct Envelope {
        pub(crate) seq: u32,
        pub(crate) session: Session,
        pub(crate) trailer: u16,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible, tag_type = u8)]
    pub(crate) enum Strict {
        A,
        B(u8),
        #[marshal(since = 2)]
        C {
            c: u32,
        },
    }
}

mod v3 {
    use super::*;

    /// No `Default`: `plan`'s default is a function.
    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    pub(crate) enum Plan {
        Free,
        Pro { seats: u16 },
    }

    pub(crate) fn default_plan() -> Plan {
        Plan::Free
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) name: String,
        #[marshal(since = 2, default)]
        pub(crate) email: Option<String>,
        #[marshal(since = 3, default = default_plan)]
        pub(crate) plan: Plan,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) enum Event {
        Login {
            user: u64,
            #[marshal(since = 3, default)]
            at: u64,
        },
        Logout {
            user: u64,
            #[marshal(since = 2, default)]
            reason: Option<String>,
        },
        #[marshal(other)]
        Unknown,
        #[marshal(since = 2)]
        Rename { user: u64, to: String },
        /// Fixed-size: written through one exact writer.
        #[marshal(since = 3)]
        Ban { user: u64, days: u16 },
        #[marshal(since = 3)]
        Ping,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible)]
    pub(crate) struct Session {
        pub(crate) user: User,
        pub(crate) events: Vec<Event>,
        #[marshal(since = 2, default)]
        pub(crate) flags: u8,
        #[marshal(since = 3, default)]
        pub(crate) tags: BTreeMap<String, u32>,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    pub(crate) struct Envelope {
        pub(crate) seq: u32,
        pub(crate) session: Session,
        pub(crate) trailer: u16,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Arbitrary)]
    #[marshal(extensible, tag_type = u8)]
    pub(crate) enum Strict {
        A,
        B(u8),
        #[marshal(since = 2)]
        C {
            c: u32,
        },
    }
}

// ---------------------------------------------------------------------------
// What each version sees of a value: through version 3, which has every
// field, with the defaults for what the writer did not know.

/// A type of some version, seen as version 3 and back.
trait Version: Marshal + for<'de> Unmarshal<'de> + PartialEq + Debug + Clone + InEvery {
    type V3;
    /// The value as version 3 reads it.
    fn up(&self) -> Self::V3;
    /// What this version reads of a version 3 value.
    fn down(v3: &Self::V3) -> Self;
}

macro_rules! identity_v3 {
    ($($ty:ident),*) => {$(
        impl Version for v3::$ty {
            type V3 = v3::$ty;
            fn up(&self) -> v3::$ty {
                self.clone()
            }
            fn down(v3: &v3::$ty) -> Self {
                v3.clone()
            }
        }
    )*};
}
identity_v3!(User, Event, Session, Envelope, Strict);

impl Version for v1::User {
    type V3 = v3::User;
    fn up(&self) -> v3::User {
        v3::User {
            id: self.id,
            name: self.name.clone(),
            email: None,
            plan: v3::default_plan(),
        }
    }
    fn down(v: &v3::User) -> Self {
        v1::User {
            id: v.id,
            name: v.name.clone(),
        }
    }
}

impl Version for v2::User {
    type V3 = v3::User;
    fn up(&self) -> v3::User {
        v3::User {
            id: self.id,
            name: self.name.clone(),
            email: self.email.clone(),
            plan: v3::default_plan(),
        }
    }
    fn down(v: &v3::User) -> Self {
        v2::User {
            id: v.id,
            name: v.name.clone(),
            email: v.email.clone(),
        }
    }
}

impl Version for v1::Event {
    type V3 = v3::Event;
    fn up(&self) -> v3::Event {
        match *self {
            v1::Event::Login { user } => v3::Event::Login { user, at: 0 },
            v1::Event::Logout { user } => v3::Event::Logout { user, reason: None },
            v1::Event::Unknown => v3::Event::Unknown,
        }
    }
    fn down(v: &v3::Event) -> Self {
        match *v {
            v3::Event::Login { user, .. } => v1::Event::Login { user },
            v3::Event::Logout { user, .. } => v1::Event::Logout { user },
            _ => v1::Event::Unknown,
        }
    }
}

impl Version for v2::Event {
    type V3 = v3::Event;
    fn up(&self) -> v3::Event {
        match self {
            v2::Event::Login { user } => v3::Event::Login { user: *user, at: 0 },
            v2::Event::Logout { user, reason } => v3::Event::Logout {
                user: *user,
                reason: reason.clone(),
            },
            v2::Event::Unknown => v3::Event::Unknown,
            v2::Event::Rename { user, to } => v3::Event::Rename {
                user: *user,
                to: to.clone(),
            },
        }
    }
    fn down(v: &v3::Event) -> Self {
        match v {
            v3::Event::Login { user, .. } => v2::Event::Login { user: *user },
            v3::Event::Logout { user, reason } => v2::Event::Logout {
                user: *user,
                reason: reason.clone(),
            },
            v3::Event::Rename { user, to } => v2::Event::Rename {
                user: *user,
                to: to.clone(),
            },
            _ => v2::Event::Unknown,
        }
    }
}

impl Version for v1::Session {
    type V3 = v3::Session;
    fn up(&self) -> v3::Session {
        v3::Session {
            user: self.user.up(),
            events: self.events.iter().map(Version::up).collect(),
            flags: 0,
            tags: BTreeMap::new(),
        }
    }
    fn down(v: &v3::Session) -> Self {
        v1::Session {
            user: Version::down(&v.user),
            events: v.events.iter().map(Version::down).collect(),
        }
    }
}

impl Version for v2::Session {
    type V3 = v3::Session;
    fn up(&self) -> v3::Session {
        v3::Session {
            user: self.user.up(),
            events: self.events.iter().map(Version::up).collect(),
            flags: self.flags,
            tags: BTreeMap::new(),
        }
    }
    fn down(v: &v3::Session) -> Self {
        v2::Session {
            user: Version::down(&v.user),
            events: v.events.iter().map(Version::down).collect(),
            flags: v.flags,
        }
    }
}

macro_rules! envelope_version {
    ($v:ident) => {
        impl Version for $v::Envelope {
            type V3 = v3::Envelope;
            fn up(&self) -> v3::Envelope {
                v3::Envelope {
                    seq: self.seq,
                    session: self.session.up(),
                    trailer: self.trailer,
                }
            }
            fn down(v: &v3::Envelope) -> Self {
                $v::Envelope {
                    seq: v.seq,
                    session: Version::down(&v.session),
                    trailer: v.trailer,
                }
            }
        }
    };
}
envelope_version!(v1);
envelope_version!(v2);

impl Version for v2::Strict {
    type V3 = v3::Strict;
    fn up(&self) -> v3::Strict {
        match *self {
            v2::Strict::A => v3::Strict::A,
            v2::Strict::B(b) => v3::Strict::B(b),
            v2::Strict::C { c } => v3::Strict::C { c },
        }
    }
    fn down(v: &v3::Strict) -> Self {
        match *v {
            v3::Strict::A => v2::Strict::A,
            v3::Strict::B(b) => v2::Strict::B(b),
            v3::Strict::C { c } => v2::Strict::C { c },
        }
    }
}

/// What reader `R` must decode from the bytes of `value`: the value seen
/// through version 3, then as `R` sees that.
fn expected<W, R>(value: &W) -> R
where
    W: Version,
    R: Version<V3 = W::V3>,
{
    R::down(&value.up())
}

/// `value`'s bytes, checked against its `encoded_len` and size constants.
fn encode<T: Marshal>(value: &T) -> Vec<u8> {
    let bytes = marshal::to_vec(value);
    assert_eq!(bytes.len(), value.encoded_len());
    if let Some(n) = T::FIXED_LEN {
        assert_eq!(bytes.len(), n);
    }
    if let Some(n) = T::MAX_LEN {
        assert!(bytes.len() <= n);
    }
    bytes
}

/// Reader `R` decodes `value`'s bytes as the documented defaults and skips
/// make it.
fn reads_as<W, R>(value: &W)
where
    W: Version,
    R: Version<V3 = W::V3>,
{
    let bytes = encode(value);
    let want: R = expected(value);
    let got: R = marshal::from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("{value:?} as {}: {e}", std::any::type_name::<R>()));
    assert_eq!(got, want, "{value:?}");
    assert!(bytes.len() >= <R as Unmarshal>::MIN_LEN);
    reads_as_in::<W, R, _>(value, &want, config::standard());
    reads_as_in::<W, R, _>(value, &want, config::standard().with_big_endian());
    reads_as_in::<W, R, _>(value, &want, config::legacy().with_big_endian());
}

/// [`reads_as`] in configuration `c`: reader `R` decodes `value`'s bytes
/// in `c` as `want`, taking all of them.
fn reads_as_in<W, R, C>(value: &W, want: &R, c: C)
where
    W: MarshalIn<C::Dialect> + Debug,
    R: for<'de> UnmarshalIn<'de, C::Dialect> + PartialEq + Debug,
    C: config::Config + Debug,
{
    let bytes = marshal::encode_to_vec(value, c);
    assert_eq!(bytes.len(), marshal::encoded_len_with(value, c));
    let (got, used) = marshal::decode_from_slice::<R, _>(&bytes, c)
        .unwrap_or_else(|e| panic!("{value:?} as {} in {c:?}: {e}", std::any::type_name::<R>()));
    assert_eq!((&got, used), (want, bytes.len()), "{value:?} in {c:?}");
    assert!(bytes.len() >= <R as UnmarshalIn<C::Dialect>>::MIN_LEN_IN);
}

/// Every reader version decodes `value`.
fn every_reader<W>(value: &W)
where
    W: Version<V3 = <v3::Session as Version>::V3>,
{
    reads_as::<W, v1::Session>(value);
    reads_as::<W, v2::Session>(value);
    reads_as::<W, v3::Session>(value);
}

// ---------------------------------------------------------------------------
// Sample values of each version.

fn users3() -> Vec<v3::User> {
    vec![
        v3::User {
            id: 7,
            name: "ann".into(),
            email: Some("ann@example.com".into()),
            plan: v3::Plan::Pro { seats: 5 },
        },
        v3::User {
            id: u64::MAX,
            name: String::new(),
            email: None,
            plan: v3::Plan::Free,
        },
    ]
}

fn events3() -> Vec<v3::Event> {
    vec![
        v3::Event::Login { user: 1, at: 99 },
        v3::Event::Logout {
            user: 2,
            reason: Some("idle".into()),
        },
        v3::Event::Logout {
            user: 2,
            reason: None,
        },
        v3::Event::Unknown,
        v3::Event::Rename {
            user: 3,
            to: "bo".into(),
        },
        v3::Event::Ban { user: 4, days: 30 },
        v3::Event::Ping,
    ]
}

fn session3() -> v3::Session {
    v3::Session {
        user: users3()[0].clone(),
        events: events3(),
        flags: 0b101,
        tags: [("a".to_string(), 1), ("zz".to_string(), 26)].into(),
    }
}

fn session2() -> v2::Session {
    v2::Session {
        user: v2::User {
            id: 8,
            name: "cy".into(),
            email: Some("c@y".into()),
        },
        events: vec![
            v2::Event::Rename {
                user: 5,
                to: "dee".into(),
            },
            v2::Event::Logout {
                user: 5,
                reason: Some("bye".into()),
            },
            v2::Event::Login { user: 5 },
            v2::Event::Unknown,
        ],
        flags: 3,
    }
}

fn session1() -> v1::Session {
    v1::Session {
        user: v1::User {
            id: 9,
            name: "ed".into(),
        },
        events: vec![
            v1::Event::Login { user: 9 },
            v1::Event::Logout { user: 9 },
            v1::Event::Unknown,
        ],
    }
}

// ---------------------------------------------------------------------------
// Every (writer, reader) pair.

macro_rules! all_pairs {
    ($ty:ident, $values1:expr, $values2:expr, $values3:expr) => {
        for value in $values1 {
            reads_as::<v1::$ty, v1::$ty>(&value);
            reads_as::<v1::$ty, v2::$ty>(&value);
            reads_as::<v1::$ty, v3::$ty>(&value);
        }
        for value in $values2 {
            reads_as::<v2::$ty, v1::$ty>(&value);
            reads_as::<v2::$ty, v2::$ty>(&value);
            reads_as::<v2::$ty, v3::$ty>(&value);
        }
        for value in $values3 {
            reads_as::<v3::$ty, v1::$ty>(&value);
            reads_as::<v3::$ty, v2::$ty>(&value);
            reads_as::<v3::$ty, v3::$ty>(&value);
        }
    };
}

#[test]
fn every_writer_and_reader_of_a_struct() {
    all_pairs!(User, [session1().user], [session2().user], users3());
}

#[test]
fn every_writer_and_reader_of_an_enum() {
    all_pairs!(Event, session1().events, session2().events, events3());
}

#[test]
fn every_writer_and_reader_of_a_struct_holding_both() {
    all_pairs!(Session, [session1()], [session2()], [session3()]);
}

#[test]
fn the_defaults_are_the_documented_ones() {
    // Version 1 data, read by version 3: `email` is `Default::default()`,
    // `plan` is `default_plan()`.
    let bytes = encode(&session1().user);
    let user: v3::User = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(user.email, None);
    assert_eq!(user.plan, v3::Plan::Free);
    // A variant's field added later, and a struct's.
    let bytes = encode(&v1::Event::Login { user: 4 });
    assert_eq!(
        marshal::from_bytes::<v3::Event>(&bytes).unwrap(),
        v3::Event::Login { user: 4, at: 0 }
    );
    let bytes = encode(&session2());
    let session: v3::Session = marshal::from_bytes(&bytes).unwrap();
    assert_eq!((session.flags, session.tags.len()), (3, 0));
}

#[test]
fn an_old_reader_skips_what_it_does_not_know() {
    let v3 = session3();
    let bytes = encode(&v3);
    let v1: v1::Session = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(v1.user.name, "ann");
    assert_eq!(
        v1.events,
        [
            v1::Event::Login { user: 1 },
            v1::Event::Logout { user: 2 },
            v1::Event::Logout { user: 2 },
            v1::Event::Unknown,
            v1::Event::Unknown,
            v1::Event::Unknown,
            v1::Event::Unknown,
        ]
    );
    // It reads exactly the value's bytes: `read_from` says so.
    let (_, used) = v1::Session::read_from(&bytes).unwrap();
    assert_eq!(used, bytes.len());
}

// ---------------------------------------------------------------------------
// Nesting.

#[test]
fn nested_in_containers_plain_structs_and_each_other() {
    let users = users3();
    // An old reader decodes every element of a `Vec<v3::User>`.
    let bytes = encode(&users);
    let old: Vec<v1::User> = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(
        old,
        users.iter().map(Version::down).collect::<Vec<v1::User>>()
    );
    let mid: Vec<v2::User> = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(mid.len(), 2);
    // And a new reader every element of a `Vec<v1::User>`.
    let olds: Vec<v1::User> = vec![session1().user, session1().user];
    let back: Vec<v3::User> = marshal::from_bytes(&encode(&olds)).unwrap();
    assert_eq!(back, olds.iter().map(Version::up).collect::<Vec<_>>());

    // Option, BTreeMap, tuples.
    let some = Some(users[0].clone());
    let got: Option<v1::User> = marshal::from_bytes(&encode(&some)).unwrap();
    assert_eq!(got, Some(Version::down(&users[0])));
    let map: BTreeMap<u32, v3::Event> = events3()
        .into_iter()
        .enumerate()
        .map(|(i, e)| (i as u32, e))
        .collect();
    let got: BTreeMap<u32, v2::Event> = marshal::from_bytes(&encode(&map)).unwrap();
    assert_eq!(got.len(), map.len());
    for (k, v) in &map {
        assert_eq!(got[k], <v2::Event as Version>::down(v));
    }
    let tuple = (users[1].clone(), 0xabu8, events3()[5].clone(), 0x1234u16);
    let got: (v1::User, u8, v1::Event, u16) = marshal::from_bytes(&encode(&tuple)).unwrap();
    assert_eq!(got.1, 0xab);
    assert_eq!(got.2, v1::Event::Unknown);
    assert_eq!(got.3, 0x1234);

    // A plain struct whose fields follow an extensible one, and extensible
    // types inside extensible types, every pair.
    let envelopes3 = [v3::Envelope {
        seq: 1,
        session: session3(),
        trailer: 0xbeef,
    }];
    let envelopes2 = [v2::Envelope {
        seq: 2,
        session: session2(),
        trailer: 0xcafe,
    }];
    let envelopes1 = [v1::Envelope {
        seq: 3,
        session: session1(),
        trailer: 0xf00d,
    }];
    all_pairs!(Envelope, envelopes1, envelopes2, envelopes3);
}

// ---------------------------------------------------------------------------
// Unknown variants.

#[test]
fn unknown_variants_land_on_other() {
    for (event, tag) in [
        (
            v3::Event::Rename {
                user: 1,
                to: "x".into(),
            },
            3u32,
        ),
        (v3::Event::Ban { user: 1, days: 2 }, 4),
        (v3::Event::Ping, 5),
    ] {
        let bytes = encode(&event);
        assert_eq!(bytes[..4], tag.to_le_bytes());
        assert_eq!(
            marshal::from_bytes::<v1::Event>(&bytes).unwrap(),
            v1::Event::Unknown
        );
    }
    // Any tag at all, with any body.
    let mut bytes = 77u32.to_le_bytes().to_vec();
    bytes.extend(3u32.to_le_bytes());
    bytes.extend([1, 2, 3]);
    assert_eq!(
        marshal::from_bytes::<v3::Event>(&bytes).unwrap(),
        v3::Event::Unknown
    );
    // `other` itself encodes as its own tag with an empty body.
    assert_eq!(encode(&v3::Event::Unknown), [2, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn without_other_an_unknown_variant_is_invalid_tag() {
    let bytes = encode(&v2::Strict::C { c: 1 });
    assert_eq!(bytes, [2, 4, 0, 0, 0, 1, 0, 0, 0]);
    let err = marshal::from_bytes::<v1::Strict>(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::InvalidTag {
            tag: 2,
            ty: "Strict"
        }
    );
    assert_eq!(err.offset(), 0);
    // The known variants read both ways.
    for v in [v2::Strict::A, v2::Strict::B(9)] {
        let got: v1::Strict = marshal::from_bytes(&encode(&v)).unwrap();
        assert_eq!(encode(&got), encode(&v));
    }
}

// ---------------------------------------------------------------------------
// Any value of any version reads in every other version.

proptest! {
    // Fewer cases: each one encodes and decodes a value three times over.
    #![proptest_config(config_with_cases(128))]

    #[test]
    fn any_v1_session_reads_everywhere(value in any::<v1::Session>()) {
        every_reader(&value);
    }

    #[test]
    fn any_v2_session_reads_everywhere(value in any::<v2::Session>()) {
        every_reader(&value);
    }

    #[test]
    fn any_v3_session_reads_everywhere(value in any::<v3::Session>()) {
        every_reader(&value);
    }

    #[test]
    fn any_envelope_reads_everywhere(
        a in any::<v1::Envelope>(),
        b in any::<v2::Envelope>(),
        c in any::<v3::Envelope>(),
    ) {
        reads_as::<v1::Envelope, v3::Envelope>(&a);
        reads_as::<v2::Envelope, v1::Envelope>(&b);
        reads_as::<v3::Envelope, v1::Envelope>(&c);
        reads_as::<v3::Envelope, v2::Envelope>(&c);
    }

    #[test]
    fn any_strict_reads_where_it_is_known(value in any::<v3::Strict>()) {
        reads_as::<v3::Strict, v2::Strict>(&value);
        let bytes = encode(&value);
        let old = marshal::from_bytes::<v1::Strict>(&bytes);
        match value {
            v3::Strict::C { .. } => prop_assert!(old.is_err()),
            _ => prop_assert!(old.is_ok()),
        }
    }

    /// Any bytes at all: an error or a value, never a panic, and a value
    /// that decodes re-encodes to bytes that decode to it again.
    #[test]
    fn any_bytes_decode_or_fail(bytes in proptest::collection::vec(any::<u8>(), 0..96)) {
        if let Ok(v) = marshal::from_bytes::<v3::Session>(&bytes) {
            prop_assert_eq!(marshal::from_bytes::<v3::Session>(&encode(&v)).unwrap(), v);
        }
        let _ = marshal::from_bytes::<v1::Session>(&bytes);
        let _ = marshal::from_bytes::<Vec<v2::Event>>(&bytes);
        // And in the other configurations.
        survives_in(&bytes, config::standard())?;
        survives_in(&bytes, config::standard().with_big_endian())?;
        survives_in(&bytes, config::legacy().with_big_endian())?;
    }
}

/// Any bytes in configuration `c`: an error or a value, never a panic, and
/// a value that decodes re-encodes to bytes that decode to it again.
fn survives_in<C: config::Config>(bytes: &[u8], c: C) -> Result<(), TestCaseError>
where
    v3::Session: MarshalIn<C::Dialect> + for<'de> UnmarshalIn<'de, C::Dialect>,
    Vec<v2::Event>: for<'de> UnmarshalIn<'de, C::Dialect>,
{
    if let Ok((v, _)) = marshal::decode_from_slice::<v3::Session, _>(bytes, c) {
        let again = marshal::encode_to_vec(&v, c);
        prop_assert_eq!(
            marshal::decode_from_slice::<v3::Session, _>(&again, c).ok(),
            Some((v, again.len()))
        );
    }
    let _ = marshal::decode_from_slice::<Vec<v2::Event>, _>(bytes, c);
    Ok(())
}

// ---------------------------------------------------------------------------
// Hostile bodies.

fn err_of<T: for<'de> Unmarshal<'de> + Debug>(bytes: &[u8]) -> (DecodeErrorKind, usize) {
    let err = marshal::from_bytes::<T>(bytes).unwrap_err();
    (err.kind(), err.offset())
}

#[test]
fn a_body_length_past_the_input_is_length_overflow() {
    let bytes = encode(&session1().user);
    let body = bytes.len() as u32 - 4;
    let mut long = bytes.clone();
    long[..4].copy_from_slice(&(body + 1).to_le_bytes());
    assert_eq!(
        err_of::<v3::User>(&long),
        (
            DecodeErrorKind::LengthOverflow {
                len: body as u64 + 1
            },
            0
        )
    );
    // Of u32::MAX, before anything in the body is read (the body here is
    // not even a valid `u64`).
    for len in [u32::MAX, u32::MAX - 1, 1 << 31] {
        let mut bytes = len.to_le_bytes().to_vec();
        bytes.extend([0xff; 3]);
        assert_eq!(
            err_of::<v1::User>(&bytes),
            (DecodeErrorKind::LengthOverflow { len: len.into() }, 0)
        );
    }
    // Nested: an inner body that does not fit the outer one.
    let mut bytes = encode(&session1());
    bytes[4..8].copy_from_slice(&1000u32.to_le_bytes());
    assert_eq!(
        err_of::<v1::Session>(&bytes),
        (DecodeErrorKind::LengthOverflow { len: 1000 }, 4)
    );
    // In an enum: after the tag.
    let mut bytes = encode(&v1::Event::Login { user: 1 });
    bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        err_of::<v1::Event>(&bytes),
        (
            DecodeErrorKind::LengthOverflow {
                len: u32::MAX.into()
            },
            4
        )
    );
    // The length itself cut short.
    assert_eq!(
        err_of::<v1::User>(&[1, 0]),
        (DecodeErrorKind::UnexpectedEnd { needed: 2 }, 0)
    );
}

#[test]
fn a_body_shorter_than_version_1_needs_is_an_error() {
    // Empty: `id` is reached at the end of the body.
    // The body's end cuts the read, as for a field that starts inside it:
    // the whole body is there, so more input would not help.
    assert_eq!(
        err_of::<v3::User>(&[0, 0, 0, 0]),
        (DecodeErrorKind::BodyOverrun { needed: 8 }, 4)
    );
    // `id` whole, `name` not there.
    let mut bytes = 8u32.to_le_bytes().to_vec();
    bytes.extend(7u64.to_le_bytes());
    assert_eq!(
        err_of::<v2::User>(&bytes),
        (DecodeErrorKind::BodyOverrun { needed: 8 }, 12)
    );
    // An enum variant's version-1 field.
    assert_eq!(
        err_of::<v1::Event>(&[0, 0, 0, 0, 0, 0, 0, 0]),
        (DecodeErrorKind::BodyOverrun { needed: 8 }, 8)
    );
}

#[test]
fn a_field_straddling_the_body_end_is_an_error() {
    // `id` starts inside a 3-byte body; the input goes on past it.
    let mut bytes = 3u32.to_le_bytes().to_vec();
    bytes.extend(7u64.to_le_bytes());
    assert_eq!(
        err_of::<v1::User>(&bytes),
        (DecodeErrorKind::BodyOverrun { needed: 5 }, 4)
    );
    // `id` at 4, `name` at 12, `email` at 21 (its length at 22, its
    // bytes at 30), `plan` at 36: a 36-byte body.
    let user = v3::User {
        id: 1,
        name: "n".into(),
        email: Some("abcdef".into()),
        plan: v3::Plan::Free,
    };
    let bytes = encode(&user);
    assert_eq!(bytes[..4], 36u32.to_le_bytes());
    // The body cut inside `email`'s string: its length is more than the
    // body has left.
    let mut cut = bytes.clone();
    cut[..4].copy_from_slice(&29u32.to_le_bytes());
    assert_eq!(
        err_of::<v3::User>(&cut),
        (DecodeErrorKind::LengthOverflow { len: 6 }, 22)
    );
    // The body cut inside `plan`'s 4-byte tag.
    let mut cut = bytes.clone();
    cut[..4].copy_from_slice(&33u32.to_le_bytes());
    assert_eq!(
        err_of::<v3::User>(&cut),
        (DecodeErrorKind::BodyOverrun { needed: 3 }, 36)
    );
    // Version 2 stops before `plan`, and skips what is left of the body.
    let (old, used) = v2::User::read_from(&cut).unwrap();
    assert_eq!((old.email.as_deref(), used), (Some("abcdef"), 37));
    // In a variant: `days` at 16, one byte of it in the body.
    let mut cut = encode(&v3::Event::Ban { user: 1, days: 2 });
    cut[4..8].copy_from_slice(&9u32.to_le_bytes());
    assert_eq!(
        err_of::<v3::Event>(&cut),
        (DecodeErrorKind::BodyOverrun { needed: 1 }, 16)
    );
}

#[test]
fn bytes_left_in_the_body_are_skipped() {
    // `id`, an empty `name`, `email` of `None`, then two bytes.
    let mut bytes = 19u32.to_le_bytes().to_vec();
    bytes.extend(5u64.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    bytes.extend([0, 0xaa, 0xbb, 0xcc]);
    let (user, used) = v2::User::read_from(&bytes).unwrap();
    assert_eq!((user.id, user.email, used), (5, None, 23));
    let (user, used) = v1::User::read_from(&bytes).unwrap();
    assert_eq!((user.id, used), (5, 23));
    // Version 3 reads `plan` there, which the two bytes cannot hold.
    assert_eq!(
        err_of::<v3::User>(&bytes),
        (DecodeErrorKind::BodyOverrun { needed: 2 }, 21)
    );
}

#[test]
fn error_offsets_inside_bodies_count_from_the_start_of_the_input() {
    let mut bytes = encode(&(0u8, session1()));
    // The user's name, "ed": after the tuple's byte, the session's and the
    // user's lengths, `id` and the name's length.
    let at = 1 + 4 + 4 + 8 + 8;
    assert_eq!(&bytes[at..at + 2], b"ed");
    bytes[at] = 0xff;
    let plain = err_of::<(u8, [u8; 8], u64, String)>(&bytes[..at + 2]);
    assert_eq!(plain.0, DecodeErrorKind::InvalidUtf8);
    assert_eq!(err_of::<(u8, v1::Session)>(&bytes), plain);
    assert_eq!(err_of::<(u8, v3::Session)>(&bytes), plain);
}

#[test]
fn damaged_encodings_are_errors_not_panics() {
    let value = v3::Envelope {
        seq: 1,
        session: session3(),
        trailer: 2,
    };
    let bytes = encode(&value);
    // Fewer under Miri, which is slow.
    let (step, damages) = if cfg!(miri) { (23, 40) } else { (1, 4000) };
    for end in (0..bytes.len()).step_by(step) {
        assert!(marshal::from_bytes::<v3::Envelope>(&bytes[..end]).is_err());
        let _ = marshal::from_bytes::<v1::Envelope>(&bytes[..end]);
    }
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..damages {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mut damaged = bytes.clone();
        let i = (rng % damaged.len() as u64) as usize;
        damaged[i] = (rng >> 32) as u8;
        let _ = marshal::from_bytes::<v3::Envelope>(&damaged);
        let _ = marshal::from_bytes::<v2::Envelope>(&damaged);
        let _ = marshal::from_bytes::<v1::Envelope>(&damaged);
    }
}

// ---------------------------------------------------------------------------
// Limits hold through bodies.

#[test]
fn the_allocation_budget_reaches_into_bodies() {
    let session = session3();
    let bytes = encode(&session);
    // Decodes within a budget generous enough...
    let got: v3::Session = marshal::from_bytes_limited(&bytes, 1 << 20).unwrap();
    assert_eq!(got, session);
    // ...and a tight one stops it, inside the body.
    let err = marshal::from_bytes_limited::<v3::Session>(&bytes, 16).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 16 });
    assert!(err.offset() > 4);
}

#[test]
fn the_depth_limit_reaches_into_bodies() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    enum Tree {
        Leaf,
        Node(Vec<Tree>),
    }
    let mut tree = Tree::Leaf;
    for _ in 0..10 {
        tree = Tree::Node(vec![tree]);
    }
    let bytes = encode(&tree);
    let mut r = Reader::new(&bytes).with_max_depth(10);
    assert_eq!(Tree::decode(&mut r).unwrap(), tree);
    let mut r = Reader::new(&bytes).with_max_depth(9);
    assert_eq!(
        Tree::decode(&mut r).unwrap_err().kind(),
        DecodeErrorKind::TooDeep { limit: 9 }
    );
}

// ---------------------------------------------------------------------------
// Sizes and fingerprints.

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Point {
    x: u32,
    y: u32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
#[marshal(extensible)]
struct Point3 {
    x: u32,
    y: u32,
    #[marshal(since = 2, default)]
    z: u32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible, tag_type = u8)]
enum Shape {
    Dot,
    Circle(f32),
    #[marshal(since = 2)]
    Square(u16),
}

#[test]
fn sizes_include_the_length_and_min_len_is_version_1() {
    assert_eq!(Point::FIXED_LEN, Some(12));
    assert_eq!(Point::MAX_LEN, Some(12));
    assert_eq!(<Point as Unmarshal>::MIN_LEN, 12);
    const { assert!(!<Point as Unmarshal>::MIN_LEN_IS_EXACT) };
    assert_eq!(Point3::FIXED_LEN, Some(16));
    assert_eq!(<Point3 as Unmarshal>::MIN_LEN, 12);
    assert_eq!(Shape::FIXED_LEN, None);
    assert_eq!(Shape::MAX_LEN, Some(1 + 4 + 4));
    assert_eq!(<Shape as Unmarshal>::MIN_LEN, 1 + 4);
    assert_eq!(v1::User::FIXED_LEN, None);
    assert_eq!(<v3::User as Unmarshal>::MIN_LEN, 4 + 8 + 8);
    assert_eq!(<v1::User as Unmarshal>::MIN_LEN, 4 + 8 + 8);
    assert_eq!(<v3::Event as Unmarshal>::MIN_LEN, 4 + 4);
    // Never memcpy-equivalent, though every field is.
    assert!(!marshal::is_memcpy_equivalent::<Point>());
    // And the lengths are exact.
    assert_eq!(encode(&Point3 { x: 1, y: 2, z: 3 }).len(), 16);
    assert_eq!(encode(&Shape::Square(1)), [2, 2, 0, 0, 0, 1, 0]);
    let p: Point = marshal::from_bytes(&encode(&Point3 { x: 1, y: 2, z: 3 })).unwrap();
    assert_eq!(p, Point { x: 1, y: 2 });
    let p: Point3 = marshal::from_bytes(&encode(&Point { x: 1, y: 2 })).unwrap();
    assert_eq!(p, Point3 { x: 1, y: 2, z: 0 });
    // A `Vec` of them, the old reader taking each element's whole body.
    let v = vec![Point3 { x: 1, y: 2, z: 3 }; 3];
    let got: Vec<Point> = marshal::from_bytes(&encode(&v)).unwrap();
    assert_eq!(
        got,
        [
            Point { x: 1, y: 2 },
            Point { x: 1, y: 2 },
            Point { x: 1, y: 2 }
        ]
    );
}

#[test]
fn the_fingerprint_is_version_1s_and_the_history_has_every_version() {
    assert_eq!(v1::User::FINGERPRINT, v2::User::FINGERPRINT);
    assert_eq!(v1::User::FINGERPRINT, v3::User::FINGERPRINT);
    assert_eq!(v1::Event::FINGERPRINT, v3::Event::FINGERPRINT);
    assert_eq!(v1::Session::FINGERPRINT, v3::Session::FINGERPRINT);
    assert_eq!(v1::Strict::FINGERPRINT, v2::Strict::FINGERPRINT);
    assert_eq!(Point::FINGERPRINT, Point3::FINGERPRINT);

    assert_eq!(fingerprint::history::<v1::User>(), [v1::User::FINGERPRINT]);
    let h2 = fingerprint::history::<v2::User>();
    let h3 = fingerprint::history::<v3::User>();
    assert_eq!(h2.len(), 2);
    assert_eq!(h3.len(), 3);
    assert_eq!(h3[..2], *h2);
    assert_eq!(h3[0], v3::User::FINGERPRINT);
    assert_ne!(h3[1], h3[0]);
    assert_ne!(h3[2], h3[1]);
    assert_eq!(
        fingerprint::history::<v3::Event>()[..2],
        *fingerprint::history::<v2::Event>()
    );
    // A variant added in version 2 is in version 2's fingerprint only.
    assert_ne!(
        fingerprint::history::<v2::Strict>()[1],
        fingerprint::history::<v2::Strict>()[0]
    );
    // A type that is not extensible: one entry.
    assert_eq!(fingerprint::history::<v3::Plan>(), [v3::Plan::FINGERPRINT]);
    assert_eq!(
        fingerprint::history::<Vec<v3::User>>(),
        [<Vec<v3::User>>::FINGERPRINT]
    );

    // Not a plain struct's: the marker enters it.
    #[derive(Marshal)]
    struct PlainPoint {
        x: u32,
        y: u32,
    }
    assert_ne!(Point::FINGERPRINT, PlainPoint::FINGERPRINT);

    // Any change to a version-1 field changes it.
    #[derive(Marshal)]
    #[marshal(extensible)]
    struct Retyped {
        x: u64,
        y: u32,
    }
    #[derive(Marshal)]
    #[marshal(extensible)]
    struct Removed {
        y: u32,
    }
    #[derive(Marshal)]
    #[marshal(extensible)]
    struct Inserted {
        x: u32,
        w: u8,
        y: u32,
    }
    for fp in [
        Retyped::FINGERPRINT,
        Removed::FINGERPRINT,
        Inserted::FINGERPRINT,
    ] {
        assert_ne!(fp, Point::FINGERPRINT);
    }
}

#[test]
fn a_version_that_added_nothing_repeats_the_one_before() {
    #[derive(Marshal)]
    #[marshal(extensible)]
    struct Gap {
        a: u8,
        #[marshal(since = 4, default)]
        d: u8,
    }
    let h = fingerprint::history::<Gap>();
    assert_eq!(h.len(), 4);
    assert_eq!((h[0], h[1], h[2]), (h[0], h[0], h[0]));
    assert_ne!(h[3], h[2]);
}

#[test]
fn fingerprinted_accepts_older_and_newer_data() {
    let new = marshal::fingerprint::to_vec(&users3()[0]);
    let old: v1::User = fingerprint::from_bytes(&new).unwrap();
    assert_eq!(old.id, 7);
    let old_bytes = marshal::fingerprint::to_vec(&session1());
    let Fingerprinted(new): Fingerprinted<v3::Session> = marshal::from_bytes(&old_bytes).unwrap();
    assert_eq!(new.user.id, 9);
}

#[test]
fn pinned_histories_that_hold_build() {
    #[derive(Marshal)]
    #[marshal(extensible, history = [0xcdcc_06d0_d546_0239, 0x2172_a11b_7485_076c])]
    struct Pinned {
        x: u32,
        #[marshal(since = 2, default)]
        y: u32,
        #[marshal(since = 3, default)]
        z: u32,
    }
    // Version 3 is not released yet: only the first two are pinned.
    let h = fingerprint::history::<Pinned>();
    assert_eq!(h.len(), 3);
    assert_eq!(h[..2], [0xcdcc_06d0_d546_0239, 0x2172_a11b_7485_076c]);
}

// ---------------------------------------------------------------------------
// Generic, borrowing, tuple and unit types; defaults on skipped fields.

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct PageV1<'a, T> {
    title: &'a str,
    items: Vec<T>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct PageV2<'a, T> {
    title: &'a str,
    items: Vec<T>,
    #[marshal(since = 2, default)]
    note: Option<&'a str>,
    #[marshal(since = 2, default)]
    extra: T,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Pair(u32, #[marshal(since = 2, default)] u32);

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Single(u32);

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Marker;

#[test]
fn generic_borrowing_tuple_and_unit_types_evolve() {
    let new = PageV2 {
        title: "t",
        items: vec![1u16, 2],
        note: Some("n"),
        extra: 9u16,
    };
    let bytes = encode(&new);
    let old: PageV1<u16> = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(
        old,
        PageV1 {
            title: "t",
            items: vec![1, 2]
        }
    );
    let old_bytes = encode(&old);
    let back: PageV2<u16> = marshal::from_bytes(&old_bytes).unwrap();
    assert_eq!(back.note, None);
    assert_eq!(back.extra, 0);
    assert_eq!(
        fingerprint::history::<PageV2<u16>>()[0],
        PageV1::<u16>::FINGERPRINT
    );

    assert_eq!(encode(&Pair(1, 2)), [8, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(
        marshal::from_bytes::<Single>(&encode(&Pair(1, 2))).unwrap(),
        Single(1)
    );
    assert_eq!(
        marshal::from_bytes::<Pair>(&encode(&Single(1))).unwrap(),
        Pair(1, 0)
    );
    assert_eq!(encode(&Marker), [0, 0, 0, 0]);
    assert_eq!(
        marshal::from_bytes::<Marker>(&encode(&Pair(1, 2))).unwrap(),
        Marker
    );
}

/// No `Default`.
#[derive(Debug, PartialEq)]
struct Handle(u32);

fn no_handle() -> Handle {
    Handle(u32::MAX)
}

#[test]
fn default_replaces_the_default_bound_of_a_skipped_field() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    struct Plain {
        id: u64,
        #[marshal(skip, default = no_handle)]
        handle: Handle,
    }
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct Evolving<T> {
        id: u64,
        #[marshal(skip, default = no_handle)]
        handle: Handle,
        #[marshal(skip, default)]
        cache: Vec<T>,
    }
    let bytes = encode(&Plain {
        id: 3,
        handle: Handle(1),
    });
    assert_eq!(bytes, 3u64.to_le_bytes());
    assert_eq!(
        marshal::from_bytes::<Plain>(&bytes).unwrap(),
        Plain {
            id: 3,
            handle: Handle(u32::MAX)
        }
    );
    let value = Evolving {
        id: 3,
        handle: Handle(1),
        cache: vec![1u8],
    };
    let bytes = encode(&value);
    assert_eq!(bytes, [8, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
    let back: Evolving<u8> = marshal::from_bytes(&bytes).unwrap();
    assert_eq!((back.handle, back.cache), (Handle(u32::MAX), vec![]));
}

#[test]
fn with_fields_evolve_too() {
    mod be {
        use marshal::{DecodeError, Overflow, Reader, Writer};
        pub(crate) fn encoded_len(_: &u16) -> usize {
            2
        }
        pub(crate) fn encode(v: &u16, w: &mut Writer<'_>) -> Result<(), Overflow> {
            w.put_array(v.to_be_bytes())
        }
        pub(crate) fn decode(r: &mut Reader<'_>) -> Result<u16, DecodeError> {
            r.take_array().map(u16::from_be_bytes)
        }
    }
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct Port {
        #[marshal(with = be)]
        port: u16,
        #[marshal(since = 2, default, with = be)]
        alt: u16,
    }
    let bytes = encode(&Port { port: 1, alt: 2 });
    assert_eq!(bytes, [4, 0, 0, 0, 0, 1, 0, 2]);
    assert_eq!(
        marshal::from_bytes::<Port>(&[2, 0, 0, 0, 0, 1]).unwrap(),
        Port { port: 1, alt: 0 }
    );
    // The module reads through the body's reader: a read past the body's
    // end is `BodyOverrun`, as for any field.
    let (kind, at) = err_of::<Port>(&[3, 0, 0, 0, 0, 1, 0, 2]);
    assert_eq!((kind, at), (DecodeErrorKind::BodyOverrun { needed: 1 }, 6));
}

// ---------------------------------------------------------------------------
// The worked example of WIRE_FORMAT.md, section 28.

#[test]
fn wire_format_worked_example() {
    let user = v3::User {
        id: 7,
        name: "ann".into(),
        email: Some("a@b".into()),
        plan: v3::Plan::Pro { seats: 5 },
    };
    let bytes = encode(&user);
    #[rustfmt::skip]
    let want: Vec<u8> = [
        &[0x25, 0, 0, 0][..],                   // body length: 37
        &[7, 0, 0, 0, 0, 0, 0, 0],              // id: 7
        &[3, 0, 0, 0, 0, 0, 0, 0, b'a', b'n', b'n'], // name: "ann"
        &[1, 3, 0, 0, 0, 0, 0, 0, 0, b'a', b'@', b'b'], // email: Some("a@b")
        &[1, 0, 0, 0, 5, 0],                    // plan: Pro { seats: 5 }
    ]
    .concat();
    assert_eq!(bytes, want);
    assert_eq!(bytes.len(), 41);
    // Version 1 reads `id` and `name` and skips the 18 bytes after them.
    let old: v1::User = marshal::from_bytes(&bytes).unwrap();
    assert_eq!(
        old,
        v1::User {
            id: 7,
            name: "ann".into()
        }
    );
    // Version 1's bytes, read by version 3.
    let old_bytes = encode(&old);
    assert_eq!(old_bytes[..4], [0x13, 0, 0, 0]);
    assert_eq!(old_bytes[4..], bytes[4..23]);
    assert_eq!(
        marshal::from_bytes::<v3::User>(&old_bytes).unwrap(),
        v3::User {
            id: 7,
            name: "ann".into(),
            email: None,
            plan: v3::Plan::Free
        }
    );
    // An enum: the tag, then the body's length.
    assert_eq!(
        encode(&v3::Event::Logout {
            user: 2,
            reason: None
        }),
        [1, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(encode(&v3::Event::Ping), [5, 0, 0, 0, 0, 0, 0, 0]);
    // A plain struct around an extensible one is written as before: its
    // fields back to back, with no length of its own.
    let envelope = v1::Envelope {
        seq: 0x0102_0304,
        session: session1(),
        trailer: 0x0506,
    };
    let session = encode(&envelope.session);
    assert_eq!(
        encode(&envelope),
        [&[4, 3, 2, 1][..], &session, &[6, 5]].concat()
    );
}

// ---------------------------------------------------------------------------
// Encoding allocates nothing.

marshal_test_suite::counting_allocator!();

/// The allocations `f` makes.
fn allocations(f: impl FnOnce()) -> usize {
    let guard = lock();
    let ((), allocs) = measure(&guard, f);
    allocs.count
}

#[test]
fn encoding_allocates_nothing() {
    let envelope = v3::Envelope {
        seq: 1,
        session: session3(),
        trailer: 2,
    };
    let nested = vec![envelope.clone(), envelope.clone()];
    let mut buf = vec![0u8; 1 << 16];
    let mut uninit = vec![std::mem::MaybeUninit::<u8>::uninit(); 1 << 16];
    let n = allocations(|| {
        let len = nested.encoded_len();
        assert_eq!(nested.write_to(&mut buf), len);
        assert_eq!(nested.try_write_to(&mut buf), Ok(len));
        assert_eq!(nested.write_to_uninit(&mut uninit).len(), len);
    });
    assert_eq!(n, 0);
    let n = allocations(|| {
        let len = envelope.encoded_len();
        assert_eq!(envelope.write_to(&mut buf), len);
        assert!(envelope.try_write_to(&mut buf[..len - 1]).is_err());
        assert_eq!(Point3 { x: 1, y: 2, z: 3 }.write_to(&mut buf), 16);
    });
    assert_eq!(n, 0);
}

/// The fingerprints the derive's docs ("Evolving types") pin for `User` (its versions 1 and 2 are
/// those of `v3::User`).
#[test]
fn the_documented_history_is_v3_users() {
    assert_eq!(
        fingerprint::history::<v3::User>()[..2],
        [0x3df4_088e_86bc_3ca4, 0x7398_b795_2eda_d394]
    );
    assert_eq!(v1::User::FINGERPRINT, 0x3df4_088e_86bc_3ca4);
}

/// The generated code names nothing the user's scope can shadow.
mod hygiene {
    #![allow(non_camel_case_types, clippy::upper_case_acronyms)]

    struct Result;
    struct Ok;
    struct Err;
    struct Option;
    struct Some;
    struct None;
    struct Default;
    struct Reader;
    struct Writer;
    struct u32;
    struct usize;

    fn seven() -> u8 {
        7
    }

    #[derive(marshal::Marshal, marshal::Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub(crate) struct Shadowed {
        pub(crate) a: u8,
        #[marshal(since = 2, default)]
        pub(crate) b: u8,
        #[marshal(since = 2, default = seven)]
        pub(crate) c: u8,
        #[marshal(skip, default)]
        pub(crate) d: u8,
    }

    #[derive(marshal::Marshal, marshal::Unmarshal, Debug, PartialEq)]
    #[marshal(extensible, tag_type = u8)]
    pub(crate) enum Tagged {
        A,
        B(u8, #[marshal(since = 2, default = seven)] u8),
        C {
            s: ::std::string::String,
        },
        #[marshal(other)]
        D,
    }
}

#[test]
fn generated_code_is_hygienic() {
    use hygiene::{Shadowed, Tagged};
    let bytes = encode(&Shadowed {
        a: 1,
        b: 2,
        c: 3,
        d: 4,
    });
    assert_eq!(bytes, [3, 0, 0, 0, 1, 2, 3]);
    assert_eq!(
        marshal::from_bytes::<Shadowed>(&[1, 0, 0, 0, 1]).unwrap(),
        Shadowed {
            a: 1,
            b: 0,
            c: 7,
            d: 0
        }
    );
    assert_eq!(
        marshal::from_bytes::<Tagged>(&[1, 1, 0, 0, 0, 5]).unwrap(),
        Tagged::B(5, 7)
    );
    assert_eq!(
        marshal::from_bytes::<Tagged>(&[9, 0, 0, 0, 0]).unwrap(),
        Tagged::D
    );
    assert_eq!(encode(&Tagged::C { s: "x".into() })[..5], [2, 9, 0, 0, 0]);
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible, tag_type = u8)]
enum Color {
    Red,
    Green,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible, tag_type = u8)]
enum Color2 {
    Red,
    Green,
    #[marshal(other)]
    Unknown,
    #[marshal(since = 2)]
    Blue,
}

#[test]
fn enums_of_unit_variants_read_bodies_and_unknown_tags() {
    assert_eq!(encode(&Color2::Blue), [3, 0, 0, 0, 0]);
    assert_eq!(
        err_of::<Color>(&encode(&Color2::Blue)),
        (
            DecodeErrorKind::InvalidTag {
                tag: 3,
                ty: "Color"
            },
            0
        )
    );
    // A newer version's fields in a variant known here are skipped.
    assert_eq!(
        Color::read_from(&[1, 3, 0, 0, 0, 9, 9, 9, 7]).unwrap(),
        (Color::Green, 8)
    );
    assert_eq!(
        Color2::read_from(&[7, 2, 0, 0, 0, 1, 2]).unwrap(),
        (Color2::Unknown, 7)
    );
    assert_eq!(
        err_of::<Color2>(&[0, 2, 0, 0, 0, 1]),
        (DecodeErrorKind::LengthOverflow { len: 2 }, 1)
    );
    assert_eq!(
        err_of::<Color>(&[0, 2, 0, 0]),
        (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 1)
    );
    assert_eq!(<Color as Unmarshal>::MIN_LEN, 5);
    assert_eq!(Color::FIXED_LEN, Some(5));
}
