//! Encoding never allocates: a counting global allocator watches
//! `encoded_len`, `write_to`, `try_write_to` and `encode` on a large nested
//! value, and `to_vec` is allowed exactly one allocation of exactly
//! `encoded_len` bytes.
//!
//! The counting allocator is `src/counting.rs`.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV6};
use std::num::{NonZeroU64, Wrapping};
use std::rc::Rc;
use std::sync::{Arc, MutexGuard};
use std::time::Duration;

use marshal::{BufferTooSmall, Marshal, Writer};
use marshal_test_suite::counting::{Allocations, lock, measure};

marshal_test_suite::counting_allocator!();

// ---------------------------------------------------------------------------
// A large nested value.

#[derive(Marshal)]
struct Catalog {
    name: String,
    version: (u16, u16, u16),
    products: Vec<Product>,
    index: BTreeMap<String, u64>,
    lookup: HashMap<u32, Vec<String>>,
    tags: BTreeSet<String>,
    seen: HashSet<u64>,
    matrix: Vec<Vec<Vec<i32>>>,
    tree: Tree,
    events: VecDeque<Event>,
    shared: Rc<String>,
    blob: Arc<[u8]>,
    note: Cow<'static, str>,
    addrs: Vec<SocketAddr>,
    ips: [IpAddr; 2],
    ttl: Duration,
    boxed: (Box<str>, Box<[u32]>, Box<Kind>),
    featured: Option<Option<Box<Product>>>,
    chars: Vec<char>,
    slots: [Option<String>; 4],
    counter: Wrapping<u64>,
    id: NonZeroU64,
    #[marshal(skip)]
    _cache: Vec<u8>,
    #[marshal(with = rle)]
    runs: Vec<u8>,
}

#[derive(Marshal)]
struct Product {
    sku: u64,
    title: String,
    price: f64,
    variants: Vec<(String, u32)>,
    kind: Kind,
    attributes: BTreeMap<String, Attribute>,
}

#[derive(Marshal)]
enum Kind {
    Physical { weight_g: u32, dims: [f32; 3] },
    Digital(String),
    Service,
}

#[derive(Marshal)]
#[marshal(tag_type = u8)]
enum Attribute {
    Flag,
    Number(i64),
    Text(String),
    #[marshal(tag = 9)]
    List {
        items: Vec<Attribute>,
    },
}

/// Recursive through `Vec`, `Box` and `Option<Box<_>>`.
#[derive(Marshal)]
enum Tree {
    Leaf(u32),
    Branch(Vec<Tree>),
    Named {
        label: String,
        child: Box<Tree>,
        sibling: Option<Box<Tree>>,
    },
}

#[derive(Marshal)]
enum Event {
    Started,
    Progress(u8, f32),
    Failed { code: i32, reason: String },
    Batch(Vec<Event>),
}

/// A run-length encoding written straight into its share of the buffer.
mod rle {
    fn runs(v: &[u8]) -> impl Iterator<Item = (u8, u8)> + '_ {
        v.chunk_by(|a, b| a == b)
            .flat_map(|run| run.chunks(255).map(|c| (c[0], c.len() as u8)))
    }

    pub(crate) fn encoded_len(v: &[u8]) -> usize {
        8 + 2 * runs(v).count()
    }

    pub(crate) fn encode(v: &[u8], w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
        w.put_array((runs(v).count() as u64).to_le_bytes())?;
        runs(v).try_for_each(|(byte, len)| w.put_array([byte, len]))
    }
}

