//! Cross-cutting checks that need more than one attribute set at a time.
//! Checks on a single attribute happen while parsing it.

use std::collections::HashMap;

use super::Derive;
use super::ast::{Container, Data, Field};
use super::ast::{TagSource, Variant};
use super::attr::TagType;
use super::ctxt::Ctxt;
use super::discriminant::Discriminant;

/// Runs every check for deriving `derive`, recording errors in `cx`.
pub(crate) fn check(cx: &Ctxt, cont: &Container, derive: Derive) {
    check_packed(cx, cont);
    check_tag_type_on_struct(cx, cont);
    check_use_discriminant(cx, cont);
    check_discriminant_tags(cx, cont);
    check_bounds(cx, cont, derive);
    check_tags(cx, cont);
    check_field_attrs(cx, cont);
    check_versions(cx, cont);
    check_remote(cx, cont);
}

/// Encoding takes references to fields, which `#[repr(packed)]` may leave
/// unaligned.
fn check_packed(cx: &Ctxt, cont: &Container) {
    if let Some(packed) = &cont.repr.packed {
        cx.error_spanned_by(
            packed,
            "marshal cannot be derived for a #[repr(packed)] type: encoding borrows each \
             field, and packed fields may be unaligned; remove `packed` (the wire format has \
             no padding either way)",
        );
    }
}

fn check_tag_type_on_struct(cx: &Ctxt, cont: &Container) {
    if let (Data::Struct(..), Some((tokens, _))) = (&cont.data, &cont.attrs.tag_type) {
        cx.error_spanned_by(
            tokens,
            "tag_type only applies to enums; remove it from this struct",
        );
    }
}

/// Every tag fits the tag type, and no two variants share one.
fn check_tags(cx: &Ctxt, cont: &Container) {
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    let tag_type = cont.tag_type();
    let mut seen: HashMap<u64, &Variant> = HashMap::new();
    for variant in variants {
        if let TagSource::Discriminant(discriminant) = variant.tag_source {
            // `check_discriminant_tags` reports a discriminant that is no
            // tag; it clashes with nothing.
            if !discriminant_fits(discriminant, tag_type) {
                continue;
            }
        } else if variant.tag > tag_type.max() {
            let msg = format!(
                "tag {} does not fit tag_type {} (at most {}); use a smaller tag or a wider \
                 tag_type",
                variant.tag,
                tag_type.name(),
                tag_type.max()
            );
            match &variant.attrs.tag {
                Some((lit, _)) => cx.error_spanned_by(lit, msg),
                None => cx.error_spanned_by(variant.ident, msg),
            }
        }
        if let Some(first) = seen.insert(variant.tag, variant) {
            if let (TagSource::Discriminant(_), TagSource::Discriminant(_)) =
                (first.tag_source, variant.tag_source)
            {
                // Equal discriminants: rustc reports them (E0081).
                continue;
            }
            let origin = match variant.tag_source {
                TagSource::Attr => String::new(),
                TagSource::Index => format!(" (`{}` by its position in the enum)", variant.ident),
                TagSource::Discriminant(_) => format!(" (`{}` by its discriminant)", variant.ident),
            };
            let first_origin = match first.tag_source {
                TagSource::Discriminant(_) => " (by its discriminant)",
                TagSource::Attr | TagSource::Index => "",
            };
            let msg = format!(
                "duplicate tag {}: variants `{}`{} and `{}` both have it{}, so they would be \
                 indistinguishable on the wire; give one of them a distinct \
                 #[marshal(tag = ...)]",
                variant.tag, first.ident, first_origin, variant.ident, origin
            );
            cx.error_spanned_by(tag_tokens(variant), msg);
        }
    }
}

/// The tokens an error about a variant's tag spans: its `tag = N` literal,
/// its written discriminant when that is the tag, else its name.
fn tag_tokens(variant: &Variant) -> proc_macro2::TokenStream {
    use quote::ToTokens;
    match (&variant.attrs.tag, variant.tag_source) {
        (Some((lit, _)), _) => lit.to_token_stream(),
        (None, TagSource::Discriminant(Discriminant::Explicit(expr, _))) => expr.to_token_stream(),
        _ => variant.ident.to_token_stream(),
    }
}

