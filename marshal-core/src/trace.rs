//! Where in a value decoding failed: the field being read, for the error's
//! [`Display`](core::fmt::Display), and the whole path from the top of the
//! value (`.records[3].note`), on request.
//!
//! Decoding keeps no record of where it is: that would cost every decode
//! that succeeds. After an error, the entry points read the same input
//! again, with the same limits, through a *trace* of the type: a walk that
//! reads what the decoder reads, in the same order, through the same
//! checks, and notes each field, element and entry it enters. It builds no
//! value of a derived type (the types it cannot walk into, it decodes and
//! drops). When the walk fails with the error the decode returned (same
//! kind, same offset), the field it was in is the error's
//! [`site`](crate::DecodeError::site), and the steps it took are its
//! [`ErrorPath`]. When it does not (a manual implementation that reads
//! differently, say), the error is returned as it was, without a site.

use core::fmt;

use crate::error::{DecodeError, SiteNames};
use crate::reader::Reader;
use crate::traits::Unmarshal;

/// One step of an [`ErrorPath`].
///
/// ```
/// use marshal::Step;
///
/// assert_eq!(Step::Index(3).to_string(), "[3]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Step {
    /// A field of a derived struct or of a derived enum's variant, or an
    /// element of a tuple.
    Field {
        /// The type: `Record`, `Shape::Circle` for a variant's field, or
        /// `tuple`.
        ty: &'static str,
        /// The field's name, or its index in a tuple, tuple struct or
        /// tuple variant.
        field: &'static str,
    },
    /// The element at this index of a sequence or array, or the entry at
    /// this index of a map.
    Index(usize),
}