fn product(i: u64) -> Product {
    let kind = match i % 3 {
        0 => Kind::Physical {
            weight_g: i as u32 * 10,
            dims: [1.0, 2.5, i as f32],
        },
        1 => Kind::Digital(format!("https://example.invalid/dl/{i}/ünïcødé")),
        _ => Kind::Service,
    };
    let mut attributes = BTreeMap::new();
    attributes.insert("flag".to_string(), Attribute::Flag);
    attributes.insert("n".to_string(), Attribute::Number(-(i as i64)));
    attributes.insert("t".to_string(), Attribute::Text("x".repeat(i as usize % 7)));
    attributes.insert(
        "list".to_string(),
        Attribute::List {
            items: vec![
                Attribute::Number(1),
                Attribute::List {
                    items: vec![Attribute::Text("deep €".into()), Attribute::Flag],
                },
            ],
        },
    );
    Product {
        sku: 1_000 + i,
        title: format!("Product #{i} — «special»"),
        price: i as f64 * 1.25,
        variants: (0..i % 4).map(|v| (format!("v{v}"), v as u32)).collect(),
        kind,
        attributes,
    }
}

fn tree(depth: u32) -> Tree {
    match depth {
        0 => Tree::Leaf(7),
        d if d % 2 == 0 => Tree::Branch((0..3).map(|_| tree(d - 1)).collect()),
        d => Tree::Named {
            label: format!("level {d}"),
            child: Box::new(tree(d - 1)),
            sibling: (d > 3).then(|| Box::new(Tree::Leaf(d))),
        },
    }
}

fn catalog() -> Catalog {
    let products: Vec<Product> = (0..60).map(product).collect();
    let index = products.iter().map(|p| (p.title.clone(), p.sku)).collect();
    let lookup = (0..40u32)
        .map(|k| (k, (0..k % 5).map(|j| format!("{k}/{j} 😀")).collect()))
        .collect();
    let mut events: VecDeque<Event> = VecDeque::with_capacity(8);
    events.push_back(Event::Started);
    events.push_back(Event::Progress(50, 0.5));
    events.push_front(Event::Failed {
        code: -2,
        reason: "timed out".into(),
    });
    events.push_front(Event::Batch(vec![
        Event::Progress(1, 0.01),
        Event::Batch(vec![Event::Started]),
    ]));
    Catalog {
        name: "Großer Katalog 中文".to_string(),
        version: (1, 2, 3),
        products,
        index,
        lookup,
        tags: ["a", "b", "ßeta", "γ"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        seen: (0..100u64).map(|x| x * x).collect(),
        matrix: (0..6)
            .map(|i| {
                (0..i)
                    .map(|j| (0..j).map(|k| i * j - k).collect())
                    .collect()
            })
            .collect(),
        tree: tree(6),
        events,
        shared: Rc::new("shared".to_string()),
        blob: (0..=255u8).collect::<Vec<u8>>().into(),
        note: Cow::Borrowed("borrowed note"),
        addrs: vec![
            SocketAddr::from(([127, 0, 0, 1], 8080)),
            SocketAddr::V6(SocketAddrV6::new(Ipv6Addr::LOCALHOST, 443, 7, 9)),
        ],
        ips: [
            IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)),
            IpAddr::V6(Ipv6Addr::UNSPECIFIED),
        ],
        ttl: Duration::new(3_600, 500),
        boxed: (
            "boxed str".into(),
            vec![1, 2, 3].into_boxed_slice(),
            Box::new(Kind::Digital("boxed".into())),
        ),
        featured: Some(Some(Box::new(product(99)))),
        chars: "aé€😀".chars().collect(),
        slots: [Some("one".into()), None, Some(String::new()), None],
        counter: Wrapping(u64::MAX),
        id: NonZeroU64::new(42).unwrap(),
        _cache: vec![0; 1_000],
        runs: [vec![0u8; 300], vec![1; 3], vec![2; 1]].concat(),
    }
}

// ---------------------------------------------------------------------------
// Tests.

/// The counter counts: allocations inside a region show up with their
/// sizes, and allocations outside one do not.
#[test]
fn counter_counts() {
    let guard = lock();

    let (boxed, allocs) = measure(&guard, || Box::new(5u64));
    assert_eq!(allocs.count, 1, "{allocs:?}");
    assert_eq!(allocs.sizes, [8]);
    drop(boxed);

    let (v, allocs) = measure(&guard, || {
        let mut v = Vec::with_capacity(10);
        v.extend_from_slice(&[1u8; 10]);
        v.reserve_exact(90);
        v
    });
    assert_eq!(allocs.count, 2, "a with_capacity and a realloc: {allocs:?}");
    assert_eq!(allocs.sizes, [10, 100]);
    drop(v);

    let outside = Box::new(1u8);
    let ((), allocs) = measure(&guard, || {});
    assert_eq!(allocs.count, 0);
    drop(outside);
}

