//! Decodes arbitrary bytes as a tuple of every scalar type, including the
//! ones with invalid encodings (bool, char, NonZero, Duration, addresses).
//! Floats are compared by their bits, so NaN round-trips too.
#![no_main]

use std::net::{IpAddr, SocketAddr};
use std::num::{NonZeroI64, NonZeroU16};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use marshal::{Marshal, Unmarshal};

type Scalars = (
    (bool, char, u8, i8, u16, i16, u32, i32),
    (u64, i64, u128, i128, usize, isize),
    (f32, f64),
    (Option<NonZeroU16>, NonZeroI64, Duration),
    (IpAddr, SocketAddr, [char; 2]),
);

fuzz_target!(|data: &[u8]| {
    let Ok((value, used)) = Scalars::read_from(data) else {
        return;
    };
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes.len(), value.encoded_len());
    // Every scalar here has exactly one encoding, floats included (their
    // bits are written as read), except SocketAddrV6, whose flow info and
    // scope id are not on the wire and so cannot differ.
    assert_eq!(bytes, data[..used]);
    let (again, n) = Scalars::read_from(&bytes).expect("re-encoded value decodes");
    assert_eq!(n, bytes.len());
    assert_eq!(marshal::to_vec(&again), bytes);
});
