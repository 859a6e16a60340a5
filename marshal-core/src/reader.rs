//! The byte cursor that decoders read through.

use crate::error::DecodeError;
use crate::stack::Container;

/// A forward-only cursor over the input being decoded.
///
/// Every [`Unmarshal::decode`](crate::Unmarshal::decode) implementation reads
/// through a `Reader`. Each `take*` call checks the remaining length once and
/// either returns all the requested bytes or an
/// [`UnexpectedEnd`](crate::DecodeErrorKind::UnexpectedEnd) error carrying
/// the offset of the read. Bytes returned by [`take`](Reader::take) borrow
/// from the input for `'de`, which is how `&'de str` and `&'de [u8]` decode
/// without copying.
///
/// ```
/// use marshal::Reader;
///
/// let mut r = Reader::new(&[1, 0, b'h', b'i']);
/// assert_eq!(r.take_array::<2>().unwrap(), [1, 0]);
/// assert_eq!(r.take(2).unwrap(), b"hi");
/// assert_eq!(r.position(), 4);
/// assert!(r.take(1).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'de> {
    rest: &'de [u8],
    /// The offset just past `rest` in the whole input: the position is
    /// `end - rest.len()`, so consuming bytes updates `rest` alone.
    end: usize,
    /// Without a budget: bytes that collections may still allocate ahead of
    /// their items. With one: bytes of the budget not yet charged.
    prealloc: usize,
    /// The allocation budget, or [`NO_BUDGET`].
    max_alloc: usize,
    /// Levels of collections and boxes that may still be entered.
    depth: u32,
    /// The limit `depth` started from, for the error.
    max_depth: u32,
    /// The arena that bumpalo's containers decode into, if any.
    #[cfg(feature = "bumpalo")]
    arena: Option<&'de bumpalo::Bump>,
}

/// Bytes of memory that each byte of input buys for allocating collections
/// ahead of their items (see [`Reader::capacity_for`]).
const PREALLOC_PER_INPUT_BYTE: usize = 4;

/// The `max_alloc` of a reader without an allocation budget.
const NO_BUDGET: usize = usize::MAX;

impl<'de> Reader<'de> {
    /// Creates a reader at the start of `input`.
    ///
    /// ```
    /// let r = marshal::Reader::new(b"abc");
    /// assert_eq!(r.remaining(), 3);
    /// ```
    #[inline]
    pub fn new(input: &'de [u8]) -> Self {
        Reader {
            rest: input,
            end: input.len(),
            prealloc: input.len().saturating_mul(PREALLOC_PER_INPUT_BYTE),
            max_alloc: NO_BUDGET,
            depth: Self::DEFAULT_MAX_DEPTH,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            #[cfg(feature = "bumpalo")]
            arena: None,
        }
    }

    /// How deeply collections and boxes may nest unless
    /// [`with_max_depth`](Reader::with_max_depth) says otherwise: 256 levels
    /// of small values.
    ///
    /// A recursive type (a tree of `Vec`s, a list of `Box`es) decodes by
    /// recursion, one stack frame or more per level, so without a limit a
    /// small hostile input could nest deeply enough to overflow the stack
    /// and abort the process. And the stack a
    /// level takes grows with the values it holds, whichever of them the
    /// input picks: a `Box<T>` keeps a `T` or two on the stack while the
    /// level inside it decodes. So each level is charged against the limit
    /// by the stack it may take in an unoptimized build (the larger of the
    /// two), estimated at compile time from its types: a unit for each
    /// 4 KiB, and at least one. A level of a small value is one unit; a
    /// level of the enum below, 13. At the default limit, nesting takes at
    /// most 1 MiB of stack in optimized and unoptimized builds alike, half
    /// of the 2 MiB of a spawned thread.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Unmarshal};
    ///
    /// #[derive(Unmarshal, Debug)]
    /// enum E {
    ///     Leaf,
    ///     Big([u64; 2048]),
    ///     Next(Box<E>),
    /// }
    ///
    /// // 1 KiB of input: 256 `Next`s, then a `Leaf`. 19 levels of 13 units
    /// // fit in 256; the error is where the 20th starts.
    /// let mut input = [2, 0, 0, 0].repeat(256);
    /// input.extend([0, 0, 0, 0]);
    /// let err = marshal::from_bytes::<E>(&input).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 256 });
    /// assert_eq!(err.offset(), 20 * 4);
    ///
    /// assert_eq!(marshal::Reader::DEFAULT_MAX_DEPTH, 256);
    /// ```
    pub const DEFAULT_MAX_DEPTH: u32 = 256;

