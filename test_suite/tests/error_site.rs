//! Errors that name the field: `DecodeError::site`, the `, in Type.field`
//! of its `Display`, and `marshal::error_path`, through every derived
//! shape and every collection the trace walks into; the site found again
//! after an error, and only then.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;

use marshal::{DecodeError, DecodeErrorKind, Marshal, Reader, Step, Unmarshal};
use marshal_test_suite::rng::XorShift;

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
struct Note {
    text: String,
    flag: bool,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
enum Shape {
    Dot,
    Circle { r: f32, filled: bool },
    Tagged(u8, Note),
}

#[derive(Marshal, Unmarshal, Debug, PartialEq, Clone)]
struct Record {
    id: u32,
    notes: Vec<Note>,
    shapes: BTreeMap<u16, Shape>,
    pair: (u8, Option<Note>),
    next: Option<Box<Record>>,
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
#[marshal(extensible)]
struct Evolving {
    a: u8,
    b: Note,
}

mod flag_byte {
    use marshal::{DecodeError, Overflow, Reader, Writer};
    pub(crate) fn encoded_len(_: &bool) -> usize {
        1
    }
    pub(crate) fn encode(v: &bool, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(u8::from(*v) + 10)
    }
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<bool, DecodeError> {
        let at = r.position();
        match r.take_array() {
            Ok([10]) => Ok(false),
            Ok([11]) => Ok(true),
            _ => Err(DecodeError::custom(&"not a flag byte", at)),
        }
    }
}

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct WithModule(u8, #[marshal(with = flag_byte)] bool);

#[derive(Marshal, Unmarshal, Debug, PartialEq)]
struct Skipping {
    #[marshal(skip)]
    cache: u64,
    kept: bool,
}

fn note(text: &str) -> Note {
    Note {
        text: text.into(),
        flag: true,
    }
}

fn record(depth: u32) -> Record {
    Record {
        id: depth,
        notes: vec![note("a"), note("bb"), note("ccc")],
        shapes: [
            (1, Shape::Dot),
            (
                2,
                Shape::Circle {
                    r: 1.0,
                    filled: true,
                },
            ),
            (3, Shape::Tagged(7, note("t"))),
        ]
        .into(),
        pair: (1, Some(note("p"))),
        next: (depth > 0).then(|| Box::new(record(depth - 1))),
    }
}

/// The position of the `n`th occurrence of `needle` in `bytes`.
fn find(bytes: &[u8], needle: &[u8], n: usize) -> usize {
    bytes
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap()
}

/// `bytes` with the byte at `at` set to `value`, decoded: the error's site
/// (as `Type.field`, or `-`) and the path `error_path` finds, checked
/// against each other and against the error `from_bytes` returns.
fn damaged<T: for<'de> Unmarshal<'de> + Debug>(
    bytes: &[u8],
    at: usize,
    value: u8,
) -> (String, String) {
    let mut bad = bytes.to_vec();
    bad[at] = value;
    site_and_path::<T>(&bad)
}

/// The site and path of the error decoding `bytes` as a `T` (see
/// [`damaged`]).
fn site_and_path<T: for<'de> Unmarshal<'de> + Debug>(bytes: &[u8]) -> (String, String) {
    let err = marshal::from_bytes::<T>(bytes).unwrap_err();
    let path = marshal::error_path::<T>(bytes).expect("the decode fails");
    assert_eq!(path.error(), err);
    assert_eq!(path.error().site(), err.site());
    let site = err.site().map_or("-".to_owned(), |site| site.to_string());
    match err.site() {
        Some(site) => assert!(err.to_string().ends_with(&format!(", in {site}")), "{err}"),
        None => assert!(!err.to_string().contains(", in "), "{err}"),
    }
    (site, path.to_string())
}

#[test]
fn the_issues_example_names_the_field() {
    // A date written as a string (chrono's serde form) where the derive
    // route reads an `Option` tag.
    #[derive(Marshal, Unmarshal, Debug)]
    struct Written {
        id: u64,
        stamps: Vec<u32>,
        note: String,
    }
    #[derive(Marshal, Unmarshal, Debug)]
    struct Read {
        id: u64,
        stamps: Vec<u32>,
        note: Option<u32>,
    }
    let bytes = marshal::to_vec(&Written {
        id: 1,
        stamps: vec![1, 2, 3, 4, 5],
        note: "-2024-05-01".into(),
    });
    // The string's length prefix, 11, is a valid `Some` no more; then 0.
    let err = marshal::from_bytes::<Read>(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        DecodeErrorKind::InvalidTag {
            tag: 11,
            ty: "Option"
        }
    );
    assert_eq!(err.offset(), 36);
    assert_eq!(
        err.to_string(),
        "invalid tag 11 for enum Option at byte 36, in Read.note"
    );
    let site = err.site().unwrap();
    assert_eq!((site.ty(), site.field()), ("Read", "note"));
}

#[test]
fn sites_and_paths_through_fields_elements_entries_and_variants() {
    let value = record(1);
    let bytes = marshal::to_vec(&value);
    assert_eq!(marshal::from_bytes::<Record>(&bytes).unwrap(), value);
    assert!(marshal::error_path::<Record>(&bytes).is_none());

    // The second note's flag: `bb` then its bool.
    let at = find(&bytes, b"bb", 0) + 2;
    assert_eq!(
        damaged::<Record>(&bytes, at, 2),
        ("Note.flag".into(), ".notes[1].flag".into())
    );
    // The circle's `filled`, in the shapes' second entry.
    let at = find(&bytes, &1.0f32.to_le_bytes(), 0) + 4;
    assert_eq!(
        damaged::<Record>(&bytes, at, 9),
        (
            "Shape::Circle.filled".into(),
            ".shapes[1]::Circle.filled".into()
        )
    );
    // The tagged shape's note's text is no longer UTF-8.
    let at = find(&bytes, b"t", 0);
    assert_eq!(
        damaged::<Record>(&bytes, at, 0xff),
        ("Note.text".into(), ".shapes[2]::Tagged.1.text".into())
    );
    // An unknown variant: the path ends at the entry, and the error names
    // the enum (a derived enum's `InvalidTag` keeps no site).
    let tag_at = find(&bytes, &[3, 0, 2, 0, 0, 0], 0) + 2;
    assert_eq!(
        damaged::<Record>(&bytes, tag_at, 9),
        ("-".into(), ".shapes[2]".into())
    );
    // The pair's option, a tuple element: the site is the derived field
    // holding the tuple.
    let at = find(&bytes, b"p", 0) - 9;
    assert_eq!(
        damaged::<Record>(&bytes, at, 5),
        ("Record.pair".into(), ".pair.1".into())
    );
    // Inside the boxed next record: its third note's text.
    let at = find(&bytes, b"ccc", 1);
    assert_eq!(
        damaged::<Record>(&bytes, at, 0xc3),
        ("Note.text".into(), ".next.notes[2].text".into())
    );
}

#[test]
fn paths_in_maps_sets_arrays_and_deques() {
    let map: HashMap<u8, Vec<Note>> = [(4, vec![note("x"), note("y")])].into();
    let bytes = marshal::to_vec(&map);
    let last = bytes.len() - 1;
    assert_eq!(
        damaged::<HashMap<u8, Vec<Note>>>(&bytes, last, 3),
        ("Note.flag".into(), "[0][1].flag".into())
    );
    let set: BTreeSet<(u8, bool)> = [(1, true), (2, false)].into();
    let bytes = marshal::to_vec(&set);
    assert_eq!(
        damaged::<BTreeSet<(u8, bool)>>(&bytes, 8 + 3, 7),
        ("-".into(), "[1].1".into())
    );
    let set: HashSet<Vec<bool>> = [vec![true, false]].into();
    let bytes = marshal::to_vec(&set);
    assert_eq!(
        damaged::<HashSet<Vec<bool>>>(&bytes, 17, 7),
        ("-".into(), "[0][1]".into())
    );
    let arrays = [[true; 3]; 2];
    let bytes = marshal::to_vec(&arrays);
    assert_eq!(
        damaged::<[[bool; 3]; 2]>(&bytes, 4, 3),
        ("-".into(), "[1][1]".into())
    );
    let deque: VecDeque<Note> = [note("q"), note("r")].into();
    let bytes = marshal::to_vec(&deque);
    let last = bytes.len() - 1;
    assert_eq!(
        damaged::<VecDeque<Note>>(&bytes, last, 3),
        ("Note.flag".into(), "[1].flag".into())
    );
    let boxed: Box<[Note]> = vec![note("s")].into();
    let bytes = marshal::to_vec(&boxed);
    let last = bytes.len() - 1;
    // `Box<[T]>` is decoded whole by the trace: no step into it.
    assert_eq!(
        damaged::<Box<[Note]>>(&bytes, last, 3),
        ("-".into(), "".into())
    );
}

#[test]
fn sites_in_extensible_bodies() {
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    struct Holder {
        id: u8,
        evolving: Evolving,
    }
    let value = Holder {
        id: 1,
        evolving: Evolving { a: 1, b: note("x") },
    };
    let bytes = marshal::to_vec(&value);
    let last = bytes.len() - 1;
    assert_eq!(
        damaged::<Holder>(&bytes, last, 3),
        ("Note.flag".into(), ".evolving.b.flag".into())
    );
    // A body cut short: the field it cuts, as a `BodyOverrun`.
    let mut short = marshal::to_vec(&Evolving { a: 1, b: note("x") });
    short[0] -= 1;
    short.pop();
    let err = marshal::from_bytes::<Evolving>(&short).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::BodyOverrun { needed: 1 });
    assert_eq!(
        site_and_path::<Evolving>(&short),
        ("Note.flag".into(), ".b.flag".into())
    );

    // A field added later, there or not; and an extensible enum.
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    struct Later {
        a: u8,
        #[marshal(since = 2, default)]
        b: Option<bool>,
    }
    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    enum Event {
        Start {
            at: u32,
        },
        Stop(Later),
        #[marshal(other)]
        Unknown,
    }
    let bytes = marshal::to_vec(&vec![
        Event::Start { at: 1 },
        Event::Stop(Later {
            a: 1,
            b: Some(true),
        }),
    ]);
    let last = bytes.len() - 1;
    assert_eq!(
        damaged::<Vec<Event>>(&bytes, last, 9),
        ("Later.b".into(), "[1]::Stop.0.b".into())
    );
    // `Stop`'s body holds `Later`'s: `a`, and `b`'s `Some`, its bool cut
    // off by the end of `Later`'s body.
    let bytes = [1, 0, 0, 0, 6, 0, 0, 0, 2, 0, 0, 0, 1, 1];
    let err = marshal::from_bytes::<Event>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::BodyOverrun { needed: 1 });
    assert_eq!(
        site_and_path::<Event>(&bytes),
        ("Later.b".into(), "::Stop.0.b".into())
    );
    // A version-1 `Later` (no `b`) decodes, and an unknown variant is
    // `other`: nothing to find.
    assert!(marshal::from_bytes::<Event>(&[1, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1]).is_ok());
    assert!(marshal::error_path::<Event>(&[7, 0, 0, 0, 0, 0, 0, 0]).is_none());
}

#[test]
fn what_the_trace_does_not_enter_keeps_the_field_around_it() {
    // The trace stops at a struct with a field read `with` a module: an
    // error in it has no site.
    let bytes = marshal::to_vec(&vec![WithModule(3, true)]);
    assert_eq!(
        damaged::<Vec<WithModule>>(&bytes, 9, 0),
        ("-".into(), "".into())
    );
    // A skipped field reads nothing; the one after it is found.
    let bytes = marshal::to_vec(&Skipping {
        cache: 9,
        kept: true,
    });
    assert_eq!(
        damaged::<Skipping>(&bytes, 0, 2),
        ("Skipping.kept".into(), ".kept".into())
    );
    // Too short for the struct, checked whole: in the first field the input
    // carries, not the skipped one.
    assert_eq!(
        site_and_path::<Skipping>(&[]),
        ("Skipping.kept".into(), ".kept".into())
    );
}

#[test]
fn errors_at_the_top_have_no_site_and_an_empty_path() {
    let (site, path) = site_and_path::<u32>(&[1, 2]);
    assert_eq!((site.as_str(), path.as_str()), ("-", ""));
    let path = marshal::error_path::<bool>(&[1, 0]).unwrap();
    assert_eq!(
        path.error().kind(),
        DecodeErrorKind::TrailingBytes { count: 1 }
    );
    assert_eq!(path.steps(), []);
    // Trailing bytes after a derived value: after it, in no field.
    let mut bytes = marshal::to_vec(&note("n"));
    bytes.push(0);
    assert_eq!(site_and_path::<Note>(&bytes), ("-".into(), "".into()));
}

#[test]
fn every_entry_point_on_a_slice_sets_the_site() {
    let mut bytes = marshal::to_vec(&vec![note("a"), note("b")]);
    let last = bytes.len() - 1;
    bytes[last] = 4;
    let site = |err: DecodeError| err.site().map(|s| s.to_string());
    let want = Some("Note.flag".to_owned());
    assert_eq!(
        site(marshal::from_bytes::<Vec<Note>>(&bytes).unwrap_err()),
        want
    );
    assert_eq!(
        site(marshal::from_bytes_limited::<Vec<Note>>(&bytes, 1 << 20).unwrap_err()),
        want
    );
    // Not `read_from`: it is what `with` modules decode through.
    assert_eq!(site(<Vec<Note>>::read_from(&bytes).unwrap_err()), None);
    let mut slot = std::mem::MaybeUninit::<Vec<Note>>::uninit();
    assert_eq!(
        site(marshal::from_bytes_into(&bytes, &mut slot).unwrap_err()),
        want
    );
    let mut chunk = bytes::Bytes::from(bytes.clone());
    assert_eq!(
        site(marshal::buf::decode_from_bytes::<Vec<Note>>(&mut chunk).unwrap_err()),
        want
    );
    // A batch: the failing value's site, at its offset in the whole input.
    let (mut batch, mut ends) = (Vec::new(), Vec::new());
    marshal::par::encode_batch(&[note("p"), note("q")], &mut batch, &mut ends);
    let last = batch.len() - 1;
    batch[last] = 5;
    let err = marshal::par::decode_batch::<Note>(&batch, &ends).unwrap_err();
    assert_eq!((err.offset(), site(err)), (last, want.clone()));
    // A reader of one's own does not look for it.
    let err = <Vec<Note>>::decode(&mut Reader::new(&bytes)).unwrap_err();
    assert_eq!(err.site(), None);
    assert_eq!(
        err,
        marshal::from_bytes::<Vec<Note>>(&bytes).unwrap_err(),
        "errors compare without their sites"
    );
}

#[test]
fn under_a_budget_the_trace_has_what_the_decode_left() {
    let value = vec![note("a long enough text"); 4];
    let mut bytes = marshal::to_vec(&value);
    let last = bytes.len() - 1;
    bytes[last] = 4;
    // Plenty: the site is found.
    let err = marshal::from_bytes_limited::<Vec<Note>>(&bytes, 1 << 20).unwrap_err();
    assert_eq!(err.site().map(|s| s.to_string()), Some("Note.flag".into()));
    // Just enough for one decode: the trace, which would need as much
    // again, stops short, and the error comes back as it was, siteless.
    let need = 4 * 32 + 4 * 18;
    let err = marshal::from_bytes_limited::<Vec<Note>>(&bytes, need).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::InvalidBool(4));
    assert_eq!(err.site(), None);
    // The budget itself running out: the same.
    let err = marshal::from_bytes_limited::<Vec<Note>>(&bytes, need - 1).unwrap_err();
    assert!(matches!(err.kind(), DecodeErrorKind::AllocLimit { .. }));
}

