//! The decodes whose targets are closest, measured two ways that a noisy
//! machine disturbs less than criterion's separate groups: interleaved
//! timing, and one operation repeated for callgrind.
//!
//! - The serde route against bincode 1.3 (`logs`, `saves`), both through
//!   the datasets' serde derives, from the same bytes.
//! - The `updates` decode against speedy and wincode.
//! - The `messages` decode, one 40-byte quote a call, against speedy and
//!   wincode, and two-pass encoding against speedy: for callgrind only
//!   (see [`COMPARISONS`]).
//! - In `config::standard()`, for callgrind only, marshal against bincode
//!   2 and wincode (`with_varint_encoding`): `updates` decoded and encoded
//!   (`updates-standard-decode-<lib>`, `-encode-<lib>`), `messages`
//!   decoded one quote a call and in two passes
//!   (`messages-standard-decode-<lib>`, `-two-pass-<lib>`), and `saves`
//!   in two passes (`saves-standard-two-pass-<lib>`). The three libraries'
//!   bytes are checked equal first.
//! - In `legacy().with_big_endian()`, for callgrind only, `logs`, `saves`
//!   and `updates` encoded into a reused buffer by marshal and bincode 2
//!   (`<set>-big-encode-<lib>`), their bytes checked equal first.
//! - The derive's own code on `logs`, `saves` and `updates`, for callgrind
//!   only: `<set>-encode` (one pass, `encode_into_vec` into a reused
//!   buffer), `<set>-two-pass` (`encoded_len`, then `write_to` into a
//!   reused buffer of that length) and `<set>-decode` (`from_bytes`).
//!
//! ```sh
//! # Rounds of every comparison, each round running each library in turn
//! # (once untimed, then once timed), so that a busy machine slows them
//! # alike; prints the medians and the ratios.
//! MARSHAL_FOCUS=interleaved:300 cargo bench -p marshal-benches --bench focus
//! # One operation `n` times, for an instruction count: the difference
//! # between two counts of `n` is the cost of `n` more runs.
//! MARSHAL_FOCUS=updates-marshal:100 valgrind --tool=callgrind \
//!     target/release/deps/focus-<hash>
//! # Instructions per run: (count at n=10 - count at n=0) / 10.
//! ```
//!
//! Without `MARSHAL_FOCUS` it runs `interleaved:100`. glibc's allocator
//! thresholds are fixed first (`common::fix_allocator`), as in `compare.rs`.

// The datasets are shared with `compare.rs`; not all of them are used here.
#![allow(missing_docs)]

#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;

use std::cell::RefCell;
use std::hint::black_box;
use std::time::Instant;

use speedy::{LittleEndian, Readable as _, Writable as _};

use common::{Logs, Quote, Saves, Updates};

/// The datasets, their sizes as in `compare.rs`, and each library's bytes.
struct Data {
    logs: Vec<u8>,
    saves: Vec<u8>,
    updates: Vec<u8>,
    updates_speedy: Vec<u8>,
    /// `updates` in bincode 2's `standard()` (varint) bytes, which are
    /// marshal's `config::standard()` and wincode's varint encoding too.
    updates_standard: Vec<u8>,
    quotes: Vec<Quote>,
    messages: Vec<Vec<u8>>,
    messages_speedy: Vec<Vec<u8>>,
    /// Each quote in `standard()` bytes (the three libraries').
    messages_standard: Vec<Vec<u8>>,
    /// The values the encoding operations write.
    values: (Logs, Saves, Updates),
    /// The buffer they write into, kept between runs.
    out: RefCell<Vec<u8>>,
}

