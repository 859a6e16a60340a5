//! Patterns and hygienic locals, shared by the encoder and the decoder: how
//! variants are matched, how their fields are bound (`__f0`, `__f1`, ...),
//! the locals of generated code, and the literals tags are written and
//! matched as.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::internals::ast::{Field, Style, Variant};
use crate::internals::attr::TagType;

/// The pattern binding a variant's encoded fields to `__f0`, `__f1`, ...
pub(crate) fn variant_pattern(variant: &Variant) -> TokenStream {
    let ident = variant.ident;
    match variant.style {
        Style::Unit => quote!(Self::#ident),
        Style::Tuple => {
            let parts = variant.fields.iter().enumerate().map(|(i, f)| {
                if f.is_encoded() {
                    binding(i)
                } else {
                    quote!(_)
                }
            });
            quote!(Self::#ident(#(#parts),*))
        }
        Style::Struct => {
            let parts = encoded_fields(variant).map(|(i, f)| {
                let member = &f.member;
                let b = binding(i);
                quote!(#member: #b)
            });
            quote!(Self::#ident { #(#parts,)* .. })
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