    /// Sets how deeply collections and boxes may nest, in levels of small
    /// values. Each `Vec`, `VecDeque`, map, set, `Box`, `Rc` or `Arc`
    /// entered while decoding is a level, except collections of fixed-size
    /// items, which cannot recurse; past the limit, decoding fails with
    /// [`TooDeep`](crate::DecodeErrorKind::TooDeep). A level of a large
    /// value counts as several, by the stack it may take (see
    /// [`DEFAULT_MAX_DEPTH`](Reader::DEFAULT_MAX_DEPTH)), so the limit
    /// scales them all: twice the limit allows twice the nesting, on twice
    /// the stack.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader, Unmarshal};
    ///
    /// let bytes = marshal::to_vec(&vec![vec![String::from("a")]]);
    /// let mut r = Reader::new(&bytes).with_max_depth(1);
    /// let err = Vec::<Vec<String>>::decode(&mut r).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 1 });
    ///
    /// let mut r = Reader::new(&bytes).with_max_depth(2);
    /// assert!(Vec::<Vec<String>>::decode(&mut r).is_ok());
    ///
    /// // A box of a 4 KiB value is one level, but counts as several.
    /// let bytes = marshal::to_vec(&Box::new(Some([7u64; 512])));
    /// let mut r = Reader::new(&bytes).with_max_depth(1);
    /// let err = Box::<Option<[u64; 512]>>::decode(&mut r).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 1 });
    ///
    /// let mut r = Reader::new(&bytes).with_max_depth(8);
    /// assert!(Box::<Option<[u64; 512]>>::decode(&mut r).is_ok());
    /// ```
    #[must_use]
    #[inline]
    pub fn with_max_depth(mut self, max_depth: u32) -> Self {
        self.depth = max_depth;
        self.max_depth = max_depth;
        self
    }

