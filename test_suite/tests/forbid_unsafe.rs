//! A crate that forbids unsafe code can derive marshal's traits: the
//! generated code's calls into marshal's boundary (the memcpy layouts,
//! values built in place) do not trip the crate's `unsafe_code` lint.
#![forbid(unsafe_code)]

use marshal::{Marshal, Unmarshal};

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone, Copy)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Record<'a> {
    id: u64,
    name: String,
    tag: &'a str,
    at: Point,
    next: Option<Box<Record<'a>>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
enum Shape {
    Dot(Point),
    Line { from: Point, to: Point },
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Evolving<T> {
    value: T,
    shapes: Vec<Shape>,
}

#[test]
fn derived_types_round_trip_in_a_crate_that_forbids_unsafe_code() {
    let record = Record {
        id: 7,
        name: "seven".into(),
        tag: "t",
        at: Point { x: 1.0, y: 2.0 },
        next: Some(Box::new(Record {
            id: 8,
            name: String::new(),
            tag: "",
            at: Point { x: 0.0, y: -1.0 },
            next: None,
        })),
    };
    let bytes = marshal::to_vec(&record);
    assert_eq!(marshal::from_bytes::<Record<'_>>(&bytes).unwrap(), record);

    let evolving = Evolving {
        value: 3u16,
        shapes: vec![
            Shape::Dot(Point { x: 1.0, y: 1.0 }),
            Shape::Line {
                from: Point { x: 0.0, y: 0.0 },
                to: Point { x: 2.0, y: 2.0 },
            },
        ],
    };
    let bytes = marshal::to_vec(&evolving);
    assert_eq!(
        marshal::from_bytes::<Evolving<u16>>(&bytes).unwrap(),
        evolving
    );
}
