//! Owned decoding allocates each `String`, `Vec` and `Box` of the value
//! once, at its final size, and nothing else: no growing, no scratch
//! buffer. (A string of 1 to 16 bytes gets a capacity of 16, what glibc
//! gives a smaller request anyway; see `mem/utf8.rs`.)

use std::collections::HashMap;

use marshal::{Marshal, Unmarshal};
use marshal_test_suite::counting::{lock, measure};

marshal_test_suite::counting_allocator!();

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Part {
    label: String,
    n: u64,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Record {
    name: String,
    tags: Vec<u32>,
    note: Option<Box<Part>>,
    parts: Vec<Part>,
}

/// The capacity decoding gives a string of `len` bytes.
fn string_capacity(len: usize) -> usize {
    match len {
        0 => 0,
        1..=16 => 16,
        _ => len,
    }
}

fn text(len: usize) -> String {
    "abcdefghijklmnopqrstuvwxyzé"
        .chars()
        .cycle()
        .take(len)
        .collect()
}

/// What decoding `records` must allocate: (allocations, bytes).
fn expected(records: &[Record]) -> (usize, usize) {
    let mut count = 0;
    let mut bytes = 0;
    let mut add = |size: usize| {
        if size > 0 {
            count += 1;
            bytes += size;
        }
    };
    add(size_of_val(records));
    for r in records {
        add(string_capacity(r.name.len()));
        add(size_of_val(r.tags.as_slice()));
        if let Some(note) = &r.note {
            add(size_of::<Part>());
            add(string_capacity(note.label.len()));
        }
        add(size_of_val(r.parts.as_slice()));
        for p in &r.parts {
            add(string_capacity(p.label.len()));
        }
    }
    (count, bytes)
}

/// Every capacity in the decoded value is the one it was allocated with.
fn assert_exact(records: &[Record]) {
    for r in records {
        assert_eq!(r.name.capacity(), string_capacity(r.name.len()));
        assert_eq!(r.tags.capacity(), r.tags.len());
        if let Some(note) = &r.note {
            assert_eq!(note.label.capacity(), string_capacity(note.label.len()));
        }
        assert_eq!(r.parts.capacity(), r.parts.len());
        for p in &r.parts {
            assert_eq!(p.label.capacity(), string_capacity(p.label.len()));
        }
    }
}

#[test]
fn owned_decoding_allocates_each_part_once_at_its_size() {
    let lens = [0, 1, 7, 16, 17, 40, 300];
    let records: Vec<Record> = (0..40)
        .map(|i| Record {
            name: text(lens[i % lens.len()]),
            tags: (0..(i % 5) as u32).collect(),
            note: (i % 3 == 0).then(|| {
                Box::new(Part {
                    label: text(lens[(i + 3) % lens.len()]),
                    n: 9,
                })
            }),
            parts: (0..i % 4)
                .map(|j| Part {
                    label: text(lens[(i + j) % lens.len()]),
                    n: j as u64,
                })
                .collect(),
        })
        .collect();
    let bytes = marshal::to_vec(&records);
    let guard = lock();
    let (decoded, allocs) = measure(&guard, || marshal::from_bytes::<Vec<Record>>(&bytes));
    let decoded = decoded.unwrap();
    assert_eq!(decoded, records);
    assert_exact(&decoded);
    let (count, total) = expected(&records);
    assert_eq!((allocs.count, allocs.total), (count, total));
    // The largest is the outer `Vec`, allocated first, at its final size.
    assert_eq!(allocs.sizes[0], size_of_val(records.as_slice()));
}

/// A map decoded under a budget makes its table once, for every entry,
/// and never grows it (without a budget, the table made up front is
/// bounded by the input's length, as every preallocation is, and may
/// grow).
#[test]
fn a_map_under_a_budget_allocates_its_table_once() {
    let map: HashMap<u16, String> = (0..100).map(|i| (i, text(20 + usize::from(i)))).collect();
    let bytes = marshal::to_vec(&map);
    let guard = lock();
    let (decoded, allocs) = measure(&guard, || {
        marshal::from_bytes_limited::<HashMap<u16, String>>(&bytes, 1 << 20)
    });
    let decoded = decoded.unwrap();
    assert_eq!(decoded, map);
    // One table and one allocation per string, none grown.
    assert_eq!(allocs.count, 1 + map.len());
    let strings: usize = map.values().map(String::len).sum();
    assert_eq!(allocs.total - strings, allocs.sizes[0]);
}