impl Step {
    /// The step into the field `names`.
    const fn field(names: &'static SiteNames) -> Step {
        Step::Field {
            ty: names[0],
            field: names[1],
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Field { ty, field } => match ty.split_once("::") {
                Some((_, variant)) => write!(f, "::{variant}.{field}"),
                None => write!(f, ".{field}"),
            },
            Step::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// The most steps an [`ErrorPath`] keeps: the outermost ones.
///
/// ```
/// #[derive(marshal::Unmarshal, Debug)]
/// struct Node { next: Option<Box<Node>>, flag: bool }
///
/// // Forty nodes, each holding the next; the innermost has a bad flag.
/// let mut bytes = vec![1u8; 40];
/// bytes.extend([0, 2]);
/// let path = marshal::error_path::<Node>(&bytes).unwrap();
/// assert_eq!(path.steps().len(), marshal::MAX_STEPS);
/// assert_eq!(path.left_out(), 41 - marshal::MAX_STEPS);
/// assert_eq!(path.error().site().unwrap().to_string(), "Node.flag");
/// ```
pub const MAX_STEPS: usize = 32;

/// Where in a value decoding failed: the steps from the top of the value to
/// what was being read, and the error. Made by [`error_path`].
///
/// Displayed as its steps, each a field (`.note`; `::Circle.r` for a
/// variant's field) or an index (`[3]`); an error at the top level has no
/// steps and displays as nothing. It keeps the outermost [`MAX_STEPS`]
/// steps, and displays `…` after them if there were more (the error's
/// [`site`](DecodeError::site) still names the innermost field).
///
/// ```
/// use marshal::{Step, Unmarshal};
///
/// #[derive(Unmarshal)]
/// struct Pair { left: u8, right: bool }
///
/// let path = marshal::error_path::<Pair>(&[1, 5]).unwrap();
/// assert_eq!(path.steps(), [Step::Field { ty: "Pair", field: "right" }]);
/// assert_eq!(path.to_string(), ".right");
/// assert_eq!(path.error().offset(), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ErrorPath {
    steps: [Step; MAX_STEPS],
    len: usize,
    deeper: usize,
    error: DecodeError,
}

impl ErrorPath {
    /// The steps, outermost first: at most [`MAX_STEPS`].
    ///
    /// ```
    /// let path = marshal::error_path::<Vec<bool>>(&[1, 0, 0, 0, 0, 0, 0, 0, 9]).unwrap();
    /// assert_eq!(path.steps(), [marshal::Step::Index(0)]);
    /// ```
    #[must_use]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len]
    }

    /// How many steps, deeper than the ones kept, were left out.
    ///
    /// ```
    /// let path = marshal::error_path::<u32>(&[1]).unwrap();
    /// assert_eq!(path.left_out(), 0);
    /// ```
    #[must_use]
    pub fn left_out(&self) -> usize {
        self.deeper
    }

    /// The error that decoding returned, with its site.
    ///
    /// ```
    /// let path = marshal::error_path::<u32>(&[1]).unwrap();
    /// assert_eq!(path.error().offset(), 0);
    /// assert!(path.steps().is_empty());
    /// ```
    #[must_use]
    pub fn error(&self) -> DecodeError {
        self.error
    }
}

impl fmt::Display for ErrorPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.steps().iter().try_for_each(|step| step.fmt(f))?;
        if self.deeper > 0 {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl core::error::Error for ErrorPath {}

/// Decodes `input` as [`from_bytes`](crate::from_bytes) does and, if that
/// fails, returns where: the error, with the path from the top of the value
/// to the field, element or entry being read (`None` if decoding
/// succeeds). The path is found by reading the input a second time, after
/// the error; decoding pays nothing for it.
///
/// ```
/// use marshal::{Marshal, Unmarshal};
///
/// #[derive(Marshal, Unmarshal, Debug)]
/// struct Record { id: u32, note: Option<String> }
///
/// #[derive(Marshal, Unmarshal, Debug)]
/// struct Batch { records: Vec<Record> }
///
/// let batch = Batch {
///     records: (0..5).map(|id| Record { id, note: Some("ok".into()) }).collect(),
/// };
/// let mut bytes = marshal::to_vec(&batch);
/// // The fourth record's `note` gets an invalid `Option` tag.
/// let at = 8 + 3 * 15 + 4;
/// bytes[at] = 7;
///
/// let err = marshal::from_bytes::<Batch>(&bytes).unwrap_err();
/// assert_eq!(err.to_string(), "invalid tag 7 for enum Option at byte 57, in Record.note");
/// let path = marshal::error_path::<Batch>(&bytes).unwrap();
/// assert_eq!(path.to_string(), ".records[3].note");
/// assert_eq!(path.error(), err);
///
/// #[derive(Unmarshal)]
/// enum Shape { Circle { r: f32 }, Square(bool) }
///
/// // Variant 1, `Square`, holding 7: not a `bool`.
/// let path = marshal::error_path::<Vec<Shape>>(&[
///     1, 0, 0, 0, 0, 0, 0, 0, // one shape
///     1, 0, 0, 0, 7,
/// ]).unwrap();
/// assert_eq!(path.to_string(), "[0]::Square.0");
/// assert!(marshal::error_path::<bool>(&[1]).is_none());
/// ```
#[must_use]
pub fn error_path<'de, T: Unmarshal<'de>>(input: &'de [u8]) -> Option<ErrorPath> {
    // Decoded as `from_bytes` does, but without looking for the site: the
    // trace below does, once.
    let mut r = Reader::new(input);
    let error = T::decode(&mut r).and_then(|_| r.finish()).err()?;
    let mut trace = Trace::new();
    let walked = if is_locatable(error) {
        let mut r = Reader::new(input);
        T::__trace(&mut r, &mut trace).and_then(|()| r.finish())
    } else {
        Ok(())
    };
    Some(match walked {
        Err(again) if again == error => {
            // The steps past the path's end are left as they were: cleared,
            // so that paths compare by their steps.
            let mut steps = [Step::Index(0); MAX_STEPS];
            steps[..trace.len].copy_from_slice(&trace.steps[..trace.len]);
            ErrorPath {
                steps,
                len: trace.len,
                deeper: trace.deeper,
                error: error.in_site(trace.site),
            }
        }
        _ => ErrorPath {
            steps: [Step::Index(0); MAX_STEPS],
            len: 0,
            deeper: 0,
            error,
        },
    })
}

/// Whether a trace can find where `error` was raised: not trailing bytes,
/// which are after the value, which the trace reads whole; nor an
/// `AllocLimit`, which depends on what the first decode charged, and which
/// a trace with what was left would reach sooner, perhaps at the same
/// offset.
fn is_locatable(error: DecodeError) -> bool {
    use crate::DecodeErrorKind::{AllocLimit, TrailingBytes};
    !matches!(error.kind(), TrailingBytes { .. } | AllocLimit { .. })
}

/// `error`, which decoding a `T` from the reader `start` makes returned,
/// with its site: the field the trace of `T` from such a reader was in
/// when it failed the same way. `left` is what the decoding reader had
/// left (`Reader::left`): under an allocation budget, the trace has only
/// what is left of it, so that the two together ask for no more than the
/// budget (and a trace that runs out has no site to give). Only on the way
/// out of an error: decoding that succeeds never calls it.
#[cold]
#[inline(never)]
pub fn locate<'de, T: Unmarshal<'de>>(
    start: impl FnOnce() -> Reader<'de>,
    left: usize,
    error: DecodeError,
) -> DecodeError {
    if !T::__TRACES || !is_locatable(error) {
        return error;
    }
    let mut trace = Trace::new();
    let mut r = start().within(left);
    match T::__trace(&mut r, &mut trace) {
        Err(again) if again == error => error.in_site(trace.site),
        _ => error,
    }
}

/// What a trace has found: the innermost derived field it is in, and the
/// steps to it.
pub struct Trace {
    site: Option<&'static SiteNames>,
    steps: [Step; MAX_STEPS],
    len: usize,
    deeper: usize,
}

impl Trace {
    fn new() -> Trace {
        Trace {
            site: None,
            steps: [Step::Index(0); MAX_STEPS],
            len: 0,
            deeper: 0,
        }
    }

    /// Runs `walk` one step further in.
    #[inline(always)]
    fn step<R>(
        &mut self,
        step: Step,
        walk: impl FnOnce(&mut Trace) -> Result<R, DecodeError>,
    ) -> Result<R, DecodeError> {
        if self.len < MAX_STEPS {
            self.steps[self.len] = step;
            self.len += 1;
        } else {
            self.deeper += 1;
        }
        // On an error, the steps stay as they are: the path to it.
        let value = walk(self)?;
        if self.deeper > 0 {
            self.deeper -= 1;
        } else {
            self.len -= 1;
        }
        Ok(value)
    }

    /// Runs `walk` in the derived field `names`.
    #[inline(always)]
    fn field<R>(
        &mut self,
        names: &'static SiteNames,
        walk: impl FnOnce(&mut Trace) -> Result<R, DecodeError>,
    ) -> Result<R, DecodeError> {
        let outer = self.site.replace(names);
        let value = self.step(Step::field(names), walk)?;
        self.site = outer;
        Ok(value)
    }

    /// Runs `walk` in the item at `index` of a collection.
    #[inline(always)]
    pub(crate) fn index<R>(
        &mut self,
        index: usize,
        walk: impl FnOnce(&mut Trace) -> Result<R, DecodeError>,
    ) -> Result<R, DecodeError> {
        self.step(Step::Index(index), walk)
    }

    /// Runs `walk` in the element `names` of a tuple: a step, but not a
    /// site (a tuple is not a derived type).
    #[inline(always)]
    pub(crate) fn element<R>(
        &mut self,
        names: &'static SiteNames,
        walk: impl FnOnce(&mut Trace) -> Result<R, DecodeError>,
    ) -> Result<R, DecodeError> {
        self.step(Step::field(names), walk)
    }
}

/// How a trace walks a type: a function of the type's, reading what its
/// decoder reads (`Unmarshal::__trace`).
pub type Walk<'de> = for<'r, 't> fn(&'r mut Reader<'de>, &'t mut Trace) -> Result<(), DecodeError>;

/// A field of a derived struct or variant: its site, its type's part (see
/// `len::Part`) and its type's walk.
#[derive(Clone, Copy)]
pub struct Named<'de> {
    pub(crate) names: &'static SiteNames,
    pub(crate) part: crate::len::Part,
    walk: Walk<'de>,
    body: Body,
    /// A skipped field, which the input does not carry.
    skipped: bool,
}

