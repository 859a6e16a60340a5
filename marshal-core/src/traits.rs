//! The [`Marshal`] trait.

use core::mem::MaybeUninit;

use crate::error::{BufferTooSmall, DecodeError, LengthMismatch, Overflow};
use crate::reader::Reader;
use crate::wire_hash;
use crate::writer::Writer;

/// A type that encodes itself into a caller-provided byte buffer.
///
/// Encoding is two steps with no allocation in between: [`encoded_len`] gives
/// the exact number of bytes, the caller provides a buffer of at least that
/// size (on the stack, in an arena, in a pooled buffer), and [`write_to`]
/// fills it. The bytes are those of bincode 1.x with its default options; see
/// `WIRE_FORMAT.md`.
///
/// Implement it with `#[derive(Marshal)]`. A manual implementation provides
/// [`encoded_len`] and [`encode`], and may set [`FIXED_LEN`] and [`MAX_LEN`].
///
/// ```
/// use marshal::Marshal;
///
/// #[derive(Marshal)]
/// struct Point { x: i32, y: i32 }
///
/// let p = Point { x: 1, y: -1 };
/// assert_eq!(p.encoded_len(), 8);
/// assert_eq!(Point::FIXED_LEN, Some(8));
///
/// let mut buf = [0u8; 16];
/// let n = p.write_to(&mut buf);
/// assert_eq!(&buf[..n], &[1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
/// ```
///
/// # Contract
///
/// [`encode`] writes exactly [`encoded_len`] bytes when the writer has room
/// for them. Unsafe code must not rely on this: encoding is bounds-checked
/// throughout, so a wrong manual implementation produces wrong bytes or a
/// [`BufferTooSmall`] error, never undefined behaviour.
///
/// [`encoded_len`]: Marshal::encoded_len
/// [`write_to`]: Marshal::write_to
/// [`encode`]: Marshal::encode
/// [`FIXED_LEN`]: Marshal::FIXED_LEN
/// [`MAX_LEN`]: Marshal::MAX_LEN
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be encoded: it does not implement `Marshal`",
    label = "`{Self}` does not implement `Marshal`",
    note = "derive it with `#[derive(Marshal)]`, encode the field through an adapter with \
            `#[marshal(as = A)]` (see `marshal::adapters`) or a module with \
            `#[marshal(with = module)]`, or leave it out with `#[marshal(skip)]`",
    note = "for another crate's type, enable marshal's feature named after that crate: \
            `uuid` (uuid 1), `indexmap` (2), `smallvec` (1), `arrayvec` (0.7), `heapless` \
            (0.9), `bytes` (1), `hashbrown` (0.17), `rust_decimal` (1), `compact_str` (0.10), \
            `smol_str` (0.3), `chrono` (0.4), `time` (0.3) or `jiff` (1); if it is on, the \
            type comes from another major version of that crate, a second copy in the build \
            (`cargo tree -d` lists them), which marshal does not support",
    note = "for chrono's, time's and jiff's types there are two choices: the features \
            `chrono`, `time`, `jiff` give marshal's own fixed-size bytes (not bincode's), and \
            `#[marshal(as = marshal::adapters::SerdeForm)]` the bytes bincode 1.3 wrote \
            through the crate's serde support, for data already written that way",
    note = "for a type with serde's `Serialize`, encode the field with \
            `#[marshal(with = marshal::serde::field)]` (feature `serde`)"
)]
pub trait Marshal {
    /// `Some(n)` when every value of the type encodes to exactly `n` bytes.
    ///
    /// ```
    /// use marshal::Marshal;
    /// assert_eq!(<(u8, u64)>::FIXED_LEN, Some(9));
    /// assert_eq!(<[u16; 4]>::FIXED_LEN, Some(8));
    /// assert_eq!(String::FIXED_LEN, None);
    /// ```
    const FIXED_LEN: Option<usize> = None;

    /// An upper bound on the encoded length of any value of the type, where
    /// one exists. Defaults to [`FIXED_LEN`](Marshal::FIXED_LEN).
    ///
    /// ```
    /// use marshal::Marshal;
    /// assert_eq!(<Option<u32>>::MAX_LEN, Some(5));
    /// assert_eq!(char::MAX_LEN, Some(4));
    /// assert_eq!(<Vec<u8>>::MAX_LEN, None);
    /// ```
    const MAX_LEN: Option<usize> = Self::FIXED_LEN;

