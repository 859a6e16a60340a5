//! Parses `#[marshal(...)]` on containers, variants and fields.
//!
//! Parsers never fail: each problem is recorded in the [`Ctxt`] and parsing
//! goes on, so one build reports every bad attribute.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;

use super::ctxt::Ctxt;
use super::symbol::{
    AS, CRATE, DEFAULT, EXTENSIBLE, GETTER, HISTORY, MARSHAL, MAX_SIZE, OTHER, RECURSIVE, REMOTE,
    SINCE, SIZE, SKIP, Symbol, TAG, TAG_TYPE, WITH,
};
use super::symbol::{BOUND, DECODE, ENCODE, USE_DISCRIMINANT};

/// A value that may be set at most once.
struct Attr<'c, T> {
    cx: &'c Ctxt,
    name: Symbol,
    tokens: TokenStream,
    value: Option<T>,
}

impl<'c, T> Attr<'c, T> {
    fn none(cx: &'c Ctxt, name: Symbol) -> Self {
        Attr {
            cx,
            name,
            tokens: TokenStream::new(),
            value: None,
        }
    }

    fn set<A: ToTokens>(&mut self, obj: A, value: T) {
        let tokens = obj.into_token_stream();
        if self.value.is_some() {
            self.cx.error_spanned_by(
                tokens,
                format!("duplicate marshal attribute `{}`", self.name),
            );
        } else {
            self.tokens = tokens;
            self.value = Some(value);
        }
    }

    fn get(self) -> Option<T> {
        self.value
    }

    fn get_with_tokens(self) -> Option<(TokenStream, T)> {
        self.value.map(|v| (self.tokens, v))
    }
}

/// The integer type of an enum's wire tag.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum TagType {
    U8,
    U16,
    U32,
}

impl TagType {
    /// Bytes the tag takes on the wire.
    pub(crate) fn size(self) -> usize {
        match self {
            TagType::U8 => 1,
            TagType::U16 => 2,
            TagType::U32 => 4,
        }
    }

    /// The largest tag value this type can carry.
    pub(crate) fn max(self) -> u64 {
        match self {
            TagType::U8 => u8::MAX.into(),
            TagType::U16 => u16::MAX.into(),
            TagType::U32 => u32::MAX.into(),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            TagType::U8 => "u8",
            TagType::U16 => "u16",
            TagType::U32 => "u32",
        }
    }
}

/// `#[marshal(...)]` on a struct or enum.
pub(crate) struct Container {
    /// `crate = path`: where the runtime is, when not at `::marshal`.
    pub(crate) crate_path: Option<syn::Path>,
    /// `tag_type = u8|u16|u32`, with the key's tokens.
    pub(crate) tag_type: Option<(TokenStream, TagType)>,
    /// `use_discriminant = true|false`, with the key's tokens: whether an
    /// enum's Rust discriminants are its wire tags.
    pub(crate) use_discriminant: Option<(TokenStream, bool)>,
    /// `bound = "..."` or `bound(encode = "...")`: the where-clause of the
    /// `Marshal` impl, instead of the inferred bounds.
    pub(crate) encode_bound: Option<Bound>,
    /// `bound = "..."` or `bound(decode = "...")`: the where-clause of the
    /// `Unmarshal` impl, instead of the inferred bounds.
    pub(crate) decode_bound: Option<Bound>,
    /// `size = N`: the type must always encode to exactly N bytes.
    pub(crate) size: Option<(TokenStream, usize)>,
    /// `max_size = N`: the type's maximum encoded length must be N.
    pub(crate) max_size: Option<(TokenStream, usize)>,
    /// `extensible`: the type is written with its body's length, so that
    /// versions of it can add fields (and an enum variants).
    pub(crate) extensible: Option<TokenStream>,
    /// `history = [0x..., ...]`: the fingerprints of the released versions,
    /// oldest first, with the key's tokens.
    pub(crate) history: Option<(TokenStream, Vec<u64>)>,
    /// `remote = path::Type`: the type is a mirror of that foreign type,
    /// and an adapter for it, with the key's tokens.
    pub(crate) remote: Option<(TokenStream, syn::Path)>,
}

