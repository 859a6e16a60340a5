//! Runs one derive: build and check the internal representation, then
//! generate the impl, or fall back to the errors and a stub impl.

use proc_macro2::TokenStream;

use crate::dialect;
use crate::dummy;
use crate::fallback;
use crate::internals::Derive;
use crate::internals::ast::Container;
use crate::internals::ctxt::Ctxt;
use crate::{decode, encode, remote};

pub(crate) fn expand(input: &syn::DeriveInput, derive: Derive) -> TokenStream {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input, derive);
    match (cx.check(), cont) {
        (Ok(()), Some(cont)) => {
            let private = dummy::private();
            dummy::wrap_in_const(
                &cont.attrs.crate_path(),
                match derive {
                    Derive::Marshal => {
                        let legacy = encode::impl_marshal(&cont, &private);
                        let dialects = dialect::impl_marshal_in(&cont, &private);
                        let remote = remote::impl_marshal_as(&cont, &private);
                        quote::quote!(#legacy #dialects #remote)
                    }
                    Derive::Unmarshal => {
                        let legacy = decode::impl_unmarshal(&cont, &private);
                        let dialects = dialect::impl_unmarshal_in(&cont, &private);
                        let remote = remote::impl_unmarshal_as(&cont, &private);
                        quote::quote!(#legacy #dialects #remote)
                    }
                },
            )
        }
        (Err(err), _) => fallback::expand(input, err, derive),
        (Ok(()), None) => unreachable!("Container::from_ast records why it builds no container"),
    }
}
