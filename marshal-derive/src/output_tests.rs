//! The derive's output for the README's `Order` and `Side`, as rustfmt
//! would print it, so that reviewers see what `encoded_len`, `encode` and
//! `decode` become, and so that the expansion cannot grow back unnoticed:
//! at most [`MAX_LINES`] lines inside the four `const _` blocks, and each
//! field type spelled at most once in each item of an impl (a constant, a
//! function).
//!
//! Each expansion is compared with its snapshot in
//! `src/output_tests/expected/`; `MARSHAL_BLESS=1 cargo test -p
//! marshal-derive output_tests` rewrites the snapshots. (The same count
//! through the compiler and rustfmt: `scripts/expansion-size.sh`.)

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use crate::expand::expand;
use crate::internals::Derive;

/// The most lines the four expansions' `Marshal` and `Unmarshal` impls
/// (and their other items) may take inside their `const _` blocks (not
/// counting the blocks' own first and last lines), as prettyplease prints
/// them: 167. Through the compiler and rustfmt
/// (`scripts/expansion-size.sh`), where each `offset_of!` expands to a
/// `const` block of three lines, the same code is 182 lines.
const MAX_LINES: usize = 167;

/// The most lines the four expansions' impls of every other configuration
/// (`MarshalIn`, `UnmarshalIn`; see `dialect`) may take besides, as
/// prettyplease prints them. The derive emits them with the feature
/// `config` alone (and in these tests, whatever the features). They list
/// the fields a second time: with them the blocks were 293 lines through
/// the compiler and rustfmt, past the 190 that the expansion was brought
/// down to before they existed; without them, 182. A struct of fields
/// that its types read is also built in place in them, as in `legacy()`,
/// where a `Vec` keeps it (a value on its own is still read in registers):
/// 15 more lines for `Order`, for 11% fewer instructions decoding the
/// `updates` benchmark in `standard()` (`benches/focus.rs`,
/// `updates-standard-decode-marshal`: 2,094,915 to 1,873,211). Fields of
/// the standard library's owning types take no bound (146 lines to 134),
/// and a struct read on its own tries one read of its memory first: 7
/// more lines for `Order`, for 4% fewer instructions on the same
/// benchmark (1,877,550 to 1,799,345). Fields of 2 to 16 are then read,
/// written and sized as one tuple (`dialect::as_tuple`), which takes 4
/// more lines as printed (prettyplease splits the turbofish calls) but a
/// fifth less type-checking, and decodes `messages` faster.
const MAX_DIALECT_LINES: usize = 145;

/// The README's example types.
fn readme_types() -> [(&'static str, syn::DeriveInput); 2] {
    [
        (
            "order",
            syn::parse_quote! {
                struct Order<'a> {
                    id: u64,
                    price: f64,
                    symbol: &'a str,
                    tags: Vec<String>,
                    side: Side,
                }
            },
        ),
        (
            "side",
            syn::parse_quote! {
                enum Side {
                    Buy,
                    Sell,
                    Limit { max: f64 },
                }
            },
        ),
    ]
}

/// The items inside the `const _` block of one expansion, printed.
fn block_items(expansion: TokenStream) -> (String, Vec<syn::Item>) {
    let file: syn::File = syn::parse2(expansion).expect("the expansion parses");
    let [syn::Item::Const(block)] = &file.items[..] else {
        panic!("the expansion is one `const _` block");
    };
    let syn::Expr::Block(body) = &*block.expr else {
        panic!("the `const _` holds a block");
    };
    let items: Vec<syn::Item> = body
        .block
        .stmts
        .iter()
        .map(|stmt| match stmt {
            syn::Stmt::Item(item) => item.clone(),
            _ => panic!("the `const _` block holds items only"),
        })
        .collect();
    let printed = prettyplease::unparse(&syn::File {
        shebang: None,
        frontmatter: None,
        attrs: Vec::new(),
        items: items.clone(),
    });
    (printed, items)
}