/// `#[marshal(...)]` on an enum variant.
pub(crate) struct Variant {
    /// `tag = N`: the explicit wire tag, with its literal.
    pub(crate) tag: Option<(syn::LitInt, u64)>,
    /// `other`: unknown tags decode as this unit variant.
    pub(crate) other: Option<TokenStream>,
    /// `since = N`: the version that added the variant, with its literal.
    pub(crate) since: Option<(syn::LitInt, u32)>,
}

/// `#[marshal(...)]` on a field.
pub(crate) struct Field {
    /// `skip`: the field is not encoded.
    pub(crate) skip: Option<TokenStream>,
    /// `with = path`: a module that encodes the field.
    pub(crate) with: Option<syn::Path>,
    /// `as = Type`: the adapter that encodes the field, with the key's
    /// tokens.
    pub(crate) adapter: Option<(TokenStream, syn::Type)>,
    /// `getter = path`: in a `remote` mirror, the function that reads the
    /// foreign field (a private one), with the key's tokens.
    pub(crate) getter: Option<(TokenStream, syn::Path)>,
    /// `since = N`: the version that added the field, with its literal.
    pub(crate) since: Option<(syn::LitInt, u32)>,
    /// `default` or `default = path`: the value of a field that the input
    /// does not carry, with the key's tokens.
    pub(crate) default: Option<(TokenStream, FieldDefault)>,
    /// `recursive`: the field leads back to its container through other
    /// types (mutual recursion), with the key's tokens.
    pub(crate) recursive: Option<TokenStream>,
}

/// Where the value of a field the input does not carry comes from.
pub(crate) enum FieldDefault {
    /// `default`: `Default::default()`.
    Trait,
    /// `default = path`: a `fn() -> T`.
    Path(syn::Path),
}

const CONTAINER_KEYS: &[&str] = &[
    "crate",
    "tag_type",
    "size",
    "max_size",
    "bound",
    "use_discriminant",
    "extensible",
    "history",
    "remote",
];
const VARIANT_KEYS: &[&str] = &["tag", "other", "since"];
const FIELD_KEYS: &[&str] = &[
    "skip",
    "with",
    "as",
    "since",
    "default",
    "getter",
    "recursive",
];

