//! What a level of nesting costs against the reader's depth limit: the stack
//! it may take.
//!
//! A recursive type decodes by recursion, and the stack one level takes
//! grows with the values it holds, whichever of them the input picks: a
//! `Box<T>` keeps a `T` or two on the stack while the next level decodes, a
//! `Vec<T>` a few more, and a derived type's frame holds every field it
//! decodes, the fixed-size ones included. So a level is not one unit of the
//! depth limit: [`Reader::nest`](crate::Reader::nest) charges the stack the
//! level may take in an unoptimized build, [`LEVEL`] bytes to a unit,
//! rounded up. A level of a small value is one unit, as before; a level of
//! `enum E { Leaf, Big([u64; 2048]), Next(Box<E>) }` is 13.
//!
//! The estimate is an upper bound built from the types, at compile time:
//!
//! - a container around each nested `T` (`Box`, `Vec`, a map, ...) keeps a
//!   fixed frame and a few copies of a `T` ([`Container`]);
//! - `T`'s own decode adds its `Unmarshal::__DECODE_STACK`: a derived
//!   struct's frame has [`FRAME`] bytes, [`FIELD`] bytes of bookkeeping and
//!   [`TEMPS`] copies for each field, and the frames of the fields that can
//!   nest ([`fields`]); a derived enum, its own frame and the largest of
//!   those of its variants through which a deeper level can be reached
//!   ([`variants`]: each variant decodes in a closure of its own, so only
//!   one variant's frame is on the stack at a time, and one whose fields are
//!   all fixed-size returns before a deeper level could start); an
//!   extensible one, besides, the two frames its body is read through
//!   ([`body`]); `Option`,
//!   tuples, arrays, `Cow` and the other wrappers add their contents'.
//!
//! The unoptimized build is the larger: an optimized one inlines the frames
//! into one and reuses its slots. The constants come from measuring the
//! shapes of `test_suite/tests/stack_depth.rs` in both, with a margin: the units
//! charged stand for 1.18 to 2.1 times the stack a level was measured to
//! take in an unoptimized build, and more for small values, whose level is
//! a whole unit, and for structs built in place (`Unmarshal::__decode_in`:
//! a field is decoded into the struct's own memory, not into a copy on the
//! stack, so a struct's frame holds no copies of its large fields: 7 times
//! for `[u64; 512]` beside `Option<Box<Self>>`). At the limit, in bytes of
//! stack per level (`cargo test [--release] -p marshal-test-suite --test
//! stack_depth -- --nocapture`, x86-64):
//!
//! | shape                                   | levels | unoptimized | optimized |
//! | --------------------------------------- | -----: | ----------: | --------: |
//! | `Leaf`, `Big([u64; 2048])`, `Box<Self>` |     19 |      35 669 |    18 230 |
//! | `Leaf`, `Big([u64; 512])`, `Box<Self>`  |     64 |       9 468 |     4 339 |
//! | `Leaf`, `Big([u64; 64])`, `Box<Self>`   |    256 |       2 167 |       628 |
//! | the same with `Vec<Self>`               |     36 |      22 537 |     8 846 |
//! | ... with `BTreeMap<u8, Self>`           |     32 |      26 536 |    17 336 |
//! | 16 variants `[u64; 512]`, `Box<Self>`   |     64 |       9 598 |     4 339 |
//! | `[u64; 512]`, `Option<Box<Self>>`       |     32 |       4 569 |     4 599 |
//! | a tuple of two `[u64; 256]` around it   |     21 |      41 034 |     6 786 |
//! | 256 `u8` fields, `Option<Box<Self>>`    |     28 |      31 148 |       188 |
//! | 256 `()` fields, `Option<Box<Self>>`    |     28 |      31 047 |       169 |
//! | `Leaf`, `Box<Self>`                     |    256 |       1 123 |       128 |
//! | extensible `Leaf`, `Big([u64; 512])`, `Box<Self>` | 42 |  14 308 |     4 456 |
//! | extensible `[u64; 512]`, `Option<Box<Self>>` |  23 |       5 717 |     4 897 |
//!
//! So at [`DEFAULT_MAX_DEPTH`](crate::Reader::DEFAULT_MAX_DEPTH) units,
//! nesting takes at most 1 MiB of stack (the most measured is 842 KiB),
//! half of a spawned thread's 2 MiB; the other half is for the caller and
//! for the frames of the value decoding at the bottom, which a decode takes
//! at any depth.

