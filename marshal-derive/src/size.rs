//! Compile-time size constants: `FIXED_LEN` and `MAX_LEN` as const
//! expressions folded from the fields' own constants.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::internals::ast::{Container, Data, Field};

/// Which of the two size constants to build.
#[derive(Copy, Clone)]
pub(crate) enum SizeConst {
    Fixed,
    Max,
}

impl SizeConst {
    fn ident(self) -> TokenStream {
        match self {
            SizeConst::Fixed => quote!(FIXED_LEN),
            SizeConst::Max => quote!(MAX_LEN),
        }
    }
}

/// The const expression of `which` for the whole container.
pub(crate) fn container_len(cont: &Container, krate: &TokenStream, which: SizeConst) -> TokenStream {
    match &cont.data {
        Data::Struct(_, fields) => fields_len(fields, krate, which),
        Data::Enum(variants) => {
            let tag_size = cont.tag_type().size();
            let per_variant = variants.iter().map(|v| fields_len(&v.fields, krate, which));
            let fold = match which {
                SizeConst::Fixed => quote!(same),
                SizeConst::Max => quote!(max),
            };
            quote! {
                #krate::add(
                    ::core::option::Option::Some(#tag_size),
                    #krate::#fold(&[#(#per_variant),*]),
                )
            }
        }
        Data::Union => quote!(::core::option::Option::None),
    }
}

/// The sum of `which` over the encoded fields. A field encoded `with` a
/// module has no known size, so neither has the sum.
fn fields_len(fields: &[Field], krate: &TokenStream, which: SizeConst) -> TokenStream {
    let ident = which.ident();
    let terms = fields.iter().filter(|f| f.is_encoded()).map(|f| {
        if f.attrs.with.is_some() {
            quote!(::core::option::Option::None)
        } else {
            let ty = f.ty;
            quote_spanned!(ty.span()=> <#ty as #krate::Marshal>::#ident)
        }
    });
    quote!(#krate::sum(&[#(#terms),*]))
}
