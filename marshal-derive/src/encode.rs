//! Generates `impl Marshal`: the size constants, `encoded_len` and `encode`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::bound;
use crate::fingerprint::{container_fingerprint, container_history};
use crate::internals::Derive;
use crate::internals::ast::{Container, Data, Field, Variant};
use crate::internals::attr::TagType;
use crate::layout::container_layout;
use crate::len::{
    SizeConst, body_prefix, container_len, field_consts, struct_sizes, variant_fixed,
};
use crate::pattern::{
    Subject, binding, encoded_fields, local, local_at, tag_literal, variant_pattern_of,
};

/// The `impl Marshal` of a checked container; `private` is the alias of
/// the runtime's `__private` (see `dummy::wrap_in_const`).
pub(crate) fn impl_marshal(cont: &Container, private: &TokenStream) -> TokenStream {
    let ident = cont.ident;
    let generics = marshal_generics(cont, private);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let fixed_len = container_len(cont, private, SizeConst::Fixed);
    let max_len = container_len(cont, private, SizeConst::Max);
    let fingerprint = with_history_contract(container_fingerprint(cont, private), cont, private);
    let history = container_history(cont, private);
    let layout = container_layout(cont, private, &quote!(#private::Marshal));
    let (fixed_len, max_len) = (
        with_contract(fixed_len, cont, SizeConst::Fixed, private),
        with_contract(max_len, cont, SizeConst::Max, private),
    );
    let contracts = item_level_contracts(cont, private);
    let sizes = struct_sizes(cont, private);
    let variant_fixed = match &cont.data {
        Data::Enum(variants) => Some(variant_fixed(variants, private)),
        Data::Struct(_) => None,
    };
    let (len_body, encode_body) = match &cont.data {
        Data::Struct(fields) => struct_bodies(fields, cont.extensible(), &Subject::this(), private),
        Data::Enum(variants) => enum_bodies(
            variants,
            cont.tag_type(),
            body_prefix(cont),
            &Subject::this(),
            private,
        ),
    };
    let w = local("__w");

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Marshal for #ident #ty_generics #where_clause {
            #sizes
            const FIXED_LEN: ::core::option::Option<::core::primitive::usize> = #fixed_len;
            const MAX_LEN: ::core::option::Option<::core::primitive::usize> = #max_len;
            const FINGERPRINT: ::core::primitive::u64 = #fingerprint;
            #variant_fixed
            #history
            #layout

            #[inline]
            fn encoded_len(&self) -> ::core::primitive::usize {
                #len_body
            }

            #[inline]
            fn encode(&self, #w: &mut #private::Writer<'_>) -> #private::Encoded {
                #encode_body
            }
        }

        #contracts
    }
}

/// The generics of the `Marshal` impl: the inferred bounds, or `bound`'s.
pub(crate) fn marshal_generics(cont: &Container, private: &TokenStream) -> syn::Generics {
    let generics = bound::with_bound(
        cont,
        cont.generics,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#private::Marshal),
        true,
    );
    bound::explicit(cont, Derive::Marshal).unwrap_or(generics)
}

/// `computed`, checked against the size contract on `which` when there
/// is one: const evaluation fails at the attribute, with both numbers, or
/// naming the first field without a fixed length (or a bound).
fn with_contract(
    computed: TokenStream,
    cont: &Container,
    which: SizeConst,
    private: &TokenStream,
) -> TokenStream {
    let (contract, fixed) = match which {
        SizeConst::Fixed => (&cont.attrs.size, true),
        SizeConst::Max => (&cont.attrs.max_size, false),
    };
    let Some((tokens, declared)) = contract else {
        return computed;
    };
    let span = syn::spanned::Spanned::span(tokens);
    let name = cont.ident.to_string();
    let value = local("__computed");
    let fields = contract_fields(cont, which, private);
    // Every token of the call carries the attribute's span, so a failed
    // contract is reported there.
    let private = respan(private.clone(), span);
    quote_spanned! {span=>
        {
            let #value = #computed;
            #private::check_size(#fixed, #declared, #value, #name, &[#(#fields),*]);
            #value
        }
    }
}