impl Data {
    fn new() -> Self {
        let logs = common::logs(10_000);
        let saves = common::saves(500);
        let updates = common::updates(300);
        let quotes = common::messages(1_000);
        let data = Data {
            logs: bincode::serialize(&logs).expect("bincode"),
            saves: bincode::serialize(&saves).expect("bincode"),
            updates: marshal::to_vec(&updates),
            updates_standard: marshal::encode_to_vec(&updates, marshal::config::standard()),
            updates_speedy: updates
                .write_to_vec_with_ctx(LittleEndian::default())
                .expect("speedy"),
            messages: quotes.iter().map(marshal::to_vec).collect(),
            messages_speedy: quotes
                .iter()
                .map(|q| q.write_to_vec_with_ctx(LittleEndian::default()))
                .collect::<Result<_, _>>()
                .expect("speedy"),
            messages_standard: quotes
                .iter()
                .map(|q| marshal::encode_to_vec(q, marshal::config::standard()))
                .collect(),
            quotes,
            values: (logs.clone(), saves.clone(), updates.clone()),
            out: RefCell::new(Vec::new()),
        };
        // Every path reads back what was written before anything is timed.
        assert_eq!(marshal::to_vec(&logs), data.logs);
        assert_eq!(
            marshal::serde::from_bytes::<Logs>(&data.logs).expect("decodes"),
            logs
        );
        assert_eq!(
            marshal::serde::from_bytes::<Saves>(&data.saves).expect("decodes"),
            saves
        );
        assert_eq!(
            bincode2::encode_to_vec(&updates, bincode2::config::standard()).expect("bincode 2"),
            data.updates_standard
        );
        assert_eq!(
            wincode::config::serialize(&updates, wincode_varint()).expect("wincode"),
            data.updates_standard
        );
        for (quote, bytes) in data.quotes.iter().zip(&data.messages_standard) {
            assert_eq!(
                &bincode2::encode_to_vec(quote, bincode2::config::standard()).expect("bincode 2"),
                bytes
            );
            assert_eq!(
                &wincode::config::serialize(quote, wincode_varint()).expect("wincode"),
                bytes
            );
        }
        assert_eq!(
            marshal::encode_to_vec(&saves, marshal::config::standard()),
            wincode::config::serialize(&saves, wincode_varint()).expect("wincode")
        );
        let big = marshal::config::legacy().with_big_endian();
        let big2 = bincode2::config::legacy().with_big_endian();
        assert_eq!(
            marshal::encode_to_vec(&saves, big),
            bincode2::encode_to_vec(&saves, big2).expect("bincode 2")
        );
        assert_eq!(
            marshal::encode_to_vec(&logs, big),
            bincode2::encode_to_vec(&logs, big2).expect("bincode 2")
        );
        assert_eq!(
            marshal::encode_to_vec(&updates, big),
            bincode2::encode_to_vec(&updates, big2).expect("bincode 2")
        );
        for op in OPS {
            run(op, &data);
        }
        data
    }
}

/// The operations: what is compared, and each library's side of it.
#[derive(Clone, Copy, PartialEq)]
enum Op {
    LogsSerdeMarshal,
    LogsSerdeBincode1,
    SavesSerdeMarshal,
    SavesSerdeBincode1,
    UpdatesMarshal,
    UpdatesSpeedy,
    UpdatesWincode,
    MessagesMarshal,
    MessagesSpeedy,
    MessagesWincode,
    TwoPassMarshal,
    TwoPassSpeedy,
    /// `updates` in `standard()`: decoding, and encoding into a reused
    /// buffer, by marshal, bincode 2 and wincode.
    StandardDecode(Lib),
    StandardEncode(Lib),
    /// `messages` in `standard()`: decoding each quote, and two passes
    /// (`encoded_len_with`, then `encode_into_slice` into a stack buffer
    /// of that length), by marshal, bincode 2 and wincode.
    StandardMessagesDecode(Lib),
    StandardMessagesTwoPass(Lib),
    /// `saves` in `standard()`: two passes into a reused buffer.
    StandardSavesTwoPass(Lib),
    /// A dataset in `legacy().with_big_endian()` (fixed-width big-endian
    /// integers), encoded into a reused buffer by marshal or bincode 2.
    BigEncode(Set, Lib),
    /// The derive's code: one dataset, one way.
    Derived(Set, Way),
}

/// The libraries of the `standard()` operations.
#[derive(Clone, Copy, PartialEq)]
enum Lib {
    Marshal,
    Bincode2,
    Wincode,
}

/// The datasets of the derive's operations.
#[derive(Clone, Copy, PartialEq)]
enum Set {
    Logs,
    Saves,
    Updates,
}

/// What a derive's operation does with its dataset.
#[derive(Clone, Copy, PartialEq)]
enum Way {
    /// `encode_into_vec` into a reused buffer: one pass.
    Encode,
    /// `encoded_len`, then `write_to` into a reused buffer of that length.
    TwoPass,
    /// `from_bytes`.
    Decode,
}

