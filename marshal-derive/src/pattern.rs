//! Patterns and hygienic locals, shared by the encoder and the decoder: how
//! variants are matched, how their fields are bound (`__f0`, `__f1`, ...),
//! the locals of generated code, and the literals tags are written and
//! matched as.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Field, Style, Variant};
use crate::internals::attr::TagType;

/// What an encoder reads: `self`, whose variants are `Self::V`, or in the
/// adapter impl of a `remote` mirror, the foreign value `__remote`, whose
/// variants are the foreign type's and whose fields may be read by getters.
pub(crate) struct Subject {
    /// The expression of the value, a reference.
    pub(crate) value: TokenStream,
    /// The path its variants are under.
    pub(crate) path: TokenStream,
    /// Whether it is a foreign value, whose fields `getter`s read.
    pub(crate) remote: bool,
}

impl Subject {
    /// `self`.
    pub(crate) fn this() -> Self {
        Subject {
            value: quote!(self),
            path: quote!(Self),
            remote: false,
        }
    }

    /// The foreign value `__remote` of the type at `path` (its generic
    /// arguments left out: a pattern or a struct expression infers them).
    pub(crate) fn remote(path: &syn::Path) -> Self {
        let value = local("__remote");
        Subject {
            value: quote!(#value),
            path: bare_path(path),
            remote: true,
        }
    }

    /// A field of a struct: `&value.member`, or through its `getter`. A
    /// foreign field is read spanned at the mirror's field, so that one of
    /// another type, or missing, is reported there.
    pub(crate) fn field(&self, field: &Field) -> TokenStream {
        let (value, member, ty) = (&self.value, &field.member, field.ty);
        match &field.attrs.getter {
            Some((_, getter)) if self.remote => quote_spanned! {getter.span()=>
                ::core::borrow::Borrow::<#ty>::borrow(&#getter(#value))
            },
            _ if self.remote => {
                // The value's name located there too: an expression of
                // tokens from two places is reported at the derive.
                let value = local_at("__remote", field.original.span());
                quote_spanned!(field.original.span()=> &#value.#member)
            }
            _ => quote!(&#value.#member),
        }
    }
}

/// `path` without its generic arguments.
pub(crate) fn bare_path(path: &syn::Path) -> TokenStream {
    let mut path = path.clone();
    for segment in &mut path.segments {
        segment.arguments = syn::PathArguments::None;
    }
    quote!(#path)
}

/// The pattern binding the encoded fields of a variant under `path` to
/// `__f0`, `__f1`, ...
pub(crate) fn variant_pattern_of(variant: &Variant, path: &TokenStream) -> TokenStream {
    let ident = variant.ident;
    match variant.style {
        Style::Unit => quote!(#path::#ident),
        Style::Tuple => {
            let parts = variant.fields.iter().enumerate().map(|(i, f)| {
                if f.is_encoded() {
                    binding(i)
                } else {
                    quote!(_)
                }
            });
            quote!(#path::#ident(#(#parts),*))
        }
        Style::Struct => {
            let parts = encoded_fields(variant).map(|(i, f)| {
                let member = &f.member;
                let b = binding(i);
                quote!(#member: #b)
            });
            quote!(#path::#ident { #(#parts,)* .. })
        }
    }
}

/// A variant's encoded fields with their positions, the `i` of the
/// binding `__f{i}` that [`variant_pattern`] gives each.
pub(crate) fn encoded_fields<'v, 'a>(
    variant: &'v Variant<'a>,
) -> impl Iterator<Item = (usize, &'v Field<'a>)> {
    variant
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_encoded())
}

pub(crate) fn binding(i: usize) -> TokenStream {
    let ident = local(&format!("__f{i}"));
    quote!(#ident)
}

/// A local variable of generated code. Mixed-site hygiene keeps it apart
/// from any item of the same name in the user's scope.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

pub(crate) fn tag_literal(tag: u64, tag_type: TagType) -> Literal {
    // The checks have already rejected tags that do not fit.
    match tag_type {
        TagType::U8 => Literal::u8_suffixed(u8::try_from(tag).unwrap_or(u8::MAX)),
        TagType::U16 => Literal::u16_suffixed(u16::try_from(tag).unwrap_or(u16::MAX)),
        TagType::U32 => Literal::u32_suffixed(u32::try_from(tag).unwrap_or(u32::MAX)),
    }
}

/// Like [`local`], but errors about it are reported at `span`.
pub(crate) fn local_at(name: &str, span: Span) -> Ident {
    Ident::new(name, Span::mixed_site().located_at(span))
}
