//! Generates `impl Unmarshal`: `MIN_LEN` and `decode`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::internals::Derive;
use crate::internals::ast::{Container, Data, Field, Variant};
use crate::internals::attr::{FieldDefault, TagType};
use crate::layout::container_layout;
use crate::len::{container_min_len, container_min_len_is_exact, named_fields, struct_parts};
use crate::pattern::{local, local_at, tag_literal};
use crate::stack;

/// The generics of the `Unmarshal<'__de>` impl: `'__de`, and the inferred
/// bounds or `bound`'s.
pub(crate) fn unmarshal_generics(cont: &Container, private: &TokenStream) -> syn::Generics {
    let decoded = bound::with_bound(
        cont,
        cont.generics,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#private::Unmarshal<'__de>),
        true,
    );
    let defaulted = bound::with_bound(
        cont,
        &decoded,
        |f| f.needs_default_trait(),
        &syn::parse_quote!(::core::default::Default),
        false,
    );
    let defaulted = bound::explicit(cont, Derive::Unmarshal).unwrap_or(defaulted);
    bound::with_de_lifetime(&defaulted)
}

/// The `impl Unmarshal<'__de>` of a checked container; `private` is the
/// alias of the runtime's `__private` (see `dummy::wrap_in_const`).
pub(crate) fn impl_unmarshal(cont: &Container, private: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let de_generics = unmarshal_generics(cont, private);
    let (impl_generics, _, where_clause) = de_generics.split_for_impl();
    let (_, ty_generics, _) = cont.generics.split_for_impl();
    let variants = enum_variants(cont, private);
    let (mut min_len, mut exact) = (
        container_min_len(cont, private),
        container_min_len_is_exact(cont, private),
    );
    let mut stack = stack::container_stack(cont, private);
    if variants.is_some() && !cont.extensible() {
        // From the variants' parts, `__PARTS` (see `Variants::parts`), as a
        // struct's are from its fields'.
        (min_len, exact, stack) = (
            quote!(Self::__PARTS.min),
            quote!(Self::__PARTS.exact),
            quote!(Self::__PARTS.stack),
        );
    }
    let parts = struct_parts(cont, private).or(variants);
    // A field read `with` a module: the trace stops here (`__BLIND`).
    let blind = match &cont.data {
        Data::Struct(fields) => fields.iter().any(|f| f.attrs.with.is_some()),
        Data::Enum(variants) => variants
            .iter()
            .any(|v| v.fields.iter().any(|f| f.attrs.with.is_some())),
    };
    let blind = blind.then(|| {
        quote!(
            const __BLIND: ::core::primitive::bool = true;
        )
    });
    let layout = container_layout(cont, private, &quote!(#private::Unmarshal<'__de>));
    let extensible = cont.extensible();
    let (r, place) = (local("__r"), local("__place"));
    let methods = match &cont.data {
        // A struct builds its fields in place, straight into the memory
        // that keeps it (a `Vec`'s slot, a `Box`'s allocation, a field of
        // an outer struct); decoding one on its own builds it on the stack.
        // A packed struct's fields may be unaligned, so it is decoded as a
        // value, as an enum is.
        Data::Struct(fields) if cont.repr.packed.is_none() => {
            let build = build_in_place(fields, extensible, private);
            quote! {
                #[inline]
                fn decode(#r: &mut #private::Reader<'__de>) -> #private::Decoded<Self> {
                    #private::decode_struct(#r)
                }

                // Hidden, as the trait's items are (rustdoc hides the
                // items of an impl that the trait hides).
                const __IN_PLACE: ::core::primitive::bool = true;

                #[inline]
                fn __decode_in<'__p>(
                    #r: &mut #private::Reader<'__de>,
                    #place: #private::Place<'__p, Self>,
                ) -> #private::Decoded<#private::Built<'__p, Self>> {
                    #build
                }
            }
        }
        Data::Struct(fields) => {
            let build = construct(&quote!(Self), fields, extensible, private);
            let body = in_body(
                extensible,
                quote!(::core::result::Result::Ok(#build)),
                private,
            );
            by_value(body, layout.is_some(), private)
        }
        Data::Enum(variants) => by_value(
            enum_body(
                &ident.to_string(),
                variants,
                cont.tag_type(),
                extensible,
                private,
            ),
            false,
            private,
        ),
    };

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Unmarshal<'__de> for #ident #ty_generics #where_clause {
            #parts
            #blind
            const MIN_LEN: ::core::primitive::usize = #min_len;
            const MIN_LEN_IS_EXACT: ::core::primitive::bool = #exact;
            #layout
            // Hidden, as the trait's items are.
            const __DECODE_STACK: ::core::primitive::usize = #stack;

            #methods
        }
    }
}

