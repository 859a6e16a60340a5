//! `__LAYOUT`: whether a struct's wire bytes are its memory, proved at
//! compile time from `size_of` and `offset_of!`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::internals::ast::{Container, Data, Field};

/// The `__LAYOUT` item for `trait_path` (`Marshal` or `Unmarshal<'__de>`),
/// or `None` where the container certainly cannot be memcpy-equivalent, so
/// that the trait's default (opaque) stands and no layout code is emitted:
/// for an enum, for an extensible struct (its body length is not in its
/// memory), and for a struct with a field that never qualifies (see
/// [`never_memcpy`]).
pub(crate) fn container_layout(
    cont: &Container,
    private: &TokenStream,
    trait_path: &TokenStream,
) -> Option<TokenStream> {
    layout_const(cont, private, trait_path, &quote!(__LAYOUT))
}

/// The struct's `__LAYOUT_IN` in the dialect impls, whose `trait_path` is
/// `MarshalIn` or `UnmarshalIn` of the dialect: from its fields' own, as
/// [`container_layout`] makes `__LAYOUT` from theirs.
pub(crate) fn dialect_layout(
    cont: &Container,
    private: &TokenStream,
    trait_path: &TokenStream,
) -> Option<TokenStream> {
    layout_const(cont, private, trait_path, &quote!(__LAYOUT_IN))
}

/// `const #name: Layout<Self>` of a struct, from its fields' `#name` in
/// `trait_path`.
fn layout_const(
    cont: &Container,
    private: &TokenStream,
    trait_path: &TokenStream,
    name: &TokenStream,
) -> Option<TokenStream> {
    let Data::Struct(fields) = &cont.data else {
        return None;
    };
    if cont.extensible() {
        return None;
    }
    if fields.iter().any(never_memcpy) {
        return None;
    }
    let parts = fields.iter().map(|f| {
        let ty = f.ty;
        let member = &f.member;
        quote! {(
            ::core::mem::offset_of!(Self, #member),
            ::core::mem::size_of::<#ty>(),
            #private::Layout::is_memcpy(<#ty as #trait_path>::#name),
        )}
    });
    // SAFETY (of the generated block): `Layout::structure` requires, for
    // every field of the struct in wire order (declaration order, and no
    // field is skipped here), its `offset_of!`, its type's `size_of` and
    // whether its type's layout (`__LAYOUT`, or `__LAYOUT_IN` in a
    // dialect) for the same trait is memcpy. Those are
    // exactly the expressions passed, evaluated by the compiler; the
    // struct's own size is `size_of::<Self>()`, read by `structure` itself
    // from the layout's type, `Layout<Self>`.
    Some(quote! {
        const #name: #private::Layout<Self> =
            unsafe { #private::Layout::<Self>::structure(&[#(#parts),*]) };
    })
}

/// Whether the field certainly keeps its struct from being
/// memcpy-equivalent: it is skipped, encoded `with` a module or an adapter
/// (`as`), or names the container (the layout would depend on itself), or its type is one whose
/// layout is always opaque, judged from its spelling alone.
fn never_memcpy(field: &Field) -> bool {
    !field.is_encoded()
        || !field.sized_by_type()
        || field.adapted.is_some()
        || never_memcpy_type(field.ty)
}

/// Whether `ty` is spelled as a type that is never memcpy-equivalent: a
/// reference, a non-empty tuple, `bool`, `char`, `str`, `String`, `Vec<_>`,
/// `Option<_>`, or an array of one of these. Anything else may qualify and
/// gets the compile-time proof. (A user type that shadows one of these names
/// is taken for it: it stays correct, the struct is just not bulk-copied.)
fn never_memcpy_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(_) => true,
        syn::Type::Tuple(tuple) => !tuple.elems.is_empty(),
        syn::Type::Array(array) => never_memcpy_type(&array.elem),
        syn::Type::Paren(paren) => never_memcpy_type(&paren.elem),
        syn::Type::Group(group) => never_memcpy_type(&group.elem),
        syn::Type::Path(path) if path.qself.is_none() => is_opaque_std_type(&path.path),
        _ => false,
    }
}

/// `bool`, `char`, `str`, `String`, `Vec<_>` or `Option<_>`, by name or by
/// their paths in `core`, `alloc` and `std`.
fn is_opaque_std_type(path: &syn::Path) -> bool {
    const OPAQUE: &[(&[&str], &str)] = &[
        (&["core", "primitive"], "bool"),
        (&["core", "primitive"], "char"),
        (&["core", "primitive"], "str"),
        (&["alloc", "string"], "String"),
        (&["alloc", "vec"], "Vec"),
        (&["core", "option"], "Option"),
    ];
    let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let Some((last, prefix)) = segments.split_last() else {
        return false;
    };
    OPAQUE.iter().any(|(module, name)| {
        last == name
            && match prefix {
                // A bare name: the prelude's, or the primitive type.
                [] => path.leading_colon.is_none(),
                [krate, rest @ ..] => {
                    (krate == module[0] || krate == "std") && rest.iter().eq(&module[1..])
                }
            }
    })
}

#[cfg(test)]
mod tests {
    use super::never_memcpy_type;

    #[test]
    fn opaque_spellings() {
        let never: [syn::Type; 14] = [
            syn::parse_quote!(&'a str),
            syn::parse_quote!(&mut u32),
            syn::parse_quote!((u32, u32)),
            syn::parse_quote!((u8,)),
            syn::parse_quote!(bool),
            syn::parse_quote!(core::primitive::char),
            syn::parse_quote!(::std::primitive::bool),
            syn::parse_quote!(String),
            syn::parse_quote!(std::string::String),
            syn::parse_quote!(Vec<u8>),
            syn::parse_quote!(::alloc::vec::Vec<u8>),
            syn::parse_quote!(Option<u32>),
            syn::parse_quote!([bool; 4]),
            syn::parse_quote!([[Option<u8>; 2]; 3]),
        ];
        for ty in &never {
            assert!(never_memcpy_type(ty), "{}", quote::quote!(#ty));
        }
        let maybe: [syn::Type; 10] = [
            syn::parse_quote!(u32),
            syn::parse_quote!(f64),
            syn::parse_quote!([u8; 16]),
            syn::parse_quote!(()),
            syn::parse_quote!(T),
            syn::parse_quote!(Vec3),
            syn::parse_quote!(PhantomData<&'a str>),
            syn::parse_quote!(my::Option<u8>),
            syn::parse_quote!(::bool),
            syn::parse_quote!(<T as Trait>::Vec),
        ];
        for ty in &maybe {
            assert!(!never_memcpy_type(ty), "{}", quote::quote!(#ty));
        }
    }
}
