//! The serializer: bincode 1.3's bytes for serde's data model (or those of
//! another configuration), written through a [`Sink`] that either counts
//! them or writes them.

use core::fmt::{self, Display, Write as _};
use core::marker::PhantomData;

use ::serde::ser::{self, Serialize};

use super::{Error, is_legacy};
use crate::config::{Encoding, Endian, Fixint, IntEncoding, LittleEndian, MarshalIn};
use crate::traits::Marshal;
use crate::writer::Writer;

/// Where the serializer's bytes go: nowhere but a count ([`Counter`]), or
/// through a [`Writer`]. Neither allocates.
pub(super) trait Sink {
    /// Appends `N` bytes.
    fn put<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), Error>;
    /// Appends `bytes` as they are.
    fn put_slice(&mut self, bytes: &[u8]) -> Result<(), Error>;
    /// Appends `value` in byte order `E` and encoding `I`: through its own
    /// [`Marshal`] impl in bincode 1.3's default options, else through its
    /// [`MarshalIn`] impl.
    fn put_in<T, E: Endian, I: IntEncoding>(&mut self, value: T) -> Result<(), Error>
    where
        T: Marshal + MarshalIn<Encoding<E, I>>;
    /// Appends `len` as a `u64` length prefix.
    fn put_len(&mut self, len: usize) -> Result<(), Error>;
    /// Appends a length prefix, then `bytes`.
    fn put_prefixed(&mut self, bytes: &[u8]) -> Result<(), Error>;
    /// Appends what `value` displays as, which [`display_len`] measured as
    /// `len` bytes, after its length prefix.
    fn put_display(&mut self, len: usize, value: &dyn Display) -> Result<(), Error>;
}

/// Counts the bytes, saturating at `usize::MAX`.
pub(super) struct Counter(pub(super) usize);

impl Sink for Counter {
    #[inline]
    fn put<const N: usize>(&mut self, _: [u8; N]) -> Result<(), Error> {
        self.0 = self.0.saturating_add(N);
        Ok(())
    }

    #[inline]
    fn put_slice(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.0 = self.0.saturating_add(bytes.len());
        Ok(())
    }

    #[inline]
    fn put_in<T, E: Endian, I: IntEncoding>(&mut self, value: T) -> Result<(), Error>
    where
        T: Marshal + MarshalIn<Encoding<E, I>>,
    {
        let len = if is_legacy::<E, I>() {
            value.encoded_len()
        } else {
            value.encoded_len_in()
        };
        self.0 = self.0.saturating_add(len);
        Ok(())
    }

    #[inline]
    fn put_len(&mut self, _: usize) -> Result<(), Error> {
        self.put([0; 8])
    }

    #[inline]
    fn put_prefixed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.0 = self.0.saturating_add(8).saturating_add(bytes.len());
        Ok(())
    }

    #[inline]
    fn put_display(&mut self, len: usize, _: &dyn Display) -> Result<(), Error> {
        self.0 = self.0.saturating_add(len);
        Ok(())
    }
}

impl Sink for Writer<'_> {
    #[inline]
    fn put<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), Error> {
        self.put_array(bytes).map_err(|_| Error::overflow())
    }

    #[inline]
    fn put_slice(&mut self, bytes: &[u8]) -> Result<(), Error> {
        Writer::put_slice(self, bytes).map_err(|_| Error::overflow())
    }

    #[inline]
    fn put_in<T, E: Endian, I: IntEncoding>(&mut self, value: T) -> Result<(), Error>
    where
        T: Marshal + MarshalIn<Encoding<E, I>>,
    {
        let written = if is_legacy::<E, I>() {
            value.encode(self)
        } else {
            value.encode_in(self)
        };
        written.map_err(|_| Error::overflow())
    }

    #[inline]
    fn put_len(&mut self, len: usize) -> Result<(), Error> {
        Writer::put_len(self, len).map_err(|_| Error::overflow())
    }

    #[inline]
    fn put_prefixed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        Writer::put_prefixed(self, bytes).map_err(|_| Error::overflow())
    }

    fn put_display(&mut self, len: usize, value: &dyn Display) -> Result<(), Error> {
        let buf = self.reserve(len).map_err(|_| Error::overflow())?;
        let mut out = SliceOut {
            buf,
            pos: 0,
            overrun: false,
        };
        // The text is written straight into the output; a `Display` that
        // writes something else the second time is an error, not a
        // misframed string.
        match write!(out, "{value}") {
            Ok(()) if out.pos == len => Ok(()),
            Ok(()) => Err(Error::display_changed()),
            Err(fmt::Error) if out.overrun => Err(Error::display_changed()),
            Err(fmt::Error) => Err(Error::display_failed()),
        }
    }
}