    /// Runs `f` one level deeper, or fails with
    /// [`TooDeep`](crate::DecodeErrorKind::TooDeep) if the reader's depth
    /// limit is reached. Collections and boxes decode their contents this
    /// way; a manual implementation of a container should too. The level is
    /// charged as a `Box` of `f`'s result would be: one unit of the limit
    /// for a small result, several for a large one (see
    /// [`DEFAULT_MAX_DEPTH`](Reader::DEFAULT_MAX_DEPTH)).
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    ///
    /// let mut r = Reader::new(&[7]).with_max_depth(1);
    /// let err = r.nest(|r| r.nest(|r| r.take_u8())).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 1 });
    /// assert_eq!(r.nest(|r| r.take_u8()), Ok(7));
    ///
    /// // A 16 KiB result counts as several levels.
    /// let mut r = Reader::new(&[]).with_max_depth(8);
    /// let err = r.nest(|_| Ok([0u64; 2048])).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TooDeep { limit: 8 });
    /// ```
    #[inline]
    pub fn nest<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        self.nest_levels(const { Container::POINTER.levels_of_value::<T>() }, f)
    }

    /// [`nest`](Reader::nest), charging `levels` units of the depth limit.
    #[inline]
    pub(crate) fn nest_levels<T>(
        &mut self,
        levels: u32,
        f: impl FnOnce(&mut Self) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        let outer = self.depth;
        let Some(depth) = outer.checked_sub(levels) else {
            return Err(DecodeError::too_deep(self.max_depth, self.position()));
        };
        // `f` reads through a copy in a local, which the compiler can keep
        // in registers; through `&mut self` it stores the position back to
        // memory after every field.
        let mut local = Reader { depth, ..*self };
        let result = f(&mut local);
        // What reading moves; the limits and the arena stay this reader's.
        self.rest = local.rest;
        self.end = local.end;
        self.prealloc = local.prealloc;
        result
    }

    /// Runs `f` on a copy of this reader in a local, then takes the copy's
    /// state back, whatever `f` returns: what `f` reads, it reads through
    /// a local the compiler can keep in registers. Through `&mut self`, it
    /// stores the position back to memory after every read whenever it
    /// also writes through a pointer it cannot tell apart from the reader
    /// (a value built in place).
    ///
    /// What reading moves is taken back, as [`nest_levels`] takes it: the
    /// input left, where it ends, and the allocation left (the limits are
    /// set when the reader is made, and [`nest`](Reader::nest) gives back
    /// the depth it takes, whatever `f` returns). A decoder that replaced
    /// the reader it was given has its input and position kept, as
    /// through `&mut self`.
    ///
    /// [`nest_levels`]: Reader::nest_levels
    #[inline(always)]
    pub(crate) fn local<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let mut local = Reader { ..*self };
        let result = f(&mut local);
        self.rest = local.rest;
        self.end = local.end;
        self.prealloc = local.prealloc;
        result
    }

    /// [`nest_levels`](Reader::nest_levels) for a body the compiler does
    /// not inline (serde's visitors): `f` reads through this reader itself,
    /// since a copy in a local would only be copied in and out again. `f`'s
    /// own result comes back as it is, whatever it says; the error is the
    /// depth limit's. Should `f` panic, the depth stays lowered: a reader
    /// used again after catching the panic only has a stricter limit.
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn nest_levels_in_place<T>(
        &mut self,
        levels: u32,
        f: impl FnOnce(&mut Self) -> T,
    ) -> Result<T, DecodeError> {
        let outer = self.depth;
        let Some(depth) = outer.checked_sub(levels) else {
            return Err(DecodeError::too_deep(self.max_depth, self.position()));
        };
        self.depth = depth;
        let result = f(self);
        self.depth = outer;
        Ok(result)
    }

    /// Bytes consumed so far: the offset of the next byte in the input.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(b"abc");
    /// r.take(2).unwrap();
    /// assert_eq!(r.position(), 2);
    /// ```
    #[inline]
    pub fn position(&self) -> usize {
        self.end - self.rest.len()
    }

    /// Bytes not yet consumed.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(b"abc");
    /// r.take(1).unwrap();
    /// assert_eq!(r.remaining(), 2);
    /// ```
    #[inline]
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// The unconsumed input, without consuming it.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(b"abc");
    /// r.take(1).unwrap();
    /// assert_eq!(r.peek_rest(), b"bc");
    /// ```
    #[inline]
    pub fn peek_rest(&self) -> &'de [u8] {
        self.rest
    }

    /// Consumes and returns the next `len` bytes, borrowed from the input.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    /// let mut r = Reader::new(b"abc");
    /// assert_eq!(r.take(2).unwrap(), b"ab");
    /// let err = r.take(3).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::UnexpectedEnd { needed: 2 });
    /// assert_eq!(err.offset(), 2);
    /// ```
    #[inline]
    pub fn take(&mut self, len: usize) -> Result<&'de [u8], DecodeError> {
        let Some((head, tail)) = self.rest.split_at_checked(len) else {
            return Err(DecodeError::unexpected_end(
                len - self.rest.len(),
                self.position(),
            ));
        };
        self.rest = tail;
        Ok(head)
    }

    /// Consumes the next `N` bytes as an array, with one bounds check.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(&[1, 0, 0, 0]);
    /// assert_eq!(u32::from_le_bytes(r.take_array().unwrap()), 1);
    /// ```
    #[inline]
    pub fn take_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let Some((head, tail)) = self.rest.split_first_chunk::<N>() else {
            return Err(DecodeError::unexpected_end(
                N - self.rest.len(),
                self.position(),
            ));
        };
        self.rest = tail;
        Ok(*head)
    }

    /// Consumes the next `len` bytes and returns a reader over just them,
    /// with one bounds check. Offsets in its errors still count from the
    /// start of the whole input. Derived decoders read fixed-size types this
    /// way, so the per-field checks on the short reader fold away. The
    /// sub-reader allocates nothing ahead of items (see
    /// [`capacity_for`](Reader::capacity_for)): collections decoded from it
    /// grow as their items decode. Under an allocation budget
    /// ([`with_max_alloc`](Reader::with_max_alloc)) it has none of the
    /// budget left, so anything it would allocate fails with
    /// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit): what it charged
    /// could not be handed back to this reader, and the types read this way
    /// are fixed-size, which allocate nothing.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    /// let mut r = Reader::new(&[1, 2, 3, 4]);
    /// r.take(1).unwrap();
    /// let mut sub = r.split(2).unwrap();
    /// assert_eq!(sub.take(2).unwrap(), [2, 3]);
    /// let err = sub.take(1).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 3));
    /// assert_eq!(r.position(), 3);
    /// ```
    #[inline]
    pub fn split(&mut self, len: usize) -> Result<Reader<'de>, DecodeError> {
        let rest = self.take(len)?;
        Ok(Reader {
            rest,
            end: self.position(),
            prealloc: 0,
            max_alloc: self.max_alloc,
            depth: self.depth,
            max_depth: self.max_depth,
            #[cfg(feature = "bumpalo")]
            arena: self.arena,
        })
    }

    /// Reads the body of an extensible type: its length as a little-endian
    /// `u32`, then that many bytes, through which `f` decodes the type's
    /// fields. `f` reads from a reader over just the body, with this
    /// reader's depth limit and allocation budget (what it charges stays
    /// charged), whose errors give offsets in the whole input; whatever of
    /// the body `f` leaves unread (fields of a newer version) is skipped.
    /// Derived decoders of `#[marshal(extensible)]` types read through this
    /// (WIRE_FORMAT.md, "Extensible types").
    ///
    /// A length past the end of the input is
    /// [`LengthOverflow`](crate::DecodeErrorKind::LengthOverflow) at the
    /// length's offset, before `f` is called.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    ///
    /// // A body of 3 bytes, of which the reader knows the first 2, then 9.
    /// let mut r = Reader::new(&[3, 0, 0, 0, 7, 0, 0xff, 9]);
    /// let v = r.take_body(|body| {
    ///     assert_eq!(body.position(), 4);
    ///     body.take_array::<2>()
    /// });
    /// assert_eq!(v, Ok([7, 0]));
    /// assert_eq!(r.take_u8(), Ok(9));
    ///
    /// let mut r = Reader::new(&[9, 0, 0, 0, 1, 2]);
    /// let err = r.take_body(|_| Ok(())).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::LengthOverflow { len: 9 }, 0));
    /// ```
    #[inline]
    pub fn take_body<T>(
        &mut self,
        f: impl FnOnce(&mut Reader<'de>) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        self.take_body_ordered(false, f)
    }

    /// [`take_body`](Reader::take_body) with the length big-endian when
    /// `big_endian`: an extensible body in a big-endian configuration.
    #[inline]
    pub(crate) fn take_body_ordered<T>(
        &mut self,
        big_endian: bool,
        f: impl FnOnce(&mut Reader<'de>) -> Result<T, DecodeError>,
    ) -> Result<T, DecodeError> {
        let at = self.position();
        let bytes = self.take_array()?;
        let raw = if big_endian {
            u32::from_be_bytes(bytes)
        } else {
            u32::from_le_bytes(bytes)
        };
        let body = usize::try_from(raw)
            .ok()
            .and_then(|len| self.rest.split_at_checked(len));
        let Some((body, rest)) = body else {
            return Err(DecodeError::length_overflow(raw.into(), at));
        };
        self.rest = rest;
        // As in `nest_levels`: `f` reads through a local, which the compiler
        // can keep in registers.
        let mut local = Reader {
            rest: body,
            end: self.position(),
            ..*self
        };
        let result = f(&mut local);
        self.prealloc = local.prealloc;
        result
    }

    /// Consumes one byte.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(&[9]);
    /// assert_eq!(r.take_u8().unwrap(), 9);
    /// assert!(r.take_u8().is_err());
    /// ```
    #[inline]
    pub fn take_u8(&mut self) -> Result<u8, DecodeError> {
        let [b] = self.take_array::<1>()?;
        Ok(b)
    }

    /// Reads a `u64` length prefix for items that each take at least
    /// `min_item_len` bytes, and rejects it unless that many items can fit
    /// in the remaining input. Items that may take zero bytes are counted as
    /// one byte each, so decoding work stays proportional to the input.
    ///
    /// This is the check that keeps a hostile length from causing a large
    /// allocation or a long loop.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    ///
    /// let mut r = Reader::new(&[2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0]);
    /// assert_eq!(r.take_len(2).unwrap(), 2);
    ///
    /// let mut r = Reader::new(&[0, 0, 0, 0, 0, 0, 0, 0x10, 1, 2, 3, 4]);
    /// let err = r.take_len(1).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::LengthOverflow { len: 1 << 60 });
    /// ```
    #[inline]
    pub fn take_len(&mut self, min_item_len: usize) -> Result<usize, DecodeError> {
        let at = self.position();
        let raw = u64::from_le_bytes(self.take_array()?);
        self.len_within(raw, at, min_item_len)
    }

    /// `raw`, a length read at `at` (in `legacy()` or another
    /// configuration), unless this platform's `usize` cannot hold it or the
    /// rest of the input cannot hold that many items of at least
    /// `min_item_len` bytes (counted as one when less): then
    /// [`LengthOverflow`](crate::DecodeErrorKind::LengthOverflow) at `at`.
    #[inline]
    pub(crate) fn len_within(
        &self,
        raw: u64,
        at: usize,
        min_item_len: usize,
    ) -> Result<usize, DecodeError> {
        let len = usize::try_from(raw).map_err(|_| DecodeError::length_overflow(raw, at))?;
        if len > self.rest.len() / min_item_len.max(1) {
            return Err(DecodeError::length_overflow(raw, at));
        }
        Ok(len)
    }

    /// How many of `len` items of `T` a collection should make room for
    /// before decoding them.
    ///
    /// A length prefix that passed [`take_len`](Reader::take_len) still
    /// proves little: a hostile input can claim as many items as it has
    /// bytes, each of them much larger in memory than on the wire. So the
    /// room allocated ahead of items, over a whole decode, is at most four
    /// times the size of the input: a collection gets all `len` items while
    /// that allowance lasts, and after that grows as its items actually
    /// decode. Honest input whose items are no more than four times larger
    /// in memory than on the wire is allocated exactly, once.
    ///
    /// Under an allocation budget ([`with_max_alloc`](Reader::with_max_alloc))
    /// the room returned is charged against the budget instead, but growth
    /// past it would not be: containers use
    /// [`try_capacity_for`](Reader::try_capacity_for), which covers both.
    ///
    /// ```
    /// let input = [0u8; 16];
    /// let mut r = marshal::Reader::new(&input);
    /// assert_eq!(r.capacity_for::<u64>(2), 2); // 16 of the 64 bytes allowed
    /// assert_eq!(r.capacity_for::<[u8; 40]>(2), 1); // 40 of the 48 left
    /// assert_eq!(r.capacity_for::<u64>(2), 1); // the last 8
    /// assert_eq!(r.capacity_for::<u8>(1), 0);
    /// ```
    #[inline]
    pub fn capacity_for<T>(&mut self, len: usize) -> usize {
        self.capacity_by_size(len, core::mem::size_of::<T>(), 1)
    }

    /// [`capacity_for`](Reader::capacity_for) for items charged `size`
    /// bytes each, and only if room for at least `min` of them is left.
    #[inline]
    pub(crate) fn capacity_by_size(&mut self, len: usize, size: usize, min: usize) -> usize {
        let size = size.max(1);
        let capacity = len.min(self.prealloc / size);
        if capacity < min {
            return 0;
        }
        self.prealloc -= capacity * size;
        capacity
    }

    /// Limits what decoding through this reader may ask the allocator for,
    /// in all, to `bytes`: every `Vec`, `VecDeque`, `String`, `Box`, `Rc`,
    /// `Arc`, map and set allocation and reallocation, nested ones included,
    /// counted when requested (freeing gives nothing back). Past the budget,
    /// decoding stops with
    /// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit), and what it had
    /// built is dropped.
    ///
    /// Without a budget, a hostile input can make a decode peak at many
    /// times its size in memory (each one-byte `None` of an
    /// `Option<[u64; 64]>` is 520 bytes) before its last byte turns out bad.
    /// With one, a collection whose length has been read charges all its
    /// items up front and allocates room for exactly them, once, instead of
    /// preallocating within the four-times-the-input allowance of
    /// [`capacity_for`](Reader::capacity_for) and then growing. Maps and
    /// sets are charged the most their tables or tree nodes can take, and
    /// `Rc` and `Arc` their two counters as well, so the bytes actually
    /// requested stay within the budget.
    ///
    /// [`nest`](Reader::nest) carries the budget into its body and back;
    /// [`split`](Reader::split) sub-readers get none of it. `usize::MAX`
    /// means no budget, as for [`Reader::new`]. Fields decoded by a `with`
    /// module or an adapter read through the caller's reader, and are
    /// counted as they charge it; manual
    /// [`Unmarshal`](crate::Unmarshal) implementations that do not call
    /// [`try_capacity_for`](Reader::try_capacity_for) or
    /// [`charge_alloc`](Reader::charge_alloc) are not counted.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader, Unmarshal};
    ///
    /// // 1000 one-byte `None`s, 520 bytes each in memory.
    /// let bytes = marshal::to_vec(&vec![None::<[u64; 64]>; 1000]);
    /// let mut r = Reader::new(&bytes).with_max_alloc(64 << 10);
    /// let err = Vec::<Option<[u64; 64]>>::decode(&mut r).unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 64 << 10 });
    /// assert_eq!(err.offset(), 8); // where the items start
    ///
    /// let mut r = Reader::new(&bytes).with_max_alloc(520 * 1000);
    /// assert_eq!(Vec::<Option<[u64; 64]>>::decode(&mut r).unwrap().len(), 1000);
    /// ```
    #[must_use]
    #[inline]
    pub fn with_max_alloc(mut self, bytes: usize) -> Self {
        self.max_alloc = bytes;
        self.prealloc = if bytes == NO_BUDGET {
            self.rest.len().saturating_mul(PREALLOC_PER_INPUT_BYTE)
        } else {
            bytes
        };
        self
    }

    /// The allocation budget set by
    /// [`with_max_alloc`](Reader::with_max_alloc), if any.
    ///
    /// ```
    /// use marshal::Reader;
    /// assert_eq!(Reader::new(b"").max_alloc(), None);
    /// assert_eq!(Reader::new(b"").with_max_alloc(4096).max_alloc(), Some(4096));
    /// ```
    #[must_use]
    #[inline]
    pub fn max_alloc(&self) -> Option<usize> {
        self.has_budget().then_some(self.max_alloc)
    }

    /// Gives decoding through this reader an arena: bumpalo's `Vec`,
    /// `String` and `Box`, at any depth of the value, are allocated in
    /// `arena` (see `marshal::arena::from_bytes_in`, which sets it). Without
    /// one they fail to decode, with
    /// [`NoArena`](crate::DecodeErrorKind::NoArena). The depth limit and
    /// the allocation budget apply to what goes into the arena as to the
    /// heap; [`nest`](Reader::nest), [`split`](Reader::split) and
    /// [`take_body`](Reader::take_body) readers keep the arena.
    ///
    /// A reader is then tied to the arena, which only one thread may use
    /// at a time: with the `bumpalo` feature, `Reader` (and what holds one)
    /// is neither `Send` nor `Sync`.
    ///
    /// ```
    /// use bumpalo::{Bump, collections::Vec};
    /// use marshal::{Reader, Unmarshal};
    ///
    /// let bump = Bump::new();
    /// let bytes = marshal::to_vec(&vec![1u16, 2, 3]);
    /// let mut r = Reader::new(&bytes).with_arena(&bump);
    /// let v = Vec::<u16>::decode(&mut r)?;
    /// assert_eq!(v, [1, 2, 3]);
    /// assert!(bump.allocated_bytes() > 0);
    /// # Ok::<(), marshal::DecodeError>(())
    /// ```
    #[cfg(feature = "bumpalo")]
    #[must_use]
    #[inline]
    pub fn with_arena(mut self, arena: &'de bumpalo::Bump) -> Self {
        self.arena = Some(arena);
        self
    }

    /// The arena set by [`with_arena`](Reader::with_arena), if any, for
    /// manual [`Unmarshal`](crate::Unmarshal) implementations of arena
    /// types.
    ///
    /// ```
    /// use marshal::Reader;
    ///
    /// let bump = bumpalo::Bump::new();
    /// assert!(Reader::new(b"").arena().is_none());
    /// assert!(Reader::new(b"").with_arena(&bump).arena().is_some());
    /// ```
    #[cfg(feature = "bumpalo")]
    #[must_use]
    #[inline]
    pub fn arena(&self) -> Option<&'de bumpalo::Bump> {
        self.arena
    }

    /// How many of `len` items of `T` a collection should allocate room for
    /// before decoding them, for manual [`Unmarshal`](crate::Unmarshal)
    /// implementations of containers. Without an allocation budget it is
    /// [`capacity_for`](Reader::capacity_for), and the collection may grow
    /// as its items decode. With one it is all of `len`, charged up front
    /// as `len * size_of::<T>()` bytes, or an
    /// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit) error at the
    /// current position when they do not fit: the collection then has room
    /// for every item and must not grow (charge anything more with
    /// [`charge_alloc`](Reader::charge_alloc)).
    ///
    /// ```
    /// use marshal::{DecodeError, DecodeErrorKind, Reader, Unmarshal};
    ///
    /// /// A stack of values, kept in a `Vec`.
    /// #[derive(Debug)]
    /// struct Stack<T>(Vec<T>);
    ///
    /// impl<'de, T: Unmarshal<'de>> Unmarshal<'de> for Stack<T> {
    ///     const MIN_LEN: usize = 8;
    ///
    ///     fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
    ///         r.nest(|r| {
    ///             let len = r.take_len(T::MIN_LEN)?;
    ///             let mut items = Vec::with_capacity(r.try_capacity_for::<T>(len)?);
    ///             for _ in 0..len {
    ///                 items.push(T::decode(r)?);
    ///             }
    ///             Ok(Stack(items))
    ///         })
    ///     }
    /// }
    ///
    /// let bytes = marshal::to_vec(&[1u32, 2, 3][..]);
    /// let stack: Stack<u32> = marshal::from_bytes_limited(&bytes, 12)?;
    /// assert_eq!(stack.0, [1, 2, 3]);
    ///
    /// let err = marshal::from_bytes_limited::<Stack<u32>>(&bytes, 11).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::AllocLimit { limit: 11 }, 8));
    /// # Ok::<(), DecodeError>(())
    /// ```
    #[inline]
    pub fn try_capacity_for<T>(&mut self, len: usize) -> Result<usize, DecodeError> {
        if !self.has_budget() {
            return Ok(self.capacity_for::<T>(len));
        }
        self.charge_alloc(len.saturating_mul(core::mem::size_of::<T>()))?;
        Ok(len)
    }

    /// Charges `bytes` that a manual [`Unmarshal`](crate::Unmarshal)
    /// implementation is about to ask the allocator for against the
    /// allocation budget, or fails with
    /// [`AllocLimit`](crate::DecodeErrorKind::AllocLimit) at the current
    /// position when they do not fit (the budget is then left as it was).
    /// Without a budget it does nothing and never fails. Charge before
    /// allocating, and at least what will be requested: a reallocation
    /// counts at its new size.
    ///
    /// ```
    /// use marshal::{DecodeErrorKind, Reader};
    ///
    /// let mut r = Reader::new(&[]).with_max_alloc(100);
    /// assert!(r.charge_alloc(60).is_ok());
    /// let err = r.charge_alloc(60).unwrap_err();
    /// assert_eq!((err.kind(), err.offset()), (DecodeErrorKind::AllocLimit { limit: 100 }, 0));
    /// assert!(r.charge_alloc(40).is_ok());
    ///
    /// // No budget, no limit.
    /// assert!(Reader::new(&[]).charge_alloc(usize::MAX).is_ok());
    /// ```
    #[inline]
    pub fn charge_alloc(&mut self, bytes: usize) -> Result<(), DecodeError> {
        self.charge_at(bytes, self.position())
    }

    /// [`charge_alloc`](Reader::charge_alloc), reporting an error at `at`.
    #[inline]
    pub(crate) fn charge_at(&mut self, bytes: usize, at: usize) -> Result<(), DecodeError> {
        if !self.has_budget() {
            return Ok(());
        }
        match self.prealloc.checked_sub(bytes) {
            Some(left) => {
                self.prealloc = left;
                Ok(())
            }
            None => Err(DecodeError::alloc_limit(self.max_alloc, at)),
        }
    }

    /// What is left of the budget (or, without one, of what collections
    /// may allocate ahead of their items), for [`Reader::within`].
    #[must_use]
    pub(crate) fn left(&self) -> usize {
        self.prealloc
    }

    /// This reader, with no more of its budget (or, without one, of what
    /// collections may allocate ahead of their items) than `left`, what
    /// another reader had [`left`](Reader::left): a second reading of the
    /// same input that asks, with the first, for no more than one reading
    /// may (see `trace::locate`).
    #[must_use]
    pub(crate) fn within(mut self, left: usize) -> Self {
        self.prealloc = self.prealloc.min(left);
        self
    }

    /// Whether the reader has an allocation budget.
    #[inline]
    pub(crate) fn has_budget(&self) -> bool {
        self.max_alloc != NO_BUDGET
    }

    /// Fails with [`TrailingBytes`](crate::DecodeErrorKind::TrailingBytes)
    /// unless all input has been consumed.
    ///
    /// ```
    /// let mut r = marshal::Reader::new(b"ab");
    /// r.take(1).unwrap();
    /// assert!(r.finish().is_err());
    /// r.take(1).unwrap();
    /// assert!(r.finish().is_ok());
    /// ```
    #[inline]
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::trailing_bytes(
                self.rest.len(),
                self.position(),
            ))
        }
    }
}