    /// A 64-bit hash of the type's wire shape, computed at compile time:
    /// the field types in order, variant tags, the tag type and nested
    /// types' fingerprints. Names do not affect it, nor does how a type or
    /// a `with` module's path is spelled; any change to the bytes a type
    /// writes changes it, except inside a field encoded `with` a module,
    /// which counts as one fixed marker whatever the module (see
    /// [`fingerprint`](crate::fingerprint) for what it cannot see). Pin it
    /// in a test to catch breaking wire changes before they ship.
    ///
    /// Manual implementations that do not set it report one shared "opaque"
    /// value.
    ///
    /// ```
    /// use marshal::Marshal;
    ///
    /// #[derive(Marshal)]
    /// struct Point { x: i32, y: i32 }
    /// #[derive(Marshal)]
    /// struct Size { width: i32, height: i32 }
    /// #[derive(Marshal)]
    /// struct Wide { x: i64, y: i32 }
    ///
    /// // Same wire shape, same fingerprint, whatever the names.
    /// assert_eq!(Point::FINGERPRINT, Size::FINGERPRINT);
    /// assert_ne!(Point::FINGERPRINT, Wide::FINGERPRINT);
    /// ```
    const FINGERPRINT: u64 = wire_hash::OPAQUE;

    /// [`FIXED_LEN`](Marshal::FIXED_LEN) and [`MAX_LEN`](Marshal::MAX_LEN)
    /// together: a field's part of a derived struct's, which sets this to
    /// its fields' sum and both constants from it; not part of the public
    /// API.
    #[doc(hidden)]
    const __SIZES: crate::len::Sizes = crate::len::Sizes {
        fixed: Self::FIXED_LEN,
        max: Self::MAX_LEN,
    };

    /// Whether the type's wire bytes are exactly its bytes in memory; see
    /// [`is_memcpy_equivalent`](crate::is_memcpy_equivalent). Set by the
    /// derive from compile-time layout facts; not part of the public API.
    #[doc(hidden)]
    const __LAYOUT: crate::mem::Layout<Self> = crate::mem::Layout::OPAQUE;

    /// The fingerprint of each version of the type, oldest first; see
    /// [`fingerprint::history`](crate::fingerprint::history). One entry,
    /// [`FINGERPRINT`](Marshal::FINGERPRINT), but for an extensible type.
    /// Set by the derive; not part of the public API.
    #[doc(hidden)]
    const __HISTORY: &'static [u64] = &[Self::FINGERPRINT];

    /// A derived enum's variants' fixed lengths, in declaration order: the
    /// sum of each variant's fields' [`FIXED_LEN`](Marshal::FIXED_LEN),
    /// `None` where one has none. The enum's own `FIXED_LEN` folds it, and
    /// each variant whose fields have a fixed length is written through one
    /// writer of exactly its length; named once, each field type is spelled
    /// once. Empty for every other type; not part of the public API.
    #[doc(hidden)]
    const __VARIANT_FIXED: &'static [Option<usize>] = &[];

    /// Adds this value's length to the sum a derived `encoded_len` keeps:
    /// [`FIXED_LEN`](Marshal::FIXED_LEN) to the part that folds into one
    /// constant when there is one, else [`encoded_len`](Marshal::encoded_len).
    /// Called by the derive as `<FieldType as Marshal>::__add_len`, so that a
    /// field type that is not `Marshal` is reported once, at the type; not
    /// part of the public API.
    #[doc(hidden)]
    #[inline(always)]
    #[must_use]
    fn __add_len(&self, len: crate::__private::Len) -> crate::__private::Len {
        match const { Self::FIXED_LEN } {
            Some(n) => len.fixed(n),
            None => len.len(self.encoded_len()),
        }
    }

    /// The exact number of bytes [`write_to`](Marshal::write_to) writes for
    /// this value. Never allocates.
    ///
    /// ```
    /// use marshal::Marshal;
    /// assert_eq!("héllo".encoded_len(), 8 + 6);
    /// assert_eq!(vec![1u32, 2, 3].encoded_len(), 8 + 12);
    /// ```
    fn encoded_len(&self) -> usize;

    /// Writes the encoding through `w`, the building block of every other
    /// method. Returns [`Overflow`] when `w` runs out of space.
    ///
    /// ```
    /// use marshal::{Marshal, Writer};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut w = Writer::new(&mut buf);
    /// 1u16.encode(&mut w).unwrap();
    /// true.encode(&mut w).unwrap();
    /// assert_eq!(w.written(), 3);
    /// assert_eq!(buf[..3], [1, 0, 1]);
    /// ```
    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow>;