/// Whether a field is read from an extensible body, and how.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    /// Not: the field of a struct or variant that is not extensible.
    No,
    /// A version-1 field: there, or the body is cut (`past_body`).
    Always,
    /// A field added later: read only when the body has bytes left.
    Since,
}

/// The walk of a skipped field, which the input does not carry.
fn read_nothing(_: &mut Reader<'_>, _: &mut Trace) -> Result<(), DecodeError> {
    Ok(())
}

/// What a field of a type takes to be listed in `Unmarshal::__FIELDS`
/// but its site: the type's part and walk (`Unmarshal::__FIELD`).
#[derive(Clone, Copy)]
pub struct FieldOf<'de> {
    part: crate::len::Part,
    walk: Walk<'de>,
}

impl<'de> FieldOf<'de> {
    /// A type's part and walk.
    #[must_use]
    pub(crate) const fn new(part: crate::len::Part, walk: Walk<'de>) -> FieldOf<'de> {
        FieldOf { part, walk }
    }

    /// The field of this type at the site `names` (`[type, field]`). Spelled
    /// `<Type as Unmarshal>::__FIELD.at(..)` by the derive, so that a
    /// field type that is not `Unmarshal` is reported once, at the type.
    #[must_use]
    pub const fn at(self, names: &'static SiteNames) -> Named<'de> {
        Named {
            names,
            part: self.part,
            walk: self.walk,
            body: Body::No,
            skipped: false,
        }
    }
}

impl<'de> Named<'de> {
    /// The field `names` whose type's part is `part` and walk `walk`: a
    /// field whose type names the type being derived, whose part cannot be
    /// read from it.
    #[must_use]
    pub const fn new(
        names: &'static SiteNames,
        part: crate::len::Part,
        walk: Walk<'de>,
    ) -> Named<'de> {
        Named {
            names,
            part,
            walk,
            body: Body::No,
            skipped: false,
        }
    }

    /// The skipped field `names`, of `part`: it reads nothing.
    #[must_use]
    pub const fn skipped(names: &'static SiteNames, part: crate::len::Part) -> Named<'de> {
        Named {
            names,
            part,
            walk: read_nothing,
            body: Body::No,
            skipped: true,
        }
    }

    /// This field, read from an extensible body since version 1.
    #[must_use]
    pub const fn in_body(self) -> Named<'de> {
        Named {
            body: Body::Always,
            ..self
        }
    }

    /// This field, read from an extensible body when the body has bytes
    /// left (a field added after version 1, `since = N`).
    #[must_use]
    pub const fn since(self) -> Named<'de> {
        Named {
            body: Body::Since,
            ..self
        }
    }
}