/// A path deeper than `MAX_STEPS` keeps its outermost steps and says how
/// many it left out; the site is still the innermost field.
#[test]
fn deep_paths_keep_their_outermost_steps() {
    #[derive(Marshal, Unmarshal, Debug)]
    struct Node {
        next: Option<Box<Node>>,
        flag: bool,
    }
    let mut node = Node {
        next: None,
        flag: true,
    };
    for _ in 0..40 {
        node = Node {
            next: Some(Box::new(node)),
            flag: false,
        };
    }
    // Forty `Some`s, the innermost node's `None`, then its flag (the
    // outer nodes' flags follow).
    let mut bytes = marshal::to_vec(&node);
    assert_eq!(bytes[40..42], [0, 1]);
    bytes[41] = 2;
    let path = marshal::error_path::<Node>(&bytes).unwrap();
    assert_eq!(path.steps().len(), marshal::MAX_STEPS);
    assert_eq!(path.left_out(), 41 - marshal::MAX_STEPS);
    assert!(path.to_string().starts_with(".next.next."));
    assert!(path.to_string().ends_with('…'));
    assert_eq!(path.error().site().unwrap().to_string(), "Node.flag");
    assert_eq!(
        path.steps()[0],
        Step::Field {
            ty: "Node",
            field: "next"
        }
    );
}

