//! The internal representation of a type being derived: its shape plus its
//! parsed attributes, with the source tokens kept for error spans. Only a
//! struct or an enum can be represented: a union is rejected while building
//! it.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;

use super::attr::{self, TagType};
use super::ctxt::Ctxt;
use super::discriminant::{self, Discriminant};
use super::repr::Repr;
use super::{Derive, check};

/// A struct or enum with its `#[marshal]` attributes parsed.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a syn::Ident,
    pub(crate) attrs: attr::Container,
    pub(crate) repr: Repr,
    pub(crate) data: Data<'a>,
    pub(crate) generics: &'a syn::Generics,
}

pub(crate) enum Data<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a syn::Ident,
    pub(crate) attrs: attr::Variant,
    pub(crate) style: Style,
    pub(crate) fields: Vec<Field<'a>>,
    /// The wire tag: the explicit `tag = N`, else the discriminant under
    /// `use_discriminant = true`, else the declaration index.
    pub(crate) tag: u64,
    /// The Rust discriminant as written (`= expr`), if any.
    pub(crate) discriminant: Option<&'a syn::Expr>,
    /// Where `tag` comes from.
    pub(crate) tag_source: TagSource<'a>,
}

/// Where a variant's wire tag comes from.
#[derive(Copy, Clone)]
pub(crate) enum TagSource<'a> {
    /// `#[marshal(tag = N)]`.
    Attr,
    /// The declaration index.
    Index,
    /// The Rust discriminant (`use_discriminant = true`). The checks reject
    /// one that is negative, does not fit the tag type, or could not be
    /// evaluated; `tag` holds it when it fits a `u64`.
    Discriminant(Discriminant<'a>),
}

pub(crate) struct Field<'a> {
    /// The field as written, for error spans.
    pub(crate) original: &'a syn::Field,
    pub(crate) member: syn::Member,
    pub(crate) attrs: attr::Field,
    pub(crate) ty: &'a syn::Type,
    /// With `as = A`: `_marshal::As<A, FieldType>`, the type whose impls
    /// (the adapter's) write and read the field, spanned at the adapter.
    pub(crate) adapted: Option<syn::Type>,
    /// The type names the container itself (`Box<Self>`, `Vec<Tree>`), or
    /// leads back to it through other types, as the field's `recursive`
    /// says: its constants would depend on themselves, so they are not
    /// used.
    pub(crate) recursive: bool,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum Style {
    /// Named fields.
    Struct,
    /// Unnamed fields.
    Tuple,
    /// No fields.
    Unit,
}

impl<'a> Container<'a> {
    /// Parses the attributes of `item`, builds its representation and runs
    /// the checks for deriving `derive`, recording every error in `cx`.
    /// `None` for a union, which cannot be represented (the error says
    /// why).
    pub(crate) fn from_ast(
        cx: &Ctxt,
        item: &'a syn::DeriveInput,
        derive: Derive,
    ) -> Option<Container<'a>> {
        let attrs = attr::Container::from_ast(cx, &item.attrs);
        let repr = Repr::from_ast(&item.attrs);
        let data = match &item.data {
            syn::Data::Struct(data) => {
                let (_, fields) = struct_from_ast(cx, &item.ident, &data.fields);
                Data::Struct(fields)
            }
            syn::Data::Enum(data) => Data::Enum(enum_from_ast(
                cx,
                &item.ident,
                &data.variants,
                attrs.use_discriminant.as_ref().is_some_and(|(_, on)| *on),
            )),
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "marshal cannot be derived for a union: its active field is unknown; \
                     use an enum instead",
                );
                return None;
            }
        };
        let cont = Container {
            ident: &item.ident,
            attrs,
            repr,
            data,
            generics: &item.generics,
        };
        check::check(cx, &cont, derive);
        Some(cont)
    }

    /// Whether the type is `#[marshal(extensible)]`: written with its
    /// body's length, so that versions can add fields and variants.
    pub(crate) fn extensible(&self) -> bool {
        self.attrs.extensible.is_some()
    }

    /// How many versions the type has: its highest `since`, at least 1.
    pub(crate) fn versions(&self) -> u32 {
        let fields = self.data.all_fields().map(Field::since);
        let variants: Vec<u32> = match &self.data {
            Data::Struct(_) => Vec::new(),
            Data::Enum(variants) => variants.iter().map(Variant::since).collect(),
        };
        fields.chain(variants).max().unwrap_or(1).max(1)
    }

    /// The enum's tag type, `u32` unless set.
    pub(crate) fn tag_type(&self) -> TagType {
        self.attrs
            .tag_type
            .as_ref()
            .map_or(TagType::U32, |(_, t)| *t)
    }
}