// Nothing here names the traits, so `Reader` can use it: the estimates that
// read an `Unmarshal` type's constants are `nesting.rs`'s.

/// Stack bytes, in an unoptimized build, that one unit of the depth limit
/// stands for.
pub(crate) const LEVEL: usize = 4096;

/// Bytes of a derived decoder's frame for each field, beside the copies of
/// its value: the `Result`s, the error path and the reader's bookkeeping.
/// Measured: about 100 bytes a field, zero-sized fields included (the
/// 256-field shapes above).
pub(crate) const FIELD: usize = 128;

/// Copies of each field's value that a derived decoder's frame may hold:
/// the `Result` the field's decode returns, the value `?` takes out of it,
/// the value moved into the result. Measured: about three (a `[u64; 512]`
/// field beside `Option<Box<Self>>`: 22 KiB a level, 2 of them the box's).
pub(crate) const TEMPS: usize = 4;

/// A derived decoder's own frame, beside its fields: the tag, the sub-reader,
/// the call to the variant's closure.
pub(crate) const FRAME: usize = 256;

/// Copies of an array that its decode keeps while an element decodes
/// (`core::array::from_fn` builds it through several). Measured: about 15,
/// for an array of two 520-byte structs that recurse.
const ARRAY_COPIES: usize = 24;

/// How many units of the depth limit `bytes` of stack are charged: at least
/// one.
#[must_use]
pub(crate) const fn levels(bytes: usize) -> u32 {
    let units = bytes.div_ceil(LEVEL);
    if units == 0 {
        1
    } else if units > u32::MAX as usize {
        u32::MAX
    } else {
        units as u32
    }
}

/// The frames a container keeps on the stack around each nested value: a
/// fixed part, and copies of the value. (Its methods for `Unmarshal` types,
/// `levels` and `levels_of_entry`, are in `nesting.rs`.)
#[derive(Clone, Copy)]
pub(crate) struct Container {
    base: usize,
    copies: usize,
}

impl Container {
    /// `Box`, `Rc`, `Arc`, and [`Reader::nest`](crate::Reader::nest): the
    /// value returned, and its copy moved into the pointer.
    pub(crate) const POINTER: Container = Container {
        base: 1024,
        copies: 3,
    };
    /// `Vec`, `VecDeque`, sets and `Cow<[T]>`: each item's `Result`, the
    /// item, its copy pushed.
    // Used by the containers of the `alloc` and `bumpalo` features.
    #[cfg(any(feature = "alloc", feature = "bumpalo"))]
    pub(crate) const SEQUENCE: Container = Container {
        base: 1536,
        copies: 6,
    };
    /// Maps, for each entry: the key and the value as for a sequence, and
    /// the entry as the map inserts it.
    // Used by the containers of the `alloc` feature.
    #[cfg(feature = "alloc")]
    pub(crate) const MAP: Container = Container {
        base: 1536,
        copies: 7,
    };

    /// Units charged for a level of this container around values of `T`,
    /// whose decode takes `decode` bytes more.
    #[must_use]
    pub(crate) const fn charge<T>(self, decode: usize) -> u32 {
        levels(
            self.base
                .saturating_add(self.copies.saturating_mul(size_of::<T>()))
                .saturating_add(decode),
        )
    }

