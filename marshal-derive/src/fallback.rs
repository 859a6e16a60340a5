//! What to emit when the input is invalid: the errors, plus a stub impl so
//! that uses of the type elsewhere produce no follow-on errors.

use proc_macro2::TokenStream;
use quote::quote;

use crate::dummy;

/// The compile errors of `err` and a stub `Marshal` impl for `input`.
pub(crate) fn expand(input: &syn::DeriveInput, krate: &syn::Path, err: syn::Error) -> TokenStream {
    let errors = err.into_compile_error();
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let stub = dummy::wrap_in_const(quote! {
        #[automatically_derived]
        impl #impl_generics #krate::__private::Marshal for #ident #ty_generics #where_clause {
            fn encoded_len(&self) -> usize {
                ::core::unreachable!()
            }
            fn encode(
                &self,
                _: &mut #krate::__private::Writer<'_>,
            ) -> ::core::result::Result<(), #krate::__private::Overflow> {
                ::core::unreachable!()
            }
        }
    });
    quote! {
        #errors
        #stub
    }
}