/// Damaged copies of a value, at every byte and at every length: the
/// error `from_bytes` returns is the one `error_path` returns, with the
/// same site, and that site is the last field step of the path (when the
/// path has one and keeps all its steps).
#[test]
fn every_damage_gives_a_site_consistent_with_its_path() {
    let bytes = marshal::to_vec(&record(2));
    let mut rng = XorShift(0x5eed_e440);
    let mut checked = 0;
    let mut with_site = 0;
    let mut check = |bad: &[u8]| {
        let Some(path) = marshal::error_path::<Record>(bad) else {
            return;
        };
        let err = marshal::from_bytes::<Record>(bad).unwrap_err();
        assert_eq!(path.error(), err);
        assert_eq!(path.error().site(), err.site());
        let last_field = path.steps().iter().rev().find_map(|step| match step {
            Step::Field { ty, field } if *ty != "tuple" => Some(format!("{ty}.{field}")),
            _ => None,
        });
        if let Some(site) = err.site() {
            with_site += 1;
            assert_eq!(Some(site.to_string()), last_field, "{err} at {path}");
        }
        checked += 1;
    };
    for cut in 0..bytes.len() {
        check(&bytes[..cut]);
    }
    for at in 0..bytes.len() {
        let mut bad = bytes.clone();
        bad[at] = (rng.next() as u8) | 0x80;
        check(&bad);
    }
    assert!(checked > bytes.len(), "{checked}");
    assert!(with_site > bytes.len() / 2, "{with_site} of {checked}");
}

