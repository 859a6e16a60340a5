// A manual `Unmarshal` for a reference cannot borrow `u64`'s memcpy layout:
// bulk decoding would turn eight input bytes into a pointer.
use marshal::{DecodeError, Reader, Unmarshal};

static ZERO: u64 = 0;

pub struct R(pub &'static u64);

impl<'de> Unmarshal<'de> for R {
    const MIN_LEN: usize = 8;
    const __LAYOUT: marshal::__private::Layout<Self> = <u64 as Unmarshal<'de>>::__LAYOUT;

    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        r.take_array::<8>()?;
        Ok(R(&ZERO))
    }
}

fn main() {}
