//! Decodes arbitrary bytes as a type that borrows from its input. On success
//! the value must re-encode to the bytes that were read.
#![no_main]

use std::borrow::Cow;

use libfuzzer_sys::fuzz_target;
use marshal::{Marshal, Unmarshal};

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Message<'a> {
    topic: &'a str,
    payload: &'a [u8],
    key: Cow<'a, str>,
    raw: Cow<'a, [u8]>,
    headers: Vec<(&'a str, &'a [u8])>,
    digest: &'a [u8; 8],
    route: Option<Route<'a>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Route<'a> {
    Direct(&'a str),
    Fanout { targets: Vec<&'a str> },
}

fuzz_target!(|data: &[u8]| {
    let Ok((value, used)) = Message::read_from(data) else {
        return;
    };
    let bytes = marshal::to_vec(&value);
    assert_eq!(bytes.len(), value.encoded_len());
    assert_eq!(bytes, data[..used]);
    let again: Message = marshal::from_bytes(&bytes).expect("re-encoded value decodes");
    assert_eq!(again, value);
});