    /// Writes the encoding at the front of `buf` and returns its length, which
    /// equals [`encoded_len`](Marshal::encoded_len). Bytes past it are left as
    /// they were.
    ///
    /// # Panics
    ///
    /// When `buf` is shorter than `encoded_len()`, with a message giving both
    /// lengths. [`try_write_to`](Marshal::try_write_to) returns an error
    /// instead. When the encoding does not fit in a `buf` that
    /// `encoded_len()` says is long enough (a broken manual implementation),
    /// the message names that inconsistency instead. Encoding takes one
    /// pass: `encoded_len` is called only when the encoding does not fit,
    /// so a too-large `encoded_len` goes unnoticed here and the length
    /// returned is the one written.
    ///
    /// ```
    /// use marshal::Marshal;
    /// let mut buf = [0xaa; 6];
    /// assert_eq!(0x0102_0304u32.write_to(&mut buf), 4);
    /// assert_eq!(buf, [4, 3, 2, 1, 0xaa, 0xaa]);
    /// ```
    #[inline]
    #[track_caller]
    fn write_to(&self, buf: &mut [u8]) -> usize {
        let available = buf.len();
        let mut w = Writer::new(buf);
        match self.encode(&mut w) {
            Ok(()) => w.written(),
            Err(Overflow) => write_failed(self.encoded_len(), available),
        }
    }

    /// Like [`write_to`](Marshal::write_to), but returns
    /// [`BufferTooSmall`] instead of panicking when `buf` is too short.
    ///
    /// On error nothing is written past the end of `buf`, but a prefix of the
    /// encoding may have been written into it. The error's `needed` is what
    /// `encoded_len()` reports, which for a broken manual implementation may
    /// be no more than `available`.
    ///
    /// ```
    /// use marshal::{BufferTooSmall, Marshal};
    /// let mut buf = [0u8; 4];
    /// assert_eq!(7u32.try_write_to(&mut buf), Ok(4));
    /// assert_eq!(
    ///     "hello".try_write_to(&mut buf),
    ///     Err(BufferTooSmall { needed: 13, available: 4 })
    /// );
    /// ```
    #[inline]
    fn try_write_to(&self, buf: &mut [u8]) -> Result<usize, BufferTooSmall> {
        let available = buf.len();
        let mut w = Writer::new(buf);
        match self.encode(&mut w) {
            Ok(()) => Ok(w.written()),
            Err(Overflow) => Err(BufferTooSmall {
                needed: self.encoded_len(),
                available,
            }),
        }
    }

    /// Writes the encoding at the front of `buf`, memory that need not be
    /// initialized, and returns the written bytes: the initialized prefix of
    /// `buf`, [`encoded_len`](Marshal::encoded_len) bytes long. Fresh memory
    /// (a `Vec`'s spare capacity, an arena block, a stack array) is filled
    /// once, by the encoder, never zeroed first; bytes past the encoding are
    /// left untouched and never read.
    ///
    /// # Panics
    ///
    /// When `buf` is shorter than `encoded_len()`, or the value disagrees
    /// with its `encoded_len()`, like [`write_to`](Marshal::write_to).
    /// [`try_write_to_uninit`](Marshal::try_write_to_uninit) returns an
    /// error instead.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    /// use marshal::Marshal;
    ///
    /// let mut buf = [MaybeUninit::<u8>::uninit(); 64];
    /// let bytes: &mut [u8] = (7u32, "hi").write_to_uninit(&mut buf);
    /// assert_eq!(bytes, [7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, b'h', b'i']);
    /// ```
    #[inline]
    #[track_caller]
    fn write_to_uninit<'b>(&self, buf: &'b mut [MaybeUninit<u8>]) -> &'b mut [u8] {
        match self.try_write_to_uninit(buf) {
            Ok(written) => written,
            Err(err) => write_failed(err.needed, err.available),
        }
    }

    /// Like [`write_to_uninit`](Marshal::write_to_uninit), but returns
    /// [`BufferTooSmall`] instead of panicking when `buf` is too short.
    ///
    /// ```
    /// use std::mem::MaybeUninit;
    /// use marshal::{BufferTooSmall, Marshal};
    ///
    /// let mut buf = [MaybeUninit::<u8>::uninit(); 4];
    /// assert_eq!(1u16.try_write_to_uninit(&mut buf).unwrap(), [1, 0]);
    /// assert_eq!(
    ///     1u64.try_write_to_uninit(&mut buf),
    ///     Err(BufferTooSmall { needed: 8, available: 4 })
    /// );
    /// ```
    #[inline]
    fn try_write_to_uninit<'b>(
        &self,
        buf: &'b mut [MaybeUninit<u8>],
    ) -> Result<&'b mut [u8], BufferTooSmall> {
        let available = buf.len();
        let mut w = Writer::new_uninit(buf);
        match self.encode(&mut w) {
            Ok(()) => Ok(w.into_written()),
            Err(Overflow) => Err(BufferTooSmall {
                needed: self.encoded_len(),
                available,
            }),
        }
    }

    /// The encoded length of a run of values, without a length prefix.
    ///
    /// Slices, arrays and vectors call this, so a type can answer for a whole
    /// run at once; the default multiplies by [`FIXED_LEN`](Marshal::FIXED_LEN)
    /// when there is one and sums otherwise.
    ///
    /// ```
    /// use marshal::Marshal;
    /// assert_eq!(u32::encoded_len_slice(&[1, 2, 3]), 12);
    /// ```
    #[inline]
    fn encoded_len_slice(items: &[Self]) -> usize
    where
        Self: Sized,
    {
        match Self::FIXED_LEN {
            Some(n) => n.saturating_mul(items.len()),
            None => items
                .iter()
                .fold(0, |sum, item| sum.saturating_add(item.encoded_len())),
        }
    }

    /// Encodes a run of values one after another, without a length prefix.
    ///
    /// Slices, arrays and vectors call this, so a type whose encoding is its
    /// memory (like `u8`) can write a whole run with one copy. The default
    /// encodes each value in turn.
    ///
    /// ```
    /// use marshal::{Marshal, Writer};
    /// let mut buf = [0u8; 3];
    /// u8::encode_slice(b"abc", &mut Writer::new(&mut buf)).unwrap();
    /// assert_eq!(&buf, b"abc");
    /// ```
    #[inline]
    fn encode_slice(items: &[Self], w: &mut Writer<'_>) -> Result<(), Overflow>
    where
        Self: Sized,
    {
        // Wire bytes that are the memory: one copy.
        if let Some(bytes) = crate::mem::memory_of(<Self as Marshal>::__LAYOUT, items) {
            return w.put_slice(bytes);
        }
        // Fixed-size values: one check for the run, then each value writes
        // into exactly its share, so its own checks fold away.
        if let Some(n) = Self::FIXED_LEN {
            return w.exact(n.saturating_mul(items.len()), |run| {
                for item in items {
                    run.exact(n, |one| item.encode(one))?;
                }
                Ok(())
            });
        }
        w.detached(|w| items.iter().try_for_each(|item| item.encode(w)))
    }
}

