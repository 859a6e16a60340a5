//! Remote derives (`#[marshal(remote = path::Type)]`): a local mirror of a
//! foreign type is an adapter for it, writing the bytes a derive on the
//! foreign definition would, with its sizes, in every configuration.

use marshal::config;
use marshal::{DecodeErrorKind, Marshal, MarshalAs, Unmarshal};

/// "Another crate": types without marshal's traits.
mod other {
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub(crate) struct Vec3 {
        pub(crate) x: f32,
        pub(crate) y: f32,
        pub(crate) z: f32,
    }

    #[derive(Debug, Clone, PartialEq)]
    pub(crate) enum Shape {
        Point,
        Circle(Vec3, f32),
        Label { text: String, size: u16 },
    }

    #[derive(Debug, Clone, PartialEq)]
    pub(crate) struct Pair<T>(pub(crate) T, pub(crate) T);

    /// A recursive foreign type.
    #[derive(Debug, Clone, PartialEq)]
    pub(crate) enum List {
        Nil,
        Cons(u8, Box<List>),
    }

    /// Private fields, read through methods.
    #[derive(Debug, Clone, PartialEq)]
    pub(crate) struct Account {
        id: u64,
        name: String,
    }

    impl Account {
        pub(crate) fn new(id: u64, name: &str) -> Self {
            Account {
                id,
                name: name.into(),
            }
        }
        pub(crate) fn id(&self) -> u64 {
            self.id
        }
        pub(crate) fn name(&self) -> &String {
            &self.name
        }
    }
}

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Vec3)]
struct Vec3Def {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Shape)]
enum ShapeDef {
    Point,
    Circle(#[marshal(as = Vec3Def)] other::Vec3, f32),
    Label { text: String, size: u16 },
}

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Pair<T>)]
struct PairDef<T>(T, T);

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::Account)]
struct AccountDef {
    #[marshal(getter = other::Account::id)]
    id: u64,
    #[marshal(getter = other::Account::name)]
    name: String,
}

impl From<AccountDef> for other::Account {
    fn from(def: AccountDef) -> Self {
        other::Account::new(def.id, &def.name)
    }
}

