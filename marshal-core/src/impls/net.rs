//! `core::net` addresses, encoded as serde encodes them for binary formats.

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use crate::error::Overflow;
use crate::traits::Marshal;
use crate::writer::Writer;

/// Four octets, no prefix.
impl Marshal for Ipv4Addr {
    const FIXED_LEN: Option<usize> = Some(4);

    #[inline]
    fn encoded_len(&self) -> usize {
        4
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(self.octets())
    }
}

/// Sixteen octets, no prefix.
impl Marshal for Ipv6Addr {
    const FIXED_LEN: Option<usize> = Some(16);

    #[inline]
    fn encoded_len(&self) -> usize {
        16
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array(self.octets())
    }
}

/// An enum: `u32` tag 0 then a V4 address, or tag 1 then a V6 address.
impl Marshal for IpAddr {
    const MAX_LEN: Option<usize> = Some(4 + 16);

    #[inline]
    fn encoded_len(&self) -> usize {
        match self {
            IpAddr::V4(_) => 4 + 4,
            IpAddr::V6(_) => 4 + 16,
        }
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            IpAddr::V4(a) => {
                w.put_array(0u32.to_le_bytes())?;
                a.encode(w)
            }
            IpAddr::V6(a) => {
                w.put_array(1u32.to_le_bytes())?;
                a.encode(w)
            }
        }
    }
}

/// The address, then the port as a `u16`.
impl Marshal for SocketAddrV4 {
    const FIXED_LEN: Option<usize> = Some(4 + 2);

    #[inline]
    fn encoded_len(&self) -> usize {
        4 + 2
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.ip().encode(w)?;
        self.port().encode(w)
    }
}

/// The address, then the port as a `u16`. Like serde, the flow info and
/// scope id are not encoded.
impl Marshal for SocketAddrV6 {
    const FIXED_LEN: Option<usize> = Some(16 + 2);

    #[inline]
    fn encoded_len(&self) -> usize {
        16 + 2
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        self.ip().encode(w)?;
        self.port().encode(w)
    }
}

/// An enum: `u32` tag 0 then a V4 socket address, or tag 1 then a V6 one.
impl Marshal for SocketAddr {
    const MAX_LEN: Option<usize> = Some(4 + 18);

    #[inline]
    fn encoded_len(&self) -> usize {
        match self {
            SocketAddr::V4(_) => 4 + 6,
            SocketAddr::V6(_) => 4 + 18,
        }
    }

    #[inline]
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        match self {
            SocketAddr::V4(a) => {
                w.put_array(0u32.to_le_bytes())?;
                a.encode(w)
            }
            SocketAddr::V6(a) => {
                w.put_array(1u32.to_le_bytes())?;
                a.encode(w)
            }
        }
    }
}