/// The variants of a derived enum, for its walk and its `__PARTS`: each
/// variant's tag and fields, how the tag is read and its length. `NONE`
/// for a type that is not such an enum.
#[derive(Clone, Copy)]
pub struct Variants<'de> {
    read_tag: Option<ReadTag<'de>>,
    tag_len: usize,
    list: &'de [(u32, &'de [Named<'de>])],
    /// Whether each variant's fields are read from an extensible body.
    body: bool,
}

impl<'de> Variants<'de> {
    /// Not a derived enum.
    pub const NONE: Variants<'de> = Variants {
        read_tag: None,
        tag_len: 0,
        list: &[],
        body: false,
    };

    /// These variants, of an extensible enum: each variant's fields are
    /// read from its body.
    #[must_use]
    pub const fn in_body(self) -> Variants<'de> {
        Variants { body: true, ..self }
    }

    /// Whether these are a derived enum's variants.
    #[must_use]
    pub const fn is_enum(&self) -> bool {
        self.read_tag.is_some()
    }

    /// The enum's `MIN_LEN`, `MIN_LEN_IS_EXACT` and `__DECODE_STACK`, as
    /// `len::min_len`, `len::is_exact` and `stack::variants` give them from
    /// its variants' fields; `None` for `NONE`.
    pub(crate) const fn parts(&self) -> Option<crate::len::Parts> {
        if self.read_tag.is_none() {
            return None;
        }
        let mut parts = crate::len::Parts {
            min: 0,
            exact: !self.list.is_empty(),
            stack: 0,
        };
        // The fields' length of the first variant, which every other must
        // match for the enum to be exact.
        let mut first = 0;
        let mut i = 0;
        while i < self.list.len() {
            let fields = self.list[i].1;
            let variant = crate::len::Part::named(fields);
            if i == 0 {
                first = variant.min;
            }
            if i == 0 || variant.min < parts.min {
                parts.min = variant.min;
            }
            if !variant.exact || variant.min != first {
                parts.exact = false;
            }
            if crate::len::Part::nests(fields) && variant.stack > parts.stack {
                parts.stack = variant.stack;
            }
            i += 1;
        }
        parts.min = self.tag_len.saturating_add(parts.min);
        parts.stack = crate::stack::FRAME.saturating_add(parts.stack);
        Some(parts)
    }
}