    /// Units charged for a level of this container around a value of `T`
    /// whose decode is not known.
    #[must_use]
    pub(crate) const fn levels_of_value<T>(self) -> u32 {
        self.charge::<T>(value::<T>())
    }
}

/// The default `Unmarshal::__DECODE_STACK`: a few copies of the value.
#[must_use]
pub(crate) const fn value<T>() -> usize {
    TEMPS.saturating_mul(size_of::<T>())
}

/// A decode that takes `inner` and then builds a `T` of what it read (an
/// adapter's: `FromInto`, a `remote` mirror's foreign value).
#[must_use]
pub const fn then_value<T>(inner: usize) -> usize {
    inner.saturating_add(value::<T>())
}

/// One field of a derived decoder, or one element of a tuple, as its frame
/// holds it.
#[derive(Clone, Copy)]
pub struct Field {
    /// Stack on a path to a deeper level: the field's part of the frame,
    /// and its own decode's frames when it can nest.
    bytes: usize,
    /// Whether a deeper level can be decoded inside the field: it is not
    /// fixed-size.
    nests: bool,
}

/// A field of `size` bytes decoded by an `Unmarshal` whose
/// `MIN_LEN_IS_EXACT` is `exact` and whose `__DECODE_STACK` is `stack`.
#[must_use]
pub(crate) const fn field(size: usize, exact: bool, stack: usize) -> Field {
    Field {
        bytes: FIELD
            .saturating_add(TEMPS.saturating_mul(size))
            .saturating_add(if exact { 0 } else { stack }),
        nests: !exact,
    }
}

/// A field not decoded by an `Unmarshal`: skipped, or read by a `with`
/// module, whose frames are its own (the levels it nests are charged by
/// the containers it decodes through the caller's reader).
#[must_use]
pub const fn opaque_field<T>() -> Field {
    Field {
        bytes: FIELD.saturating_add(TEMPS.saturating_mul(size_of::<T>())),
        nests: false,
    }
}

/// A frame decoding `fields` in turn: a derived struct, one variant's
/// closure, a tuple.
#[must_use]
pub const fn fields(fields: &[Field]) -> usize {
    let mut total = FRAME;
    let mut i = 0;
    while i < fields.len() {
        total = fields[i].add_to(total);
        i += 1;
    }
    total
}

impl Field {
    /// Whether a deeper level can be decoded inside the field.
    pub(crate) const fn nests(self) -> bool {
        self.nests
    }

    /// `total` and this field's part of a frame decoding it.
    #[must_use]
    pub(crate) const fn add_to(self, total: usize) -> usize {
        total.saturating_add(self.bytes)
    }
}

/// A derived enum's decoder: its own frame, then the largest of the frames
/// of the variants through which a deeper level can be reached (the others
/// return before one could be).
#[must_use]
pub const fn variants(variants: &[&[Field]]) -> usize {
    let mut largest = 0;
    let mut v = 0;
    while v < variants.len() {
        let variant = variants[v];
        let mut nests = false;
        let mut i = 0;
        while i < variant.len() {
            nests |= variant[i].nests;
            i += 1;
        }
        let cost = fields(variant);
        if nests && cost > largest {
            largest = cost;
        }
        v += 1;
    }
    FRAME.saturating_add(largest)
}

/// An extensible type's decoder, whose fields decode with `stack` bytes:
/// they are read through [`Reader::take_body`](crate::Reader::take_body)
/// and a closure, two more frames, each holding the `Result` of a value of
/// `size` bytes, and the reader over the body.
#[must_use]
pub const fn body(stack: usize, size: usize) -> usize {
    stack
        .saturating_add(FRAME)
        .saturating_add(2usize.saturating_mul(size))
}

/// An array of `size` bytes of an element that can nest, decoded as
/// `element`: the array as it is built, several times, and one element's
/// decode.
#[must_use]
pub(crate) const fn array(size: usize, element: Field) -> usize {
    ARRAY_COPIES
        .saturating_mul(size)
        .saturating_add(element.bytes)
}
