//! Compile-time size constants: `FIXED_LEN` and `MAX_LEN` as const
//! expressions folded from the fields' own constants.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field};

/// Which of the two size constants to build.
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
    krate: &TokenStream,
    which: SizeConst,
) -> TokenStream {
    match &cont.data {
        Data::Struct(fields) => fields_len(fields, krate, which),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let per_variant = variants.iter().map(|v| fields_len(&v.fields, krate, which));
            let fold = match which {
                SizeConst::Fixed => quote!(same),
                SizeConst::Max => quote!(max),
            };
            quote! {
                #krate::add(
                    ::core::option::Option::Some(#tag_size),
                    #krate::#fold(&[#(#per_variant),*]),
                )
            }
        }
    }
}

/// The sum of `which` over the encoded fields. A field encoded `with` a
/// module has no known size, and neither has a field whose type names the
/// container (its constant would depend on itself), so neither has the sum.
pub(crate) fn fields_len(fields: &[Field], krate: &TokenStream, which: SizeConst) -> TokenStream {
    let terms = field_consts(fields, krate, which);
    quote!(#krate::sum(&[#(#terms),*]))
}

/// The sum of the encoded fields' `FIXED_LEN`s that are known, the fields
/// without one counting 0: the part of the length that does not depend on
/// the value.
pub(crate) fn fields_fixed_part(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let terms = field_consts(fields, krate, SizeConst::Fixed);
    quote!(#krate::known_sum(&[#(#terms),*]))
}

/// `which` of each encoded field, `None` for a field encoded `with` a
/// module or naming the container.
fn field_consts<'a>(
    fields: &'a [Field],
    krate: &'a TokenStream,
    which: SizeConst,
) -> impl Iterator<Item = TokenStream> + 'a {
    let ident = which.ident();
    fields.iter().filter(|f| f.is_encoded()).map(move |f| {
        if !f.sized_by_type() {
            quote!(::core::option::Option::None)
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> <#ty as #krate::Marshal>::#ident)
        }
    })
}

/// The const expression of `Unmarshal::MIN_LEN`: the sum over the decoded
/// fields, and for an enum the tag plus the smallest variant. `'__de` is the
/// impl's input lifetime.
pub(crate) fn container_min_len(cont: &Container, krate: &TokenStream) -> TokenStream {
    match &cont.data {
        Data::Struct(fields) => fields_min_len(fields, krate),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let per_variant = variants.iter().map(|v| fields_min_len(&v.fields, krate));
            quote!(#tag_size + #krate::min_of(&[#(#per_variant),*]))
        }
    }
}

fn fields_min_len(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let terms = fields
        .iter()
        .filter(|f| f.is_encoded() && f.sized_by_type())
        .map(|f| {
            let ty = f.ty;
            quote_spanned!(ty.span()=> <#ty as #krate::Unmarshal<'__de>>::MIN_LEN)
        });
    quote!(#krate::min_sum(&[#(#terms),*]))
}

/// The const expression of `Unmarshal::MIN_LEN_IS_EXACT`: every decoded
/// field exact (and, for an enum, every variant exact and the same length).
/// A field read `with` a module, or one naming the container, is not known
/// to be exact.
pub(crate) fn container_min_len_is_exact(cont: &Container, krate: &TokenStream) -> TokenStream {
    match &cont.data {
        Data::Struct(fields) => fields_exact(fields, krate),
        Data::Enum(variants) => {
            let pairs = variants.iter().map(|v| {
                let min = fields_min_len(&v.fields, krate);
                let exact = fields_exact(&v.fields, krate);
                quote!((#min, #exact))
            });
            quote!(#krate::same_exact(&[#(#pairs),*]))
        }
    }
}

fn fields_exact(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let mut terms = Vec::new();
    for f in fields.iter().filter(|f| f.is_encoded()) {
        if !f.sized_by_type() {
            return quote!(false);
        }
        let ty = f.ty;
        terms.push(quote_spanned!(ty.span()=> <#ty as #krate::Unmarshal<'__de>>::MIN_LEN_IS_EXACT));
    }
    quote!(true #(&& #terms)*)
}

/// `FINGERPRINT`: the hash of the wire shape, folded from the encoded
/// fields' fingerprints in order (and, for an enum, the tag type and each
/// variant's tag). Names never enter it.
pub(crate) fn container_fingerprint(cont: &Container, krate: &TokenStream) -> TokenStream {
    match &cont.data {
        Data::Struct(fields) => fields_fingerprint(fields, krate),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let pairs = variants.iter().map(|v| {
                let tag = v.tag;
                let fp = fields_fingerprint(&v.fields, krate);
                quote!((#tag, #fp))
            });
            quote!(#krate::fp::enumeration(#tag_size, &[#(#pairs),*]))
        }
    }
}

fn fields_fingerprint(fields: &[Field], krate: &TokenStream) -> TokenStream {
    let parts = fields.iter().filter(|f| f.is_encoded()).map(|f| {
        if let Some(with) = &f.attrs.with {
            let path = quote!(#with).to_string().replace(' ', "");
            quote!(#krate::fp::with(#path))
        } else if f.recursive {
            quote!(#krate::fp::RECURSIVE)
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> <#ty as #krate::Marshal>::FINGERPRINT)
        }
    });
    quote!(#krate::fp::tuple(&[#(#parts),*]))
}

/// `__LAYOUT` for `trait_path` (`Marshal` or `Unmarshal<'__de>`): whether
/// a struct's wire bytes are its memory, proved from `size_of` and
/// `offset_of!`. Enums, and structs with skipped, `with` or recursive fields,
/// never qualify.
pub(crate) fn container_layout(
    cont: &Container,
    krate: &TokenStream,
    trait_path: &TokenStream,
) -> TokenStream {
    let Data::Struct(fields) = &cont.data else {
        return quote!(#krate::Layout::OPAQUE);
    };
    if fields.iter().any(|f| !f.is_encoded() || !f.sized_by_type()) {
        return quote!(#krate::Layout::OPAQUE);
    }
    let parts = fields.iter().map(|f| {
        let ty = f.ty;
        let member = &f.member;
        quote! {(
            ::core::mem::offset_of!(Self, #member),
            ::core::mem::size_of::<#ty>(),
            #krate::Layout::is_memcpy(<#ty as #trait_path>::__LAYOUT),
        )}
    });
    // SAFETY (of the generated block): `Layout::structure` requires, for
    // every field of the struct in wire order (declaration order, and no
    // field is skipped here), its `offset_of!`, its type's `size_of` and
    // whether its type's `__LAYOUT` for the same trait is memcpy. Those are
    // exactly the expressions passed, evaluated by the compiler; the
    // struct's own size is `size_of::<Self>()`, read by `structure` itself
    // from the layout's type, `Layout<Self>`.
    quote! {
        unsafe { #krate::Layout::<Self>::structure(&[#(#parts),*]) }
    }
}