/// The panic of `write_to` and `write_to_uninit` when the encoding did not
/// fit: the buffer is too small, or, when `encoded_len` says it is not, the
/// value disagrees with its own length.
#[cold]
#[inline(never)]
#[track_caller]
fn write_failed(needed: usize, available: usize) -> ! {
    if needed <= available {
        panic!(
            "marshal: {}",
            LengthMismatch::Long {
                encoded_len: needed
            }
        );
    }
    panic!(
        "marshal: {}; size the buffer with encoded_len()",
        BufferTooSmall { needed, available }
    )
}

/// A type that decodes from input of any lifetime, borrowing nothing from
/// it: `for<'de> Unmarshal<'de>`, under a name, as serde's
/// `DeserializeOwned`. Every `T: for<'de> Unmarshal<'de>` implements it;
/// use it as a bound where the input does not outlive the value (a reused
/// buffer, a frame reader's).
///
/// ```
/// use marshal::{Marshal, Unmarshal, UnmarshalOwned};
///
/// fn read_all<T: UnmarshalOwned>(chunks: &[Vec<u8>]) -> Result<Vec<T>, marshal::DecodeError> {
///     chunks.iter().map(|chunk| marshal::from_bytes(chunk)).collect()
/// }
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Tick { seq: u64, note: String }
///
/// let chunks = vec![marshal::to_vec(&Tick { seq: 1, note: "a".into() })];
/// assert_eq!(read_all::<Tick>(&chunks)?, [Tick { seq: 1, note: "a".into() }]);
/// # Ok::<(), marshal::DecodeError>(())
/// ```
///
/// A type that borrows from its input (`&'de str`) does not implement it:
///
/// ```compile_fail
/// fn owned<T: marshal::UnmarshalOwned>() {}
/// owned::<&str>();
/// ```
pub trait UnmarshalOwned: for<'de> Unmarshal<'de> {}

impl<T: for<'de> Unmarshal<'de>> UnmarshalOwned for T {}