impl<'a> Data<'a> {
    /// Every field, of every variant for an enum, in declaration order.
    pub(crate) fn all_fields(&self) -> Box<dyn Iterator<Item = &Field<'a>> + '_> {
        match self {
            Data::Struct(fields) => Box::new(fields.iter()),
            Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| &v.fields)),
        }
    }
}

impl Variant<'_> {
    /// The version that added the variant: its `since`, else 1.
    pub(crate) fn since(&self) -> u32 {
        self.attrs.since.as_ref().map_or(1, |(_, n)| *n)
    }

    /// Whether unknown tags decode as this variant (`other`).
    pub(crate) fn is_other(&self) -> bool {
        self.attrs.other.is_some()
    }
}

impl Field<'_> {
    /// The type whose impls write and read the field: its own, or with
    /// `as = A`, `As<A, FieldType>`, the adapter's.
    pub(crate) fn wire(&self) -> &syn::Type {
        self.adapted.as_ref().unwrap_or(self.ty)
    }

    /// The version that added the field: its `since`, else 1.
    pub(crate) fn since(&self) -> u32 {
        self.attrs.since.as_ref().map_or(1, |(_, n)| *n)
    }

    /// Whether the field may be missing from an input written by an older
    /// version, and then takes its default.
    pub(crate) fn is_optional(&self) -> bool {
        self.attrs.since.is_some()
    }

    /// Whether decoding needs `T: Default` for the field: it is skipped or
    /// added after version 1, with no `default = path`.
    pub(crate) fn needs_default_trait(&self) -> bool {
        (!self.is_encoded() || self.is_optional())
            && !matches!(self.attrs.default, Some((_, attr::FieldDefault::Path(_))))
    }

    /// Whether the field is written at all.
    pub(crate) fn is_encoded(&self) -> bool {
        self.attrs.skip.is_none()
    }

    /// Whether its type's size constants (`FIXED_LEN`, `MIN_LEN`, ...)
    /// describe the field: not when it is encoded `with` a module, nor when
    /// its type names the container (the constant would depend on itself).
    pub(crate) fn sized_by_type(&self) -> bool {
        self.attrs.with.is_none() && !self.recursive
    }
}

fn enum_from_ast<'a>(
    cx: &Ctxt,
    container: &syn::Ident,
    variants: &'a Punctuated<syn::Variant, syn::Token![,]>,
    use_discriminant: bool,
) -> Vec<Variant<'a>> {
    let discriminants = discriminant::evaluate(variants);
    variants
        .iter()
        .zip(discriminants)
        .enumerate()
        .map(|(index, (variant, discriminant))| {
            let attrs = attr::Variant::from_ast(cx, &variant.attrs);
            let (style, fields) = struct_from_ast(cx, container, &variant.fields);
            let (tag, tag_source) = match (&attrs.tag, use_discriminant) {
                (Some((_, tag)), _) => (*tag, TagSource::Attr),
                (None, false) => (index as u64, TagSource::Index),
                (None, true) => {
                    let value = match discriminant {
                        Discriminant::Explicit(_, value) | Discriminant::Implicit(value) => {
                            u64::try_from(value).ok()
                        }
                        Discriminant::Unknown(_) => None,
                    };
                    // A tag that cannot be used is rejected by the checks;
                    // the index stands in for it meanwhile.
                    let tag = value.unwrap_or(index as u64);
                    (tag, TagSource::Discriminant(discriminant))
                }
            };
            Variant {
                ident: &variant.ident,
                attrs,
                style,
                fields,
                tag,
                discriminant: variant.discriminant.as_ref().map(|(_, expr)| expr),
                tag_source,
            }
        })
        .collect()
}

