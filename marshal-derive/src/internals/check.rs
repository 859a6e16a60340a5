//! Cross-cutting checks that need more than one attribute set at a time.
//! Checks on a single attribute happen while parsing it.

use std::collections::HashMap;

use super::Derive;
use super::ast::{Container, Data};
use super::ctxt::Ctxt;

/// Runs every check for deriving `derive`, recording errors in `cx`.
pub(crate) fn check(cx: &Ctxt, cont: &Container, derive: Derive) {
    check_packed(cx, cont);
    check_tag_type_on_struct(cx, cont);
    check_bounds(cx, cont, derive);
    check_tags(cx, cont);
    check_field_attrs(cx, cont);
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
    let mut seen = HashMap::new();
    for variant in variants {
        if variant.tag > tag_type.max() {
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
        if let Some(first) = seen.insert(variant.tag, variant.ident) {
            let origin = if variant.attrs.tag.is_some() {
                String::new()
            } else {
                format!(" (`{}` by its position in the enum)", variant.ident)
            };
            let msg = format!(
                "duplicate tag {}: variants `{}` and `{}` both have it{}, so they would be \
                 indistinguishable on the wire; give one of them a distinct \
                 #[marshal(tag = ...)]",
                variant.tag, first, variant.ident, origin
            );
            match &variant.attrs.tag {
                Some((lit, _)) => cx.error_spanned_by(lit, msg),
                None => cx.error_spanned_by(variant.ident, msg),
            }
        }
    }
}

/// `skip` and `with` on one field contradict each other.
fn check_field_attrs(cx: &Ctxt, cont: &Container) {
    for field in cont.data.all_fields() {
        if let (Some(skip), Some(_)) = (&field.attrs.skip, &field.attrs.with) {
            cx.error_spanned_by(
                skip,
                "a field cannot be both `skip` and `with`: a skipped field is never encoded; \
                 remove one of them",
            );
        }
    }
}

/// `'de` in a bound is the decoder's input lifetime: it does not exist in
/// the `Marshal` impl, and cannot be told from a lifetime of the type's own
/// that is also called `'de`.
fn check_bounds(cx: &Ctxt, cont: &Container, derive: Derive) {
    let own_de = cont.generics.lifetimes().any(|l| l.lifetime.ident == "de");
    match derive {
        Derive::Marshal => {
            if let Some(bound) = &cont.attrs.encode_bound
                && bound.names_de
                && !own_de
            {
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
            if let Some(bound) = &cont.attrs.decode_bound
                && bound.names_de
                && own_de
            {
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
