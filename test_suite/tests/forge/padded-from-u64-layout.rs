// A manual `Marshal` for a struct with padding cannot borrow `u64`'s memcpy
// layout: bulk encoding would copy its padding bytes into the output.
use marshal::{Marshal, Overflow, Writer};

#[repr(C)]
pub struct Padded {
    pub a: u8,
    pub b: u32,
}

impl Marshal for Padded {
    const FIXED_LEN: Option<usize> = Some(8);
    const __LAYOUT: marshal::__private::Layout<Self> = <u64 as Marshal>::__LAYOUT;

    fn encoded_len(&self) -> usize {
        8
    }

    fn encode(&self, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_array([self.a, 0, 0, 0])?;
        w.put_array(self.b.to_le_bytes())
    }
}

fn main() {}