/// The length of what `value` displays as, measured without allocating.
fn display_len(value: &dyn Display) -> Result<usize, Error> {
    struct Count(usize);
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 = self.0.saturating_add(s.len());
            Ok(())
        }
    }
    let mut count = Count(0);
    write!(count, "{value}").map_err(|_| Error::display_failed())?;
    Ok(count.0)
}

/// A `fmt::Write` into a slice of exactly the measured length.
struct SliceOut<'a> {
    buf: &'a mut [u8],
    pos: usize,
    overrun: bool,
}

impl fmt::Write for SliceOut<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.pos.saturating_add(s.len());
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => {
                dst.copy_from_slice(s.as_bytes());
                self.pos = end;
                Ok(())
            }
            None => {
                self.overrun = true;
                Err(fmt::Error)
            }
        }
    }
}

/// serde's serializer over a [`Sink`], writing integers, lengths and
/// variant indices in byte order `E` and encoding `I` (bincode 1.3's
/// default options by default).
pub(super) struct Encoder<'s, S, E = LittleEndian, I = Fixint> {
    sink: &'s mut S,
    dialect: PhantomData<(E, I)>,
}

impl<'s, S: Sink, E: Endian, I: IntEncoding> Encoder<'s, S, E, I> {
    /// A serializer writing into `sink`.
    pub(super) fn new(sink: &'s mut S) -> Self {
        Encoder {
            sink,
            dialect: PhantomData,
        }
    }

    /// A variant's index as bincode writes it: a `u32`.
    #[inline]
    fn tag(&mut self, index: u32) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(index)
    }

    /// A length prefix: a `u64`.
    #[inline]
    fn len(&mut self, len: usize) -> Result<(), Error> {
        if is_legacy::<E, I>() {
            self.sink.put_len(len)
        } else {
            self.sink.put_in::<_, E, I>(len as u64)
        }
    }

    /// A length prefix, then `bytes`.
    #[inline]
    fn prefixed(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if is_legacy::<E, I>() {
            self.sink.put_prefixed(bytes)
        } else {
            self.len(bytes.len())?;
            self.sink.put_slice(bytes)
        }
    }
}

impl<S: Sink, E: Endian, I: IntEncoding> ser::Serializer for &mut Encoder<'_, S, E, I> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    #[inline]
    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.sink.put([u8::from(v)])
    }

    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.sink.put(v.to_le_bytes())
    }

    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.sink.put([v])
    }

    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.sink.put_in::<_, E, I>(v)
    }

    #[inline]
    fn serialize_char(self, v: char) -> Result<(), Error> {
        let mut tmp = [0u8; 4];
        self.sink.put_slice(v.encode_utf8(&mut tmp).as_bytes())
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.prefixed(v.as_bytes())
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.prefixed(v)
    }

    #[inline]
    fn serialize_none(self) -> Result<(), Error> {
        self.sink.put([0])
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.sink.put([1])?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_unit(self) -> Result<(), Error> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Error> {
        Ok(())
    }

    #[inline]
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<(), Error> {
        self.tag(index)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.tag(index)?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Error> {
        self.len(len.ok_or(Error::unknown_length())?)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, _: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.tag(index)?;
        Ok(self)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Error> {
        self.len(len.ok_or(Error::unknown_length())?)?;
        Ok(self)
    }

    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Error> {
        Ok(self)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Error> {
        self.tag(index)?;
        Ok(self)
    }

    /// What `value` displays as, as a string: measured once, then written
    /// straight into the output, where bincode formats it into a `String`
    /// first. The bytes are the same.
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        let len = display_len(&value)?;
        self.len(len)?;
        self.sink.put_display(len, &value)
    }
}

/// The compound serializers: each element, field, key or value in turn,
/// with nothing between them.
macro_rules! compound {
    ($($trait:ident :: $method:ident ($($skip:ty),*);)*) => {$(
        impl<S: Sink, E: Endian, I: IntEncoding> ser::$trait for &mut Encoder<'_, S, E, I> {
            type Ok = ();
            type Error = Error;

            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, $(_: $skip,)* value: &T) -> Result<(), Error> {
                value.serialize(&mut **self)
            }

            #[inline]
            fn end(self) -> Result<(), Error> {
                Ok(())
            }
        }
    )*};
}

compound! {
    SerializeSeq::serialize_element();
    SerializeTuple::serialize_element();
    SerializeTupleStruct::serialize_field();
    SerializeTupleVariant::serialize_field();
    SerializeStruct::serialize_field(&'static str);
    SerializeStructVariant::serialize_field(&'static str);
}

impl<S: Sink, E: Endian, I: IntEncoding> ser::SerializeMap for &mut Encoder<'_, S, E, I> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(&mut **self)
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut **self)
    }

    #[inline]
    fn end(self) -> Result<(), Error> {
        Ok(())
    }
}