/// A type that decodes itself from bytes written by [`Marshal`].
///
/// `'de` is the lifetime of the input: types like `&'de str` and
/// `&'de [u8]` borrow from it instead of copying. Decoding never panics on any
/// input, never reads out of bounds, and never allocates more than the input
/// justifies; bad input is a [`DecodeError`] that says what was wrong and at
/// which byte.
///
/// Implement it with `#[derive(Unmarshal)]`. A manual implementation provides
/// [`decode`](Unmarshal::decode) and may set [`MIN_LEN`](Unmarshal::MIN_LEN).
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug, PartialEq)]
/// struct Point<'a> { x: i32, label: &'a str }
///
/// let bytes = marshal::to_vec(&Point { x: -1, label: "origin" });
/// let (p, used) = Point::read_from(&bytes).unwrap();
/// assert_eq!(p, Point { x: -1, label: "origin" });
/// assert_eq!(used, bytes.len());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded: it does not implement `Unmarshal`",
    label = "`{Self}` does not implement `Unmarshal`",
    note = "derive it with `#[derive(Unmarshal)]`, decode the field through an adapter with \
            `#[marshal(as = A)]` (see `marshal::adapters`) or a module with \
            `#[marshal(with = module)]`, or leave it out with `#[marshal(skip)]`",
    note = "for another crate's type, enable marshal's feature named after that crate: \
            `uuid` (uuid 1), `indexmap` (2), `smallvec` (1), `arrayvec` (0.7), `heapless` \
            (0.9), `bytes` (1), `hashbrown` (0.17), `rust_decimal` (1), `compact_str` (0.10), \
            `smol_str` (0.3), `chrono` (0.4), `time` (0.3) or `jiff` (1); if it is on, the \
            type comes from another major version of that crate, a second copy in the build \
            (`cargo tree -d` lists them), which marshal does not support",
    note = "for chrono's, time's and jiff's types there are two choices: the features \
            `chrono`, `time`, `jiff` give marshal's own fixed-size bytes (not bincode's), and \
            `#[marshal(as = marshal::adapters::SerdeForm)]` the bytes bincode 1.3 wrote \
            through the crate's serde support, for data already written that way",
    note = "for a type with serde's `Deserialize`, decode the field with \
            `#[marshal(with = marshal::serde::field)]` (feature `serde`)"
)]
pub trait Unmarshal<'de>: Sized {
    /// The fewest bytes any value of the type encodes to. Length prefixes
    /// are checked against it before anything is allocated: a claimed
    /// length whose items cannot fit in the remaining input is an error.
    ///
    /// ```
    /// use marshal::Unmarshal;
    /// assert_eq!(<u64 as Unmarshal>::MIN_LEN, 8);
    /// assert_eq!(<Option<u64> as Unmarshal>::MIN_LEN, 1);
    /// assert_eq!(<String as Unmarshal>::MIN_LEN, 8);
    /// ```
    const MIN_LEN: usize = 0;

    /// `true` when every value of the type encodes to exactly
    /// [`MIN_LEN`](Unmarshal::MIN_LEN) bytes. A derived decoder for a type
    /// made only of such fields checks the input length once for all of them.
    ///
    /// ```
    /// use marshal::Unmarshal;
    /// assert!(<(u32, [u8; 4], bool) as Unmarshal>::MIN_LEN_IS_EXACT);
    /// assert!(!<Option<u32> as Unmarshal>::MIN_LEN_IS_EXACT);
    /// assert!(!<char as Unmarshal>::MIN_LEN_IS_EXACT);
    /// ```
    const MIN_LEN_IS_EXACT: bool = false;

    /// Whether the type's wire bytes are exactly its bytes in memory, with
    /// every byte pattern valid. Set by the derive from compile-time layout
    /// facts; not part of the public API.
    #[doc(hidden)]
    const __LAYOUT: crate::mem::Layout<Self> = crate::mem::Layout::OPAQUE;

    /// An upper bound on the stack, in bytes and in an unoptimized build,
    /// that [`decode`](Unmarshal::decode) takes on the way to a deeper
    /// level of nesting: its own frame and those it calls, up to the next
    /// [`Reader::nest`]. Containers charge it against the depth limit (see
    /// `stack.rs`). Set by the derive and forwarded by wrappers; not part
    /// of the public API.
    #[doc(hidden)]
    const __DECODE_STACK: usize = crate::stack::value::<Self>();

    /// The stack a derived decoder's frame takes for a field of this type
    /// (`nesting::field_of`), read by the derive as
    /// `<FieldType as Unmarshal>::__STACK_FIELD`, so that a field type that
    /// is not `Unmarshal` is reported once, at the type; not part of the
    /// public API.
    #[doc(hidden)]
    const __STACK_FIELD: crate::stack::Field = crate::nesting::field_of::<Self>();

    /// [`MIN_LEN`](Unmarshal::MIN_LEN),
    /// [`MIN_LEN_IS_EXACT`](Unmarshal::MIN_LEN_IS_EXACT) and
    /// `__STACK_FIELD` together: a field's part of a derived struct's
    /// `__PARTS`, read as `__STACK_FIELD` is; not part of the public API.
    #[doc(hidden)]
    const __PART: crate::len::Part = crate::len::Part::of::<Self>();

    /// A derived struct's fields summed (`Part::sum`), or a derived enum's
    /// variants' (`Variants::parts`), from which its `MIN_LEN`,
    /// `MIN_LEN_IS_EXACT` and `__DECODE_STACK` are read: by default from
    /// [`__FIELDS`](Unmarshal::__FIELDS) and [`__VARIANTS`](Unmarshal::__VARIANTS).
    /// Not part of the public API, and read by nothing else.
    #[doc(hidden)]
    const __PARTS: crate::len::Parts = crate::len::Parts::of(Self::__FIELDS, Self::__VARIANTS);

    /// This type's part and walk, for a field of it in a derived type's
    /// [`__FIELDS`](Unmarshal::__FIELDS); not part of the public API.
    #[doc(hidden)]
    const __FIELD: crate::trace::FieldOf<'de> =
        crate::trace::FieldOf::new(Self::__PART, Self::__trace);

    /// This type's walk (`__trace`), for a field of it whose part cannot be
    /// read from its type (`trace::Named::new`); not part of the public
    /// API.
    #[doc(hidden)]
    const __WALK: crate::trace::Walk<'de> = Self::__trace;

    /// A derived struct's fields, each with its site, part and walk (see
    /// `trace`), when the trace can walk them as its decoder reads them
    /// (every field read by its type's `Unmarshal`); empty otherwise. Not
    /// part of the public API.
    #[doc(hidden)]
    const __FIELDS: &'de [crate::trace::Named<'de>] = &[];

    /// A derived enum's variants, as [`__FIELDS`](Unmarshal::__FIELDS) a
    /// struct's fields; `Variants::NONE` otherwise. Not part of the public
    /// API.
    #[doc(hidden)]
    const __VARIANTS: crate::trace::Variants<'de> = crate::trace::Variants::NONE;

    /// Whether the trace must stop at this type, finding no site in it or
    /// after it: a derived type with a field read `with` a module, whose
    /// code may decode again (a module that calls `from_bytes`, which
    /// looks for a site of its own), so that reading it a second time
    /// could repeat at every level. Not part of the public API.
    #[doc(hidden)]
    const __BLIND: bool = false;

    /// Whether [`__trace`](Unmarshal::__trace) can enter a field of a
    /// derived type: a derived type's own, or a container's of its items'.
    /// When not, an error has no site to find, and the input is not read
    /// again. Not part of the public API.
    #[doc(hidden)]
    const __TRACES: bool = !Self::__FIELDS.is_empty() || Self::__VARIANTS.is_enum();

    /// Reads what [`decode`](Unmarshal::decode) reads, in the same order
    /// and through the same checks, noting in `t` each derived field,
    /// element and entry it enters, to find where an error was raised (see
    /// `trace`); builds nothing it need not. By default a derived type's
    /// [`__FIELDS`](Unmarshal::__FIELDS) or [`__VARIANTS`](Unmarshal::__VARIANTS)
    /// are walked and any other type is decoded and dropped. Not part of
    /// the public API.
    #[doc(hidden)]
    fn __trace(r: &mut Reader<'de>, t: &mut crate::trace::Trace) -> Result<(), DecodeError> {
        crate::trace::walk::<Self>(r, t)
    }

    /// [`MIN_LEN`](Unmarshal::MIN_LEN) when it is exact, else `None`: a
    /// field's part of a derived enum's `MIN_LEN_IS_EXACT`, read as
    /// `__STACK_FIELD` is; not part of the public API.
    #[doc(hidden)]
    const __EXACT_LEN: Option<usize> = if Self::MIN_LEN_IS_EXACT {
        Some(Self::MIN_LEN)
    } else {
        None
    };

    /// Whether [`__decode_in`](Unmarshal::__decode_in) builds the value in
    /// its place (a derived struct) rather than decoding a value and
    /// moving it there (the default): containers take the in-place path
    /// only for the former, since for the latter it would only add, in an
    /// unoptimized build, frames holding copies of the value. Not part of
    /// the public API.
    #[doc(hidden)]
    const __IN_PLACE: bool = false;

    /// Decodes a value straight into `place`, the memory that keeps it (a
    /// `Vec`'s next slot, a `Box`'s allocation, a field of a struct being
    /// built): derived structs write each field in its place there; the
    /// default decodes a value and writes it. Not part of the public API.
    #[doc(hidden)]
    #[inline(always)]
    fn __decode_in<'p>(
        r: &mut Reader<'de>,
        place: crate::mem::Place<'p, Self>,
    ) -> Result<crate::mem::Built<'p, Self>, DecodeError> {
        Ok(place.write(Self::decode(r)?))
    }

    /// A field of this type at `offset` of a derived struct built in
    /// place, built by [`__decode_in`](Unmarshal::__decode_in). Spelled
    /// `<FieldType as Unmarshal>::__at` by the derive (through the alias
    /// `__private::In`), so that a field type that is not `Unmarshal` is
    /// reported once, at the type. Not part of the public API.
    #[doc(hidden)]
    #[inline(always)]
    fn __at(offset: usize) -> crate::mem::Field<Self, Reader<'de>, DecodeError> {
        crate::mem::field(offset, Self::__decode_in)
    }

    /// Reads one value through `r`, the building block of every other
    /// method.
    ///
    /// ```
    /// use marshal::{Reader, Unmarshal};
    /// let mut r = Reader::new(&[1, 0, 1]);
    /// assert_eq!(u16::decode(&mut r).unwrap(), 1);
    /// assert_eq!(bool::decode(&mut r).unwrap(), true);
    /// ```
    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError>;

    /// Reads one value from the front of `buf` and returns it with the
    /// number of bytes it took. Bytes after it are ignored; use
    /// [`from_bytes`](crate::from_bytes) to reject them.
    ///
    /// ```
    /// use marshal::Unmarshal;
    /// let (v, used) = <(u8, &str)>::read_from(&[7, 1, 0, 0, 0, 0, 0, 0, 0, b'x', 0xff]).unwrap();
    /// assert_eq!(v, (7, "x"));
    /// assert_eq!(used, 10);
    /// ```
    #[inline]
    fn read_from(buf: &'de [u8]) -> Result<(Self, usize), DecodeError> {
        let mut r = Reader::new(buf);
        let value = Self::decode(&mut r)?;
        Ok((value, r.position()))
    }

    /// Reads `len` values into a `Vec`; slices and vectors call this after
    /// reading and checking their length prefix, so a type whose encoding is
    /// its memory (like `u8`) can copy the whole run at once. The default
    /// decodes one value at a time. It allocates up front only what
    /// [`Reader::capacity_for`] allows, so a lying length cannot cause a
    /// large allocation; beyond that the vector grows only as values
    /// actually decode. Under an allocation budget
    /// ([`Reader::with_max_alloc`]) it allocates room for all `len` values
    /// at once, charged through [`Reader::try_capacity_for`]; an override
    /// that allocates should charge the same way.
    ///
    /// ```
    /// use marshal::{Reader, Unmarshal};
    /// let mut r = Reader::new(&[1, 0, 2, 0]);
    /// assert_eq!(u16::decode_vec(&mut r, 2).unwrap(), vec![1, 2]);
    /// ```
    #[cfg(feature = "alloc")]
    #[inline]
    fn decode_vec(r: &mut Reader<'de>, len: usize) -> Result<alloc::vec::Vec<Self>, DecodeError> {
        // Wire bytes that are the memory: one check, one copy. (Zero-sized
        // values take the loop below; there is nothing to copy.)
        if <Self as Unmarshal>::__LAYOUT.is_memcpy() && core::mem::size_of::<Self>() > 0 {
            return crate::impls::vec_from_run(r, <Self as Unmarshal>::__LAYOUT, len);
        }
        let mut out = alloc::vec::Vec::with_capacity(r.try_capacity_for::<Self>(len)?);
        // Each value decodes straight into its slot of the `Vec`.
        // Fixed-size values: one check for the run, then each value reads
        // from exactly its share.
        if Self::MIN_LEN_IS_EXACT && Self::MIN_LEN > 0 {
            let mut run = r.split(len.saturating_mul(Self::MIN_LEN))?;
            crate::impls::extend_decoded::<crate::config::Legacy, Self>(&mut out, len, &mut run)?;
            return Ok(out);
        }
        if !Self::__IN_PLACE {
            for _ in 0..len {
                out.push(Self::decode(r)?);
            }
            return Ok(out);
        }
        // Through a local reader, which stays in registers while the
        // values are written through pointers.
        r.local(|r| crate::impls::extend_decoded::<crate::config::Legacy, Self>(&mut out, len, r))?;
        Ok(out)
    }

    /// Reads `len` values as a `Cow<[Self]>`, for `Cow<'_, [T]>`: borrowed
    /// from the input where the bytes are the values (`u8`), owned
    /// otherwise.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// use marshal::{Reader, Unmarshal};
    /// let mut r = Reader::new(&[1, 2]);
    /// assert!(matches!(u8::decode_cow_slice(&mut r, 2).unwrap(), Cow::Borrowed(&[1, 2])));
    /// ```
    #[cfg(feature = "alloc")]
    #[inline]
    fn decode_cow_slice<'a>(
        r: &mut Reader<'de>,
        len: usize,
    ) -> Result<alloc::borrow::Cow<'a, [Self]>, DecodeError>
    where
        Self: Clone,
        'de: 'a,
    {
        Self::decode_vec(r, len).map(alloc::borrow::Cow::Owned)
    }

    /// Reads exactly `N` values, for `[T; N]`. The default decodes one at a
    /// time; `u8` overrides it with one bounds check and one copy.
    ///
    /// ```
    /// use marshal::{Reader, Unmarshal};
    /// let mut r = Reader::new(&[1, 2, 3]);
    /// assert_eq!(u8::decode_array::<3>(&mut r).unwrap(), [1, 2, 3]);
    /// ```
    #[inline]
    fn decode_array<const N: usize>(r: &mut Reader<'de>) -> Result<[Self; N], DecodeError> {
        // Wire bytes that are the memory: one check, one copy.
        if <Self as Unmarshal>::__LAYOUT.is_memcpy() {
            return crate::impls::array_from_run(r, <Self as Unmarshal>::__LAYOUT);
        }
        try_array(|| Self::decode(r))
    }
}