/// `DecodeError` is three words with the site.
#[test]
fn the_error_stays_three_words() {
    assert!(std::mem::size_of::<DecodeError>() <= 24);
    assert!(std::mem::size_of::<Result<u64, DecodeError>>() <= 24);
}

/// A derived enum's `MIN_LEN`, `MIN_LEN_IS_EXACT` and `__DECODE_STACK`,
/// now read from its `__VARIANTS`, are what the per-variant lists gave.
#[test]
fn enum_lengths_from_the_variants_are_the_lists_ones() {
    use marshal::__private as p;

    #[derive(Unmarshal)]
    #[allow(dead_code)]
    enum Same {
        A(u32),
        B(f32),
    }
    #[derive(Unmarshal)]
    #[allow(dead_code)]
    #[marshal(tag_type = u8)]
    enum Mixed {
        Unit,
        Pair(u64, bool),
        Text { s: String, n: u16 },
    }
    #[derive(Unmarshal)]
    #[allow(dead_code)]
    enum Units {
        A,
        B,
    }

    fn check<'de, T: Unmarshal<'de>>(
        tag: usize,
        mins: &[&[usize]],
        exact: &[&[Option<usize>]],
        stack: &[&[p::stack::Field]],
    ) {
        assert_eq!(T::MIN_LEN, p::min_len(tag, mins));
        assert_eq!(T::MIN_LEN_IS_EXACT, p::is_exact(exact));
        assert_eq!(T::__DECODE_STACK, p::stack::variants(stack));
    }
    check::<Same>(
        4,
        &[&[u32::MIN_LEN], &[f32::MIN_LEN]],
        &[
            &[<u32 as Unmarshal>::__EXACT_LEN],
            &[<f32 as Unmarshal>::__EXACT_LEN],
        ],
        &[
            &[<u32 as Unmarshal>::__STACK_FIELD],
            &[<f32 as Unmarshal>::__STACK_FIELD],
        ],
    );
    check::<Mixed>(
        1,
        &[
            &[],
            &[u64::MIN_LEN, bool::MIN_LEN],
            &[String::MIN_LEN, u16::MIN_LEN],
        ],
        &[
            &[],
            &[
                <u64 as Unmarshal>::__EXACT_LEN,
                <bool as Unmarshal>::__EXACT_LEN,
            ],
            &[
                <String as Unmarshal>::__EXACT_LEN,
                <u16 as Unmarshal>::__EXACT_LEN,
            ],
        ],
        &[
            &[],
            &[
                <u64 as Unmarshal>::__STACK_FIELD,
                <bool as Unmarshal>::__STACK_FIELD,
            ],
            &[
                <String as Unmarshal>::__STACK_FIELD,
                <u16 as Unmarshal>::__STACK_FIELD,
            ],
        ],
    );
    check::<Units>(4, &[&[], &[]], &[&[], &[]], &[&[], &[]]);
    const { assert!(Same::MIN_LEN_IS_EXACT && !Mixed::MIN_LEN_IS_EXACT && Units::MIN_LEN_IS_EXACT) };
    assert_eq!((Same::MIN_LEN, Mixed::MIN_LEN, Units::MIN_LEN), (8, 1, 4));
}