const OPS: [Op; 42] = [
    Op::BigEncode(Set::Logs, Lib::Marshal),
    Op::BigEncode(Set::Logs, Lib::Bincode2),
    Op::BigEncode(Set::Saves, Lib::Marshal),
    Op::BigEncode(Set::Saves, Lib::Bincode2),
    Op::BigEncode(Set::Updates, Lib::Marshal),
    Op::BigEncode(Set::Updates, Lib::Bincode2),
    Op::StandardMessagesDecode(Lib::Marshal),
    Op::StandardMessagesDecode(Lib::Bincode2),
    Op::StandardMessagesDecode(Lib::Wincode),
    Op::StandardMessagesTwoPass(Lib::Marshal),
    Op::StandardMessagesTwoPass(Lib::Bincode2),
    Op::StandardMessagesTwoPass(Lib::Wincode),
    Op::StandardSavesTwoPass(Lib::Marshal),
    Op::StandardSavesTwoPass(Lib::Bincode2),
    Op::StandardSavesTwoPass(Lib::Wincode),
    Op::StandardDecode(Lib::Marshal),
    Op::StandardDecode(Lib::Bincode2),
    Op::StandardDecode(Lib::Wincode),
    Op::StandardEncode(Lib::Marshal),
    Op::StandardEncode(Lib::Bincode2),
    Op::StandardEncode(Lib::Wincode),
    Op::LogsSerdeMarshal,
    Op::LogsSerdeBincode1,
    Op::SavesSerdeMarshal,
    Op::SavesSerdeBincode1,
    Op::UpdatesMarshal,
    Op::UpdatesSpeedy,
    Op::UpdatesWincode,
    Op::MessagesMarshal,
    Op::MessagesSpeedy,
    Op::MessagesWincode,
    Op::TwoPassMarshal,
    Op::TwoPassSpeedy,
    Op::Derived(Set::Logs, Way::Encode),
    Op::Derived(Set::Logs, Way::TwoPass),
    Op::Derived(Set::Logs, Way::Decode),
    Op::Derived(Set::Saves, Way::Encode),
    Op::Derived(Set::Saves, Way::TwoPass),
    Op::Derived(Set::Saves, Way::Decode),
    Op::Derived(Set::Updates, Way::Encode),
    Op::Derived(Set::Updates, Way::TwoPass),
    Op::Derived(Set::Updates, Way::Decode),
];

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::LogsSerdeMarshal => "logs-serde-marshal",
            Op::LogsSerdeBincode1 => "logs-serde-bincode1",
            Op::SavesSerdeMarshal => "saves-serde-marshal",
            Op::SavesSerdeBincode1 => "saves-serde-bincode1",
            Op::UpdatesMarshal => "updates-marshal",
            Op::UpdatesSpeedy => "updates-speedy",
            Op::UpdatesWincode => "updates-wincode",
            Op::MessagesMarshal => "messages-marshal",
            Op::MessagesSpeedy => "messages-speedy",
            Op::MessagesWincode => "messages-wincode",
            Op::TwoPassMarshal => "messages-two-pass-marshal",
            Op::TwoPassSpeedy => "messages-two-pass-speedy",
            Op::StandardDecode(Lib::Marshal) => "updates-standard-decode-marshal",
            Op::StandardDecode(Lib::Bincode2) => "updates-standard-decode-bincode2",
            Op::StandardDecode(Lib::Wincode) => "updates-standard-decode-wincode",
            Op::StandardEncode(Lib::Marshal) => "updates-standard-encode-marshal",
            Op::StandardEncode(Lib::Bincode2) => "updates-standard-encode-bincode2",
            Op::StandardEncode(Lib::Wincode) => "updates-standard-encode-wincode",
            Op::StandardMessagesDecode(Lib::Marshal) => "messages-standard-decode-marshal",
            Op::StandardMessagesDecode(Lib::Bincode2) => "messages-standard-decode-bincode2",
            Op::StandardMessagesDecode(Lib::Wincode) => "messages-standard-decode-wincode",
            Op::StandardMessagesTwoPass(Lib::Marshal) => "messages-standard-two-pass-marshal",
            Op::StandardMessagesTwoPass(Lib::Bincode2) => "messages-standard-two-pass-bincode2",
            Op::StandardMessagesTwoPass(Lib::Wincode) => "messages-standard-two-pass-wincode",
            Op::StandardSavesTwoPass(Lib::Marshal) => "saves-standard-two-pass-marshal",
            Op::StandardSavesTwoPass(Lib::Bincode2) => "saves-standard-two-pass-bincode2",
            Op::StandardSavesTwoPass(Lib::Wincode) => "saves-standard-two-pass-wincode",
            Op::BigEncode(Set::Logs, Lib::Marshal) => "logs-big-encode-marshal",
            Op::BigEncode(Set::Logs, _) => "logs-big-encode-bincode2",
            Op::BigEncode(Set::Saves, Lib::Marshal) => "saves-big-encode-marshal",
            Op::BigEncode(Set::Saves, _) => "saves-big-encode-bincode2",
            Op::BigEncode(Set::Updates, Lib::Marshal) => "updates-big-encode-marshal",
            Op::BigEncode(Set::Updates, _) => "updates-big-encode-bincode2",
            Op::Derived(set, way) => match (set, way) {
                (Set::Logs, Way::Encode) => "logs-encode",
                (Set::Logs, Way::TwoPass) => "logs-two-pass",
                (Set::Logs, Way::Decode) => "logs-decode",
                (Set::Saves, Way::Encode) => "saves-encode",
                (Set::Saves, Way::TwoPass) => "saves-two-pass",
                (Set::Saves, Way::Decode) => "saves-decode",
                (Set::Updates, Way::Encode) => "updates-encode",
                (Set::Updates, Way::TwoPass) => "updates-two-pass",
                (Set::Updates, Way::Decode) => "updates-decode",
            },
        }
    }
}

