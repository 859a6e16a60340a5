//! `core::net` addresses, encoded as serde encodes them for binary formats.

use core::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};

use crate::error::{DecodeError, Overflow, StdEnum};
use crate::fingerprint as fp;
use crate::reader::Reader;
use crate::traits::{Marshal, Unmarshal};
use crate::writer::Writer;

/// Four octets, no prefix.
impl Marshal for Ipv4Addr {
    const FINGERPRINT: u64 = fp::leaf("ipv4");
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
    const FINGERPRINT: u64 = fp::leaf("ipv6");
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
    const FINGERPRINT: u64 = fp::leaf("ipaddr");
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
    const FINGERPRINT: u64 = fp::leaf("socketv4");
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
    const FINGERPRINT: u64 = fp::leaf("socketv6");
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
    const FINGERPRINT: u64 = fp::leaf("socketaddr");
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

impl<'de> Unmarshal<'de> for Ipv4Addr {
    const MIN_LEN: usize = 4;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_array::<4>().map(Ipv4Addr::from)
    }
}

impl<'de> Unmarshal<'de> for Ipv6Addr {
    const MIN_LEN: usize = 16;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_array::<16>().map(Ipv6Addr::from)
    }
}

/// Reads the `u32` tag of a two-variant enum: `Ok(false)` for 0, `Ok(true)`
/// for 1.
#[inline]
fn take_v4_v6_tag(r: &mut Reader<'_>, ty: StdEnum) -> Result<bool, DecodeError> {
    let at = r.position();
    match u32::from_le_bytes(r.take_array()?) {
        0 => Ok(false),
        1 => Ok(true),
        tag => Err(DecodeError::invalid_std_tag(tag, ty, at)),
    }
}

impl<'de> Unmarshal<'de> for IpAddr {
    const MIN_LEN: usize = 4 + 4;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        if take_v4_v6_tag(r, StdEnum::IpAddr)? {
            Ipv6Addr::decode(r).map(IpAddr::V6)
        } else {
            Ipv4Addr::decode(r).map(IpAddr::V4)
        }
    }
}

impl<'de> Unmarshal<'de> for SocketAddrV4 {
    const MIN_LEN: usize = 4 + 2;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(SocketAddrV4::new(Ipv4Addr::decode(r)?, u16::decode(r)?))
    }
}

/// The flow info and scope id, which are not encoded, decode as 0.
impl<'de> Unmarshal<'de> for SocketAddrV6 {
    const MIN_LEN: usize = 16 + 2;
    const MIN_LEN_IS_EXACT: bool = true;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        Ok(SocketAddrV6::new(
            Ipv6Addr::decode(r)?,
            u16::decode(r)?,
            0,
            0,
        ))
    }
}

impl<'de> Unmarshal<'de> for SocketAddr {
    const MIN_LEN: usize = 4 + 6;

    #[inline]
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        if take_v4_v6_tag(r, StdEnum::SocketAddr)? {
            SocketAddrV6::decode(r).map(SocketAddr::V6)
        } else {
            SocketAddrV4::decode(r).map(SocketAddr::V4)
        }
    }
}

/// The addresses in every [`Encoding`], as bincode 2 writes them: the
/// octets as they are, the port and the tags as the configuration writes
/// a `u16` and a `u32`.
mod dialect {
    use super::*;
    use crate::config::{Encoding, Endian, IntEncoding, MarshalIn, UnmarshalIn};

    // The octets, in every configuration.
    crate::impls::dialect::same_bytes!(Ipv4Addr, Ipv6Addr);

    /// A socket address: the address, then the port.
    macro_rules! socket_in {
        ($($ty:ident($ip:ty $(, $zero:expr)*)),*) => {$(
            impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $ty {
                #[inline]
                fn encoded_len_in(&self) -> usize {
                    self.ip().encoded_len() + MarshalIn::<Encoding<E, I>>::encoded_len_in(&self.port())
                }

                #[inline]
                fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                    self.ip().encode(w)?;
                    MarshalIn::<Encoding<E, I>>::encode_in(&self.port(), w)
                }
            }

            impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $ty {
                const MIN_LEN_IN: usize = <$ip as Unmarshal<'de>>::MIN_LEN
                    + <u16 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    let ip = <$ip>::decode(r)?;
                    let port = <u16 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r)?;
                    Ok($ty::new(ip, port $(, $zero)*))
                }
            }
        )*};
    }

    socket_in!(SocketAddrV4(Ipv4Addr), SocketAddrV6(Ipv6Addr, 0, 0));

    /// Reads the tag of a two-variant enum in the configuration: `Ok(false)`
    /// for 0, `Ok(true)` for 1.
    #[inline]
    fn take_v4_v6_tag_in<E: Endian, I: IntEncoding>(
        r: &mut Reader<'_>,
        ty: StdEnum,
    ) -> Result<bool, DecodeError> {
        let at = r.position();
        match <u32 as UnmarshalIn<'_, Encoding<E, I>>>::decode_in(r)? {
            0 => Ok(false),
            1 => Ok(true),
            tag => Err(DecodeError::invalid_std_tag(tag, ty, at)),
        }
    }

    /// A two-variant enum: the tag, then the V4 or V6 form.
    macro_rules! either_in {
        ($($ty:ident($v4:ty, $v6:ty)),*) => {$(
            impl<E: Endian, I: IntEncoding> MarshalIn<Encoding<E, I>> for $ty {
                #[inline]
                fn encoded_len_in(&self) -> usize {
                    // The tag, 0 or 1: one byte as a varint, else four.
                    let tag = if I::VARINT { 1 } else { 4 };
                    tag + match self {
                        $ty::V4(a) => MarshalIn::<Encoding<E, I>>::encoded_len_in(a),
                        $ty::V6(a) => MarshalIn::<Encoding<E, I>>::encoded_len_in(a),
                    }
                }

                #[inline]
                fn encode_in(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
                    match self {
                        $ty::V4(a) => {
                            MarshalIn::<Encoding<E, I>>::encode_in(&0u32, w)?;
                            MarshalIn::<Encoding<E, I>>::encode_in(a, w)
                        }
                        $ty::V6(a) => {
                            MarshalIn::<Encoding<E, I>>::encode_in(&1u32, w)?;
                            MarshalIn::<Encoding<E, I>>::encode_in(a, w)
                        }
                    }
                }
            }

            impl<'de, E: Endian, I: IntEncoding> UnmarshalIn<'de, Encoding<E, I>> for $ty {
                const MIN_LEN_IN: usize = <u32 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN
                    + <$v4 as UnmarshalIn<'de, Encoding<E, I>>>::MIN_LEN_IN;

                #[inline]
                fn decode_in(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
                    if take_v4_v6_tag_in::<E, I>(r, StdEnum::$ty)? {
                        <$v6 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r).map($ty::V6)
                    } else {
                        <$v4 as UnmarshalIn<'de, Encoding<E, I>>>::decode_in(r).map($ty::V4)
                    }
                }
            }
        )*};
    }

    either_in!(
        IpAddr(Ipv4Addr, Ipv6Addr),
        SocketAddr(SocketAddrV4, SocketAddrV6)
    );
}