/// `N` values from `next`, in order, or its first error (in `legacy()` or
/// another configuration).
#[inline]
pub(crate) fn try_array<T, const N: usize>(
    mut next: impl FnMut() -> Result<T, DecodeError>,
) -> Result<[T; N], DecodeError> {
    let mut error = None;
    let items: [Option<T>; N] = core::array::from_fn(|_| {
        if error.is_some() {
            return None;
        }
        match next() {
            Ok(v) => Some(v),
            Err(e) => {
                error = Some(e);
                None
            }
        }
    });
    match error {
        Some(e) => Err(e),
        // Every slot is `Some` when no element failed.
        None => Ok(items.map(|item| item.unwrap_or_else(|| unreachable!()))),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(feature = "alloc")]
    use crate::mem::vec_from_memory;
    use crate::mem::{array_from_memory, memory_of};
    use crate::{Marshal, Unmarshal};

    #[test]
    fn memory_of_is_the_wire_bytes_of_qualifying_types() {
        let items = [0x0102_0304u32, 0xa0b0_c0d0];
        let bytes = memory_of(<u32 as Marshal>::__LAYOUT, &items);
        if cfg!(target_endian = "little") {
            assert_eq!(bytes, Some(&[4, 3, 2, 1, 0xd0, 0xc0, 0xb0, 0xa0][..]));
        } else {
            assert_eq!(bytes, None);
        }
        assert_eq!(memory_of(<bool as Marshal>::__LAYOUT, &[true, false]), None);
        assert_eq!(memory_of(<char as Marshal>::__LAYOUT, &['a']), None);
        assert_eq!(
            memory_of(<Option<u8> as Marshal>::__LAYOUT, &[Some(1u8)]),
            None
        );
        assert_eq!(
            memory_of(<[i16; 2] as Marshal>::__LAYOUT, &[[1, -1]]).map(<[u8]>::len),
            cfg!(target_endian = "little").then_some(4)
        );
    }

    #[cfg(all(feature = "alloc", target_endian = "little"))]
    #[test]
    fn values_from_memory() {
        let bytes = [1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f];
        assert_eq!(
            vec_from_memory(<i32 as Unmarshal>::__LAYOUT, &bytes),
            [1, i32::MAX]
        );
        assert_eq!(
            vec_from_memory(<u16 as Unmarshal>::__LAYOUT, &bytes),
            [1, 0, 0xffff, 0x7fff]
        );
        assert_eq!(
            vec_from_memory(<u64 as Unmarshal>::__LAYOUT, &[]),
            [] as [u64; 0]
        );
        let floats: [f32; 2] = array_from_memory(<f32 as Unmarshal>::__LAYOUT, &bytes[..8]);
        assert_eq!(floats[0].to_bits(), 1);
        assert_eq!(
            array_from_memory::<[u8; 2], 2>(<[u8; 2] as Unmarshal>::__LAYOUT, &bytes[..4]),
            [[1, 0], [0, 0]]
        );
    }

    #[cfg(feature = "alloc")]
    #[test]
    #[should_panic(expected = "not a run of memcpy-equivalent values")]
    fn values_from_memory_reject_other_types() {
        let _ = vec_from_memory(<bool as Unmarshal>::__LAYOUT, &[1, 0]);
    }
}