/// wincode's configuration in `compare.rs`.
fn wincode_config() -> impl wincode::config::Config {
    wincode::config::Configuration::default().disable_preallocation_size_limit()
}

/// wincode's configuration in `compare.rs`, with its varint encoding:
/// bincode 2's `standard()` bytes.
fn wincode_varint() -> impl wincode::config::Config {
    wincode::config::Configuration::default()
        .disable_preallocation_size_limit()
        .with_varint_encoding()
}

/// Sizes `$value` in `standard()` with `$lib`, then writes exactly that
/// many bytes into the front of `$buf`; evaluates to how many. (A macro:
/// wincode's traits are generic over its configuration.)
macro_rules! two_pass_standard {
    ($lib:expr, $value:expr, $buf:expr) => {{
        let (value, buf): (_, &mut [u8]) = ($value, $buf);
        match $lib {
            Lib::Marshal => {
                let n = marshal::encoded_len_with(value, marshal::config::standard());
                marshal::encode_into_slice(value, &mut buf[..n], marshal::config::standard())
                    .expect("fits")
            }
            Lib::Bincode2 => {
                let mut size = bincode2::enc::write::SizeWriter::default();
                bincode2::encode_into_writer(value, &mut size, bincode2::config::standard())
                    .expect("sizes");
                let n = size.bytes_written;
                bincode2::encode_into_slice(value, &mut buf[..n], bincode2::config::standard())
                    .expect("fits")
            }
            Lib::Wincode => {
                let n = wincode::config::serialized_size(value, wincode_varint()).expect("sizes")
                    as usize;
                let mut out = &mut buf[..n];
                wincode::config::serialize_into(&mut out, value, wincode_varint()).expect("fits");
                n
            }
        }
    }};
}