fn struct_from_ast<'a>(
    cx: &Ctxt,
    container: &syn::Ident,
    fields: &'a syn::Fields,
) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        syn::Fields::Named(_) => Style::Struct,
        syn::Fields::Unnamed(_) => Style::Tuple,
        syn::Fields::Unit => Style::Unit,
    };
    let fields = fields
        .members()
        .zip(fields.iter())
        .map(|(member, field)| {
            let attrs = attr::Field::from_ast(cx, &field.attrs);
            let ty = &field.ty;
            let adapted = match &attrs.adapter {
                Some((_, adapter)) => {
                    let private = crate::encode::respan(crate::dummy::private(), adapter.span());
                    Some(syn::parse_quote_spanned!(adapter.span()=> #private::As<#adapter, #ty>))
                }
                // A `Cow<'static, T>`: read owned, without asking.
                None if attrs.with.is_none() => {
                    let private = crate::encode::respan(crate::dummy::private(), ty.span());
                    static_cow_adapter(ty, &private).map(|adapter| {
                        syn::parse_quote_spanned!(ty.span()=> #private::As<#adapter, #ty>)
                    })
                }
                None => None,
            };
            // Naming the container in the type, or in the adapter (a
            // `remote` mirror written through itself, `as = Box<ListDef>`).
            let recursive = attrs.recursive.is_some()
                || mentions(field.ty.to_token_stream(), container)
                || attrs
                    .adapter
                    .as_ref()
                    .is_some_and(|(_, a)| mentions(a.to_token_stream(), container));
            Field {
                original: field,
                member,
                attrs,
                ty: &field.ty,
                recursive,
                adapted,
            }
        })
        .collect();
    (style, fields)
}

/// Whether `tokens` name `ident` (or `Self`) anywhere.
pub(crate) fn mentions(tokens: TokenStream, ident: &syn::Ident) -> bool {
    any_token(
        tokens,
        &|tt| matches!(tt, TokenTree::Ident(i) if i == ident || i == "Self"),
    )
}

/// Whether any token of `tokens`, inside groups too, is one `hit` picks.
pub(crate) fn any_token(tokens: TokenStream, hit: &impl Fn(&TokenTree) -> bool) -> bool {
    tokens.into_iter().any(|tt| match tt {
        TokenTree::Group(g) => any_token(g.stream(), hit),
        tt => hit(&tt),
    })
}

/// For a field whose type holds a `Cow<'static, T>` (itself, or inside an
/// `Option`, `Vec`, `Box`, array or tuple of up to 8): the adapter that
/// reads it owned (`adapters::Owned`, composed over those containers,
/// `Same` for the rest), since no input outlives `'static` for it to
/// borrow from. `None` for any other type.
fn static_cow_adapter(ty: &syn::Type, private: &TokenStream) -> Option<TokenStream> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            if last.ident == "Cow" {
                let static_lifetime = matches!(
                    args.args.first(),
                    Some(syn::GenericArgument::Lifetime(l)) if l.ident == "static"
                );
                return static_lifetime.then(|| quote::quote!(#private::Owned));
            }
            let container = match last.ident.to_string().as_str() {
                "Option" => quote::quote!(::core::option::Option),
                "Vec" => quote::quote!(#private::Vec),
                "Box" => quote::quote!(#private::Box),
                _ => return None,
            };
            let [syn::GenericArgument::Type(inner)] = args.args.iter().collect::<Vec<_>>()[..]
            else {
                return None;
            };
            let inner = static_cow_adapter(inner, private)?;
            Some(quote::quote!(#container<#inner>))
        }
        syn::Type::Array(a) => {
            let (inner, len) = (static_cow_adapter(&a.elem, private)?, &a.len);
            Some(quote::quote!([#inner; #len]))
        }
        syn::Type::Tuple(t) if t.elems.len() <= 8 => {
            let parts: Vec<_> = t
                .elems
                .iter()
                .map(|e| static_cow_adapter(e, private))
                .collect();
            if parts.iter().all(Option::is_none) {
                return None;
            }
            let parts = parts
                .into_iter()
                .map(|p| p.unwrap_or_else(|| quote::quote!(#private::Same)));
            Some(quote::quote!((#(#parts,)*)))
        }
        syn::Type::Paren(p) => static_cow_adapter(&p.elem, private),
        syn::Type::Group(g) => static_cow_adapter(&g.elem, private),
        _ => None,
    }
}
