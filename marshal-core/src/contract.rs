//! The compile-time contracts of derived types: `#[marshal(size = N)]`,
//! `#[marshal(max_size = N)]` and `#[marshal(history = [...])]`, checked
//! by const evaluation, which fails with a message naming what broke them;
//! and the const formatter those messages are written with.
//!
//! Generated code reaches these through `__private`.

/// Fails const evaluation unless the fingerprints `pinned` by
/// `#[marshal(history = [...])]` are those of the first versions in
/// `actual`, the type's history; the message names the version and both
/// fingerprints.
pub const fn check_history(pinned: &[u64], actual: &[u64], ty: &str) {
    let mut buf = [0u8; 400];
    let mut n = 0;
    if pinned.len() > actual.len() {
        n = put(&mut buf, n, "history of `");
        n = put(&mut buf, n, ty);
        n = put(&mut buf, n, "` pins ");
        n = put_num(&mut buf, n, pinned.len());
        n = put(&mut buf, n, " versions, but the type has ");
        n = put_num(&mut buf, n, actual.len());
        n = put(
            &mut buf,
            n,
            " (one per version, to its highest `since`); pin only released versions",
        );
        fail(&buf, n);
    }
    let mut i = 0;
    while i < pinned.len() {
        if pinned[i] != actual[i] {
            n = put(&mut buf, n, "history mismatch: version ");
            n = put_num(&mut buf, n, i + 1);
            n = put(&mut buf, n, " of `");
            n = put(&mut buf, n, ty);
            n = put(&mut buf, n, "` was released with fingerprint ");
            n = put_hex(&mut buf, n, pinned[i]);
            n = put(&mut buf, n, ", but its fields now give ");
            n = put_hex(&mut buf, n, actual[i]);
            n = put(
                &mut buf,
                n,
                "; released fields must stay as they are: add new fields at the end, with a \
                 higher `since`",
            );
            fail(&buf, n);
        }
        i += 1;
    }
}

/// Fails const evaluation unless a size contract holds. `fixed` selects
/// `#[marshal(size = N)]` (checked against `FIXED_LEN`) over
/// `#[marshal(max_size = N)]` (checked against `MAX_LEN`); `fields` are the
/// encoded fields' names with their own `FIXED_LEN` (or `MAX_LEN`), in
/// order. The message states both numbers, or names the first field
/// without a fixed length (or a bound).
pub const fn check_size(
    fixed: bool,
    declared: usize,
    computed: Option<usize>,
    ty: &str,
    fields: &[(&str, Option<usize>)],
) {
    if let Some(c) = computed {
        if c == declared {
            return;
        }
    }
    let mut buf = [0u8; 400];
    let mut n = 0;
    n = put(&mut buf, n, "size contract violated: #[marshal(");
    n = put(&mut buf, n, if fixed { "size" } else { "max_size" });
    n = put(&mut buf, n, " = ");
    n = put_num(&mut buf, n, declared);
    n = put(&mut buf, n, ")] on `");
    n = put(&mut buf, n, ty);
    n = put(&mut buf, n, "`, but ");
    let Some(c) = computed else {
        n = put(
            &mut buf,
            n,
            if fixed {
                "its encoded length is not fixed"
            } else {
                "its encoded length has no bound"
            },
        );
        n = match first_unknown(fields) {
            Some(field) => {
                let n = put(&mut buf, n, ": field `");
                let n = put(&mut buf, n, field);
                put(
                    &mut buf,
                    n,
                    if fixed {
                        "` is not fixed-size"
                    } else {
                        "` is not bounded"
                    },
                )
            }
            // Every field has a length: an enum's variants differ (or the
            // sum overflows).
            None if fixed => put(&mut buf, n, ": its variants differ in length"),
            None => n,
        };
        n = put(
            &mut buf,
            n,
            if fixed {
                "; use max_size or make every field fixed-size"
            } else {
                "; make every field bounded"
            },
        );
        fail(&buf, n);
    };
    n = put(
        &mut buf,
        n,
        if fixed {
            "its encoded length is "
        } else {
            "its maximum encoded length is "
        },
    );
    n = put_num(&mut buf, n, c);
    n = put(&mut buf, n, " bytes; fix the contract or the type");
    fail(&buf, n);
}

/// The name of the first field whose length is unknown.
const fn first_unknown<'a>(fields: &[(&'a str, Option<usize>)]) -> Option<&'a str> {
    let mut i = 0;
    while i < fields.len() {
        if fields[i].1.is_none() {
            return Some(fields[i].0);
        }
        i += 1;
    }
    None
}

/// The length prefix of the body of an extensible type whose fields have a
/// fixed length of `fields` bytes in all; const evaluation fails for a body
/// too long for its prefix.
#[must_use]
pub const fn fixed_body(fields: Option<usize>) -> Option<u32> {
    match fields {
        Some(body) if body > u32::MAX as usize => {
            panic!("an extensible type's fixed body is longer than its u32 length prefix can say")
        }
        Some(body) => Some(body as u32),
        None => None,
    }
}

/// Panics with the first `n` bytes of `buf`.
const fn fail(buf: &[u8], n: usize) -> ! {
    let msg = match core::str::from_utf8(buf.split_at(n).0) {
        Ok(msg) => msg,
        Err(_) => "contract violated",
    };
    panic!("{}", msg);
}

/// Appends `s` to `buf` at `n`, truncating at the end of `buf`.
const fn put(buf: &mut [u8], mut n: usize, s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() && n < buf.len() {
        buf[n] = bytes[i];
        n += 1;
        i += 1;
    }
    n
}

/// Appends `value` in decimal.
const fn put_num(buf: &mut [u8], n: usize, mut value: usize) -> usize {
    let mut digits = [0u8; 20];
    let mut len = 0;
    loop {
        digits[digits.len() - 1 - len] = b'0' + (value % 10) as u8;
        len += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    match core::str::from_utf8(digits.split_at(digits.len() - len).1) {
        Ok(s) => put(buf, n, s),
        Err(_) => n,
    }
}

/// Appends `value` as `0x` and 16 hexadecimal digits.
const fn put_hex(buf: &mut [u8], n: usize, value: u64) -> usize {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut hex = [0u8; 18];
    hex[0] = b'0';
    hex[1] = b'x';
    let mut i = 0;
    while i < 16 {
        hex[17 - i] = DIGITS[((value >> (4 * i)) & 0xf) as usize];
        i += 1;
    }
    match core::str::from_utf8(&hex) {
        Ok(s) => put(buf, n, s),
        Err(_) => n,
    }
}