// Types whose `with` modules decode again, for the tests below.
#[derive(Marshal, Unmarshal, Debug)]
struct Node {
    next: Option<Hop>,
}
#[derive(Marshal, Unmarshal, Debug)]
struct Hop(#[marshal(with = through_read_from)] Box<Node>);
#[derive(Marshal, Unmarshal, Debug)]
struct Framed {
    next: Option<Frame>,
}
#[derive(Marshal, Unmarshal, Debug)]
struct Frame(#[marshal(with = through_from_bytes)] Box<Framed>);

mod through_read_from {
    use marshal::{DecodeError, Marshal, Overflow, Reader, Unmarshal, Writer};
    pub(crate) fn encoded_len(v: &super::Node) -> usize {
        v.encoded_len()
    }
    pub(crate) fn encode(v: &super::Node, w: &mut Writer<'_>) -> Result<(), Overflow> {
        v.encode(w)
    }
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Box<super::Node>, DecodeError> {
        super::Node::decode(r).map(Box::new)
    }
}
mod through_from_bytes {
    use marshal::{DecodeError, Marshal, Overflow, Reader, Writer};
    /// A length byte, then the value, decoded with `from_bytes`.
    pub(crate) fn encoded_len(v: &super::Framed) -> usize {
        1 + v.encoded_len()
    }
    pub(crate) fn encode(v: &super::Framed, w: &mut Writer<'_>) -> Result<(), Overflow> {
        w.put_u8(v.encoded_len() as u8)?;
        v.encode(w)
    }
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<Box<super::Framed>, DecodeError> {
        let at = r.position();
        let [len] = r
            .take_array()
            .map_err(|_| DecodeError::custom(&"no length", at))?;
        let body = r
            .take(usize::from(len))
            .map_err(|_| DecodeError::custom(&"short", at))?;
        let framed = marshal::from_bytes(body).map_err(|e| e.shifted(at + 1))?;
        Ok(Box::new(framed))
    }
}

#[derive(Marshal, Unmarshal, Debug)]
#[marshal(extensible)]
struct Wrapper {
    #[marshal(with = whole_rest)]
    note: Note,
}
mod whole_rest {
    use marshal::{DecodeError, Marshal, Overflow, Reader, Writer};
    pub(crate) fn encoded_len(v: &super::Note) -> usize {
        v.encoded_len()
    }
    pub(crate) fn encode(v: &super::Note, w: &mut Writer<'_>) -> Result<(), Overflow> {
        v.encode(w)
    }
    pub(crate) fn decode(r: &mut Reader<'_>) -> Result<super::Note, DecodeError> {
        let at = r.position();
        let rest = r.take(r.remaining())?;
        marshal::from_bytes(rest).map_err(|e| e.shifted(at))
    }
}

/// `with` modules that decode again, at every level of a recursive type:
/// each level's error is looked for once, so a deep input costs what its
/// depth does, not twice that per level (which at this depth would not
/// finish).
#[test]
fn nested_decodes_in_with_modules_stay_linear() {
    // Sixty levels of `Some`, then an invalid `Option` tag.
    let mut bytes = vec![1; 60];
    bytes.push(7);
    let err = marshal::from_bytes::<Node>(&bytes).unwrap_err();
    assert_eq!(
        (err.offset(), err.site().map(|s| s.to_string())),
        (60, None)
    );
    // Each level framed: a length byte, then `Some`; the innermost tag 7.
    let mut bytes = vec![7];
    for _ in 0..60 {
        let mut framed = vec![1, bytes.len() as u8];
        framed.extend(&bytes);
        bytes = framed;
        if bytes.len() > 250 {
            break;
        }
    }
    let err = marshal::from_bytes::<Framed>(&bytes).unwrap_err();
    // The innermost `from_bytes` names the innermost field; the levels
    // around it keep that site.
    assert_eq!(
        err.site().map(|s| s.to_string()),
        Some("Framed.next".into())
    );
    assert_eq!(err.offset(), bytes.len() - 1);
}

/// An `AllocLimit` has no site: the second reading, with what the first
/// left of the budget, would run out sooner, perhaps at the same offset
/// in an outer field.
#[test]
fn an_alloc_limit_has_no_site() {
    #[derive(Marshal, Unmarshal, Debug)]
    struct Outer {
        a: Box<Inner>,
    }
    #[derive(Marshal, Unmarshal, Debug)]
    struct Inner {
        b: Box<u64>,
    }
    let bytes = marshal::to_vec(&Outer {
        a: Box::new(Inner { b: Box::new(5) }),
    });
    let err = marshal::from_bytes_limited::<Outer>(&bytes, 12).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::AllocLimit { limit: 12 });
    assert_eq!(err.site(), None);
}

/// A site found by a `from_bytes` in a `with` module inside an extensible
/// body: the error is still made a `BodyOverrun` by the body's end, and
/// keeps its site.
#[test]
fn a_sited_error_cut_by_a_body_is_still_a_body_overrun() {
    let mut bytes = marshal::to_vec(&Wrapper { note: note("x") });
    // The body loses the flag.
    bytes[0] -= 1;
    bytes.pop();
    let err = marshal::from_bytes::<Wrapper>(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::BodyOverrun { needed: 1 });
    assert!(!err.is_incomplete());
    assert_eq!(err.site().map(|s| s.to_string()), Some("Note.flag".into()));
}