/// Runs `op` once; what it decoded is dropped inside, as criterion's
/// `iter` drops it.
fn run(op: Op, data: &Data) {
    match op {
        Op::LogsSerdeMarshal => {
            black_box(marshal::serde::from_bytes::<Logs>(black_box(&data.logs)).expect("decodes"));
        }
        Op::LogsSerdeBincode1 => {
            black_box(bincode::deserialize::<Logs>(black_box(&data.logs)).expect("decodes"));
        }
        Op::SavesSerdeMarshal => {
            black_box(
                marshal::serde::from_bytes::<Saves>(black_box(&data.saves)).expect("decodes"),
            );
        }
        Op::SavesSerdeBincode1 => {
            black_box(bincode::deserialize::<Saves>(black_box(&data.saves)).expect("decodes"));
        }
        Op::UpdatesMarshal => {
            black_box(marshal::from_bytes::<Updates>(black_box(&data.updates)).expect("decodes"));
        }
        Op::UpdatesSpeedy => {
            black_box(
                Updates::read_from_buffer_with_ctx(
                    LittleEndian::default(),
                    black_box(&data.updates_speedy),
                )
                .expect("decodes"),
            );
        }
        Op::UpdatesWincode => {
            black_box(
                wincode::config::deserialize::<Updates, _>(
                    black_box(&data.updates),
                    wincode_config(),
                )
                .expect("decodes"),
            );
        }
        Op::MessagesMarshal => {
            for bytes in black_box(&data.messages) {
                black_box(marshal::from_bytes::<Quote>(bytes).expect("decodes"));
            }
        }
        Op::MessagesSpeedy => {
            for bytes in black_box(&data.messages_speedy) {
                black_box(
                    Quote::read_from_buffer_with_ctx(LittleEndian::default(), bytes)
                        .expect("decodes"),
                );
            }
        }
        Op::MessagesWincode => {
            for bytes in black_box(&data.messages) {
                black_box(wincode::deserialize::<Quote>(bytes).expect("decodes"));
            }
        }
        Op::TwoPassMarshal => {
            let mut buf = [0u8; 64];
            for quote in black_box(&data.quotes) {
                let len = marshal::Marshal::encoded_len(quote);
                let written = marshal::Marshal::write_to(quote, &mut buf[..len]);
                black_box(&buf[..written]);
            }
        }
        Op::TwoPassSpeedy => {
            let mut buf = [0u8; 64];
            for quote in black_box(&data.quotes) {
                quote
                    .write_to_buffer_with_ctx(LittleEndian::default(), &mut buf)
                    .expect("fits");
                black_box(&buf);
            }
        }
        Op::StandardDecode(lib) => {
            let bytes = black_box(&data.updates_standard[..]);
            match lib {
                Lib::Marshal => {
                    black_box(
                        marshal::decode_from_slice::<Updates, _>(
                            bytes,
                            marshal::config::standard(),
                        )
                        .expect("decodes"),
                    );
                }
                Lib::Bincode2 => {
                    black_box(
                        bincode2::decode_from_slice::<Updates, _>(
                            bytes,
                            bincode2::config::standard(),
                        )
                        .expect("decodes"),
                    );
                }
                Lib::Wincode => {
                    black_box(
                        wincode::config::deserialize::<Updates, _>(bytes, wincode_varint())
                            .expect("decodes"),
                    );
                }
            }
        }
        Op::StandardEncode(lib) => {
            let value = black_box(&data.values.2);
            let mut out = data.out.borrow_mut();
            out.resize(data.updates_standard.len(), 0);
            let n = match lib {
                Lib::Marshal => {
                    marshal::encode_into_slice(value, &mut out, marshal::config::standard())
                        .expect("fits")
                }
                Lib::Bincode2 => {
                    bincode2::encode_into_slice(value, &mut out, bincode2::config::standard())
                        .expect("fits")
                }
                Lib::Wincode => {
                    wincode::config::serialize_into(&mut out[..], value, wincode_varint())
                        .expect("fits");
                    data.updates_standard.len()
                }
            };
            black_box(&out[..n]);
        }
        Op::StandardMessagesDecode(lib) => {
            for bytes in black_box(&data.messages_standard) {
                match lib {
                    Lib::Marshal => {
                        black_box(
                            marshal::decode_from_slice::<Quote, _>(
                                bytes,
                                marshal::config::standard(),
                            )
                            .expect("decodes"),
                        );
                    }
                    Lib::Bincode2 => {
                        black_box(
                            bincode2::decode_from_slice::<Quote, _>(
                                bytes,
                                bincode2::config::standard(),
                            )
                            .expect("decodes"),
                        );
                    }
                    Lib::Wincode => {
                        black_box(
                            wincode::config::deserialize::<Quote, _>(bytes, wincode_varint())
                                .expect("decodes"),
                        );
                    }
                }
            }
        }
        Op::StandardMessagesTwoPass(lib) => {
            let mut buf = [0u8; 64];
            for quote in black_box(&data.quotes) {
                let n = two_pass_standard!(lib, quote, &mut buf);
                black_box(&buf[..n]);
            }
        }
        Op::StandardSavesTwoPass(lib) => {
            let mut out = data.out.borrow_mut();
            out.resize(data.saves.len() * 2, 0);
            let n = two_pass_standard!(lib, black_box(&data.values.1), &mut out);
            black_box(&out[..n]);
        }
        Op::BigEncode(set, lib) => match set {
            Set::Logs => big_encode(lib, black_box(&data.values.0), &data.out),
            Set::Saves => big_encode(lib, black_box(&data.values.1), &data.out),
            Set::Updates => big_encode(lib, black_box(&data.values.2), &data.out),
        },
        Op::Derived(set, way) => match set {
            Set::Logs => derived(way, &data.values.0, &data.logs, &data.out),
            Set::Saves => derived(way, &data.values.1, &data.saves, &data.out),
            Set::Updates => derived(way, &data.values.2, &data.updates, &data.out),
        },
    }
}

