//! Generates `impl MarshalIn<Encoding<E, I>>` and `impl UnmarshalIn<'__de,
//! Encoding<E, I>>`: the type in every configuration but `legacy()`, whose
//! bytes are the `Marshal`/`Unmarshal` impls' (`config::Legacy`, through
//! the runtime's blanket impls).
//!
//! The field types themselves are the bounds (but for the standard
//! library's owning types, which carry every dialect), so a type whose
//! fields are not all carried by a dialect (a manual impl, a bumpalo arena
//! type) has no impl in it, and only saying so at the call is an error. A field
//! `with` a module has the module's bytes in every dialect. Packed structs
//! get none: their bytes exist in `legacy()` alone. An extensible type's body
//! is its fields in the dialect after a `u32` length in the dialect's byte
//! order, read as `legacy()` reads a body (`WIRE_FORMAT.md`, section 29).

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::decode::{field_default, tag_primitive};
use crate::internals::ast::{Container, Data, Field, Style, Variant};
use crate::internals::ast::{any_token, mentions};
use crate::layout::dialect_layout;
use crate::pattern::{Subject, binding, encoded_fields, local, tag_literal, variant_pattern_of};

/// Whether `cont` gets dialect impls at all: with the feature `config`
/// (and in the derive's own tests), and then unless the module's docs say
/// otherwise.
fn has_dialects(cont: &Container) -> bool {
    (cfg!(feature = "config") || cfg!(test))
        && cont.repr.packed.is_none()
        && cont.data.all_fields().all(|f| {
            // A field marked `recursive` closes a cycle of derived types:
            // its type is taken to carry every dialect, and if it does not,
            // the impl is an error at the field
            // (`tests/ui/recursive-legacy-only.rs`).
            f.attrs.with.is_some()
                || f.attrs.recursive.is_some()
                || !f.recursive
                || match &f.attrs.adapter {
                    // A recursive field through an adapter: the adapter is
                    // what must carry every dialect.
                    Some((_, adapter)) => known(adapter, cont.ident),
                    None => known(f.ty, cont.ident),
                }
        })
}

/// The standard library's containers, which carry every dialect.
const CONTAINERS: &[&str] = &[
    "Box",
    "Vec",
    "VecDeque",
    "Option",
    "Rc",
    "Arc",
    "Cow",
    "BTreeMap",
    "BTreeSet",
    "HashMap",
    "HashSet",
    "PhantomData",
];

/// The primitive types and strings, which carry every dialect.
const LEAVES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64", "bool", "char", "str", "String", "Self",
];

/// Whether `ty`, the type of a field that names its container, is built
/// of the container and types that carry every dialect alone: such a field
/// can take no bound (it would be a cycle), so it must hold whatever the
/// dialect; a type naming its container otherwise (another crate's
/// container) leaves the type to `legacy()`.
fn known(ty: &syn::Type, container: &syn::Ident) -> bool {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            let args_known = match &last.arguments {
                syn::PathArguments::None => true,
                syn::PathArguments::AngleBracketed(args) => args.args.iter().all(|a| match a {
                    syn::GenericArgument::Type(t) => known(t, container),
                    syn::GenericArgument::Lifetime(_) | syn::GenericArgument::Const(_) => true,
                    _ => false,
                }),
                syn::PathArguments::Parenthesized(_) => false,
            };
            // `Vec` or `std::vec::Vec`, not another crate's `Vec`.
            let std_path = p.path.segments.len() == 1
                || ["std", "alloc", "core"]
                    .contains(&p.path.segments[0].ident.to_string().as_str());
            args_known
                && (last.ident == *container
                    || (CONTAINERS.contains(&name.as_str()) && std_path)
                    || (LEAVES.contains(&name.as_str()) && p.path.segments.len() == 1))
        }
        syn::Type::Array(a) => known(&a.elem, container),
        syn::Type::Slice(s) => known(&s.elem, container),
        syn::Type::Reference(r) => known(&r.elem, container),
        syn::Type::Paren(p) => known(&p.elem, container),
        syn::Type::Group(g) => known(&g.elem, container),
        syn::Type::Tuple(t) => t.elems.iter().all(|e| known(e, container)),
        _ => false,
    }
}