/// Whether `item` is an impl of another configuration's trait
/// (`MarshalIn`, `UnmarshalIn`).
fn is_dialect_impl(item: &syn::Item) -> bool {
    let syn::Item::Impl(imp) = item else {
        return false;
    };
    imp.trait_.as_ref().is_some_and(|(path, _)| {
        path.segments
            .last()
            .is_some_and(|s| s.ident == "MarshalIn" || s.ident == "UnmarshalIn")
    })
}

/// The lines prettyplease prints `items` in.
fn lines_of(items: &[syn::Item]) -> usize {
    prettyplease::unparse(&syn::File {
        shebang: None,
        frontmatter: None,
        attrs: Vec::new(),
        items: items.to_vec(),
    })
    .lines()
    .count()
}

/// The tokens of `tokens` as strings, groups opened.
fn flat(tokens: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Brace => ("{", "}"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                out.push(open.to_owned());
                out.extend(flat(g.stream()));
                out.push(close.to_owned());
            }
            other => out.push(other.to_string()),
        }
    }
    out
}

/// How often `needle` occurs in `haystack`, both flattened tokens.
fn occurrences(haystack: &[String], needle: &[String]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| w == &needle)
        .count()
}

/// The value of each item of each impl among `items`: a constant's
/// expression, a function's body, named.
fn impl_item_values(items: &[syn::Item]) -> Vec<(String, TokenStream)> {
    let mut values = Vec::new();
    for item in items {
        let syn::Item::Impl(imp) = item else { continue };
        for item in &imp.items {
            match item {
                syn::ImplItem::Const(c) => {
                    values.push((c.ident.to_string(), c.expr.to_token_stream()));
                }
                syn::ImplItem::Fn(f) => {
                    values.push((f.sig.ident.to_string(), f.block.to_token_stream()));
                }
                _ => {}
            }
        }
    }
    values
}

#[test]
fn readme_expansion() {
    let bless = std::env::var_os("MARSHAL_BLESS").is_some();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/output_tests/expected");
    let (mut lines, mut dialect_lines) = (0, 0);
    let mut report = Vec::new();
    for (name, input) in readme_types() {
        let types: Vec<syn::Type> = match &input.data {
            syn::Data::Struct(s) => s.fields.iter().map(|f| f.ty.clone()).collect(),
            syn::Data::Enum(e) => e
                .variants
                .iter()
                .flat_map(|v| v.fields.iter().map(|f| f.ty.clone()))
                .collect(),
            syn::Data::Union(_) => unreachable!(),
        };
        for (derive, suffix) in [
            (Derive::Marshal, "marshal"),
            (Derive::Unmarshal, "unmarshal"),
        ] {
            let (printed, items) = block_items(expand(&input, derive));
            let (dialects, legacy): (Vec<syn::Item>, Vec<syn::Item>) =
                items.iter().cloned().partition(is_dialect_impl);
            lines += lines_of(&legacy);
            dialect_lines += lines_of(&dialects);
            report.push(format!(
                "{name}.{suffix}: {} + {} lines",
                lines_of(&legacy),
                lines_of(&dialects)
            ));
            for (item, value) in impl_item_values(&items) {
                let value = flat(value);
                for ty in &types {
                    let n = occurrences(&value, &flat(ty.to_token_stream()));
                    assert!(
                        n <= 1,
                        "`{}` is spelled {n} times in `{item}` of {name}'s {suffix} impl",
                        ty.to_token_stream()
                    );
                }
            }
            let path = dir.join(format!("{name}_{suffix}.rs"));
            if bless {
                std::fs::write(&path, &printed).expect("writes the snapshot");
            } else {
                let expected = std::fs::read_to_string(&path).unwrap_or_default();
                assert!(
                    expected == printed,
                    "{} differs from the expansion (MARSHAL_BLESS=1 rewrites it):\n{printed}",
                    path.display()
                );
            }
        }
    }
    assert!(
        lines <= MAX_LINES,
        "the README's types expand to {lines} lines, more than {MAX_LINES}: {report:?}"
    );
    assert!(
        dialect_lines <= MAX_DIALECT_LINES,
        "the README's types' other configurations expand to {dialect_lines} lines, more than \
         {MAX_DIALECT_LINES}: {report:?}"
    );
}