/// The same definitions, derived directly: the bytes to match.
mod reference {
    use marshal::{Marshal, Unmarshal};

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub(crate) struct Vec3 {
        pub(crate) x: f32,
        pub(crate) y: f32,
        pub(crate) z: f32,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub(crate) enum Shape {
        Point,
        Circle(Vec3, f32),
        Label { text: String, size: u16 },
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub(crate) struct Scene {
        pub(crate) at: Vec3,
        pub(crate) shapes: Vec<Shape>,
        pub(crate) pairs: Option<(u8, u8)>,
        pub(crate) owner: (u64, String),
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Scene {
    #[marshal(as = Vec3Def)]
    at: other::Vec3,
    #[marshal(as = Vec<ShapeDef>)]
    shapes: Vec<other::Shape>,
    #[marshal(as = Option<PairDef<u8>>)]
    pairs: Option<other::Pair<u8>>,
    #[marshal(as = AccountDef)]
    owner: other::Account,
}

fn v(x: f32) -> other::Vec3 {
    other::Vec3 {
        x,
        y: -x,
        z: x * 2.0,
    }
}

fn scene(seed: u8) -> (Scene, reference::Scene) {
    let f = f32::from(seed);
    let shapes = vec![
        other::Shape::Point,
        other::Shape::Circle(v(f), 0.5),
        other::Shape::Label {
            text: "x".repeat(usize::from(seed % 4)),
            size: u16::from(seed) * 3,
        },
    ];
    let rv = |x: f32| reference::Vec3 {
        x,
        y: -x,
        z: x * 2.0,
    };
    let reference = reference::Scene {
        at: rv(f + 1.0),
        shapes: vec![
            reference::Shape::Point,
            reference::Shape::Circle(rv(f), 0.5),
            reference::Shape::Label {
                text: "x".repeat(usize::from(seed % 4)),
                size: u16::from(seed) * 3,
            },
        ],
        pairs: (seed % 2 == 1).then_some((seed, seed / 2)),
        owner: (u64::from(seed) << 40, format!("owner {seed}")),
    };
    let ours = Scene {
        at: v(f + 1.0),
        shapes,
        pairs: (seed % 2 == 1).then_some(other::Pair(seed, seed / 2)),
        owner: other::Account::new(u64::from(seed) << 40, &format!("owner {seed}")),
    };
    (ours, reference)
}

#[test]
fn a_mirror_writes_the_foreign_types_bytes() {
    for seed in 0..16 {
        let (ours, reference) = scene(seed);
        let bytes = marshal::to_vec(&ours);
        assert_eq!(bytes, marshal::to_vec(&reference), "seed {seed}");
        assert_eq!(ours.encoded_len(), bytes.len());
        assert_eq!(marshal::from_bytes::<Scene>(&bytes).unwrap(), ours);
    }
}

#[test]
fn a_mirror_writes_the_foreign_types_bytes_in_every_configuration() {
    macro_rules! check {
        ($config:expr) => {
            for seed in 0..8 {
                let config = $config;
                let (ours, reference) = scene(seed);
                let bytes = marshal::encode_to_vec(&ours, config);
                assert_eq!(bytes, marshal::encode_to_vec(&reference, config));
                assert_eq!(marshal::encoded_len_with(&ours, config), bytes.len());
                let (back, _) = marshal::decode_from_slice::<Scene, _>(&bytes, config).unwrap();
                assert_eq!(back, ours);
            }
        };
    }
    check!(config::standard());
    check!(config::standard().with_big_endian());
    check!(config::legacy().with_big_endian());
}

#[test]
fn sizes_and_fingerprints_carry_over() {
    assert_eq!(<Vec3Def as MarshalAs<other::Vec3>>::FIXED_LEN, Some(12));
    assert_eq!(
        <Vec3Def as MarshalAs<other::Vec3>>::FINGERPRINT,
        reference::Vec3::FINGERPRINT
    );
    assert_eq!(Scene::FINGERPRINT, reference::Scene::FINGERPRINT);
    assert_eq!(<ShapeDef as MarshalAs<other::Shape>>::MAX_LEN, None);

    #[derive(Marshal, Unmarshal)]
    struct Segment {
        #[marshal(as = [Vec3Def; 2])]
        ends: [other::Vec3; 2],
        #[marshal(as = PairDef<u32>)]
        ids: other::Pair<u32>,
    }
    assert_eq!(Segment::FIXED_LEN, Some(24 + 8));
    assert_eq!(<Segment as Unmarshal>::MIN_LEN, 32);
}

#[test]
fn decoding_a_mirror_checks_the_input_as_the_foreign_derive_would() {
    let (ours, _) = scene(3);
    let bytes = marshal::to_vec(&ours);
    // The first shape's tag (after the 12 bytes of `at` and the 8 of the
    // length): 9 names no variant.
    let mut bad = bytes.clone();
    bad[20] = 9;
    let err = marshal::from_bytes::<Scene>(&bad).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::InvalidTag {
            tag: 9,
            ty: "ShapeDef"
        }
    );
    assert_eq!(err.offset(), 20);
    // Cut anywhere: an error, never a panic.
    for cut in 0..bytes.len() {
        assert!(marshal::from_bytes::<Scene>(&bytes[..cut]).is_err());
    }
}

#[derive(Marshal, Unmarshal)]
#[marshal(remote = other::List)]
enum ListDef {
    Nil,
    Cons(u8, #[marshal(as = Box<ListDef>)] Box<other::List>),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Lists {
    #[marshal(as = Vec<ListDef>)]
    lists: Vec<other::List>,
}

#[test]
fn a_recursive_mirror_writes_itself_through_itself() {
    let list = (0..5u8).fold(other::List::Nil, |tail, n| {
        other::List::Cons(n, Box::new(tail))
    });
    let value = Lists {
        lists: vec![list, other::List::Nil],
    };
    let bytes = marshal::to_vec(&value);
    // A `Cons` is its tag, its byte and the rest; `Nil` its tag.
    assert_eq!(bytes.len(), 8 + (5 * 5 + 4) + 4);
    assert_eq!(&bytes[8..13], &[1, 0, 0, 0, 4]);
    assert_eq!(marshal::from_bytes::<Lists>(&bytes).unwrap(), value);
    let (back, _) = marshal::decode_from_slice::<Lists, _>(
        &marshal::encode_to_vec(&value, config::standard()),
        config::standard(),
    )
    .unwrap();
    assert_eq!(back, value);

    // Deeper than the depth limit: an error, not an overflowed stack.
    let mut hostile = 1u64.to_le_bytes().to_vec();
    for _ in 0..100_000 {
        hostile.extend([1, 0, 0, 0, 7]);
    }
    let err = marshal::from_bytes::<Lists>(&hostile).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TooDeep { .. }),
        "{err}"
    );
}

/// The mirror's field order decides the bytes, as the foreign derive's
/// would: it is not checked, since nothing of the foreign definition's
/// order is visible to the derive.
#[test]
fn the_mirrors_field_order_is_the_order_written() {
    #[derive(Marshal)]
    #[marshal(remote = other::Vec3)]
    struct Swapped {
        y: f32,
        x: f32,
        z: f32,
    }
    let v = other::Vec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    };
    let mut ours = [0u8; 12];
    let mut w = marshal::Writer::new(&mut ours);
    <Swapped as MarshalAs<other::Vec3>>::encode_as(&v, &mut w).unwrap();
    let reference = marshal::to_vec(&reference::Vec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    });
    assert_ne!(ours.as_slice(), reference.as_slice());
    assert_eq!(ours[..4], 2.0f32.to_le_bytes());
}