/// Whether `ty`, a field's type, is built of the standard library's types
/// alone, owning ([`known`], with no reference or lifetime): it carries
/// every dialect whatever `__E` and `__I` are, so its bound would say
/// nothing. Leaving it out is most of what the impls cost to compile:
/// each bound is one more clause for the compiler to try at every call in
/// the bodies (200 types with the feature `config`: 4.57 s with them, 3.90
/// s without, `-Z time-passes`).
fn carries_every_dialect(ty: &syn::Type, container: &syn::Ident) -> bool {
    let borrows =
        |tt: &TokenTree| matches!(tt, TokenTree::Punct(p) if matches!(p.as_char(), '\'' | '&'));
    known(ty, container) && !any_token(quote!(#ty), &borrows)
}

/// The standard library's types that have no fixed length in any
/// configuration: their lengths vary, or (pointers) their impls leave it
/// unsaid.
const NEVER_FIXED: &[&str] = &[
    "String", "str", "Vec", "VecDeque", "HashMap", "HashSet", "BTreeMap", "BTreeSet", "Option",
    "Cow", "Box", "Rc", "Arc", "Result",
];

/// Whether `ty` may have a fixed length in some configuration: it names
/// none of [`NEVER_FIXED`] and is no reference. Only a shortcut: a type
/// for which this is wrongly false is written without it.
fn may_be_fixed(ty: &syn::Type) -> bool {
    let never = |tt: &TokenTree| match tt {
        TokenTree::Punct(p) => p.as_char() == '&',
        TokenTree::Ident(i) => NEVER_FIXED.iter().any(|n| i == n),
        _ => false,
    };
    !any_token(ty.to_token_stream(), &never)
}

/// `generics` with the dialect's parameters `__E` and `__I` first and, for
/// each encoded field, `FieldType: bound`; a field naming the container
/// needs none (its bound is the impl itself), nor one of the standard
/// library's owning types ([`carries_every_dialect`]).
fn dialect_generics(
    cont: &Container,
    generics: &syn::Generics,
    private: &TokenStream,
    bound: &TokenStream,
    default_bound: bool,
) -> syn::Generics {
    let mut generics = generics.clone();
    let params: [syn::GenericParam; 2] = [
        syn::parse_quote!(__E: #private::Endian),
        syn::parse_quote!(__I: #private::IntEncoding),
    ];
    let at = generics.lifetimes().count();
    for (i, param) in params.into_iter().enumerate() {
        generics.params.insert(at + i, param);
    }
    let where_clause = generics.make_where_clause();
    let mut seen = std::collections::BTreeSet::new();
    // A field `with` a module is the module's: its type needs no bound.
    for f in cont
        .data
        .all_fields()
        .filter(|f| !f.recursive && f.attrs.with.is_none())
    {
        let (wire, ty) = (f.wire(), f.ty);
        let key = quote!(#wire).to_string();
        let needs_bound = f.adapted.is_some() || !carries_every_dialect(ty, cont.ident);
        if f.is_encoded() && needs_bound && seen.insert(key) {
            // An adapted field as `As<A, FieldType>`.
            where_clause
                .predicates
                .push(syn::parse_quote!(#wire: #bound));
        }
        let key = quote!(#ty).to_string();
        // Only where the type names a parameter: a bound on a concrete
        // type that does not hold is an error of its own (E0277), on top
        // of the `Unmarshal` impl's, which already reports it.
        if default_bound
            && f.needs_default_trait()
            && cont
                .generics
                .type_params()
                .any(|p| mentions(quote!(#ty), &p.ident))
            && seen.insert(key + "Default")
        {
            where_clause
                .predicates
                .push(syn::parse_quote!(#ty: ::core::default::Default));
        }
    }
    generics
}

/// The `MarshalIn` impl of a checked container, or nothing (see the
/// module's docs).
pub(crate) fn impl_marshal_in(cont: &Container, private: &TokenStream) -> TokenStream {
    if !has_dialects(cont) {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let dialect = quote!(#private::Encoding<__E, __I>);
    let bound = quote!(#private::MarshalIn<#dialect>);
    let generics = dialect_generics(cont, cont.generics, private, &bound, false);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let w = local("__w");
    let (len_body, encode_body) = marshal_in_bodies(cont, &Subject::this(), private);
    let layout = dialect_layout(cont, private, &bound);
    // A struct written as one tuple has the tuple's fixed length, which
    // its `encode_in` writes behind one check (as `legacy()` does); left
    // out where a field's type never has one.
    let fixed_len = match &cont.data {
        Data::Struct(fields) if !cont.extensible() && fields.iter().all(|f| may_be_fixed(f.ty)) => {
            as_tuple(fields, fields.iter().map(|f| f.ty.to_token_stream())).map(|tuple| {
                quote! {
                    const __FIXED_LEN: ::core::option::Option<::core::primitive::usize> =
                        <#tuple as #bound>::__FIXED_LEN;
                }
            })
        }
        _ => None,
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #bound for #ident #ty_generics #where_clause {
            #layout
            #fixed_len

            #[inline]
            fn encoded_len_in(&self) -> ::core::primitive::usize {
                #len_body
            }

            #[inline]
            fn encode_in(&self, #w: &mut #private::Writer<'_>) -> #private::Encoded {
                #encode_body
            }
        }
    }
}

/// The bodies of `encoded_len_in` and `encode_in` in `Encoding<__E, __I>`,
/// reading `subject` (`self`, or a `remote` mirror's foreign value).
pub(crate) fn marshal_in_bodies(
    cont: &Container,
    subject: &Subject,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    let w = local("__w");
    let (value, path) = (&subject.value, &subject.path);
    let len = |f: &Field, value: TokenStream| {
        match &f.attrs.with {
            // Spanned as `legacy()`'s, so that a module of the wrong
            // signature is one error, not two.
            Some(with) => {
                let local = crate::pattern::local_at("__value", with.span());
                quote_spanned! {with.span()=>
                    {
                        let #local = #value;
                        #with::encoded_len(#local)
                    }
                }
            }
            None => {
                let (ty, value) = crate::encode::adapted(f, &value);
                quote_spanned!(ty.span()=> #private::len_in::<__E, __I, _>(#value))
            }
        }
    };
    let encode = |f: &Field, value: TokenStream| match &f.attrs.with {
        Some(with) => crate::encode::with_encode(with, &value, private),
        None => {
            let (ty, value) = crate::encode::adapted(f, &value);
            quote_spanned!(ty.span()=> #private::encode_in::<__E, __I, _>(#value, #w)?;)
        }
    };
    let extensible = cont.extensible();
    // An extensible body: its `u32` length, then the fields.
    let prefix = if extensible { 4usize } else { 0 };
    let in_body = |encodes: TokenStream| {
        if extensible {
            quote! {
                #private::encode_body_in::<__E, _>(
                    #w,
                    |#w: &mut #private::Writer<'_>| -> #private::Encoded {
                        #encodes
                        #private::Ok(())
                    },
                )?;
            }
        } else {
            encodes
        }
    };
    match &cont.data {
        Data::Struct(fields) => {
            let encoded = fields.iter().filter(|f| f.is_encoded());
            // A `with` field is borrowed at its path, as in `legacy()`.
            let access = |f: &Field| {
                let access = subject.field(f);
                match &f.attrs.with {
                    Some(with) => quote_spanned!(with.span()=> #access),
                    None => access,
                }
            };
            let tupled = (!extensible).then(|| as_tuple(fields, fields.iter().map(access)));
            if let Some(values) = tupled.flatten() {
                return (
                    quote!(#private::len_in::<__E, __I, _>(&#values)),
                    quote!(#private::encode_in::<__E, __I, _>(&#values, #w)),
                );
            }
            let lens = encoded.clone().map(|f| len(f, access(f)));
            let encodes = encoded.map(|f| encode(f, access(f)));
            let encodes = in_body(quote!(#(#encodes)*));
            (
                quote!(#prefix #(.saturating_add(#lens))*),
                quote!(#encodes #private::Ok(())),
            )
        }
        Data::Enum(variants) if variants.is_empty() => {
            (quote!(match *#value {}), quote!(match *#value {}))
        }
        Data::Enum(variants) => {
            let tag_ty = tag_primitive(cont.tag_type());
            let body_len = extensible.then(|| quote!(.saturating_add(#prefix)));
            let (lens, encodes): (Vec<_>, Vec<_>) = variants
                .iter()
                .map(|variant| {
                    let pattern = variant_pattern_of(variant, path);
                    let tag = tag_literal(variant.tag, cont.tag_type());
                    let tupled = (!extensible)
                        .then(|| {
                            as_tuple(
                                &variant.fields,
                                encoded_fields(variant).map(|(i, _)| binding(i)),
                            )
                        })
                        .flatten();
                    let (lens, encodes): (Vec<_>, Vec<_>) = match tupled {
                        Some(values) => (
                            vec![quote!(#private::len_in::<__E, __I, _>(&#values))],
                            vec![quote!(#private::encode_in::<__E, __I, _>(&#values, #w)?;)],
                        ),
                        None => (
                            encoded_fields(variant)
                                .map(|(i, f)| len(f, binding(i)))
                                .collect(),
                            encoded_fields(variant)
                                .map(|(i, f)| encode(f, binding(i)))
                                .collect(),
                        ),
                    };
                    let encodes = in_body(quote!(#(#encodes)*));
                    (
                        quote! {
                            #pattern => #private::len_in::<__E, __I, _>(&#tag)
                                #body_len
                                #(.saturating_add(#lens))*,
                        },
                        quote! {
                            #pattern => {
                                #private::encode_in::<__E, __I, #tag_ty>(&#tag, #w)?;
                                #encodes
                            }
                        },
                    )
                })
                .unzip();
            (
                quote!(match #value { #(#lens)* }),
                quote! {
                    match #value { #(#encodes)* }
                    #private::Ok(())
                },
            )
        }
    }
}

/// The `UnmarshalIn` impl of a checked container, or nothing (see the
/// module's docs).
pub(crate) fn impl_unmarshal_in(cont: &Container, private: &TokenStream) -> TokenStream {
    if !has_dialects(cont) {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let dialect = quote!(#private::Encoding<__E, __I>);
    let bound = quote!(#private::UnmarshalIn<'__de, #dialect>);
    let generics = bound::with_de_lifetime(cont.generics);
    let generics = dialect_generics(cont, &generics, private, &bound, true);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let r = local("__r");
    let extensible = cont.extensible();
    let prefix = if extensible { 4usize } else { 0 };
    let layout = dialect_layout(cont, private, &bound);
    // A struct of plain fields is built in place where its memory is
    // reserved; on its own, it is read as a value (`decode_in`).
    let in_place = match &cont.data {
        Data::Struct(fields) if !extensible => build_in_place(cont, fields, private),
        _ => None,
    };
    // `value`, read from an extensible body when the type is one (whose
    // bytes it skips when `reads` is false).
    let from_body = |value: TokenStream, reads: bool| {
        let body = if reads { quote!(#r) } else { quote!(_) };
        if extensible {
            quote!(#private::take_body_in::<__E, _>(#r, |#body| #private::Ok(#value)))
        } else {
            quote!(#private::Ok(#value))
        }
    };
    let (min_len, decode_body) = match &cont.data {
        Data::Struct(fields) if extensible => {
            let build = construct(&quote!(Self), fields, true, private);
            // The body's length; every field may be defaulted or cut.
            let reads = fields.iter().any(Field::is_encoded);
            (quote!(4usize), from_body(build, reads))
        }
        Data::Struct(fields) => {
            let mins = fields
                .iter()
                .filter(|f| f.is_encoded() && !f.recursive && f.attrs.with.is_none())
                .map(|f| {
                    let ty = f.wire();
                    quote_spanned!(ty.span()=> #private::min_in::<__E, __I, #ty>())
                });
            let types = fields.iter().map(|f| f.ty);
            let min_len = match as_tuple(fields, types.map(|ty| quote!(#ty))) {
                // The tuple's, which is the sum.
                Some(tuple) => quote!(#private::min_in::<__E, __I, #tuple>()),
                None => quote!(0usize #(.saturating_add(#mins))*),
            };
            let build = construct(&quote!(Self), fields, false, private);
            // One read when its bytes are its memory (`from_memory_in`).
            let value = local("__value");
            let memory = quote! {
                if let ::core::option::Option::Some(#value) =
                    #private::from_memory_in::<__E, __I, Self>(#r)?
                {
                    return #private::Ok(#value);
                }
            };
            (min_len, quote!(#memory #private::Ok(#build)))
        }
        Data::Enum(variants) => {
            let tag_ty = tag_primitive(cont.tag_type());
            let (at, tag) = (local("__at"), local("__tag"));
            let arms = variants.iter().map(|variant| {
                let lit = tag_literal(variant.tag, cont.tag_type());
                let reads = variant.fields.iter().any(Field::is_encoded);
                let build = from_body(construct_variant(variant, extensible, private), reads);
                if reads {
                    // In a closure of its own, as `decode::enum_body`'s
                    // arms: in an unoptimized build, only the variant
                    // being decoded is on the stack.
                    quote!(#lit => #private::variant(#r, |#r| #build),)
                } else {
                    quote!(#lit => #build,)
                }
            });
            let name = ident.to_string();
            // An unknown tag: `other`, its body skipped, or an error.
            let unknown = match variants.iter().find(|v| v.is_other()) {
                Some(other) => {
                    let other = other.ident;
                    from_body(quote!(Self::#other), false)
                }
                None => quote!(#private::invalid_tag(#tag, &#name, #at)),
            };
            (
                match extensible {
                    true => quote!(#private::min_in::<__E, __I, #tag_ty>().saturating_add(#prefix)),
                    false => quote!(#private::min_in::<__E, __I, #tag_ty>()),
                },
                quote! {
                    let #at = #r.position();
                    match #private::decode_in::<__E, __I, #tag_ty>(#r)? {
                        #(#arms)*
                        #tag => #unknown,
                    }
                },
            )
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #bound for #ident #ty_generics #where_clause {
            const MIN_LEN_IN: ::core::primitive::usize = #min_len;
            #layout

            #[inline]
            fn decode_in(#r: &mut #private::Reader<'__de>) -> #private::Decoded<Self> {
                #decode_body
            }

            #in_place
        }
    }
}

/// `__decode_in_place` of a struct whose fields are all read by their
/// types' own `UnmarshalIn`: each field built straight into its place in
/// the struct, as `legacy()` builds it (`decode::build_in_place`), where a
/// `Vec` or a `Box` keeps it, or an outer struct built in place. (`decode_in` reads a
/// value on its own in registers: built on the stack and moved, it was 3
/// times slower on the `messages` benchmark.) `None` for a struct with a
/// field skipped, read `with` a module or through an adapter, or a packed
/// one: those are read as a value.
///
/// SAFETY (of the generated block): the call to `__private::all_fields`,
/// an `unsafe const fn` that vouches for the list its closure makes as
/// every field of a type, each once, at its `offset_of!` with its type, and
/// the type not `#[repr(packed)]`. That holds by construction: the fields
/// listed are the struct's own, from its definition, every one (a struct
/// with a skipped field is not built this way), in one tuple or nested
/// tuples of them; each is `at_in::<__E, __I, Type>(offset_of!(Self,
/// member))`, `Type` being the member's declared type, so the
/// `Field<Type, ..>` it makes has the member's type, and its offset is the
/// compiler's for that member; the type vouched for is `Self`: the
/// `AllFields<T, _>` goes straight to `struct_in_dialect`, whose `T` is
/// that of `__place`, a `Place<'_, Self>`; and packed structs are not
/// built this way.
fn build_in_place(
    cont: &Container,
    fields: &[Field],
    private: &TokenStream,
) -> Option<TokenStream> {
    let plain = |f: &Field| f.is_encoded() && f.attrs.with.is_none() && f.adapted.is_none();
    if cont.repr.packed.is_some() || !fields.iter().all(plain) {
        return None;
    }
    let (r, place, list) = (local("__r"), local("__place"), local("__fields"));
    let built = fields.iter().map(|f| {
        let (ty, member) = (f.ty, &f.member);
        quote_spanned! {ty.span()=>
            #private::at_in::<__E, __I, #ty>(#private::offset_of!(Self, #member))
        }
    });
    let built = crate::decode::nest_tuples(built.collect());
    Some(quote! {
        #[inline]
        fn __decode_in_place<'__p>(
            #r: &mut #private::Reader<'__de>,
            #place: #private::Place<'__p, Self>,
        ) -> #private::Decoded<#private::Built<'__p, Self>> {
            let #list = || #built;
            let #list = unsafe { #private::all_fields(#list) };
            #private::struct_in_dialect::<__E, __I, _, _, _>(#r, #place, #list)
        }
    })
}

/// `path { field: value, ... }`: each encoded field decoded in turn, the
/// others their defaults. From an extensible body (`in_body`), a field
/// added after version 1 takes its default where the body has ended, and
/// a read past the body's end is `BodyOverrun`, as in `legacy()`.
fn construct(
    path: &TokenStream,
    fields: &[Field],
    in_body: bool,
    private: &TokenStream,
) -> TokenStream {
    let r = local("__r");
    let bindings = (0..fields.len()).map(binding);
    if let (false, Some(values)) = (in_body, as_tuple(fields, bindings.clone())) {
        let members = fields.iter().map(|f| &f.member);
        return quote!({
            let #values = #private::decode_in::<__E, __I, _>(#r)?;
            #path { #(#members: #bindings),* }
        });
    }
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let decode = match &f.adapted {
            Some(wire) => quote_spanned! {wire.span()=>
                (|#r: &mut #private::Reader<'__de>| {
                    #private::decode_in::<__E, __I, #wire>(#r).map(<#wire>::into_inner)
                })
            },
            None => quote_spanned!(f.ty.span()=> #private::decode_in::<__E, __I, _>),
        };
        let value = if !f.is_encoded() {
            field_default(f)
        } else if f.attrs.with.is_some() && in_body {
            // The module's bytes, read as in `legacy()`.
            crate::decode::body_field_decode(f, private)
        } else if f.attrs.with.is_some() {
            // In a closure, as `legacy()`'s in-place build reads it: a
            // module of the wrong signature is then one error, not two.
            let value = crate::decode::field_decode(f, private);
            quote! {
                (|#r: &mut #private::Reader<'__de>| ::core::result::Result::Ok(#value))(#r)?
            }
        } else if in_body && f.is_optional() {
            let default = field_default(f);
            quote!(#private::body_field_or(#r, || #default, #decode)?)
        } else if in_body {
            quote!(#private::in_body(#decode(#r))?)
        } else {
            quote!(#decode(#r)?)
        };
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// `values` as one tuple, `(a, b, ...)`, when `fields` are all read and
/// written by their types' own impls (none skipped, `with` a module,
/// adapted, or recursive) and there are 2 to 16 of them: a struct's or a
/// variant's fields are then encoded, sized and decoded as that tuple,
/// with the same bytes, in one call rather than one a field. That is a
/// fifth less for the compiler to check than a call a field (200 types
/// with the feature `config`, `-Z time-passes`: 4.25 to 3.81 s), and
/// decoding `messages` in `standard()` went from 6.38 to 5.6 µs a
/// thousand (criterion). Otherwise `None`, and each field has its call,
/// spanned at its type.
fn as_tuple(fields: &[Field], values: impl Iterator<Item = TokenStream>) -> Option<TokenStream> {
    let plain =
        |f: &Field| f.is_encoded() && f.attrs.with.is_none() && f.adapted.is_none() && !f.recursive;
    if !(2..=16).contains(&fields.len()) || !fields.iter().all(plain) {
        return None;
    }
    Some(quote!((#(#values,)*)))
}

/// A variant built from the input, as [`construct`] builds a struct.
fn construct_variant(variant: &Variant, in_body: bool, private: &TokenStream) -> TokenStream {
    let ident = variant.ident;
    match variant.style {
        Style::Unit => quote!(Self::#ident),
        Style::Tuple | Style::Struct => {
            construct(&quote!(Self::#ident), &variant.fields, in_body, private)
        }
    }
}

/// A `remote` mirror's `MarshalAsIn` impl in `Encoding<__E, __I>`, or
/// nothing (see the module's docs): the foreign value read as the mirror's
/// `MarshalIn` reads itself.
pub(crate) fn impl_marshal_as_in(
    cont: &Container,
    remote: &syn::Path,
    private: &TokenStream,
) -> TokenStream {
    if !has_dialects(cont) {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let dialect = quote!(#private::Encoding<__E, __I>);
    let bound = quote!(#private::MarshalIn<#dialect>);
    let generics = dialect_generics(cont, cont.generics, private, &bound, false);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let subject = Subject::remote(remote);
    let value = &subject.value;
    let (len_body, encode_body) = marshal_in_bodies(cont, &subject, private);
    let w = local("__w");
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::MarshalAsIn<#remote, #dialect> for #ident #ty_generics
            #where_clause
        {
            #[inline]
            fn encoded_len_as_in(#value: &#remote) -> ::core::primitive::usize {
                #len_body
            }

            #[inline]
            fn encode_as_in(#value: &#remote, #w: &mut #private::Writer<'_>) -> #private::Encoded {
                #encode_body
            }

            const __FIXED_LEN: ::core::option::Option<::core::primitive::usize> =
                <Self as #bound>::__FIXED_LEN;
            const __MAX_LEN: ::core::option::Option<::core::primitive::usize> =
                <Self as #bound>::__MAX_LEN;
        }
    }
}

/// A `remote` mirror's `UnmarshalAsIn` impl in `Encoding<__E, __I>`, or
/// nothing: a mirror read in the dialect, then `convert`ed (see
/// `remote::convert`).
pub(crate) fn impl_unmarshal_as_in(
    cont: &Container,
    remote: &syn::Path,
    convert: &TokenStream,
    private: &TokenStream,
) -> TokenStream {
    if !has_dialects(cont) {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let dialect = quote!(#private::Encoding<__E, __I>);
    let generics = bound::with_de_lifetime(cont.generics);
    let bound = quote!(#private::UnmarshalIn<'__de, #dialect>);
    let mut generics = dialect_generics(cont, &generics, private, &bound, true);
    generics
        .make_where_clause()
        .predicates
        .push(syn::parse_quote!(Self: #bound));
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let (r, m) = (local("__r"), local("__m"));
    quote! {
        #[automatically_derived]
        impl #impl_generics #private::UnmarshalAsIn<'__de, #remote, #dialect> for #ident #ty_generics
            #where_clause
        {
            const MIN_LEN_AS_IN: ::core::primitive::usize = <Self as #bound>::MIN_LEN_IN;

            #[inline]
            fn decode_as_in(#r: &mut #private::Reader<'__de>) -> #private::Decoded<#remote> {
                <Self as #bound>::decode_in(#r).map(|#m| #convert)
            }
        }
    }
}