impl Container {
    pub(crate) fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut crate_path = Attr::none(cx, CRATE);
        let mut tag_type = Attr::none(cx, TAG_TYPE);
        let mut use_discriminant = Attr::none(cx, USE_DISCRIMINANT);
        let mut bounds = Bounds::default();
        let mut size = Attr::none(cx, SIZE);
        let mut max_size = Attr::none(cx, MAX_SIZE);
        let mut extensible = Attr::none(cx, EXTENSIBLE);
        let mut history = Attr::none(cx, HISTORY);
        let mut remote = Attr::none(cx, REMOTE);
        for_each_marshal_meta(cx, attrs, |meta| {
            if meta.path == REMOTE {
                remote.set(&meta.path, parse_value::<syn::Path>(&meta)?);
            } else if meta.path == EXTENSIBLE {
                no_value(cx, &meta, "extensible")?;
                extensible.set(&meta.path, ());
            } else if meta.path == HISTORY {
                if let Some(pinned) = parse_history(cx, &meta)? {
                    history.set(&meta.path, pinned);
                }
            } else if meta.path == SIZE || meta.path == MAX_SIZE {
                let expr: syn::Expr = meta.value()?.parse()?;
                let value = match &expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(lit),
                        ..
                    }) => lit.base10_parse::<usize>().ok(),
                    _ => None,
                };
                match value {
                    Some(n) if meta.path == SIZE => size.set(&meta.path, n),
                    Some(n) => max_size.set(&meta.path, n),
                    None => cx.error_spanned_by(
                        &expr,
                        format!(
                            "{} must be a byte count, like #[marshal({} = 16)]",
                            meta.path.to_token_stream(),
                            meta.path.to_token_stream()
                        ),
                    ),
                }
            } else if meta.path == CRATE {
                if let Some(path) = parse_path_value(&meta)? {
                    crate_path.set(&meta.path, path);
                }
            } else if meta.path == TAG_TYPE {
                let value = meta.value()?;
                let (name, tokens) = if value.peek(syn::LitStr) {
                    let lit: syn::LitStr = value.parse()?;
                    (lit.value(), lit.into_token_stream())
                } else {
                    let tokens: syn::Type = value.parse()?;
                    (
                        tokens.to_token_stream().to_string(),
                        tokens.into_token_stream(),
                    )
                };
                let ty = match name.as_str() {
                    "u8" => TagType::U8,
                    "u16" => TagType::U16,
                    "u32" => TagType::U32,
                    _ => {
                        cx.error_spanned_by(
                            tokens,
                            "tag_type must be one of `u8`, `u16` or `u32`, \
                             like #[marshal(tag_type = u8)]",
                        );
                        return Ok(());
                    }
                };
                tag_type.set(&meta.path, ty);
            } else if meta.path == BOUND {
                bounds.parse(cx, &meta)?;
            } else if meta.path == USE_DISCRIMINANT {
                // A missing or invalid value is kept as `false`, once
                // reported, so that no follow-on error asks for the key.
                let value = parse_bool_value(cx, &meta, "use_discriminant")?;
                use_discriminant.set(&meta.path, value.unwrap_or(false));
            } else {
                unknown_key(cx, &meta, "container", CONTAINER_KEYS)?;
            }
            Ok(())
        });
        Container {
            crate_path: crate_path.get(),
            tag_type: tag_type.get_with_tokens(),
            use_discriminant: use_discriminant.get_with_tokens(),
            encode_bound: bounds.encode,
            decode_bound: bounds.decode,
            size: size.get_with_tokens(),
            max_size: max_size.get_with_tokens(),
            extensible: extensible.get_with_tokens().map(|(tokens, ())| tokens),
            history: history.get_with_tokens(),
            remote: remote.get_with_tokens(),
        }
    }

    /// Where the runtime is: `crate = path`, or `::marshal`.
    pub(crate) fn crate_path(&self) -> syn::Path {
        self.crate_path
            .clone()
            .unwrap_or_else(|| syn::parse_quote!(::marshal))
    }
}

impl Variant {
    pub(crate) fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut tag = Attr::none(cx, TAG);
        let mut other = Attr::none(cx, OTHER);
        let mut since = Attr::none(cx, SINCE);
        for_each_marshal_meta(cx, attrs, |meta| {
            if meta.path == OTHER {
                no_value(cx, &meta, "other")?;
                other.set(&meta.path, ());
            } else if meta.path == SINCE {
                if let Some(version) = parse_since(cx, &meta)? {
                    since.set(&meta.path, version);
                }
            } else if meta.path == TAG {
                let expr: syn::Expr = meta.value()?.parse()?;
                let parsed = match &expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(lit),
                        ..
                    }) => lit.base10_parse::<u64>().ok().map(|v| (lit.clone(), v)),
                    _ => None,
                };
                match parsed {
                    Some((lit, value)) => tag.set(&meta.path, (lit, value)),
                    None => cx.error_spanned_by(
                        &expr,
                        "tag must be a non-negative integer literal, like #[marshal(tag = 2)]",
                    ),
                }
            } else {
                unknown_key(cx, &meta, "variant", VARIANT_KEYS)?;
            }
            Ok(())
        });
        Variant {
            tag: tag.get(),
            other: other.get_with_tokens().map(|(tokens, ())| tokens),
            since: since.get(),
        }
    }
}

