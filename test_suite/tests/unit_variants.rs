//! A variant that writes nothing but its tag (a unit variant, or one whose
//! fields are all skipped) is one write of the tag's bytes: the same bytes,
//! lengths and overflow errors as any other variant.

use marshal::{Marshal, Unmarshal, Writer};

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(tag_type = u16)]
enum Mixed {
    Empty,
    #[marshal(tag = 0x0102)]
    Retagged,
    Skipped(#[marshal(skip)] u64),
    Named {
        #[marshal(skip)]
        cache: u32,
    },
    Data(u8),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Plain {
    A,
    B,
}

#[test]
fn a_tag_only_variant_writes_its_tag() {
    assert_eq!(marshal::to_vec(&Mixed::Empty), [0, 0]);
    assert_eq!(marshal::to_vec(&Mixed::Retagged), [2, 1]);
    assert_eq!(marshal::to_vec(&Mixed::Skipped(9)), [2, 0]);
    assert_eq!(marshal::to_vec(&Mixed::Named { cache: 9 }), [3, 0]);
    assert_eq!(marshal::to_vec(&Mixed::Data(7)), [4, 0, 7]);
    assert_eq!(marshal::to_vec(&Plain::B), [1, 0, 0, 0]);
    assert_eq!(Plain::FIXED_LEN, Some(4));
    assert_eq!(Mixed::FIXED_LEN, None);
    assert_eq!(Mixed::MAX_LEN, Some(3));
    assert_eq!(Mixed::Empty.encoded_len(), 2);

    let back: Mixed = marshal::from_bytes(&[3, 0]).unwrap();
    assert_eq!(back, Mixed::Named { cache: 0 });
    let back: Vec<Plain> =
        marshal::from_bytes(&marshal::to_vec(&vec![Plain::B, Plain::A])).unwrap();
    assert_eq!(back, [Plain::B, Plain::A]);
}

#[test]
fn a_tag_that_does_not_fit_is_an_overflow() {
    let mut buf = [0u8; 1];
    let mut w = Writer::new(&mut buf);
    assert!(Mixed::Retagged.encode(&mut w).is_err());
    let mut buf = [0u8; 3];
    let mut w = Writer::new(&mut buf);
    assert!(Plain::A.encode(&mut w).is_err());
    let mut buf = [0u8; 2];
    let mut w = Writer::new(&mut buf);
    Mixed::Retagged.encode(&mut w).unwrap();
    assert_eq!(w.written(), 2);
    assert_eq!(buf, [2, 1]);
}