/// How a derived enum's tag is read, as a `u32`.
type ReadTag<'de> = fn(&mut Reader<'de>) -> Result<u32, DecodeError>;

/// The variants of an enum whose tag is a `u32` (the default): each
/// variant's tag and fields.
#[must_use]
pub const fn variants<'de>(list: &'de [(u32, &'de [Named<'de>])]) -> Variants<'de> {
    tagged::<u32>(list)
}

/// [`variants`] of an enum whose tag is a `u16` (`tag_type = u16`).
#[must_use]
pub const fn variants_u16<'de>(list: &'de [(u32, &'de [Named<'de>])]) -> Variants<'de> {
    tagged::<u16>(list)
}

/// [`variants`] of an enum whose tag is a `u8` (`tag_type = u8`).
#[must_use]
pub const fn variants_u8<'de>(list: &'de [(u32, &'de [Named<'de>])]) -> Variants<'de> {
    tagged::<u8>(list)
}

const fn tagged<'de, Tag: Unmarshal<'de> + Into<u32>>(
    list: &'de [(u32, &'de [Named<'de>])],
) -> Variants<'de> {
    Variants {
        read_tag: Some(read_tag::<Tag>),
        tag_len: Tag::MIN_LEN,
        list,
        body: false,
    }
}

fn read_tag<'de, Tag: Unmarshal<'de> + Into<u32>>(r: &mut Reader<'de>) -> Result<u32, DecodeError> {
    Tag::decode(r).map(Into::into)
}

/// `Unmarshal::__trace`'s default: a derived struct's fields or a derived
/// enum's variant, walked; any other type decoded and dropped.
pub(crate) fn walk<'de, T: Unmarshal<'de>>(
    r: &mut Reader<'de>,
    t: &mut Trace,
) -> Result<(), DecodeError> {
    if T::__BLIND {
        return Err(DecodeError::custom(&BLIND, r.position()));
    }
    if !T::__FIELDS.is_empty() {
        if T::__FIELDS[0].body != Body::No {
            // An extensible struct: its fields, from its body.
            return r.take_body(|r| walk_fields(r, t, T::__FIELDS));
        }
        if T::__LAYOUT.is_memcpy() {
            // As `struct_in` and `from_memory` read it: one take.
            let first = first_read(T::__FIELDS);
            return t.field(first, |_| r.take(size_of::<T>()).map(drop));
        }
        return fields::<T>(r, t, T::__FIELDS);
    }
    if let Some(read_tag) = T::__VARIANTS.read_tag {
        let start = r.clone();
        let mut sub = None;
        let inner = crate::__private::exact_reader::<T>(r, &mut sub)?;
        let tag = read_tag(inner)?;
        // The derive lists the variants by tag.
        let list = T::__VARIANTS.list;
        if let Ok(i) = list.binary_search_by_key(&tag, |(each, _)| *each) {
            let fields = list[i].1;
            if T::__VARIANTS.body {
                return inner.take_body(|r| walk_fields(r, t, fields));
            }
            return walk_fields(inner, t, fields);
        }
        // An unknown tag: the enum's own decoder says what it is (`other`,
        // its body skipped) or how it fails.
        *r = start;
    }
    T::decode(r).map(drop)
}