/// Encodes `value` in `legacy().with_big_endian()` with `lib` (bincode 2
/// for any other) into `out`, grown to fit once and kept.
fn big_encode<T>(lib: Lib, value: &T, out: &RefCell<Vec<u8>>)
where
    T: marshal::config::MarshalIn<
            marshal::config::Encoding<marshal::config::BigEndian, marshal::config::Fixint>,
        > + bincode2::Encode,
{
    let config = marshal::config::legacy().with_big_endian();
    let mut out = out.borrow_mut();
    let len = marshal::encoded_len_with(value, config);
    if out.len() < len {
        out.resize(len, 0);
    }
    let n = match lib {
        Lib::Marshal => marshal::encode_into_slice(value, &mut out, config).expect("fits"),
        _ => bincode2::encode_into_slice(
            value,
            &mut out,
            bincode2::config::legacy().with_big_endian(),
        )
        .expect("fits"),
    };
    black_box(&out[..n]);
}

/// Runs one of the derive's operations on `value`, whose encoding is
/// `bytes`, writing into `out`.
fn derived<T>(way: Way, value: &T, bytes: &[u8], out: &RefCell<Vec<u8>>)
where
    T: marshal::Marshal + for<'de> marshal::Unmarshal<'de>,
{
    let mut out = out.borrow_mut();
    match way {
        Way::Encode => {
            out.clear();
            black_box(marshal::encode_into_vec(black_box(value), &mut out));
            black_box(&out[..]);
        }
        Way::TwoPass => {
            let len = marshal::Marshal::encoded_len(black_box(value));
            out.resize(len, 0);
            let written = marshal::Marshal::write_to(value, &mut out[..len]);
            black_box(&out[..written]);
        }
        Way::Decode => {
            black_box(marshal::from_bytes::<T>(black_box(bytes)).expect("decodes"));
        }
    }
}

/// The comparisons the interleaved report prints: marshal's operation,
/// then the others it is divided by. The `messages` operations, a few
/// microseconds each, are left to callgrind: timed once a round, they
/// measure where each library's 1,000 small buffers sit in the caches more
/// than the decoding (their ratios moved from 0.4× to 2× between runs).
const COMPARISONS: [(Op, &[Op]); 3] = [
    (Op::LogsSerdeMarshal, &[Op::LogsSerdeBincode1]),
    (Op::SavesSerdeMarshal, &[Op::SavesSerdeBincode1]),
    (Op::UpdatesMarshal, &[Op::UpdatesSpeedy, Op::UpdatesWincode]),
];

/// `rounds` rounds, each running every operation in turn, once untimed and
/// once timed; prints each one's median and fastest round and marshal's
/// ratios to the others'.
fn interleaved(data: &Data, rounds: usize) {
    let timed: Vec<Op> = COMPARISONS
        .iter()
        .flat_map(|(ours, others)| std::iter::once(*ours).chain(others.iter().copied()))
        .collect();
    let mut times = vec![Vec::with_capacity(rounds); timed.len()];
    for _ in 0..rounds {
        for (i, &op) in timed.iter().enumerate() {
            // Once untimed, so that what the previous operation left in
            // the caches does not count against this one (it would decide
            // the microsecond `messages` loops).
            run(op, data);
            let start = Instant::now();
            run(op, data);
            times[i].push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    let stats: Vec<(f64, f64)> = times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], t[0])
        })
        .collect();
    let index = |op: Op| {
        timed
            .iter()
            .position(|o| o.name() == op.name())
            .expect("op")
    };
    for (op, stat) in timed.iter().zip(&stats) {
        println!(
            "{:28} median {:10.1} us, fastest {:10.1} us",
            op.name(),
            stat.0,
            stat.1
        );
    }
    for (ours, others) in COMPARISONS {
        for &other in others {
            let (a, b) = (stats[index(ours)], stats[index(other)]);
            println!(
                "{} / {}: {:.2}x (medians), {:.2}x (fastest)",
                ours.name(),
                other.name(),
                a.0 / b.0,
                a.1 / b.1
            );
        }
    }
}

fn main() {
    common::fix_allocator();
    let spec = std::env::var("MARSHAL_FOCUS").unwrap_or_else(|_| "interleaved:100".to_owned());
    let (what, n) = spec.split_once(':').expect("MARSHAL_FOCUS=<op>:<n>");
    let n: usize = n.parse().expect("a count");
    let data = Data::new();
    if what == "interleaved" {
        interleaved(&data, n);
        return;
    }
    let op = OPS
        .into_iter()
        .find(|op| op.name() == what)
        .unwrap_or_else(|| panic!("unknown operation {what}"));
    for _ in 0..n {
        run(op, &data);
    }
}
