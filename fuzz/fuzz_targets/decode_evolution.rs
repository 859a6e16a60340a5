//! Decodes arbitrary bytes as extensible types of two versions, on a thread
//! with a 2 MiB stack:
//!
//! - what decodes re-encodes to exactly `encoded_len()` bytes that decode
//!   to an equal value (not to the same bytes: bytes a reader skips, and an
//!   unknown variant's tag and body, are not kept);
//! - what version 3 decodes, version 1 decodes too, as the part of it that
//!   version 1 knows: skipping fields and variants never fails;
//! - recursive extensible types stop at the depth limit, never a stack
//!   overflow;
//! - under an allocation budget, the decode gives what an unlimited one
//!   gives, or stops with `AllocLimit`.
#![no_main]

use std::collections::BTreeMap;
use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use marshal::{DecodeErrorKind, Marshal, Unmarshal};

mod common;

use common::check;

mod v1 {
    use marshal::{Marshal, Unmarshal};

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub struct User {
        pub id: u64,
        pub name: String,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible, tag_type = u8)]
    pub enum Event {
        Login {
            user: u64,
        },
        Logout {
            user: u64,
        },
        #[marshal(other)]
        Unknown,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub struct Session<'a> {
        pub user: User,
        pub events: Vec<Event>,
        pub note: &'a str,
    }
}

mod v3 {
    use std::collections::BTreeMap;

    use marshal::{Marshal, Unmarshal};

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub enum Plan {
        Free,
        Pro { seats: u16 },
    }

    pub fn free() -> Plan {
        Plan::Free
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub struct User {
        pub id: u64,
        pub name: String,
        #[marshal(since = 2, default)]
        pub email: Option<String>,
        #[marshal(since = 3, default = free)]
        pub plan: Plan,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible, tag_type = u8)]
    pub enum Event {
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
        #[marshal(since = 3)]
        Ban { user: u64, days: u16 },
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub struct Session<'a> {
        pub user: User,
        pub events: Vec<Event>,
        pub note: &'a str,
        #[marshal(since = 2, default)]
        pub flags: u8,
        #[marshal(since = 3, default)]
        pub tags: BTreeMap<String, u32>,
    }

    /// A recursive extensible type with a large variant.
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub enum Tree {
        Leaf,
        Big([u64; 512]),
        Node(Vec<Tree>),
        Boxed(Box<Tree>, #[marshal(since = 2, default)] Option<Box<Tree>>),
        #[marshal(other)]
        Other,
    }
}

/// What version 1 reads of a version 3 value.
fn down_user(u: &v3::User) -> v1::User {
    v1::User {
        id: u.id,
        name: u.name.clone(),
    }
}

fn down_event(e: &v3::Event) -> v1::Event {
    match *e {
        v3::Event::Login { user, .. } => v1::Event::Login { user },
        v3::Event::Logout { user, .. } => v1::Event::Logout { user },
        _ => v1::Event::Unknown,
    }
}

fn down_session<'a>(s: &v3::Session<'a>) -> v1::Session<'a> {
    v1::Session {
        user: down_user(&s.user),
        events: s.events.iter().map(down_event).collect(),
        note: s.note,
    }
}

/// Version 3's reading of `data`, and version 1's, agree.
fn versions_agree<'a, N, O>(data: &'a [u8], down: impl Fn(&N) -> O)
where
    N: Unmarshal<'a> + Debug,
    O: Unmarshal<'a> + Debug + PartialEq,
{
    if let Ok((new, used)) = N::read_from(data) {
        let (old, old_used) = O::read_from(data).expect("version 1 reads what version 3 does");
        assert_eq!(old, down(&new));
        assert_eq!(used, old_used, "both versions take the whole body");
    }
}

/// A budget changes nothing but to stop with `AllocLimit`.
fn budget_holds<T>(data: &[u8], budget: usize)
where
    T: for<'de> Unmarshal<'de> + PartialEq + Debug,
{
    let unlimited = marshal::from_bytes::<T>(data);
    match marshal::from_bytes_limited::<T>(data, budget) {
        Ok(value) => assert_eq!(unlimited.as_ref(), Ok(&value)),
        Err(e) if matches!(e.kind(), DecodeErrorKind::AllocLimit { .. }) => {}
        Err(e) => assert_eq!(unlimited.map(|_| ()), Err(e)),
    }
}

/// `check` for a session, which borrows from the input.
macro_rules! check_session {
    ($ty:ty, $data:expr) => {
        if let Ok((value, _)) = <$ty>::read_from($data) {
            let bytes = marshal::to_vec(&value);
            assert_eq!(bytes.len(), value.encoded_len());
            let (again, used) = <$ty>::read_from(&bytes).expect("re-encoded value decodes");
            assert_eq!((again, used), (value, bytes.len()));
        }
    };
}

fuzz_target!(|data: &[u8]| {
    let data = data.to_vec();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            check::<v1::User>(&data, false);
            check::<v3::User>(&data, false);
            check::<v1::Event>(&data, false);
            check::<v3::Event>(&data, false);
            check::<Vec<v3::Event>>(&data, false);
            check::<BTreeMap<u8, v3::User>>(&data, false);
            check::<v3::Tree>(&data, false);
            check_session!(v1::Session, &data);
            check_session!(v3::Session, &data);
            versions_agree(&data, down_user);
            versions_agree(&data, down_event);
            versions_agree(&data, down_session);
            versions_agree(&data, |v: &Vec<v3::User>| {
                v.iter().map(down_user).collect::<Vec<_>>()
            });
            let budget = data.first().map_or(0, |&b| usize::from(b) * 16);
            budget_holds::<v3::User>(&data, budget);
            budget_holds::<Vec<v3::Event>>(&data, budget);
            budget_holds::<v3::Tree>(&data, budget);
        })
        .expect("spawn")
        .join()
        .expect("the decode thread finished without a panic or overflow");
});