/// `use_discriminant` only on an enum; and an enum with explicit
/// discriminants must say whether they are its tags.
fn check_use_discriminant(cx: &Ctxt, cont: &Container) {
    match (&cont.data, &cont.attrs.use_discriminant) {
        (Data::Struct(..), Some((tokens, _))) => cx.error_spanned_by(
            tokens,
            "use_discriminant only applies to enums; remove it from this struct",
        ),
        (Data::Enum(variants), None) => {
            let Some((index, variant, expr)) = variants
                .iter()
                .enumerate()
                .find_map(|(i, v)| v.discriminant.map(|expr| (i, v, expr)))
            else {
                return;
            };
            let ident = variant.ident;
            let value = match variant.tag_source {
                TagSource::Discriminant(Discriminant::Explicit(_, value)) => value.to_string(),
                _ => quote::ToTokens::to_token_stream(expr).to_string(),
            };
            cx.error_spanned_by(
                expr,
                format!(
                    "`{}` has explicit discriminants, so say which numbers its wire tags are: \
                     #[marshal(use_discriminant = true)] on the enum writes each variant's \
                     discriminant (`{ident}` as {value}), #[marshal(use_discriminant = false)] \
                     its declaration index (`{ident}` as {index}), as bincode does",
                    cont.ident
                ),
            );
        }
        _ => {}
    }
}

/// Whether a discriminant can be a tag of `tag_type`.
fn discriminant_fits(discriminant: Discriminant, tag_type: TagType) -> bool {
    match discriminant {
        Discriminant::Explicit(_, value) | Discriminant::Implicit(value) => {
            u64::try_from(value).is_ok_and(|tag| tag <= tag_type.max())
        }
        Discriminant::Unknown(_) => false,
    }
}

/// Under `use_discriminant = true`, each variant's discriminant (without a
/// `tag` of its own) is its tag: it must be known to the derive, not
/// negative, and fit the tag type.
fn check_discriminant_tags(cx: &Ctxt, cont: &Container) {
    let Data::Enum(variants) = &cont.data else {
        return;
    };
    let tag_type = cont.tag_type();
    // Each expression the derive cannot evaluate, with the variants whose
    // tags come from it.
    let mut unevaluated: Vec<(&syn::Expr, Vec<&syn::Ident>)> = Vec::new();
    for variant in variants {
        let TagSource::Discriminant(discriminant) = variant.tag_source else {
            continue;
        };
        let ident = variant.ident;
        let (value, problem) = match discriminant {
            Discriminant::Unknown(expr) => {
                match unevaluated.iter_mut().find(|(e, _)| std::ptr::eq(*e, expr)) {
                    Some((_, idents)) => idents.push(ident),
                    None => unevaluated.push((expr, vec![ident])),
                }
                continue;
            }
            _ if discriminant_fits(discriminant, tag_type) => continue,
            Discriminant::Explicit(_, value) | Discriminant::Implicit(value) if value < 0 => (
                value,
                format!(
                    "cannot be its wire tag (use_discriminant = true): tags are unsigned; give \
                     `{ident}` a #[marshal(tag = N)], or number the variants by position with \
                     #[marshal(use_discriminant = false)]"
                ),
            ),
            Discriminant::Explicit(_, value) | Discriminant::Implicit(value) => (
                value,
                format!(
                    "does not fit tag_type {} (at most {}), and with use_discriminant = true it \
                     is the wire tag; use a smaller discriminant, a wider tag_type, or give \
                     `{ident}` a #[marshal(tag = N)]",
                    tag_type.name(),
                    tag_type.max()
                ),
            ),
        };
        match discriminant {
            Discriminant::Explicit(expr, _) => {
                cx.error_spanned_by(expr, format!("discriminant {value} of `{ident}` {problem}"))
            }
            _ => cx.error_spanned_by(
                ident,
                format!(
                    "`{ident}` has the discriminant {value}, one more than the variant before \
                     it, which {problem}"
                ),
            ),
        }
    }
    for (expr, idents) in unevaluated {
        let names: Vec<String> = idents.iter().map(|i| format!("`{i}`")).collect();
        let (list, them) = match names.as_slice() {
            [one] => (format!("the wire tag of {one} comes"), "it"),
            [init @ .., last] => (
                format!("the wire tags of {} and {last} come", init.join(", ")),
                "each of them",
            ),
            [] => continue,
        };
        cx.error_spanned_by(
            expr,
            format!(
                "the derive cannot evaluate this discriminant, which {list} from \
                 (use_discriminant = true): it reads integer literals only, like `= 16` or \
                 `= -1`; write the value as a literal, or give {them} a #[marshal(tag = N)]"
            ),
        );
    }
}

