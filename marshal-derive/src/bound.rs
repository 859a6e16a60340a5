//! The generics of a generated impl: the where-clause inferred as serde
//! does (every type parameter that an encoded field mentions gets the trait
//! as a bound), or the one given by `#[marshal(bound = "...")]`, and the
//! input lifetime `'__de` of `Unmarshal` impls.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::ToTokens;

use crate::internals::Derive;
use crate::internals::ast::{Container, Field};
use crate::internals::attr::binds_lifetime;

/// `generics` plus `P: bound` for each type parameter of `cont` (or
/// associated type path like `P::Item`) that appears in a field `filter`
/// accepts. Types inside `PhantomData<...>` need no bound.
///
/// With `adapted`, a field `as = A` is bound as `As<A, FieldType>: bound`
/// instead, where the adapter or the field's type names a parameter: the
/// adapter decides what the parameters need.
pub(crate) fn with_bound(
    cont: &Container,
    generics: &syn::Generics,
    filter: fn(&Field) -> bool,
    bound: &syn::Path,
    adapted: bool,
) -> syn::Generics {
    let params: BTreeSet<String> = cont
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut found: Vec<syn::Type> = Vec::new();
    let mut seen = BTreeSet::new();
    for field in cont.data.all_fields().filter(|f| filter(f)) {
        if let (true, Some(wire)) = (adapted, &field.adapted) {
            let mut names_param = false;
            collect(wire, &params, &mut |_| names_param = true);
            if names_param && seen.insert(wire.to_token_stream().to_string()) {
                found.push(wire.clone());
            }
            continue;
        }
        collect(field.ty, &params, &mut |ty| {
            if seen.insert(ty.to_token_stream().to_string()) {
                found.push(ty.clone());
            }
        });
    }
    let mut generics = generics.clone();
    let where_clause = generics.make_where_clause();
    for ty in found {
        where_clause.predicates.push(syn::parse_quote!(#ty: #bound));
    }
    generics
}

/// Calls `hit` on each type-parameter path inside `ty`.
fn collect(ty: &syn::Type, params: &BTreeSet<String>, hit: &mut dyn FnMut(&syn::Type)) {
    match ty {
        syn::Type::Path(tp) => {
            if tp.qself.is_none() {
                let first = &tp.path.segments[0];
                if tp.path.leading_colon.is_none() && params.contains(&first.ident.to_string()) {
                    hit(ty);
                    return;
                }
                if tp
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "PhantomData")
                {
                    return;
                }
            } else if let Some(qself) = &tp.qself {
                // `<T as Trait>::X` needs `<T as Trait>::X: bound`, not `T: bound`.
                let mut names_param = false;
                collect(&qself.ty, params, &mut |_| names_param = true);
                if names_param {
                    hit(ty);
                    return;
                }
            }
            for segment in &tp.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        match arg {
                            syn::GenericArgument::Type(t) => collect(t, params, hit),
                            syn::GenericArgument::AssocType(a) => collect(&a.ty, params, hit),
                            _ => {}
                        }
                    }
                }
            }
        }
        syn::Type::Reference(r) => collect(&r.elem, params, hit),
        syn::Type::Slice(s) => collect(&s.elem, params, hit),
        syn::Type::Array(a) => collect(&a.elem, params, hit),
        syn::Type::Ptr(p) => collect(&p.elem, params, hit),
        syn::Type::Paren(p) => collect(&p.elem, params, hit),
        syn::Type::Group(g) => collect(&g.elem, params, hit),
        syn::Type::Tuple(t) => t.elems.iter().for_each(|e| collect(e, params, hit)),
        _ => {}
    }
}

/// `generics` with a leading `'__de` lifetime that outlives every lifetime of
/// the type, so borrowed fields can borrow from the input.
pub(crate) fn with_de_lifetime(generics: &syn::Generics) -> syn::Generics {
    let mut generics = generics.clone();
    let bounds: Vec<syn::Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    let de: syn::LifetimeParam = if bounds.is_empty() {
        syn::parse_quote!('__de)
    } else {
        syn::parse_quote!('__de: #(#bounds)+*)
    };
    generics.params.insert(0, syn::GenericParam::Lifetime(de));
    generics
}

/// The type's own generics plus the where-clause that
/// `#[marshal(bound = "...")]` (or its `encode`/`decode` key) gives the
/// impl of `derive`, in place of the inferred bounds; `None` when none is
/// given. In a decode bound, `'de` is the impl's input lifetime `'__de`.
pub(crate) fn explicit(cont: &Container, derive: Derive) -> Option<syn::Generics> {
    let (bound, rename_de) = match derive {
        Derive::Marshal => (cont.attrs.encode_bound.as_ref()?, false),
        Derive::Unmarshal => (cont.attrs.decode_bound.as_ref()?, true),
    };
    let mut generics = cont.generics.clone();
    let where_clause = generics.make_where_clause();
    for predicate in &bound.predicates {
        where_clause.predicates.push(if rename_de {
            rename_de_in(predicate)
        } else {
            predicate.clone()
        });
    }
    Some(generics)
}

/// `predicate` with the lifetime `'de` renamed `'__de`, except where a
/// `for<'de>` binds a `'de` of its own (`T: for<'de> Unmarshal<'de>`).
fn rename_de_in(predicate: &syn::WherePredicate) -> syn::WherePredicate {
    let syn::WherePredicate::Type(p) = predicate else {
        return renamed(predicate);
    };
    if binds_lifetime(p.lifetimes.as_ref(), "de") {
        return predicate.clone();
    }
    let mut p = p.clone();
    p.bounded_ty = renamed(&p.bounded_ty);
    for bound in &mut p.bounds {
        if !matches!(bound, syn::TypeParamBound::Trait(t)
            if binds_lifetime(t.lifetimes.as_ref(), "de"))
        {
            *bound = renamed(bound);
        }
    }
    syn::WherePredicate::Type(p)
}

/// `node` with every lifetime `'de` renamed `'__de`.
fn renamed<T: ToTokens + syn::parse::Parse + Clone>(node: &T) -> T {
    // The same tokens parsed once already, with one lifetime renamed.
    syn::parse2(rename_lifetime(node.to_token_stream(), "de", "__de"))
        .unwrap_or_else(|_| node.clone())
}

/// `tokens` with every lifetime `'from` renamed `'to`. The new name
/// resolves where the derive's own `'__de` does and is reported at the
/// old one.
fn rename_lifetime(tokens: TokenStream, from: &str, to: &str) -> TokenStream {
    let mut after_quote = false;
    tokens
        .into_iter()
        .map(|tt| {
            let tt = match tt {
                TokenTree::Ident(ident) if after_quote && ident == from => {
                    TokenTree::Ident(Ident::new(to, Span::call_site().located_at(ident.span())))
                }
                TokenTree::Group(group) => {
                    let mut renamed = proc_macro2::Group::new(
                        group.delimiter(),
                        rename_lifetime(group.stream(), from, to),
                    );
                    renamed.set_span(group.span());
                    TokenTree::Group(renamed)
                }
                other => other,
            };
            after_quote = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '\'');
            tt
        })
        .collect()
}