/// Sizing and encoding the large value do not allocate, whichever entry
/// point is used.
#[test]
fn encoding_does_not_allocate() {
    let value = catalog();
    let expected_len = value.encoded_len();
    assert!(expected_len > 5_000, "the value is meant to be large");
    let mut buf = vec![0xA5u8; expected_len + 64];
    let mut short = vec![0u8; expected_len / 2];
    let mut scratch = vec![0u8; expected_len];
    let guard = lock();

    let (len, allocs) = measure(&guard, || value.encoded_len());
    assert_eq!(len, expected_len);
    assert_eq!(allocs.count, 0, "encoded_len allocated: {allocs:?}");

    let (written, allocs) = measure(&guard, || value.write_to(&mut buf));
    assert_eq!(written, len);
    assert_eq!(allocs.count, 0, "write_to allocated: {allocs:?}");

    let (result, allocs) = measure(&guard, || value.try_write_to(&mut buf));
    assert_eq!(result, Ok(len));
    assert_eq!(allocs.count, 0, "try_write_to allocated: {allocs:?}");

    let (result, allocs) = measure(&guard, || value.try_write_to(&mut short));
    assert_eq!(
        result,
        Err(BufferTooSmall {
            needed: len,
            available: short.len()
        })
    );
    assert_eq!(
        allocs.count, 0,
        "a failed try_write_to allocated: {allocs:?}"
    );

    let (result, allocs) = measure(&guard, || {
        let mut w = Writer::new(&mut buf);
        value.encode(&mut w).map(|()| w.written())
    });
    assert_eq!(result, Ok(len));
    assert_eq!(allocs.count, 0, "encode allocated: {allocs:?}");

    // Parts of the value on their own, including unsized ones.
    let (lens, allocs) = measure(&guard, || {
        (
            value.products.encoded_len(),
            value.products[..10].encoded_len(),
            value.lookup.encoded_len(),
            value.name.as_str().encoded_len(),
            value.tree.write_to(&mut scratch),
            value.events.write_to(&mut scratch),
            value.seen.write_to(&mut scratch),
        )
    });
    assert!(lens.0 > 0 && lens.1 > 0 && lens.2 > 0 && lens.3 > 0);
    assert_eq!(allocs.count, 0, "encoding parts allocated: {allocs:?}");
    drop(guard);

    assert!(
        buf[..len] == marshal::to_vec(&value)[..],
        "write_to and to_vec disagree"
    );
    assert!(
        buf[len..].iter().all(|&b| b == 0xA5),
        "wrote past encoded_len"
    );
}

/// `to_vec(value)` allocates once, exactly `encoded_len` bytes, and
/// returns a `Vec` of that length and capacity.
#[track_caller]
fn to_vec_allocates_once<T: Marshal + ?Sized>(guard: &MutexGuard<'_, ()>, value: &T) {
    let len = value.encoded_len();
    let (bytes, allocs) = measure(guard, || marshal::to_vec(value));
    assert_eq!(
        allocs,
        Allocations {
            count: 1,
            sizes: vec![len],
            largest: len,
            total: len,
        }
    );
    assert_eq!(bytes.len(), len);
    assert_eq!(bytes.capacity(), len);
}

/// `to_vec` allocates once, exactly `encoded_len` bytes.
#[test]
fn to_vec_allocates_once_exactly() {
    let value = catalog();
    let guard = lock();
    to_vec_allocates_once(&guard, &value);
    to_vec_allocates_once(&guard, &(1u8, "hé", Some(3u16)));

    // Nothing to encode, nothing to allocate.
    let (bytes, allocs) = measure(&guard, || marshal::to_vec(&()));
    assert_eq!(allocs.count, 0, "{allocs:?}");
    assert!(bytes.is_empty());
}