/// `'de` in a bound is the decoder's input lifetime: it does not exist in
/// the `Marshal` impl, and cannot be told from a lifetime of the type's own
/// that is also called `'de`.
fn check_bounds(cx: &Ctxt, cont: &Container, derive: Derive) {
    let own_de = cont.generics.lifetimes().any(|l| l.lifetime.ident == "de");
    match derive {
        Derive::Marshal => {
            let stray = cont.attrs.encode_bound.as_ref();
            if let Some(bound) = stray.filter(|bound| bound.names_de && !own_de) {
                let fix = if bound.shared {
                    "give each impl its own bound, with `'de` only in the decode one: \
                     #[marshal(bound(encode = \"...\", decode = \"...\"))]"
                } else {
                    "remove it from the encode bound"
                };
                cx.error_spanned_by(
                    &bound.lit,
                    format!(
                        "`'de` names the decoder's input lifetime, which the Marshal impl does \
                         not have; {fix}"
                    ),
                );
            }
        }
        Derive::Unmarshal => {
            let clash = cont.attrs.decode_bound.as_ref();
            if let Some(bound) = clash.filter(|bound| bound.names_de && own_de) {
                cx.error_spanned_by(
                    &bound.lit,
                    format!(
                        "`'de` in a decode bound names the decoder's input lifetime, but `{}` \
                         has a lifetime parameter `'de` of its own; rename that parameter (to \
                         `'a`, say) so that the bound can name the input's",
                        cont.ident
                    ),
                );
            }
        }
    }
}

/// `skip`, `with` and `as` on one field contradict each other; `recursive`
/// means nothing with `skip` or `with`.
fn check_field_attrs(cx: &Ctxt, cont: &Container) {
    for field in cont.data.all_fields() {
        if let Some(recursive) = &field.attrs.recursive {
            let other = match (&field.attrs.skip, &field.attrs.with) {
                (Some(_), _) => Some(("skip", "a skipped field is never encoded")),
                (_, Some(_)) => Some(("with", "its module encodes it, not its type")),
                _ => None,
            };
            if let Some((key, why)) = other {
                cx.error_spanned_by(
                    recursive,
                    format!(
                        "a field cannot be both `{key}` and `recursive`: {why}, so it closes \
                         no cycle of types; remove `recursive`"
                    ),
                );
            }
        }
        if let (Some(skip), Some(_)) = (&field.attrs.skip, &field.attrs.with) {
            cx.error_spanned_by(
                skip,
                "a field cannot be both `skip` and `with`: a skipped field is never encoded; \
                 remove one of them",
            );
        }
        if let Some((tokens, _)) = &field.attrs.adapter {
            if field.attrs.skip.is_some() {
                cx.error_spanned_by(
                    tokens,
                    "a field cannot be both `skip` and `as`: a skipped field is never encoded; \
                     remove one of them",
                );
            }
            if field.attrs.with.is_some() {
                cx.error_spanned_by(
                    tokens,
                    "a field cannot be both `with` and `as`: each says how the field is encoded; \
                     keep one (an adapter, `as = A`, keeps the field's sizes and reads through \
                     the caller's reader)",
                );
            }
        }
    }
}

/// The attributes of evolving types: `since`, `other` and `history` only on
/// an extensible type; `other` on one unit variant; versions that never
/// decrease, each added field with a default; `default` only where a field
/// can be missing from the input.
fn check_versions(cx: &Ctxt, cont: &Container) {
    let name = cont.ident;
    let extensible = cont.extensible();
    let not_extensible = |tokens: &dyn quote::ToTokens, what: &str| {
        cx.error_spanned_by(
            tokens,
            format!(
                "`{what}` applies only to extensible types: add #[marshal(extensible)] to \
                 `{name}` (which changes its wire format: it is then written with its body's \
                 length)"
            ),
        );
    };
    if !extensible {
        if let Some((tokens, _)) = &cont.attrs.history {
            not_extensible(tokens, "history");
        }
    }
    match &cont.data {
        Data::Struct(fields) => check_field_versions(cx, fields, extensible, &not_extensible),
        Data::Enum(variants) => {
            let mut other: Option<&Variant> = None;
            for variant in variants {
                if let Some((lit, _)) = &variant.attrs.since {
                    if !extensible {
                        not_extensible(lit, "since");
                    }
                }
                if let Some(tokens) = &variant.attrs.other {
                    if !extensible {
                        not_extensible(tokens, "other");
                    } else if !variant.fields.is_empty() {
                        cx.error_spanned_by(
                            tokens,
                            format!(
                                "the `other` variant has no fields: unknown variants decode as \
                                 it, and their fields are skipped; make `{}` a unit variant",
                                variant.ident
                            ),
                        );
                    } else if let Some(first) = other {
                        cx.error_spanned_by(
                            tokens,
                            format!(
                                "only one variant can be `other`, the one unknown variants \
                                 decode as, and `{}` already is; remove one of them",
                                first.ident
                            ),
                        );
                    } else {
                        other = Some(variant);
                    }
                }
                check_field_versions(cx, &variant.fields, extensible, &not_extensible);
            }
        }
    }
}