impl Field {
    pub(crate) fn from_ast(cx: &Ctxt, attrs: &[syn::Attribute]) -> Self {
        let mut skip = Attr::none(cx, SKIP);
        let mut with = Attr::none(cx, WITH);
        let mut adapter = Attr::none(cx, AS);
        let mut getter = Attr::none(cx, GETTER);
        let mut since = Attr::none(cx, SINCE);
        let mut default = Attr::none(cx, DEFAULT);
        let mut recursive = Attr::none(cx, RECURSIVE);
        for_each_marshal_meta(cx, attrs, |meta| {
            if meta.path == SKIP {
                no_value(cx, &meta, "skip")?;
                skip.set(&meta.path, ());
            } else if meta.path == RECURSIVE {
                no_value(cx, &meta, "recursive")?;
                recursive.set(&meta.path, ());
            } else if meta.path == SINCE {
                if let Some(version) = parse_since(cx, &meta)? {
                    since.set(&meta.path, version);
                }
            } else if meta.path == DEFAULT {
                if meta.input.peek(syn::Token![=]) {
                    if let Some(path) = parse_path_value(&meta)? {
                        default.set(&meta.path, FieldDefault::Path(path));
                    }
                } else {
                    default.set(&meta.path, FieldDefault::Trait);
                }
            } else if meta.path == WITH {
                if let Some(path) = parse_path_value(&meta)? {
                    with.set(&meta.path, path);
                }
            } else if meta.path == AS {
                adapter.set(&meta.path, parse_value::<syn::Type>(&meta)?);
            } else if meta.path == GETTER {
                getter.set(&meta.path, parse_value::<syn::Path>(&meta)?);
            } else {
                unknown_key(cx, &meta, "field", FIELD_KEYS)?;
            }
            Ok(())
        });
        Field {
            skip: skip.get_with_tokens().map(|(tokens, ())| tokens),
            with: with.get(),
            adapter: adapter.get_with_tokens(),
            getter: getter.get_with_tokens(),
            since: since.get(),
            default: default.get_with_tokens(),
            recursive: recursive.get_with_tokens().map(|(tokens, ())| tokens),
        }
    }
}

/// A where-clause given by `bound = "..."` or `bound(encode = "...",
/// decode = "...")`, replacing the bounds the derive infers for one impl.
#[derive(Clone)]
pub(crate) struct Bound {
    /// The string, which errors about the bound span.
    pub(crate) lit: syn::LitStr,
    /// Its predicates, spanned at the string.
    pub(crate) predicates: Punctuated<syn::WherePredicate, syn::Token![,]>,
    /// Whether it names the lifetime `'de`.
    pub(crate) names_de: bool,
    /// Given by `bound = "..."`, which sets the bounds of both impls.
    pub(crate) shared: bool,
}

/// The two bounds while the attributes are parsed.
#[derive(Default)]
struct Bounds {
    encode: Option<Bound>,
    decode: Option<Bound>,
}

impl Bounds {
    /// Parses `bound = "..."`, which sets both bounds, or
    /// `bound(encode = "...", decode = "...")`, which sets either or both.
    fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
        if meta.input.peek(syn::token::Paren) {
            return meta.parse_nested_meta(|inner| {
                let (slot, key) = if inner.path == ENCODE {
                    (&mut self.encode, "encode")
                } else if inner.path == DECODE {
                    (&mut self.decode, "decode")
                } else {
                    return unknown_bound_key(cx, &inner);
                };
                let Some(bound) = parse_bound_value(cx, &inner, Some(key))? else {
                    return Ok(());
                };
                if let Some(earlier) = slot.as_ref() {
                    let by = if earlier.shared {
                        "by `bound = \"...\"`, which sets both"
                    } else {
                        "earlier"
                    };
                    cx.error_spanned_by(
                        &inner.path,
                        format!(
                            "duplicate marshal attribute `bound({key})`: the {key} bound is \
                             already set {by}; remove one of them"
                        ),
                    );
                } else {
                    *slot = Some(bound);
                }
                Ok(())
            });
        }
        if !meta.input.peek(syn::Token![=]) {
            cx.error_spanned_by(
                &meta.path,
                "bound needs a where-clause: #[marshal(bound = \"T: Trait\")] for both impls, \
                 or #[marshal(bound(encode = \"...\", decode = \"...\"))] for each",
            );
            return Ok(());
        }
        let Some(bound) = parse_bound_value(cx, meta, None)? else {
            return Ok(());
        };
        if self.encode.is_some() || self.decode.is_some() {
            cx.error_spanned_by(&meta.path, "duplicate marshal attribute `bound`");
            return Ok(());
        }
        let bound = Bound {
            shared: true,
            ..bound
        };
        self.encode = Some(bound.clone());
        self.decode = Some(bound);
        Ok(())
    }
}