/// `Unmarshal::__VARIANTS` of an enum whose variants the trace can walk as
/// its decoder reads them (every field read by its type's `Unmarshal`):
/// each variant's tag and fields (see `named_fields`), and whether they are
/// read from an extensible body; from them come the `__PARTS` of an enum
/// that is not extensible too. `None` for another container, or an enum
/// without variants.
fn enum_variants(cont: &Container, private: &TokenStream) -> Option<TokenStream> {
    let Data::Enum(variants) = &cont.data else {
        return None;
    };
    let (name, body) = (cont.ident.to_string(), cont.extensible());
    let mut listed = Vec::new();
    for variant in variants {
        let ty = format!("{name}::{}", variant.ident);
        let fields = named_fields(&ty, &variant.fields, body, private)?;
        let tag = u32::try_from(variant.tag).ok()?;
        let literal = proc_macro2::Literal::u32_suffixed(tag);
        listed.push((tag, quote!((#literal, &[#(#fields),*]))));
    }
    // By tag, for the trace's binary search (the checks have rejected
    // duplicate tags).
    listed.sort_by_key(|(tag, _)| *tag);
    if listed.is_empty() {
        return None;
    }
    let listed = listed.into_iter().map(|(_, variant)| variant);
    let variants = match cont.tag_type() {
        TagType::U8 => quote!(variants_u8),
        TagType::U16 => quote!(variants_u16),
        TagType::U32 => quote!(variants),
    };
    let body = body.then(|| quote!(.in_body()));
    Some(quote! {
        const __VARIANTS: #private::Variants<'__de> = #private::#variants(&[#(#listed),*])#body;
    })
}

/// `decode` of a type decoded as a value: `body` reads it from `__r`.
/// When `memcpy` (a struct that may be memcpy-equivalent), a value whose
/// wire bytes turn out to be its memory is read as one.
fn by_value(body: TokenStream, memcpy: bool, private: &TokenStream) -> TokenStream {
    let (r, sub, v) = (local("__r"), local("__sub"), local("__v"));
    let memcpy = memcpy.then(|| {
        quote! {
            if let ::core::option::Option::Some(#v) = #private::from_memory(#r)? {
                return ::core::result::Result::Ok(#v);
            }
        }
    });
    quote! {
        #[inline]
        fn decode(#r: &mut #private::Reader<'__de>) -> #private::Decoded<Self> {
            #memcpy
            let mut #sub = ::core::option::Option::None;
            let #r = #private::exact_reader::<Self>(#r, &mut #sub)?;
            #body
        }
    }
}

/// The fields of a struct in tuples of at most this many, nested: what
/// `__private::Fields` is implemented for.
const FIELDS_PER_TUPLE: usize = 16;

/// Builds the struct in `__place` from `__r`, each field straight into its
/// place in it (`__private::AllFields::build`, through `struct_in`, or
/// `body_in` for an extensible body), in declaration order.
///
/// SAFETY (of the generated block): the call to `__private::all_fields`,
/// an `unsafe const fn` that vouches for the list its closure makes as
/// every field of a type, each once, at its `offset_of!` with its type, and
/// the type not `#[repr(packed)]`. That holds by construction: the fields
/// listed are the struct's own, from its definition, every one (skipped
/// fields too, written with their default), in one tuple or nested tuples
/// of them; each is `<Type as Unmarshal>::__at(offset_of!(Self, member))` or
/// `field_by(offset_of!(Self, member), builder)` whose builder's place is
/// declared `Place<'_, Type>`, `Type` being the member's declared type, so
/// the `Field<Type, ..>` it makes has the member's type, and its offset is
/// the compiler's for that member; the type vouched for is `Self`: the
/// `AllFields<T, _>` goes straight to `struct_in`/`body_in`, whose `T` is
/// that of `__place`, a `Place<'_, Self>`; and packed structs are decoded
/// as values instead (see `impl_unmarshal`), never built this way.
fn build_in_place(fields: &[Field], in_body: bool, private: &TokenStream) -> TokenStream {
    let (r, place) = (local("__r"), local("__place"));
    let built: Vec<TokenStream> = fields
        .iter()
        .map(|f| field_in_place(f, in_body, private))
        .collect();
    let (list, fields) = (nest_tuples(built), local("__fields"));
    let build = if in_body {
        quote!(body_in)
    } else {
        quote!(struct_in)
    };
    // The list is made by a closure of its own, called where it is used:
    // in an unoptimized build, the temporaries of its making are in the
    // closure's frame, popped before the fields are built.
    quote! {
        let #fields = || #list;
        #private::#build(#r, #place, unsafe { #private::all_fields(#fields) })
    }
}

/// `items` as one tuple of at most [`FIELDS_PER_TUPLE`] elements, nesting
/// tuples of them as needed.
pub(crate) fn nest_tuples(items: Vec<TokenStream>) -> TokenStream {
    if items.len() <= FIELDS_PER_TUPLE {
        return quote!((#(#items,)*));
    }
    let chunks: Vec<TokenStream> = items
        .chunks(FIELDS_PER_TUPLE)
        .map(|chunk| quote!((#(#chunk,)*)))
        .collect();
    nest_tuples(chunks)
}

/// One field of a struct built in place: `field(offset, builder)`.
fn field_in_place(field: &Field, in_body: bool, private: &TokenStream) -> TokenStream {
    let (ty, member) = (field.ty, &field.member);
    let (r, p) = (local("__r"), local("__p"));
    let offset = quote!(#private::offset_of!(Self, #member));
    if field.is_encoded() && field.attrs.with.is_none() && field.adapted.is_none() && !in_body {
        // Spanned at the field's type, every token: a type that is not
        // `Unmarshal` is reported there.
        let private = crate::encode::respan(private.clone(), ty.span());
        return quote_spanned! {ty.span()=>
            <#ty as #private::In<'__de>>::__at(#offset)
        };
    }
    let value = if in_body && field.is_encoded() {
        body_field_decode(field, private)
    } else {
        field_decode(field, private)
    };
    quote! {
        #private::field_by(
            #offset,
            |#r: &mut #private::Reader<'__de>, #p: #private::Place<'_, #ty>| {
                ::core::result::Result::Ok(#p.write(#value))
            },
        )
    }
}

/// `decode`, an expression reading from `__r`, read from an extensible
/// body instead when `extensible` (see `Reader::take_body`).
fn in_body(extensible: bool, decode: TokenStream, private: &TokenStream) -> TokenStream {
    if !extensible {
        return decode;
    }
    let r = local("__r");
    quote!(#private::Reader::take_body(#r, |#r| #decode))
}

/// The decoder of an enum: the tag, then the chosen variant's fields. An
/// extensible enum reads them from the variant's body; an unknown tag's
/// body is skipped and decodes as the `other` variant. Without one, an
/// unknown tag is `InvalidTag`.
fn enum_body(
    name: &str,
    variants: &[Variant],
    tag_type: TagType,
    extensible: bool,
    private: &TokenStream,
) -> TokenStream {
    let tag_ty = tag_primitive(tag_type);
    let (r, at, tag) = (local("__r"), local("__at"), local("__tag"));
    let ok = |value: TokenStream| quote!(::core::result::Result::Ok(#value));
    let invalid = quote!(#private::invalid_tag(#tag, &#name, #at));
    // An unknown tag: `other` (its body skipped), or an error.
    let other = variants.iter().find(|v| v.is_other()).map(|v| v.ident);
    let unknown = match other {
        Some(other) => in_body(extensible, ok(quote!(Self::#other)), private),
        None => invalid.clone(),
    };
    let read_tag = quote! {
        let #at = #private::Reader::position(#r);
        let #tag = <#tag_ty as #private::Unmarshal<'__de>>::decode(#r)?;
    };
    if let Some(first) = variants
        .first()
        .filter(|_| variants.iter().all(|v| v.fields.is_empty()))
    {
        // Unit variants only: check the tag (and skip the body), then map
        // the tag to a variant with a match that has no failing arm. The
        // compiler turns that into a table lookup or plain arithmetic
        // instead of one branch per variant, which a random run of variants
        // would mispredict.
        let tags = variants.iter().map(|v| tag_literal(v.tag, tag_type));
        let map = variants.iter().map(|v| {
            let (value, ident) = (tag_literal(v.tag, tag_type), v.ident);
            quote!(#value => Self::#ident,)
        });
        let check = other.is_none().then(|| {
            quote! {
                match #tag {
                    #(#tags)|* => {}
                    _ => return #invalid,
                }
            }
        });
        let skip = extensible.then(|| {
            let skip = in_body(true, ok(quote!(())), private);
            quote!(#skip?;)
        });
        // Without `other`, unreachable: the tag was checked above.
        let rest = other.unwrap_or(first.ident);
        return quote! {
            #read_tag
            #check
            #skip
            ::core::result::Result::Ok(match #tag {
                #(#map)*
                _ => Self::#rest,
            })
        };
    }
    let arms = variants.iter().map(|variant| {
        let value = tag_literal(variant.tag, tag_type);
        let ident = variant.ident;
        let build = construct(&quote!(Self::#ident), &variant.fields, extensible, private);
        let decode = in_body(extensible, ok(build), private);
        if variant.fields.is_empty() {
            return quote!(#value => #decode,);
        }
        // Each variant with fields decodes in a closure of its own (see
        // `__private::variant`).
        quote!(#value => #private::variant(#r, |#r| #decode),)
    });
    quote! {
        #read_tag
        match #tag {
            #(#arms)*
            _ => #unknown,
        }
    }
}

/// The primitive type a tag is read (and, in the dialects, written) as.
pub(crate) fn tag_primitive(tag_type: TagType) -> TokenStream {
    match tag_type {
        TagType::U8 => quote!(::core::primitive::u8),
        TagType::U16 => quote!(::core::primitive::u16),
        TagType::U32 => quote!(::core::primitive::u32),
    }
}

/// `path { member: value, ... }`, decoding the fields in declaration order;
/// `in_body` when they are read from an extensible body, where a field
/// added after version 1 takes its default when the body has ended before
/// it, and a field cut by the body's end is `BodyOverrun`.
fn construct(
    path: &TokenStream,
    fields: &[Field],
    in_body: bool,
    private: &TokenStream,
) -> TokenStream {
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let value = if in_body && f.is_encoded() {
            body_field_decode(f, private)
        } else {
            field_decode(f, private)
        };
        quote!(#member: #value)
    });
    quote!(#path { #(#inits),* })
}

/// The value of a field the input does not carry: `default = path`'s
/// `path()`, else `Default::default()`.
pub(crate) fn field_default(field: &Field) -> TokenStream {
    let ty = field.ty;
    match &field.attrs.default {
        Some((_, FieldDefault::Path(path))) => quote_spanned!(path.span()=> #path()),
        _ => quote_spanned!(ty.span()=> ::core::default::Default::default()),
    }
}

/// An expression that decodes one encoded field from an extensible body.
pub(crate) fn body_field_decode(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let r = local("__r");
    let default = field_default(field);
    if field.attrs.with.is_none() {
        let decode = match &field.adapted {
            Some(wire) => quote_spanned! {wire.span()=>
                (|#r: &mut #private::Reader<'__de>| {
                    <#wire as #private::Unmarshal<'__de>>::decode(#r).map(<#wire>::into_inner)
                })
            },
            None => quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::decode),
        };
        return if field.is_optional() {
            quote!(#private::body_field_or(#r, || #default, #decode)?)
        } else {
            quote!(#private::in_body(#decode(#r))?)
        };
    }
    let value = field_decode(field, private);
    let read = quote! {
        #private::in_body(
            (|#r: &mut #private::Reader<'__de>|
                -> ::core::result::Result<#ty, #private::DecodeError> {
                ::core::result::Result::Ok(#value)
            })(#r),
        )?
    };
    if !field.is_optional() {
        return read;
    }
    quote! {
        if #private::Reader::remaining(#r) == 0 { #default } else { #read }
    }
}

/// An expression that decodes one field from the reader.
pub(crate) fn field_decode(field: &Field, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let r = local("__r");
    if !field.is_encoded() {
        return field_default(field);
    }
    if let Some(with) = &field.attrs.with {
        // Through the caller's reader: its depth limit, budget and offsets
        // hold inside the module. The reader and the value are locals at
        // the path, typed, so that a module of the wrong signature is one
        // error there, whatever the code around it.
        let (reader, value) = (
            local_at("__reader", with.span()),
            local_at("__value", with.span()),
        );
        return quote_spanned! {with.span()=>
            {
                let #reader: &mut #private::Reader<'__de> = #r;
                let #value: #ty = #with::decode(#reader)?;
                #value
            }
        };
    }
    if let Some(wire) = &field.adapted {
        // As `As<A, FieldType>`, spanned at the adapter: one that does not
        // fit is reported there, once.
        return quote_spanned! {wire.span()=>
            <#wire as #private::Unmarshal<'__de>>::decode(#r)?.into_inner()
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Unmarshal<'__de>>::decode(#r)?)
}
