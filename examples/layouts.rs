//! Compile-time checked layouts: a protocol header with a size contract, a
//! point cloud whose wire bytes are its memory, and a pinned fingerprint.

use marshal::{Marshal, Unmarshal};

/// A fixed-size protocol header. The contract fails the build if a field
/// change makes it anything but 16 bytes.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(size = 16)]
struct Header {
    magic: [u8; 4],
    version: u16,
    kind: u16,
    body_len: u64,
}

/// A point as users write it: no `repr`, no annotations.
#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Point {
    x: f32,
    y: f32,
    z: f32,
}

/// A message whose wire format is pinned below.
#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Cloud {
    header: Header,
    points: Vec<Point>,
}

// The pinned fingerprint: this line stops compiling when the wire format of
// Cloud changes, so the change is deliberate or caught.
const _: () = assert!(<Cloud as Marshal>::FINGERPRINT == 0x4bcb_6355_a983_f49e);

fn main() {
    // A stack buffer sized at compile time.
    const HEADER_LEN: usize = marshal::fixed_len::<Header>();
    let header = Header {
        magic: *b"PCLD",
        version: 1,
        kind: 7,
        body_len: 3 * 12 + 8,
    };
    let mut buf = [0u8; HEADER_LEN];
    header.write_to(&mut buf);
    println!("header: {HEADER_LEN} bytes {buf:02x?}");

    // The point cloud: its wire bytes are its memory on this target.
    println!(
        "Point is memcpy-equivalent: {}",
        marshal::is_memcpy_equivalent::<Point>()
    );
    let points: Vec<Point> = (0..3)
        .map(|i| Point {
            x: i as f32,
            y: 0.5,
            z: -1.0,
        })
        .collect();
    let cloud = Cloud { header, points };
    let bytes = marshal::fingerprint::to_vec(&cloud);
    println!(
        "cloud: {} bytes with its fingerprint {:#018x}",
        bytes.len(),
        <Cloud as Marshal>::FINGERPRINT
    );
    let back: Cloud = marshal::fingerprint::from_bytes(&bytes).expect("same wire shape");
    assert_eq!(back, cloud);

    // Data written under another type's wire shape is refused.
    match marshal::fingerprint::from_bytes::<Header>(&bytes) {
        Ok(_) => unreachable!("different fingerprints"),
        Err(e) => println!("read as Header: {e}"),
    }
}