/// Parses `= "predicates"`, the value of `bound` or of `key` inside
/// `bound(...)`.
fn parse_bound_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: Option<&str>,
) -> syn::Result<Option<Bound>> {
    let (name, example) = match key {
        None => (
            "bound".to_owned(),
            "#[marshal(bound = \"T: MyTrait\")]".to_owned(),
        ),
        Some(key) => (
            format!("bound({key} = ...)"),
            format!("#[marshal(bound({key} = \"T: MyTrait\"))]"),
        ),
    };
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("{name} needs a where-clause in a string, like {example}"),
        );
        return Ok(None);
    }
    // Everything up to the next key, so that an unquoted where-clause is
    // one error, not one for each of its tokens.
    let value = meta.value()?;
    let mut tokens = TokenStream::new();
    while !value.is_empty() && !value.peek(syn::Token![,]) {
        tokens.extend([value.parse::<proc_macro2::TokenTree>()?]);
    }
    let Ok(lit) = syn::parse2::<syn::LitStr>(tokens.clone()) else {
        cx.error_spanned_by(
            tokens,
            format!("{name} must be a string of where-clause predicates, like {example}"),
        );
        return Ok(None);
    };
    let parsed =
        lit.parse_with(Punctuated::<syn::WherePredicate, syn::Token![,]>::parse_terminated);
    match parsed {
        Ok(predicates) => Ok(Some(Bound {
            lit,
            names_de: predicates.iter().any(names_free_de),
            predicates,
            shared: false,
        })),
        Err(err) => {
            cx.error_spanned_by(
                &lit,
                format!(
                    "{name} is not a where-clause ({err}): write its predicates separated by \
                     commas, like \"T: MyTrait, U: Other<T>\""
                ),
            );
            Ok(None)
        }
    }
}

/// Records an unknown key inside `bound(...)` and skips its value.
fn unknown_bound_key(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
    let name = meta.path.to_token_stream().to_string().replace(' ', "");
    let mut msg = format!("unknown key `{name}` in bound(...)");
    match closest(&name, &["encode", "decode"]) {
        Some(best) => msg.push_str(&format!("; did you mean `{best}`?")),
        None => msg.push_str(
            "; expected `encode` (the Marshal impl's bound) or `decode` (the Unmarshal \
             impl's)",
        ),
    }
    cx.error_spanned_by(&meta.path, msg);
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Whether `predicate` names the lifetime `'de`, other than one that a
/// `for<'de>` of its own binds.
fn names_free_de(predicate: &syn::WherePredicate) -> bool {
    let syn::WherePredicate::Type(p) = predicate else {
        return names_lifetime(predicate.to_token_stream(), "de");
    };
    if binds_lifetime(p.lifetimes.as_ref(), "de") {
        return false;
    }
    names_lifetime(p.bounded_ty.to_token_stream(), "de")
        || p.bounds.iter().any(|bound| match bound {
            syn::TypeParamBound::Trait(t) if binds_lifetime(t.lifetimes.as_ref(), "de") => false,
            _ => names_lifetime(bound.to_token_stream(), "de"),
        })
}

/// Whether a `for<...>` binds the lifetime `'name`.
pub(crate) fn binds_lifetime(lifetimes: Option<&syn::BoundLifetimes>, name: &str) -> bool {
    lifetimes.is_some_and(|l| {
        l.lifetimes.iter().any(
            |param| matches!(param, syn::GenericParam::Lifetime(l) if l.lifetime.ident == name),
        )
    })
}

/// Whether `tokens` name the lifetime `'name` anywhere.
fn names_lifetime(tokens: TokenStream, name: &str) -> bool {
    let mut after_quote = false;
    tokens.into_iter().any(|tt| {
        let hit = match &tt {
            proc_macro2::TokenTree::Ident(ident) => after_quote && ident == name,
            proc_macro2::TokenTree::Group(group) => names_lifetime(group.stream(), name),
            _ => false,
        };
        after_quote = matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == '\'');
        hit
    })
}

