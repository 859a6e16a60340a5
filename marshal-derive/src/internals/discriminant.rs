//! Rust's discriminants of an enum's variants, evaluated in the macro for
//! `#[marshal(use_discriminant = true)]`, which makes them the wire tags.
//!
//! Only integer literals are evaluated, with an optional minus sign and
//! parentheses (`A = 10`, `B = -1`, `C = 0x20`); a variant without one is
//! the previous variant's discriminant plus one, the first 0, as in Rust.
//! Any other expression (`A = BASE + 1`) cannot be read here, where no
//! names or types are known, and is reported by the derive as an error:
//! the macro must know every tag, for the decoder's match, the duplicate
//! and width checks and the fingerprint.

use syn::punctuated::Punctuated;

/// The discriminant of one variant, as far as the macro can tell.
#[derive(Copy, Clone)]
pub(crate) enum Discriminant<'a> {
    /// `= value`, written as an integer literal.
    Explicit(&'a syn::Expr, i128),
    /// None written: the previous variant's plus one (0 for the first).
    Implicit(i128),
    /// Counted from `= expr` that is not an integer literal: the variant's
    /// own, or that of an earlier one that the variant counts on from.
    Unknown(&'a syn::Expr),
}

/// The discriminant of each variant, in declaration order.
pub(crate) fn evaluate(
    variants: &Punctuated<syn::Variant, syn::Token![,]>,
) -> Vec<Discriminant<'_>> {
    let mut previous: Option<Discriminant> = None;
    variants
        .iter()
        .map(|variant| {
            let this = match &variant.discriminant {
                Some((_, expr)) => match literal_value(expr) {
                    Some(value) => Discriminant::Explicit(expr, value),
                    None => Discriminant::Unknown(expr),
                },
                None => match previous {
                    None => Discriminant::Implicit(0),
                    Some(Discriminant::Explicit(_, value) | Discriminant::Implicit(value)) => {
                        // rustc reports the overflow itself; saturating keeps
                        // the value too large for any tag type.
                        Discriminant::Implicit(value.saturating_add(1))
                    }
                    Some(Discriminant::Unknown(expr)) => Discriminant::Unknown(expr),
                },
            };
            previous = Some(this);
            this
        })
        .collect()
}

/// The value of an integer literal, negated or in parentheses.
fn literal_value(expr: &syn::Expr) -> Option<i128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => lit.base10_parse::<i128>().ok(),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => literal_value(expr)?.checked_neg(),
        syn::Expr::Paren(syn::ExprParen { expr, .. })
        | syn::Expr::Group(syn::ExprGroup { expr, .. }) => literal_value(expr),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(input: &str) -> Vec<Option<i128>> {
        let item: syn::DeriveInput = syn::parse_str(input).unwrap();
        let syn::Data::Enum(data) = &item.data else {
            panic!("not an enum: {input}");
        };
        evaluate(&data.variants)
            .into_iter()
            .map(|d| match d {
                Discriminant::Explicit(_, v) | Discriminant::Implicit(v) => Some(v),
                Discriminant::Unknown(_) => None,
            })
            .collect()
    }

    #[test]
    fn counts_as_rust_does() {
        assert_eq!(values("enum E { A, B }"), [Some(0), Some(1)]);
        assert_eq!(
            values("enum E { A = 10, B, C = 3, D }"),
            [Some(10), Some(11), Some(3), Some(4)]
        );
        assert_eq!(
            values("enum E { A = -2, B, C, D = (7), E = 0x10u8 }"),
            [Some(-2), Some(-1), Some(0), Some(7), Some(16)]
        );
        assert_eq!(
            values("enum E { A = 1 + 1, B, C = 5, D }"),
            [None, None, Some(5), Some(6)]
        );
    }
}
