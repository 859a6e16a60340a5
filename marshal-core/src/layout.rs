//! Compile-time layout facts: whether a type's wire bytes are exactly its
//! bytes in memory, and the size assertions the derive emits.

/// Whether a type's wire encoding is exactly its in-memory representation
/// on this target, so a run of values can be copied in one piece.
///
/// Only this crate and the derive construct one that says yes: primitives
/// on little-endian targets, arrays of such types, and derived structs
/// whose fields all qualify and sit back to back in wire order with no
/// padding, as `size_of` and `offset_of!` prove at compile time.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    memcpy: bool,
}

impl Layout {
    /// Not known to match memory.
    pub const OPAQUE: Layout = Layout { memcpy: false };

    /// A primitive whose little-endian wire bytes are its memory on a
    /// little-endian target, and every bit pattern of which is valid.
    pub(crate) const fn primitive() -> Layout {
        Layout {
            memcpy: cfg!(target_endian = "little"),
        }
    }

    /// `[T; N]`: elements are laid out back to back with no padding.
    pub(crate) const fn array(element: Layout) -> Layout {
        element
    }

    /// A zero-sized type that writes nothing.
    pub(crate) const fn empty() -> Layout {
        Layout { memcpy: true }
    }

    /// A derived struct of `size` bytes whose encoded fields, in wire order,
    /// sit at `fields[i].0` with `fields[i].1` bytes and layout `fields[i].2`.
    /// It matches memory when every field does and they tile `0..size`
    /// exactly in wire order.
    #[must_use]
    pub const fn structure(size: usize, fields: &[(usize, usize, Layout)]) -> Layout {
        let mut next = 0;
        let mut i = 0;
        while i < fields.len() {
            let (offset, len, layout) = fields[i];
            if !layout.memcpy || offset != next {
                return Layout::OPAQUE;
            }
            next += len;
            i += 1;
        }
        Layout {
            memcpy: next == size,
        }
    }

    /// Whether the wire bytes are the memory bytes.
    #[must_use]
    pub const fn is_memcpy(self) -> bool {
        self.memcpy
    }
}