/// Parses `key = true` or `key = false`.
fn parse_bool_value(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<Option<bool>> {
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("{key} needs a value: #[marshal({key} = true)] or #[marshal({key} = false)]"),
        );
        // Skip `(...)`, so the following keys are still checked.
        if meta.input.peek(syn::token::Paren) {
            meta.input.parse::<proc_macro2::TokenTree>()?;
        }
        return Ok(None);
    }
    let expr: syn::Expr = meta.value()?.parse()?;
    if let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Bool(value),
        ..
    }) = &expr
    {
        return Ok(Some(value.value));
    }
    cx.error_spanned_by(
        &expr,
        format!("{key} must be `true` or `false`, like #[marshal({key} = true)]"),
    );
    Ok(None)
}

/// Runs `f` on every key inside every `#[marshal(...)]` attribute, recording
/// parse errors in `cx`.
fn for_each_marshal_meta(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    mut f: impl FnMut(ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        if attr.path() != MARSHAL {
            continue;
        }
        if let syn::Meta::List(list) = &attr.meta {
            if list.tokens.is_empty() {
                continue;
            }
        } else {
            cx.error_spanned_by(
                attr,
                "expected attribute arguments in parentheses: #[marshal(...)]",
            );
            continue;
        }
        if let Err(err) = attr.parse_nested_meta(&mut f) {
            cx.syn_error(err);
        }
    }
}

/// Records an error when a flag like `skip` is given a value.
fn no_value(cx: &Ctxt, meta: &ParseNestedMeta, name: &str) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let value: syn::Expr = meta.value()?.parse()?;
        cx.error_spanned_by(
            value,
            format!("`{name}` takes no value; write #[marshal({name})]"),
        );
    }
    Ok(())
}

/// Parses `since = N`, with its literal: a version from 2 on (fields and
/// variants without `since` are version 1).
fn parse_since(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<(syn::LitInt, u32)>> {
    let expr: syn::Expr = meta.value()?.parse()?;
    let lit = match &expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(lit),
            ..
        }) => lit,
        _ => {
            cx.error_spanned_by(
                &expr,
                "since must be a version number, like #[marshal(since = 2)]",
            );
            return Ok(None);
        }
    };
    // A `since` below 2 is kept, once reported, so that no follow-on error
    // says its field lacks one.
    match lit.base10_parse::<u32>() {
        Ok(0) => cx.error_spanned_by(
            lit,
            "since = 0 is not a version: versions count from 1, and fields without `since` \
             are version 1; a field added later is since = 2 or more",
        ),
        Ok(1) => cx.error_spanned_by(
            lit,
            "since = 1 is the first version, which every field without `since` is in: \
             remove it, or give a field added later since = 2 or more",
        ),
        Ok(_) => {}
        Err(_) => {
            cx.error_spanned_by(
                lit,
                "since must be a version number, like #[marshal(since = 2)]",
            );
            return Ok(None);
        }
    }
    Ok(lit.base10_parse::<u32>().ok().map(|n| (lit.clone(), n)))
}

