//! Decodes arbitrary bytes as fields written by adapters (`#[marshal(as =
//! A)]`): `TryFromInto`, `FromInto` and their compositions, a `remote`
//! mirror, and `SerdeForm` for every chrono, time and jiff type, which
//! parses strings with each crate's own parser. No input may panic or
//! crash; on success the value re-encodes to exactly `encoded_len` bytes,
//! which decode to the same value, taking all of them.
#![no_main]

use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use marshal::adapters::{FromInto, Same, SerdeForm, TryFromInto};
use marshal::{Marshal, Unmarshal};

/// Another crate's type, mirrored.
mod other {
    #[derive(Debug, Clone, PartialEq)]
    pub enum Shape {
        Dot(i16),
        Text { body: String, size: u8 },
    }
}

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Shape)]
enum ShapeDef {
    Dot(i16),
    Text { body: String, size: u8 },
}

/// Even numbers only.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Even(u32);

impl From<&Even> for u32 {
    fn from(e: &Even) -> u32 {
        e.0
    }
}

impl TryFrom<u32> for Even {
    type Error = ();
    fn try_from(v: u32) -> Result<Self, ()> {
        if v % 2 == 0 { Ok(Even(v)) } else { Err(()) }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Name(String);

impl From<&Name> for String {
    fn from(n: &Name) -> String {
        n.0.clone()
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(s)
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Adapted {
    #[marshal(as = TryFromInto<u32>)]
    even: Even,
    #[marshal(as = Vec<Option<TryFromInto<u32>>>)]
    evens: Vec<Option<Even>>,
    #[marshal(as = (Same, FromInto<String>, Box<TryFromInto<u32>>))]
    mixed: (u8, Name, Box<Even>),
    #[marshal(as = [ShapeDef; 2])]
    shapes: [other::Shape; 2],
}

macro_rules! serde_forms {
    ($($name:ident: $ty:ty,)*) => {
        $(
            #[derive(Marshal, Unmarshal, Debug, PartialEq)]
            struct $name(#[marshal(as = SerdeForm)] $ty);
        )*

        fn serde_forms(data: &[u8]) {
            $(check::<$name>(data);)*
        }
    };
}

serde_forms! {
    ChronoUtc: chrono::DateTime<chrono::Utc>,
    ChronoFixed: chrono::DateTime<chrono::FixedOffset>,
    ChronoNaive: chrono::NaiveDateTime,
    ChronoDate: chrono::NaiveDate,
    ChronoTime: chrono::NaiveTime,
    TimeOffset: time::OffsetDateTime,
    TimeUtc: time::UtcDateTime,
    TimePrimitive: time::PrimitiveDateTime,
    TimeDate: time::Date,
    TimeTime: time::Time,
    JiffTimestamp: jiff::Timestamp,
    JiffDateTime: jiff::civil::DateTime,
    JiffDate: jiff::civil::Date,
    JiffTime: jiff::civil::Time,
    JiffDuration: jiff::SignedDuration,
}

fn check<T>(data: &[u8])
where
    T: Marshal + for<'de> Unmarshal<'de> + Debug + PartialEq,
{
    let Ok((value, _)) = T::read_from(data) else {
        return;
    };
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes.len(), value.encoded_len());
    let (again, used) = T::read_from(&bytes).expect("re-encoded bytes decode");
    assert_eq!(used, bytes.len());
    assert_eq!(again, value);
}

fuzz_target!(|data: &[u8]| {
    check::<Adapted>(data);
    serde_forms(data);
});