/// The encoded fields' names, each with its `which` constant, for the
/// message of a broken size contract: `name` (`0` for a tuple field), and
/// `Variant::name` in an enum.
fn contract_fields(cont: &Container, which: SizeConst, private: &TokenStream) -> Vec<TokenStream> {
    let named = |prefix: String, fields: &[Field]| {
        let names = fields.iter().filter(|f| f.is_encoded()).map(move |f| {
            let member = match &f.member {
                syn::Member::Named(ident) => ident.to_string(),
                syn::Member::Unnamed(index) => index.index.to_string(),
            };
            format!("{prefix}{member}")
        });
        names
            .zip(field_consts(fields, private, which))
            .map(|(name, len)| quote!((#name, #len)))
            .collect::<Vec<_>>()
    };
    match &cont.data {
        Data::Struct(fields) => named(String::new(), fields),
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| named(format!("{}::", v.ident), &v.fields))
            .collect(),
    }
}

/// `fingerprint`, checked against `#[marshal(history = [...])]` when there
/// is one: const evaluation fails at the attribute, naming the version and
/// both fingerprints, when a released version's fields changed.
fn with_history_contract(
    fingerprint: TokenStream,
    cont: &Container,
    private: &TokenStream,
) -> TokenStream {
    let Some((tokens, pinned)) = &cont.attrs.history else {
        return fingerprint;
    };
    let span = syn::spanned::Spanned::span(tokens);
    let name = cont.ident.to_string();
    let private = respan(private.clone(), span);
    quote_spanned! {span=>
        {
            #private::check_history(
                &[#(#pinned),*],
                <Self as #private::Marshal>::__HISTORY,
                #name,
            );
            #fingerprint
        }
    }
}

/// `tokens` with every span set to `span`.
pub(crate) fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = proc_macro2::TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}

/// For a type without generic parameters, forces the size contracts to be
/// checked even if the type is never encoded.
fn item_level_contracts(cont: &Container, private: &TokenStream) -> TokenStream {
    if !cont.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = cont.ident;
    let checks = [
        (&cont.attrs.size, quote!(FIXED_LEN)),
        (&cont.attrs.max_size, quote!(MAX_LEN)),
    ]
    .into_iter()
    .filter_map(|(contract, konst)| {
        let (tokens, _) = contract.as_ref()?;
        let span = syn::spanned::Spanned::span(tokens);
        Some(quote_spanned! {span=>
            const _: ::core::option::Option<::core::primitive::usize> =
                <#ident as #private::Marshal>::#konst;
        })
    });
    let history = cont.attrs.history.as_ref().map(|(tokens, _)| {
        let span = syn::spanned::Spanned::span(tokens);
        quote_spanned! {span=>
            const _: ::core::primitive::u64 = <#ident as #private::Marshal>::FINGERPRINT;
        }
    });
    quote!(#(#checks)* #history)
}

/// A struct's `encoded_len` and `encode` bodies.
pub(crate) fn struct_bodies(
    fields: &[Field],
    extensible: bool,
    subject: &Subject,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    // A `with` field is borrowed at its path, so a signature mismatch is
    // reported there, not at the derive.
    let access = |f: &Field| {
        let access = subject.field(f);
        match &f.attrs.with {
            Some(with) => quote_spanned!(with.span()=> #access),
            None => access,
        }
    };
    let encoded = || fields.iter().filter(|f| f.is_encoded());
    let prefix = if extensible { 4usize } else { 0 };
    let len = local("__len");
    let lens = encoded().map(|f| field_len(f, &access(f), &quote!(#len), private));
    let len = quote! {
        let #len = #private::Len::new(#prefix);
        #(let #len = #lens;)*
        #len.get()
    };
    let encodes = encoded().map(|f| field_encode(f, &access(f), private));
    let fields_closure = fields_closure(encodes, private);
    let (w, fields_var) = (local("__w"), local("__fields"));
    let encode = if extensible {
        // The fields' fixed length: the struct's, less the body's length.
        let fixed = quote!(#private::less(<Self as #private::Marshal>::FIXED_LEN, #prefix));
        body_encode(&quote!([]), &fixed, private)
    } else {
        quote!(#private::encode_exact::<Self>(#w, #fields_var))
    };
    (len, quote!(#fields_closure #encode))
}

pub(crate) fn enum_bodies(
    variants: &[Variant],
    tag_type: TagType,
    prefix: usize,
    subject: &Subject,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    let (value, path) = (&subject.value, &subject.path);
    if variants.is_empty() {
        return (quote!(match *#value {}), quote!(match *#value {}));
    }
    let w = local("__w");
    if variants.iter().all(|v| encoded_fields(v).next().is_none()) {
        // Unit variants only: one write of the chosen variant's bytes.
        let arms = variants.iter().map(|variant| {
            let pattern = variant_pattern_of(variant, path);
            let bytes = head_bytes(variant.tag, tag_type, prefix);
            quote!(#pattern => [#(#bytes),*],)
        });
        return (
            enum_len(variants, tag_type.size() + prefix, subject, private),
            quote!(#private::Writer::put_array(#w, match #value { #(#arms)* })),
        );
    }
    let encode_arms = variants.iter().enumerate().map(|(index, variant)| {
        let pattern = variant_pattern_of(variant, path);
        if encoded_fields(variant).next().is_none() {
            // Nothing but the tag (and an empty body's length): one write of
            // their bytes.
            let bytes = head_bytes(variant.tag, tag_type, prefix);
            return quote! {
                #pattern => #private::Writer::put_array(#w, [#(#bytes),*])?,
            };
        }
        let tag = tag_literal(variant.tag, tag_type);
        let head = quote!(#tag.to_le_bytes());
        let encodes = encoded_fields(variant).map(|(i, f)| field_encode(f, &binding(i), private));
        let fields_closure = fields_closure(encodes, private);
        let fixed = quote!(<Self as #private::Marshal>::__VARIANT_FIXED[#index]);
        let encode = if prefix > 0 {
            body_encode(&head, &fixed, private)
        } else {
            // A variant whose fields all have a fixed size is written
            // through one writer of exactly its length, tag included: one
            // bounds check for the variant instead of one per field.
            let fields_var = local("__fields");
            quote!(#private::encode_variant(#w, #head, const { #fixed }, #fields_var))
        };
        quote! {
            #pattern => {
                #fields_closure
                #encode?
            }
        }
    });
    (
        enum_len(variants, tag_type.size() + prefix, subject, private),
        quote! {
            match #value { #(#encode_arms)* }
            ::core::result::Result::Ok(())
        },
    )
}

/// The body of an extensible struct or variant: `head` (a variant's tag,
/// `[]` for a struct), then the body's length and the fields, which the
/// closure `__fields` writes; `fixed` is the const expression of the
/// fields' fixed length (an `Option`). When the fields all have a fixed size, the
/// length is a constant and the whole is written through one writer of
/// exactly its length; otherwise the length is filled in after the fields
/// are written.
fn body_encode(head: &TokenStream, fixed: &TokenStream, private: &TokenStream) -> TokenStream {
    let (w, fields_var) = (local("__w"), local("__fields"));
    quote! {
        #private::encode_body(#w, #head, const { #private::fixed_body(#fixed) }, #fields_var)
    }
}

/// `let __fields = |__w| ...;`, the closure that writes the fields through
/// the writer `__w`; `encodes` are the fields' steps (see
/// [`field_encode`]), the last one's result the closure's.
fn fields_closure(
    encodes: impl Iterator<Item = FieldEncode>,
    private: &TokenStream,
) -> TokenStream {
    let (w, fields_var) = (local("__w"), local("__fields"));
    let mut steps: Vec<TokenStream> = Vec::new();
    let mut last = None;
    for encode in encodes {
        steps.extend(last.take().map(|step: FieldEncode| match step {
            FieldEncode::Typed(call) => quote!(#call?;),
            FieldEncode::With(block) => block,
        }));
        last = Some(encode);
    }
    let tail = match last {
        Some(FieldEncode::Typed(call)) => call,
        Some(FieldEncode::With(block)) => quote!(#block ::core::result::Result::Ok(())),
        None => quote!(::core::result::Result::Ok(())),
    };
    quote! {
        let #fields_var = |#w: &mut #private::Writer<'_>| -> #private::Encoded {
            #(#steps)*
            #tail
        };
    }
}

/// An enum's `encoded_len` body: the variant's head and fields added up
/// in a `Len`, whose fixed part is a constant in each arm. A fixed-size
/// enum returns its `FIXED_LEN` at once.
fn enum_len(
    variants: &[Variant],
    head: usize,
    subject: &Subject,
    private: &TokenStream,
) -> TokenStream {
    let (value, path) = (&subject.value, &subject.path);
    let arms = variants.iter().map(|v| {
        let pattern = variant_pattern_of(v, path);
        let len = encoded_fields(v).fold(quote!(#private::Len::new(#head)), |len, (i, f)| {
            field_len(f, &binding(i), &len, private)
        });
        quote!(#pattern => #len,)
    });
    let n = local("__n");
    quote! {
        if let ::core::option::Option::Some(#n) = <Self as #private::Marshal>::FIXED_LEN {
            return #n;
        }
        match #value { #(#arms)* }.get()
    }
}

/// The bytes of a variant with nothing to write but its tag: the tag, and
/// for an extensible enum an empty body's length.
fn head_bytes(tag: u64, tag_type: TagType, prefix: usize) -> Vec<proc_macro2::Literal> {
    tag.to_le_bytes()[..tag_type.size()]
        .iter()
        .copied()
        .chain(std::iter::repeat_n(0, prefix))
        .map(proc_macro2::Literal::u8_suffixed)
        .collect()
}

/// `len`, a `Len`, with one field's length added; `access` evaluates to
/// `&FieldType`. A field of a type that has a `FIXED_LEN` adds it
/// (`Marshal::__add_len`; an adapted field through `As<A, FieldType>`);
/// a field encoded `with` a module, or naming the container, adds its
/// length found at run time. Each is a call through
/// the field's type, so that a type that is not `Marshal` is reported once,
/// at the type.
fn field_len(
    field: &Field,
    access: &TokenStream,
    len: &TokenStream,
    private: &TokenStream,
) -> TokenStream {
    if let Some(with) = &field.attrs.with {
        // The value is bound to a local located at the path, so a signature
        // mismatch is reported there rather than at the derive.
        let value = local_at("__value", with.span());
        return quote_spanned! {with.span()=>
            #private::Len::len(#len, {
                let #value = #access;
                #with::encoded_len(#value)
            })
        };
    }
    let (ty, access) = &adapted(field, access);
    if field.recursive {
        return quote_spanned! {ty.span()=>
            #private::Len::len(#len, <#ty as #private::Marshal>::encoded_len(#access))
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Marshal>::__add_len(#access, #len))
}

/// One field's step of an encoder.
enum FieldEncode {
    /// The field's `Marshal::encode` call, a `Result`.
    Typed(TokenStream),
    /// A block that writes a field `with` a module, and returns on error.
    With(TokenStream),
}

/// Encodes one field through the writer; `access` evaluates to `&FieldType`.
fn field_encode(field: &Field, access: &TokenStream, private: &TokenStream) -> FieldEncode {
    let w = local("__w");
    if let Some(with) = &field.attrs.with {
        return FieldEncode::With(with_encode(with, access, private));
    }
    let (ty, access) = adapted(field, access);
    FieldEncode::Typed(quote_spanned!(ty.span()=> <#ty as #private::Marshal>::encode(#access, #w)))
}

/// The type whose impls write `field`, and `access` as a reference to it:
/// the field's own, or with `as = A`, `As<A, FieldType>` (spanned at the
/// adapter, so that an adapter that does not fit is reported there, once)
/// and the field seen as one (`As::from_ref`, no copy).
pub(crate) fn adapted<'f>(field: &'f Field, access: &TokenStream) -> (&'f syn::Type, TokenStream) {
    match &field.adapted {
        Some(wire) => (
            wire,
            quote_spanned!(wire.span()=> <#wire>::from_ref(#access)),
        ),
        None => (field.ty, access.clone()),
    }
}

/// The block that writes a field `with` the module `with` through the
/// writer `__w`, returning on error; `access` evaluates to `&FieldType`.
/// The module writes through the caller's writer, into a region of exactly
/// the length its `encoded_len` gives, which it must fill
/// (`__private::encode_with`). The same in every configuration: the
/// module's bytes.
pub(crate) fn with_encode(
    with: &syn::Path,
    access: &TokenStream,
    private: &TokenStream,
) -> TokenStream {
    let (w, value) = (local("__w"), local_at("__value", with.span()));
    quote_spanned! {with.span()=>
        {
            let #value = #access;
            #private::encode_with(#w, #with::encoded_len(#value), |#w| #with::encode(#value, #w))?;
        }
    }
}