/// The fields' `since` and `default`, in declaration order.
fn check_field_versions(
    cx: &Ctxt,
    fields: &[Field],
    extensible: bool,
    not_extensible: &dyn Fn(&dyn quote::ToTokens, &str),
) {
    // The highest version so far, and the field that has it.
    let mut latest: Option<(u32, &Field)> = None;
    for field in fields {
        let Some((lit, since)) = &field.attrs.since else {
            if !field.is_encoded() {
                continue;
            }
            if let Some((tokens, _)) = &field.attrs.default {
                cx.error_spanned_by(
                    tokens,
                    "`default` applies to fields that the input may not carry: those added \
                     after version 1 (`since`) and skipped ones (`skip`); a version-1 field is \
                     always on the wire, so remove `default`, or add `since`",
                );
            }
            if let Some((version, later)) = latest {
                cx.error_spanned_by(
                    field_tokens(field),
                    format!(
                        "{} is version 1 (it has no `since`) but follows {}, added in version \
                         {version}: versions never decrease in declaration order, so released \
                         fields keep their places; put new fields at the end, with a `since`",
                        describe(field),
                        describe(later),
                    ),
                );
            }
            continue;
        };
        if !extensible {
            not_extensible(lit, "since");
            continue;
        }
        if *since < 2 {
            // Reported while parsing.
            continue;
        }
        if let Some(skip) = &field.attrs.skip {
            cx.error_spanned_by(
                skip,
                "a skipped field is not on the wire, so it belongs to no version; remove \
                 `since` (a skipped field takes its `default` when decoded)",
            );
            continue;
        }
        if field.attrs.default.is_none() {
            cx.error_spanned_by(
                lit,
                format!(
                    "{} was added in version {since}, so data written before it lacks it: \
                     give it a default, #[marshal(since = {since}, default)] or \
                     #[marshal(since = {since}, default = path)] with a `fn() -> T`",
                    describe(field)
                ),
            );
        }
        match latest {
            Some((version, later)) if version > *since => cx.error_spanned_by(
                lit,
                format!(
                    "{} is version {since} but follows {}, added in version {version}: \
                     versions never decrease in declaration order; put it after the version \
                     {version} fields, or give it since = {version} or more",
                    describe(field),
                    describe(later),
                ),
            ),
            Some((version, _)) if version == *since => {}
            _ => latest = Some((*since, field)),
        }
    }
}

/// "field `name`", or "field 0" for a tuple field.
fn describe(field: &Field) -> String {
    match &field.member {
        syn::Member::Named(ident) => format!("field `{ident}`"),
        syn::Member::Unnamed(index) => format!("field {}", index.index),
    }
}

/// The tokens an error about a field spans: its name, or its type for a
/// tuple field.
fn field_tokens(field: &Field) -> proc_macro2::TokenStream {
    match &field.original.ident {
        Some(ident) => quote::ToTokens::to_token_stream(ident),
        None => quote::ToTokens::to_token_stream(&field.original.ty),
    }
}

/// `getter` reads a field of a `remote` type's struct: only there, and
/// only on a field that is written.
fn check_remote(cx: &Ctxt, cont: &Container) {
    let remote = cont.attrs.remote.is_some();
    let in_struct = matches!(cont.data, Data::Struct(_));
    for field in cont.data.all_fields() {
        let Some((tokens, _)) = &field.attrs.getter else {
            continue;
        };
        if !remote {
            cx.error_spanned_by(
                tokens,
                "`getter` reads a field of a foreign type: it needs \
                 #[marshal(remote = path::Type)] on the type, naming that foreign type",
            );
        } else if !in_struct {
            cx.error_spanned_by(
                tokens,
                "`getter` is for the fields of a foreign struct; an enum's variants are \
                 matched by their fields, which must be visible",
            );
        } else if field.attrs.skip.is_some() {
            cx.error_spanned_by(
                tokens,
                "a field cannot be both `skip` and `getter`: a skipped field is never read; \
                 remove one of them",
            );
        } else if field.attrs.with.is_some() {
            cx.error_spanned_by(
                tokens,
                "a field read by a `getter` cannot be written `with` a module, which borrows \
                 the field; write it with an adapter instead (`as = A`)",
            );
        }
    }
}
