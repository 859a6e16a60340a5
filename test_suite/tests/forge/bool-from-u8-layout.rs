// A manual `Unmarshal` for a `bool` wrapper cannot borrow `u8`'s memcpy
// layout: bulk decoding would make a `bool` of 2.
use marshal::{DecodeError, Reader, Unmarshal};

pub struct NotABool(pub bool);

impl<'de> Unmarshal<'de> for NotABool {
    const MIN_LEN: usize = 1;
    const __LAYOUT: marshal::__private::Layout<Self> = <u8 as Unmarshal<'de>>::__LAYOUT;

    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        bool::decode(r).map(NotABool)
    }
}

fn main() {}
