//! The proptest configuration and the value strategies that several
//! property suites (`decode_roundtrip`, `props`, `bincode_compat`,
//! `time_props`) draw from.

use std::collections::VecDeque;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::time::Duration;

use proptest::collection::vec;
use proptest::prelude::*;

/// 256 cases per property (2 under Miri, which interprets every byte), no
/// regression files written on failure.
pub fn config() -> ProptestConfig {
    config_with_cases(256)
}

/// [`config`] with `cases` cases per property instead of 256 (still 2
/// under Miri): for the suites whose cases cost more.
pub fn config_with_cases(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: if cfg!(miri) { 2 } else { cases },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Strings of up to 24 characters with plenty of 2, 3 and 4 byte ones
/// (and NUL, and the last scalar value).
pub fn arb_multibyte_string() -> impl Strategy<Value = String> + Clone {
    "[a-zA-Z0-9 éßøΩж€中文😀🦀\u{10FFFF}\u{0}]{0,24}"
}

/// Every `f32` bit pattern: all NaN payloads, subnormals, both zeros, and
/// proptest's interesting values.
pub fn arb_f32_bits() -> impl Strategy<Value = f32> {
    prop_oneof![any::<f32>(), any::<u32>().prop_map(f32::from_bits)]
}

/// Every `f64` bit pattern, as [`arb_f32_bits`].
pub fn arb_f64_bits() -> impl Strategy<Value = f64> {
    prop_oneof![any::<f64>(), any::<u64>().prop_map(f64::from_bits)]
}

/// Any valid `Duration`, `Duration::MAX` and `Duration::ZERO` among them.
pub fn arb_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
        Just(Duration::MAX),
        Just(Duration::ZERO),
    ]
}

/// V6 addresses: proptest's (mostly V4-mapped ones) and uniform bytes.
pub fn arb_ipv6() -> impl Strategy<Value = Ipv6Addr> {
    prop_oneof![
        any::<Ipv6Addr>(),
        any::<[u8; 16]>().prop_map(Ipv6Addr::from)
    ]
}

/// V4 and [`arb_ipv6`] addresses.
pub fn arb_ip_addr() -> impl Strategy<Value = IpAddr> {
    prop_oneof![
        any::<Ipv4Addr>().prop_map(IpAddr::V4),
        arb_ipv6().prop_map(IpAddr::V6),
    ]
}

/// A V6 socket address with random flow info and scope id, which the wire
/// format does not carry.
pub fn arb_socket_v6() -> impl Strategy<Value = SocketAddrV6> {
    (arb_ipv6(), any::<u16>(), any::<u32>(), any::<u32>())
        .prop_map(|(ip, port, flow, scope)| SocketAddrV6::new(ip, port, flow, scope))
}

/// V4 and [`arb_socket_v6`] socket addresses.
pub fn arb_socket_addr() -> impl Strategy<Value = SocketAddr> {
    prop_oneof![
        any::<SocketAddrV4>().prop_map(SocketAddr::V4),
        arb_socket_v6().prop_map(SocketAddr::V6),
    ]
}

/// A V6 socket address with flow info and scope id 0: what decoding gives
/// back, so round trips compare equal.
pub fn arb_socket_v6_zeroed() -> impl Strategy<Value = SocketAddrV6> {
    (arb_ipv6(), any::<u16>()).prop_map(|(ip, port)| SocketAddrV6::new(ip, port, 0, 0))
}

/// V4 and [`arb_socket_v6_zeroed`] socket addresses.
pub fn arb_socket_addr_zeroed() -> impl Strategy<Value = SocketAddr> {
    prop_oneof![
        any::<SocketAddrV4>().prop_map(SocketAddr::V4),
        arb_socket_v6_zeroed().prop_map(SocketAddr::V6),
    ]
}

/// A deque built with `push_front` on a small buffer, so that its contents
/// usually wrap around and `as_slices` returns two non-empty halves.
pub fn arb_wrapped_deque<T: Debug + Clone>(
    elem: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = VecDeque<T>> {
    (vec(elem.clone(), 0..24), vec(elem, 0..24)).prop_map(|(front, back)| {
        let mut d = VecDeque::with_capacity(4);
        d.extend(back);
        for x in front {
            d.push_front(x);
        }
        d
    })
}

/// The largest tuple std implements `Debug` and `PartialEq` for, with
/// every kind of field.
pub type Tuple12 = (
    u8,
    i16,
    u32,
    i64,
    u128,
    bool,
    char,
    String,
    f32,
    f64,
    (),
    Option<u8>,
);

/// Any [`Tuple12`], built from two halves (proptest's `Arbitrary` stops at
/// ten elements).
pub fn arb_tuple12() -> impl Strategy<Value = Tuple12> {
    (
        any::<(u8, i16, u32, i64, u128, bool)>(),
        any::<(char, String, f32, f64, (), Option<u8>)>(),
    )
        .prop_map(|(a, b)| (a.0, a.1, a.2, a.3, a.4, a.5, b.0, b.1, b.2, b.3, b.4, b.5))
}

#[cfg(test)]
mod tests {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    use super::*;

    /// [`arb_wrapped_deque`] produces deques split in two, most of the time.
    #[test]
    fn wrapped_deques_are_split() {
        let mut runner = TestRunner::deterministic();
        let strategy = arb_wrapped_deque(any::<u8>());
        let split = (0..100)
            .filter(|_| {
                let d = strategy.new_tree(&mut runner).unwrap().current();
                let (a, b) = d.as_slices();
                !a.is_empty() && !b.is_empty()
            })
            .count();
        assert!(split > 50, "{split} of 100 deques were split");
    }
}