/// Parses `history = [0x..., ...]`: fingerprints, oldest version first.
fn parse_history(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Vec<u64>>> {
    let value = meta.value()?;
    if !value.peek(syn::token::Bracket) {
        let expr: syn::Expr = value.parse()?;
        cx.error_spanned_by(
            &expr,
            "history must list fingerprints, oldest version first, like \
             #[marshal(history = [0x0123456789abcdef])]",
        );
        return Ok(None);
    }
    let content;
    syn::bracketed!(content in value);
    let elems = Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated(&content)?;
    let mut pinned = Vec::new();
    for elem in &elems {
        let value = match elem {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(lit),
                ..
            }) => lit.base10_parse::<u64>().ok(),
            _ => None,
        };
        match value {
            Some(v) => pinned.push(v),
            None => {
                cx.error_spanned_by(
                    elem,
                    "a fingerprint in history must be a u64 literal, like 0x0123456789abcdef",
                );
                return Ok(None);
            }
        }
    }
    Ok(Some(pinned))
}

/// Parses `key = path` or `key = "path"`.
fn parse_path_value(meta: &ParseNestedMeta) -> syn::Result<Option<syn::Path>> {
    let value = meta.value()?;
    if value.peek(syn::LitStr) {
        let lit: syn::LitStr = value.parse()?;
        return lit.parse_with(syn::Path::parse_mod_style).map(Some);
    }
    syn::Path::parse_mod_style(value).map(Some)
}

/// Parses `key = T` or `key = "T"`: a type (`as`), or a path that may
/// carry generic arguments (`remote`, `getter`).
fn parse_value<T: syn::parse::Parse>(meta: &ParseNestedMeta) -> syn::Result<T> {
    let value = meta.value()?;
    if value.peek(syn::LitStr) {
        let lit: syn::LitStr = value.parse()?;
        return lit.parse();
    }
    value.parse()
}

/// Records an unknown key, suggesting the closest known one, and skips its
/// value so parsing can continue.
fn unknown_key(cx: &Ctxt, meta: &ParseNestedMeta, level: &str, known: &[&str]) -> syn::Result<()> {
    let name = meta.path.get_ident().map_or_else(
        || meta.path.to_token_stream().to_string(),
        ToString::to_string,
    );
    let mut msg = format!("unknown marshal {level} attribute `{name}`");
    if let Some(best) = closest(&name, known) {
        msg.push_str(&format!("; did you mean `{best}`?"));
    } else {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        match list.as_slice() {
            [one] => msg.push_str(&format!("; expected {one}")),
            _ => msg.push_str(&format!("; expected one of {}", list.join(", "))),
        }
    }
    if let Some(elsewhere) = other_level(&name, level) {
        msg.push_str(&format!(" (`{name}` is a {elsewhere} attribute)"));
    }
    cx.error_spanned_by(&meta.path, msg);
    // Skip `= value` or `(...)` so the following keys are still checked.
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

/// Names the attribute level where `name` is valid, when it is not `level`.
fn other_level(name: &str, level: &str) -> Option<&'static str> {
    [
        ("container", CONTAINER_KEYS),
        ("variant", VARIANT_KEYS),
        ("field", FIELD_KEYS),
    ]
    .into_iter()
    .find(|(lvl, keys)| *lvl != level && keys.contains(&name))
    .map(|(lvl, _)| lvl)
}

/// The known key within edit distance 2 of `name`, if any.
fn closest<'k>(name: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .map(|k| (edit_distance(name, k), *k))
        .filter(|(d, _)| *d <= 2 && *d < name.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(closest("skp", FIELD_KEYS), Some("skip"));
        assert_eq!(closest("wiht", FIELD_KEYS), Some("with"));
        assert_eq!(closest("tagtype", CONTAINER_KEYS), Some("tag_type"));
        assert_eq!(closest("rename", FIELD_KEYS), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