/// The fields of a struct, read as `struct_in` reads them.
fn fields<'de, T: Unmarshal<'de>>(
    r: &mut Reader<'de>,
    t: &mut Trace,
    fields: &[Named<'de>],
) -> Result<(), DecodeError> {
    let mut sub = None;
    // A struct of exact length is checked whole, first: a short input fails
    // in its first field.
    let r = t.field(first_read(fields), |_| {
        crate::__private::exact_reader::<T>(r, &mut sub)
    })?;
    walk_fields(r, t, fields)
}

/// The site of the first field the input carries (of `fields`, which are
/// not empty): where a struct checked whole fails.
fn first_read(fields: &[Named<'_>]) -> &'static SiteNames {
    let first = fields.iter().find(|field| !field.skipped);
    first
        .or(fields.first())
        .map_or(&["", ""], |field| field.names)
}

/// The error a trace stops with at a type it does not read (see
/// `Unmarshal::__BLIND`): no decode raises it, so the error being looked
/// for is never found past it.
const BLIND: &str = "the trace does not read a type with a field read with a module";

/// Fields in order, as the derived decoder reads them; from an extensible
/// body, as `in_body` and `body_field_or` read them.
fn walk_fields<'de>(
    r: &mut Reader<'de>,
    t: &mut Trace,
    fields: &[Named<'de>],
) -> Result<(), DecodeError> {
    fields.iter().try_for_each(|field| match field.body {
        Body::No => t.field(field.names, |t| (field.walk)(r, t)),
        Body::Since if r.remaining() == 0 => Ok(()),
        Body::Always | Body::Since => t.field(field.names, |t| {
            (field.walk)(r, t).map_err(DecodeError::past_body)
        }),
    })
}

/// The walk of `len` values of `T` read as `Unmarshal::decode_vec` reads
/// them by default: charged, then one by one. (An override of `decode_vec`
/// that reads otherwise is not mirrored: the walk fails another way, and
/// the error keeps no site.)
#[cfg(feature = "alloc")]
pub(crate) fn items<'de, T: Unmarshal<'de>>(
    r: &mut Reader<'de>,
    t: &mut Trace,
    len: usize,
) -> Result<(), DecodeError> {
    if T::__LAYOUT.is_memcpy() && size_of::<T>() > 0 {
        return T::decode_vec(r, len).map(drop);
    }
    r.try_capacity_for::<T>(len)?;
    if T::MIN_LEN_IS_EXACT && T::MIN_LEN > 0 {
        let mut run = r.split(len.saturating_mul(T::MIN_LEN))?;
        return (0..len).try_for_each(|i| t.index(i, |t| T::__trace(&mut run, t)));
    }
    (0..len).try_for_each(|i| t.index(i, |t| T::__trace(r, t)))
}

/// The walk of `N` values of `T` read as `Unmarshal::decode_array` reads
/// them (by default).
pub(crate) fn array<'de, T: Unmarshal<'de>, const N: usize>(
    r: &mut Reader<'de>,
    t: &mut Trace,
) -> Result<(), DecodeError> {
    if T::__LAYOUT.is_memcpy() {
        return T::decode_array::<N>(r).map(drop);
    }
    (0..N).try_for_each(|i| t.index(i, |t| T::__trace(r, t)))
}
