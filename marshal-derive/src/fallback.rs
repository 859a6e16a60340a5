//! What to emit when the input is invalid: the errors, plus a stub impl so
//! that uses of the type elsewhere produce no follow-on errors.

use proc_macro2::TokenStream;
use quote::quote;

use crate::bound::with_de_lifetime;
use crate::dummy;
use crate::internals::ctxt::Ctxt;
use crate::internals::{Derive, attr};

/// The compile errors of `err` and a stub impl of the derived trait.
pub(crate) fn expand(input: &syn::DeriveInput, err: syn::Error, derive: Derive) -> TokenStream {
    let errors = err.into_compile_error();
    let ident = &input.ident;
    let krate = crate_path(input);
    let private = dummy::private();
    let (_, ty_generics, where_clause) = input.generics.split_for_impl();
    let stub = match derive {
        Derive::Marshal => {
            let (impl_generics, _, _) = input.generics.split_for_impl();
            quote! {
                #[automatically_derived]
                impl #impl_generics #private::Marshal for #ident #ty_generics #where_clause {
                    fn encoded_len(&self) -> usize {
                        ::core::unreachable!()
                    }
                    fn encode(
                        &self,
                        _: &mut #private::Writer<'_>,
                    ) -> ::core::result::Result<(), #private::Overflow> {
                        ::core::unreachable!()
                    }
                }
            }
        }
        Derive::Unmarshal => {
            let de_generics = with_de_lifetime(&input.generics);
            let (impl_generics, _, _) = de_generics.split_for_impl();
            quote! {
                #[automatically_derived]
                impl #impl_generics #private::Unmarshal<'__de> for #ident #ty_generics #where_clause {
                    fn decode(
                        _: &mut #private::Reader<'__de>,
                    ) -> ::core::result::Result<Self, #private::DecodeError> {
                        ::core::unreachable!()
                    }
                }
            }
        }
    };
    let stub = dummy::wrap_in_const(&krate, stub);
    quote! {
        #errors
        #stub
    }
}

/// `#[marshal(crate = ...)]`, or `::marshal`, read from the input's
/// attributes themselves: the input may have no internal representation (a
/// union has none). The derive has already reported any error in them.
fn crate_path(input: &syn::DeriveInput) -> syn::Path {
    let cx = Ctxt::new();
    let attrs = attr::Container::from_ast(&cx, &input.attrs);
    let _already_reported = cx.check();
    attrs.crate_path()
}
