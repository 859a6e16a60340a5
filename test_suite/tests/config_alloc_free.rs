//! Encoding in every configuration (`marshal::config`) never allocates: a
//! counting global allocator watches `encoded_len_with` and
//! `encode_into_slice` on a large nested value, and `encode_to_vec` is
//! allowed exactly one allocation of exactly `encoded_len_with` bytes.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use marshal::Marshal;
use marshal::config::{self, Config, MarshalIn};
use marshal_test_suite::counting::{lock, measure};

marshal_test_suite::counting_allocator!();

#[derive(Marshal)]
struct Catalog {
    name: String,
    version: (u16, i32, u128),
    products: Vec<Product>,
    index: BTreeMap<String, u64>,
    lookup: HashMap<u32, Vec<String>>,
    events: VecDeque<Event>,
    shared: Rc<String>,
    blob: Arc<Vec<u8>>,
    note: Cow<'static, str>,
    grid: [i64; 4],
    next: Option<Box<Catalog>>,
}

#[derive(Marshal)]
struct Product {
    id: u64,
    price: f64,
    label: Option<String>,
    age: Duration,
}

#[derive(Marshal)]
enum Event {
    Empty,
    Tick(u32, i16),
    Moved { x: f32, y: f32, by: String },
}

fn catalog(depth: usize) -> Catalog {
    Catalog {
        name: "catalog".into(),
        version: (300, -70_000, u128::MAX),
        products: (0..50)
            .map(|i| Product {
                id: i * 1_000_003,
                price: i as f64 / 3.0,
                label: (i % 3 == 0).then(|| format!("p{i}")),
                age: Duration::new(i, 7),
            })
            .collect(),
        index: (0..20).map(|i| (format!("k{i}"), i << 40)).collect(),
        lookup: (0..10u32)
            .map(|i| (i * 300, vec![format!("{i}"); 3]))
            .collect(),
        events: [
            Event::Empty,
            Event::Tick(70_000, -2),
            Event::Moved {
                x: 1.0,
                y: -1.0,
                by: "me".into(),
            },
        ]
        .into_iter()
        .collect(),
        shared: Rc::new("shared".into()),
        blob: Arc::new(vec![7; 600]),
        note: Cow::Borrowed("note"),
        grid: [i64::MIN, -1, 0, i64::MAX],
        next: (depth > 0).then(|| Box::new(catalog(depth - 1))),
    }
}

fn no_allocations<C: Config>(value: &Catalog, c: C)
where
    Catalog: MarshalIn<C::Dialect>,
{
    let guard = lock();
    let (len, allocations) = measure(&guard, || marshal::encoded_len_with(value, c));
    assert_eq!(allocations.count, 0, "encoded_len_with");
    let mut buf = vec![0u8; len];
    let (written, allocations) = measure(&guard, || marshal::encode_into_slice(value, &mut buf, c));
    assert_eq!(allocations.count, 0, "encode_into_slice");
    assert_eq!(written, Ok(len));
    let (bytes, allocations) = measure(&guard, || marshal::encode_to_vec(value, c));
    assert_eq!(
        (allocations.count, allocations.total),
        (1, len),
        "encode_to_vec"
    );
    assert_eq!(bytes, buf);
}

#[test]
fn encoding_in_every_configuration_allocates_nothing() {
    let value = catalog(3);
    no_allocations(&value, config::standard());
    no_allocations(&value, config::standard().with_big_endian());
    no_allocations(&value, config::legacy().with_big_endian());
    no_allocations(&value, config::legacy());
}
