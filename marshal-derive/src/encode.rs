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
use crate::len::{SizeConst, body_prefix, container_len, fields_fixed_part, fields_len};
use crate::pattern::{
    binding, encoded_fields, local, local_at, tag_literal, variant_any_pattern, variant_pattern,
};

/// The `impl Marshal` of a checked container.
pub(crate) fn impl_marshal(cont: &Container, krate: &syn::Path) -> TokenStream {
    let private = quote!(#krate::__private);
    let ident = cont.ident;
    let generics = bound::with_bound(
        cont,
        cont.generics,
        |f| f.is_encoded() && f.attrs.with.is_none(),
        &syn::parse_quote!(#krate::__private::Marshal),
    );
    let generics = bound::explicit(cont, Derive::Marshal).unwrap_or(generics);
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let fixed_len = container_len(cont, &private, SizeConst::Fixed);
    let max_len = container_len(cont, &private, SizeConst::Max);
    let fingerprint = with_history_contract(container_fingerprint(cont, &private), cont, &private);
    let history = container_history(cont, &private);
    let layout = container_layout(cont, &private, &quote!(#private::Marshal));
    let (fixed_len, max_len) = (
        with_contract(fixed_len, cont.attrs.size.as_ref(), true, cont, &private),
        with_contract(max_len, cont.attrs.max_size.as_ref(), false, cont, &private),
    );
    let contracts = item_level_contracts(cont, &private);
    let (len_body, encode_body) = match &cont.data {
        Data::Struct(fields) => struct_bodies(fields, cont.extensible(), &private),
        Data::Enum(variants) => enum_bodies(variants, cont.tag_type(), body_prefix(cont), &private),
    };
    let n = local("__n");
    let w = local("__w");
    let body = local("__body");

    quote! {
        #[automatically_derived]
        impl #impl_generics #private::Marshal for #ident #ty_generics #where_clause {
            const FIXED_LEN: ::core::option::Option<::core::primitive::usize> = #fixed_len;
            const MAX_LEN: ::core::option::Option<::core::primitive::usize> = #max_len;
            const FINGERPRINT: ::core::primitive::u64 = #fingerprint;
            #history
            #layout

            #[inline]
            fn encoded_len(&self) -> ::core::primitive::usize {
                if let ::core::option::Option::Some(#n) =
                    <Self as #private::Marshal>::FIXED_LEN
                {
                    return #n;
                }
                #len_body
            }

            #[inline]
            fn encode(
                &self,
                #w: &mut #private::Writer<'_>,
            ) -> ::core::result::Result<(), #private::Overflow> {
                let #body = |#w: &mut #private::Writer<'_>|
                    -> ::core::result::Result<(), #private::Overflow> {
                    #encode_body
                };
                // A fixed-size value is written through a writer of exactly
                // its length: one bounds check, and the per-field checks fold.
                match <Self as #private::Marshal>::FIXED_LEN {
                    ::core::option::Option::Some(#n) => #private::Writer::exact(#w, #n, #body),
                    ::core::option::Option::None => #body(#w),
                }
            }
        }

        #contracts
    }
}

/// `computed`, checked against a size contract when there is one: const
/// evaluation fails at the attribute, with both numbers, when they differ.
fn with_contract(
    computed: TokenStream,
    contract: Option<&(TokenStream, usize)>,
    fixed: bool,
    cont: &Container,
    private: &TokenStream,
) -> TokenStream {
    let Some((tokens, declared)) = contract else {
        return computed;
    };
    let span = syn::spanned::Spanned::span(tokens);
    let name = cont.ident.to_string();
    let value = local("__computed");
    // Every token of the call carries the attribute's span, so a failed
    // contract is reported there.
    let private = respan(private.clone(), span);
    quote_spanned! {span=>
        {
            let #value = #computed;
            #private::check_size(#fixed, #declared, #value, #name);
            #value
        }
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
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
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

fn struct_bodies(
    fields: &[Field],
    extensible: bool,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    // A `with` field is borrowed at its path, so a signature mismatch is
    // reported there, not at the derive.
    let access = |f: &Field| {
        let member = &f.member;
        match &f.attrs.with {
            Some(with) => quote_spanned!(with.span()=> &self.#member),
            None => quote!(&self.#member),
        }
    };
    // The fields of a fixed length add up to one constant; only the others
    // are summed at run time.
    let fixed = fields_fixed_part(fields, private);
    let lens = fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| field_variable_len(f, &access(f), private));
    let encodes = fields
        .iter()
        .filter(|f| f.is_encoded())
        .map(|f| field_encode(f, &access(f), private));
    if extensible {
        let (w, fields, n) = (local("__w"), local("__fields"), local("__n"));
        return (
            quote!(const { (#fixed).saturating_add(4) } #(.saturating_add(#lens))*),
            // The body's length: a constant when the struct has a fixed
            // length, else filled in after the fields are written.
            quote! {
                let #fields = |#w: &mut #private::Writer<'_>|
                    -> ::core::result::Result<(), #private::Overflow> {
                    #(#encodes)*
                    ::core::result::Result::Ok(())
                };
                match <Self as #private::Marshal>::FIXED_LEN {
                    ::core::option::Option::Some(_) => {
                        #private::Writer::put_array(
                            #w,
                            const {
                                match <Self as #private::Marshal>::FIXED_LEN {
                                    ::core::option::Option::Some(#n) =>
                                        #private::fixed_body_len(#n, 4),
                                    ::core::option::Option::None => 0,
                                }
                            }
                            .to_le_bytes(),
                        )?;
                        #fields(#w)
                    }
                    ::core::option::Option::None => #private::Writer::put_body(#w, #fields),
                }
            },
        );
    }
    (
        // Lengths saturate: a value longer than `usize` reports `usize::MAX`.
        quote!(const { #fixed } #(.saturating_add(#lens))*),
        quote! {
            #(#encodes)*
            ::core::result::Result::Ok(())
        },
    )
}

fn enum_bodies(
    variants: &[Variant],
    tag_type: TagType,
    prefix: usize,
    private: &TokenStream,
) -> (TokenStream, TokenStream) {
    if variants.is_empty() {
        return (quote!(match *self {}), quote!(match *self {}));
    }
    let w = local("__w");
    let tag_size = tag_type.size();
    let mut encode_arms = Vec::new();
    for variant in variants {
        let pattern = variant_pattern(variant);
        let tag = tag_literal(variant.tag, tag_type);
        if encoded_fields(variant).next().is_none() {
            // Nothing but the tag (and an empty body's length): one write of
            // their bytes.
            let bytes = head_bytes(variant.tag, tag_type, prefix);
            encode_arms.push(quote! {
                #pattern => #private::Writer::put_array(#w, [#(#bytes),*])?,
            });
            continue;
        }
        if prefix > 0 {
            encode_arms.push(extensible_variant_encode(variant, tag_type, private));
            continue;
        }
        let encodes = encoded_fields(variant).map(|(i, f)| field_encode(f, &binding(i), private));
        // A variant whose fields all have a fixed size is written through
        // one writer of exactly its length, tag included: one bounds check
        // for the variant instead of one per field.
        let fixed = fields_len(&variant.fields, private, SizeConst::Fixed);
        let (arm, n) = (local("__arm"), local("__n"));
        encode_arms.push(quote! {
            #pattern => {
                let #arm = |#w: &mut #private::Writer<'_>|
                    -> ::core::result::Result<(), #private::Overflow> {
                    #private::Writer::put_array(#w, #tag.to_le_bytes())?;
                    #(#encodes)*
                    ::core::result::Result::Ok(())
                };
                match const { #fixed } {
                    ::core::option::Option::Some(#n) =>
                        #private::Writer::exact(#w, #n.saturating_add(#tag_size), #arm)?,
                    ::core::option::Option::None => #arm(#w)?,
                }
            }
        });
    }
    (
        enum_len(variants, tag_type.size() + prefix, private),
        quote! {
            match self { #(#encode_arms)* }
            ::core::result::Result::Ok(())
        },
    )
}

/// An enum's `encoded_len` body: the fixed part of the variant's length,
/// looked up in a table by variant, plus the fields without a fixed size.
///
/// As one match with a different length in every arm, this compiled to a
/// jump through a table, mispredicted as often as the variants vary. Split,
/// the fixed part is a load and the variable part one compare for each
/// variant that has one (`saves`: a third less time in the length pass).
fn enum_len(variants: &[Variant], tag_size: usize, private: &TokenStream) -> TokenStream {
    let fixed_parts = variants.iter().map(|v| {
        let part = fields_fixed_part(&v.fields, private);
        quote!((#part).saturating_add(#tag_size))
    });
    let index_arms = variants.iter().enumerate().map(|(index, v)| {
        let any = variant_any_pattern(v);
        quote!(#any => #index,)
    });
    let variable_arms = variants.iter().map(|v| {
        let pattern = variant_pattern(v);
        let variable = encoded_fields(v).map(|(i, f)| field_variable_len(f, &binding(i), private));
        quote!(#pattern => 0usize #(.saturating_add(#variable))*,)
    });
    let (fixed, index) = (local("__fixed"), local("__index"));
    let count = variants.len();
    quote! {
        let #fixed: [::core::primitive::usize; #count] = const { [#(#fixed_parts),*] };
        let #index: ::core::primitive::usize = match self { #(#index_arms)* };
        #fixed[#index].saturating_add(match self { #(#variable_arms)* })
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

/// The encode arm of a variant of an extensible enum that has fields: the
/// tag, then the body's length and the fields. A variant whose fields all
/// have a fixed size is written through one writer of exactly its length,
/// its body's length a constant; another's body length is filled in after
/// its fields are written.
fn extensible_variant_encode(
    variant: &Variant,
    tag_type: TagType,
    private: &TokenStream,
) -> TokenStream {
    let pattern = variant_pattern(variant);
    let tag = tag_literal(variant.tag, tag_type);
    let tag_size = tag_type.size();
    let encodes = encoded_fields(variant).map(|(i, f)| field_encode(f, &binding(i), private));
    let fixed = fields_len(&variant.fields, private, SizeConst::Fixed);
    let (w, fields, n) = (local("__w"), local("__fields"), local("__n"));
    quote! {
        #pattern => {
            let #fields = |#w: &mut #private::Writer<'_>|
                -> ::core::result::Result<(), #private::Overflow> {
                #(#encodes)*
                ::core::result::Result::Ok(())
            };
            match const { #fixed } {
                ::core::option::Option::Some(#n) => #private::Writer::exact(
                    #w,
                    #n.saturating_add(#tag_size + 4),
                    |#w: &mut #private::Writer<'_>| {
                        #private::Writer::put_array(#w, #tag.to_le_bytes())?;
                        #private::Writer::put_array(
                            #w,
                            const {
                                match #fixed {
                                    ::core::option::Option::Some(#n) =>
                                        #private::fixed_body_len(#n, 0),
                                    ::core::option::Option::None => 0,
                                }
                            }
                            .to_le_bytes(),
                        )?;
                        #fields(#w)
                    },
                )?,
                ::core::option::Option::None => {
                    #private::Writer::put_array(#w, #tag.to_le_bytes())?;
                    #private::Writer::put_body(#w, #fields)?
                }
            }
        }
    }
}

/// The encoded length of one field; `access` evaluates to `&FieldType`.
fn field_len(field: &Field, access: &TokenStream, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    if let Some(with) = &field.attrs.with {
        // The value is bound to a local located at the path, so a signature
        // mismatch is reported there rather than at the derive.
        let value = local_at("__value", with.span());
        return quote_spanned! {with.span()=>
            {
                let #value = #access;
                #with::encoded_len(#value)
            }
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Marshal>::encoded_len(#access))
}

/// The part of one field's encoded length that is not its `FIXED_LEN`:
/// all of it for a field without one (or encoded `with` a module, or
/// naming the container), 0 for the others.
fn field_variable_len(field: &Field, access: &TokenStream, private: &TokenStream) -> TokenStream {
    let len = field_len(field, access, private);
    if !field.sized_by_type() {
        return len;
    }
    let ty = field.ty;
    quote! {
        match const { <#ty as #private::Marshal>::FIXED_LEN } {
            ::core::option::Option::Some(_) => 0,
            ::core::option::Option::None => #len,
        }
    }
}

/// Encodes one field through the writer; `access` evaluates to `&FieldType`.
fn field_encode(field: &Field, access: &TokenStream, private: &TokenStream) -> TokenStream {
    let ty = field.ty;
    let w = local("__w");
    if let Some(with) = &field.attrs.with {
        let message = format!(
            "`{}::write_to` wrote a different number of bytes than its `encoded_len` reported",
            quote!(#with).to_string().replace(' ', "")
        );
        let (value, len, written) = (
            local_at("__value", with.span()),
            local("__len"),
            local("__written"),
        );
        return quote_spanned! {with.span()=>
            {
                let #value = #access;
                let #len = #with::encoded_len(#value);
                let #written = #with::write_to(#value, #private::Writer::reserve(#w, #len)?);
                ::core::debug_assert_eq!(#written, #len, #message);
            }
        };
    }
    quote_spanned!(ty.span()=> <#ty as #private::Marshal>::encode(#access, #w)?;)
}
