//! The generics of a generated impl: the where-clause inferred as serde
//! does (every type parameter that an encoded field mentions gets the trait
//! as a bound), and the input lifetime `'__de` of `Unmarshal` impls.

use std::collections::BTreeSet;

use quote::ToTokens;

use crate::internals::ast::{Container, Field};

/// `generics` plus `P: bound` for each type parameter of `cont` (or
/// associated type path like `P::Item`) that appears in a field `filter`
/// accepts. Types inside `PhantomData<...>` need no bound.
pub(crate) fn with_bound(
    cont: &Container,
    generics: &syn::Generics,
    filter: fn(&Field) -> bool,
    bound: &syn::Path,
) -> syn::Generics {
    let params: BTreeSet<String> = cont
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let mut found: Vec<syn::Type> = Vec::new();
    let mut seen = BTreeSet::new();
    for field in cont.data.all_fields().filter(|f| filter(f)) {
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
