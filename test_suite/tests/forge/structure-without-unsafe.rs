// The one constructor of a struct's memcpy layout is an `unsafe fn`: safe
// code cannot vouch for fields it does not have.
use marshal::{DecodeError, Reader, Unmarshal};

pub struct NotABool(pub bool);

impl<'de> Unmarshal<'de> for NotABool {
    const MIN_LEN: usize = 1;
    const __LAYOUT: marshal::__private::Layout<Self> =
        marshal::__private::Layout::<Self>::structure(&[(0, 1, true)]);

    fn decode(r: &mut Reader<'de>) -> Result<Self, DecodeError> {
        bool::decode(r).map(NotABool)
    }
}

fn main() {}
