//! The length constants: `Marshal::FIXED_LEN` and `MAX_LEN`, and
//! `Unmarshal::MIN_LEN` and `MIN_LEN_IS_EXACT`, as const expressions folded
//! from the fields' own constants.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field, Variant};

/// Which of the two `Marshal` length constants to build.
#[derive(Copy, Clone)]
pub(crate) enum SizeConst {
    Fixed,
    Max,
}

impl SizeConst {
    fn ident(self) -> TokenStream {
        match self {
            SizeConst::Fixed => quote!(FIXED_LEN),
            SizeConst::Max => quote!(MAX_LEN),
        }
    }
}

/// The const expression of `which` for the whole container.
pub(crate) fn container_len(
    cont: &Container,
    private: &TokenStream,
    which: SizeConst,
) -> TokenStream {
    // An extensible type's body length: the four bytes before the fields.
    let prefix = body_prefix(cont);
    match &cont.data {
        Data::Struct(fields) if prefix > 0 => {
            let fields = fields_len(fields, private, which);
            quote!(#private::add(::core::option::Option::Some(#prefix), #fields))
        }
        Data::Struct(_) => match which {
            SizeConst::Fixed => quote!(Self::__SIZES.fixed),
            SizeConst::Max => quote!(Self::__SIZES.max),
        },
        Data::Enum(_) if matches!(which, SizeConst::Fixed) => {
            let head = cont.tag_type().size() + prefix;
            quote!(#private::fixed_len(#head, <Self as #private::Marshal>::__VARIANT_FIXED))
        }
        Data::Enum(variants) => {
            let head = cont.tag_type().size() + prefix;
            let per_variant = variants.iter().map(|v| {
                let terms = field_consts(&v.fields, private, which);
                quote!(&[#(#terms),*])
            });
            quote!(#private::max_len(#head, &[#(#per_variant),*]))
        }
    }
}

/// `Marshal::__SIZES` of a struct that is not extensible, the sum of its
/// encoded fields' (see [`container_len`], which reads both length
/// constants from it); `None` for another container.
pub(crate) fn struct_sizes(cont: &Container, private: &TokenStream) -> Option<TokenStream> {
    let Data::Struct(fields) = &cont.data else {
        return None;
    };
    if cont.extensible() {
        return None;
    }
    let terms = fields.iter().filter(|f| f.is_encoded()).map(|f| {
        if f.sized_by_type() {
            let ty = f.wire();
            quote_spanned!(ty.span()=> <#ty as #private::Marshal>::__SIZES)
        } else {
            quote!(#private::Sizes::UNKNOWN)
        }
    });
    Some(quote! {
        const __SIZES: #private::Sizes = #private::Sizes::sum(&[#(#terms),*]);
    })
}

/// `Unmarshal::__PARTS` of a struct that is not extensible: its fields'
/// parts summed, from which [`container_min_len`],
/// [`container_min_len_is_exact`] and `stack::container_stack` read its
/// constants; `None` for another container.
pub(crate) fn struct_parts(cont: &Container, private: &TokenStream) -> Option<TokenStream> {
    let Data::Struct(fields) = &cont.data else {
        return None;
    };
    // `__PARTS` is the trait's default, from `__FIELDS` (an extensible
    // struct's constants are read otherwise, and its `__PARTS` not at all).
    let (name, body) = (cont.ident.to_string(), cont.extensible());
    if let Some(named) = named_fields(&name, fields, body, private).filter(|n| !n.is_empty()) {
        return Some(quote! {
            const __FIELDS: &'__de [#private::Named<'__de>] = &[#(#named),*];
        });
    }
    if body {
        return None;
    }
    let terms = fields.iter().map(|f| {
        let ty = f.wire();
        if !f.is_encoded() {
            quote!(#private::Part::skipped::<#ty>())
        } else if f.attrs.with.is_some() {
            quote!(#private::Part::with_module::<#ty>())
        } else if f.sized_by_type() {
            quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::__PART)
        } else {
            let stack =
                quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::__STACK_FIELD);
            quote!(#private::Part::unsized_field(#stack))
        }
    });
    Some(quote! {
        const __PARTS: #private::Parts = #private::Part::sum(&[#(#terms),*]);
    })
}

/// The fields of a struct, or of an enum's variant, `ty`, listed for its
/// trace (`Unmarshal::__FIELDS`): each with its site (`&["Type",
/// "field"]`), part and walk (a skipped field's reads nothing), and when
/// they are read from an extensible `body`, marked so (`in_body`, or
/// `since` for a field added after version 1); `None` when a field is read
/// `with` a module, which the trace does not walk.
pub(crate) fn named_fields(
    ty: &str,
    fields: &[Field],
    body: bool,
    private: &TokenStream,
) -> Option<Vec<TokenStream>> {
    if fields.iter().any(|f| f.attrs.with.is_some()) {
        return None;
    }
    let named = fields.iter().map(|f| {
        let field_ty = f.wire();
        let name = match &f.member {
            syn::Member::Named(ident) => syn::ext::IdentExt::unraw(ident).to_string(),
            syn::Member::Unnamed(index) => index.index.to_string(),
        };
        let names = quote!(&[#ty, #name]);
        // Spanned at the field's type: a type that is not `Unmarshal` is
        // reported there.
        let named = if !f.is_encoded() {
            let part = quote!(#private::Part::skipped::<#field_ty>());
            quote!(#private::Named::skipped(#names, #part))
        } else {
            let of = quote_spanned!(field_ty.span()=> <#field_ty as #private::In<'__de>>);
            if f.sized_by_type() {
                quote!(#of::__FIELD.at(#names))
            } else {
                let part = quote!(#private::Part::unsized_field(#of::__STACK_FIELD));
                quote!(#private::Named::new(#names, #part, #of::__WALK))
            }
        };
        match (body, f.is_optional()) {
            (false, _) => named,
            (true, false) => quote!(#named.in_body()),
            (true, true) => quote!(#named.since()),
        }
    });
    Some(named.collect())
}

/// `Marshal::__VARIANT_FIXED` of an enum: each variant's fields' fixed
/// length, in declaration order.
pub(crate) fn variant_fixed(variants: &[Variant], private: &TokenStream) -> TokenStream {
    let sums = variants
        .iter()
        .map(|v| fields_len(&v.fields, private, SizeConst::Fixed));
    // Hidden, as the trait's items are (rustdoc hides the items of an impl
    // that the trait hides).
    quote! {
        const __VARIANT_FIXED: &'static [::core::option::Option<::core::primitive::usize>] =
            &[#(#sums),*];
    }
}

/// The bytes of an extensible type's body length, 4; 0 for other types.
pub(crate) fn body_prefix(cont: &Container) -> usize {
    if cont.extensible() { 4 } else { 0 }
}

/// The sum of `which` over the encoded fields. A field encoded `with` a
/// module has no known size, and neither has a field whose type names the
/// container (its constant would depend on itself), so neither has the sum.
pub(crate) fn fields_len(fields: &[Field], private: &TokenStream, which: SizeConst) -> TokenStream {
    let terms = field_consts(fields, private, which);
    quote!(#private::sum(&[#(#terms),*]))
}

/// `which` of each encoded field, `None` for a field encoded `with` a
/// module or naming the container.
pub(crate) fn field_consts<'a>(
    fields: &'a [Field],
    private: &'a TokenStream,
    which: SizeConst,
) -> impl Iterator<Item = TokenStream> + 'a {
    let ident = which.ident();
    fields.iter().filter(|f| f.is_encoded()).map(move |f| {
        if !f.sized_by_type() {
            quote!(::core::option::Option::None)
        } else {
            let ty = f.wire();
            quote_spanned!(ty.span()=> <#ty as #private::Marshal>::#ident)
        }
    })
}

/// The const expression of `Unmarshal::MIN_LEN`: the sum over the decoded
/// fields, and for an enum the tag plus the smallest variant. `'__de` is the
/// impl's input lifetime.
pub(crate) fn container_min_len(cont: &Container, private: &TokenStream) -> TokenStream {
    // An extensible type's is what version 1 needs: the fields added later
    // may be missing (and an unknown variant's, or `other`'s, are none).
    let prefix = body_prefix(cont);
    match &cont.data {
        Data::Struct(fields) if prefix > 0 => {
            let terms = min_terms(fields, private);
            quote!(#prefix + #private::min_sum(&[#(#terms),*]))
        }
        Data::Struct(_) => quote!(Self::__PARTS.min),
        Data::Enum(variants) => {
            let head = cont.tag_type().size() + prefix;
            let per_variant = variants.iter().map(|v| {
                let terms = min_terms(&v.fields, private);
                quote!(&[#(#terms),*])
            });
            quote!(#private::min_len(#head, &[#(#per_variant),*]))
        }
    }
}

fn min_terms<'a>(
    fields: &'a [Field],
    private: &'a TokenStream,
) -> impl Iterator<Item = TokenStream> + 'a {
    fields
        .iter()
        .filter(|f| f.is_encoded() && f.sized_by_type() && !f.is_optional())
        .map(move |f| {
            let ty = f.wire();
            quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::MIN_LEN)
        })
}

/// The const expression of `Unmarshal::MIN_LEN_IS_EXACT`: every decoded
/// field exact (and, for an enum, every variant exact and the same length).
/// A field read `with` a module, or one naming the container, is not known
/// to be exact.
pub(crate) fn container_min_len_is_exact(cont: &Container, private: &TokenStream) -> TokenStream {
    // An extensible type's body is as long as its writer's version makes
    // it, shorter or longer than this version's.
    if cont.extensible() {
        return quote!(false);
    }
    match &cont.data {
        Data::Struct(_) => quote!(Self::__PARTS.exact),
        Data::Enum(variants) => {
            let per_variant = variants.iter().map(|v| {
                let terms = v.fields.iter().filter(|f| f.is_encoded()).map(|f| {
                    if f.sized_by_type() {
                        let ty = f.wire();
                        quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::__EXACT_LEN)
                    } else {
                        quote!(::core::option::Option::None)
                    }
                });
                quote!(&[#(#terms),*])
            });
            quote!(#private::is_exact(&[#(#per_variant),*]))
        }
    }
}
