//! marshal side by side with bincode 2, wincode, bitcode, rkyv, postcard,
//! borsh, speedy and bincode 1, on five datasets (see `common/mod.rs`).
//!
//! Equal work is compared with equal work. Encoding is measured twice:
//! *one pass* (`{dataset}-one-pass`) writes into a reused buffer already
//! large enough, without sizing the value first: marshal's `try_write_to`
//! against every peer's one-pass path; *two passes* (`{dataset}-two-pass`)
//! sizes the value, then writes exactly that many bytes: marshal's
//! `encoded_len()` then `write_to()` against the peers that size first
//! (bincode 2 through its `SizeWriter`, wincode's `serialized_size`, speedy's
//! `write_to_buffer`, which sizes internally, bincode 1's
//! `serialized_size`). Decoding (`{dataset}-deserialize`, `-borrowed`)
//! compares the peers that validate their input; rkyv's unchecked paths
//! are measured apart, as not peers. For `logs` and `saves`, the serde
//! route (`{dataset}-serde-serialize`, `-serde-deserialize`) compares
//! `marshal::serde` with bincode 1.3, both through the types' serde
//! derives. Every library round-trips every dataset once, asserted,
//! before anything is timed.
//!
//! Each dataset is measured again in bincode 2's varint dialect,
//! `config::standard()` (`{dataset}-standard-one-pass`, `-two-pass`,
//! `-deserialize`): marshal with `marshal::config::standard()`, bincode 2
//! with `bincode2::config::standard()` and wincode with its varint
//! encoding, whose bytes are asserted identical first. One pass is
//! `encode_into_slice` (wincode's `serialize_into`) into a reused buffer
//! large enough; two passes size the value first (marshal's
//! `encoded_len_with`, bincode 2's `SizeWriter`, wincode's
//! `serialized_size`), then write exactly that many bytes; decoding is
//! `decode_from_slice` (wincode's `deserialize`). memcpy copies marshal's
//! `standard()` bytes. Their sizes are recorded under `{dataset}-standard`.
//!
//! Times are the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`),
//! not wall time: time the thread spends descheduled on a busy machine is
//! not counted.
//!
//! Run it through `scripts/bench-compare.sh`, which runs it several times
//! (rounds) and writes BENCHMARKS.md from the lowest median of each
//! benchmark. With `MARSHAL_BENCH_SIZES=path` set, the encoded sizes are
//! written there as `dataset<TAB>library<TAB>bytes` lines.

// Criterion's macros generate undocumented items.
#![allow(missing_docs)]

mod common;
mod cpu_time;

use std::hint::black_box;
use std::io::Write as _;
use std::mem::MaybeUninit;
use std::time::Duration;

use borsh::BorshSerialize as _;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use rkyv::api::high::from_bytes_unchecked;
use rkyv::rancor::{Error as RkyvError, Failure};
use speedy::{LittleEndian, Readable as _, Writable as _};

use common::{
    ArchivedLogs, ArchivedMesh, ArchivedQuote, ArchivedSaves, ArchivedUpdates, Logs, LogsRef, Mesh,
    Quote, Saves, Updates,
};
use cpu_time::CpuTime;

/// Records in `logs`.
const LOGS: usize = 10_000;
/// Triangles in `mesh`.
const TRIANGLES: usize = 125_000;
/// Records in `saves`.
const SAVES: usize = 500;
/// Ticks in `updates`.
const TICKS: usize = 300;
/// Messages encoded (and decoded) one at a time per timed iteration.
const MESSAGES: usize = 1_000;

/// The legacy (bincode 1.x) configuration: marshal's wire format.
fn legacy() -> bincode2::config::Configuration<
    bincode2::config::LittleEndian,
    bincode2::config::Fixint,
    bincode2::config::NoLimit,
> {
    bincode2::config::legacy()
}

/// wincode's default configuration without its 4 MiB preallocation limit,
/// which the 6 MB mesh exceeds.
macro_rules! wincode_cfg {
    () => {
        wincode::config::Configuration::default().disable_preallocation_size_limit()
    };
}

/// bincode 2's varint dialect, `config::standard()`.
fn standard() -> bincode2::config::Configuration {
    bincode2::config::standard()
}

/// wincode's configuration above with its varint encoding: bincode 2's
/// `standard()` bytes.
macro_rules! wincode_varint {
    () => {
        wincode::config::Configuration::default()
            .disable_preallocation_size_limit()
            .with_varint_encoding()
    };
}

/// Appends a `dataset library bytes` line to the file named by
/// `MARSHAL_BENCH_SIZES`, if set.
fn record_size(dataset: &str, library: &str, bytes: usize) {
    let Some(path) = std::env::var_os("MARSHAL_BENCH_SIZES") else {
        return;
    };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open MARSHAL_BENCH_SIZES");
    writeln!(f, "{dataset}\t{library}\t{bytes}").expect("write MARSHAL_BENCH_SIZES");
}

/// A group of whole-dataset benchmarks: few, long iterations.
fn group<'a>(c: &'a mut Criterion<CpuTime>, name: &str) -> BenchmarkGroup<'a, CpuTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat);
    g
}

/// Every library's encoding of one dataset value, each checked to decode
/// back to the value.
struct Encoded {
    marshal: Vec<u8>,
    bincode2: Vec<u8>,
    wincode: Vec<u8>,
    bitcode: Vec<u8>,
    rkyv: rkyv::util::AlignedVec,
    postcard: Vec<u8>,
    borsh: Vec<u8>,
    speedy: Vec<u8>,
    bincode1: Vec<u8>,
}

impl Encoded {
    fn sizes(&self) -> [(&'static str, usize); 9] {
        [
            ("marshal", self.marshal.len()),
            ("bincode2", self.bincode2.len()),
            ("wincode", self.wincode.len()),
            ("bitcode", self.bitcode.len()),
            ("rkyv", self.rkyv.len()),
            ("postcard", self.postcard.len()),
            ("borsh", self.borsh.len()),
            ("speedy", self.speedy.len()),
            ("bincode1", self.bincode1.len()),
        ]
    }

    fn largest(&self) -> usize {
        self.sizes().iter().map(|&(_, n)| n).max().unwrap_or(0)
    }
}

/// Encodes `$data` (of type `$ty`, archived as `$archived`) with every
/// library, asserts each round trip, and benchmarks serialize and
/// deserialize for the dataset `$name`.
macro_rules! whole_dataset {
    ($c:expr, $name:literal, $ty:ty, $archived:ty, $data:expr) => {{
        let c: &mut Criterion<CpuTime> = $c;
        let data: &$ty = $data;
        let name: &str = $name;

        // Encode once with each library, on the same paths as timed below.
        let enc = Encoded {
            marshal: marshal::to_vec(data),
            bincode2: bincode2::encode_to_vec(data, legacy()).unwrap(),
            wincode: wincode::config::serialize(data, wincode_cfg!()).unwrap(),
            bitcode: bitcode::encode(data),
            rkyv: rkyv::to_bytes::<RkyvError>(data).unwrap(),
            postcard: postcard::to_allocvec(data).unwrap(),
            borsh: borsh::to_vec(data).unwrap(),
            speedy: data.write_to_vec_with_ctx(LittleEndian::default()).unwrap(),
            bincode1: bincode::serialize(data).unwrap(),
        };
        // The same wire format, byte for byte.
        assert_eq!(enc.marshal.len(), marshal::Marshal::encoded_len(data));
        assert_eq!(enc.marshal, enc.bincode1, "{name}: marshal vs bincode 1");
        assert_eq!(
            enc.marshal, enc.bincode2,
            "{name}: marshal vs bincode 2 legacy"
        );
        assert_eq!(enc.marshal, enc.wincode, "{name}: marshal vs wincode");
        // Every library decodes its own bytes back to the value.
        assert_eq!(&marshal::from_bytes::<$ty>(&enc.marshal).unwrap(), data);
        assert_eq!(
            &bincode2::decode_from_slice::<$ty, _>(&enc.bincode2, legacy())
                .unwrap()
                .0,
            data
        );
        assert_eq!(
            &wincode::config::deserialize::<$ty, _>(&enc.wincode, wincode_cfg!()).unwrap(),
            data
        );
        assert_eq!(&bitcode::decode::<$ty>(&enc.bitcode).unwrap(), data);
        assert_eq!(
            &rkyv::from_bytes::<$ty, RkyvError>(&enc.rkyv).unwrap(),
            data
        );
        assert_eq!(&postcard::from_bytes::<$ty>(&enc.postcard).unwrap(), data);
        assert_eq!(&borsh::from_slice::<$ty>(&enc.borsh).unwrap(), data);
        assert_eq!(
            &<$ty>::read_from_buffer_with_ctx(LittleEndian::default(), &enc.speedy).unwrap(),
            data
        );
        assert_eq!(&bincode::deserialize::<$ty>(&enc.bincode1).unwrap(), data);
        for (library, bytes) in enc.sizes() {
            record_size(name, library, bytes);
        }
        record_size(name, "memcpy", enc.marshal.len());

        // One output buffer, allocated and filled here, reused by everyone.
        let cap = enc.largest() + 4096;
        let mut buf = vec![0u8; cap];
        let mut rkyv_buf = rkyv::util::AlignedVec::<16>::with_capacity(cap);
        let mut bitcode_buf = bitcode::Buffer::new();
        let _ = bitcode_buf.encode(data);

        // One pass: into a reused buffer already large enough, without
        // sizing the value first.
        let mut g = group(c, &format!("{name}-one-pass"));
        g.bench_function("marshal", |b| {
            b.iter(|| {
                let written = marshal::Marshal::try_write_to(black_box(data), &mut buf).unwrap();
                black_box(&buf[..written]);
            })
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                let n = bincode2::encode_into_slice(black_box(data), &mut buf, legacy()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                let mut out = &mut buf[..];
                wincode::config::serialize_into(&mut out, black_box(data), wincode_cfg!()).unwrap();
                black_box(out.len());
            })
        });
        g.bench_function("bitcode", |b| {
            b.iter(|| {
                black_box(bitcode_buf.encode(black_box(data)));
            })
        });
        g.bench_function("rkyv", |b| {
            b.iter(|| {
                let mut out = std::mem::take(&mut rkyv_buf);
                out.clear();
                out = rkyv::api::high::to_bytes_in::<_, RkyvError>(black_box(data), out).unwrap();
                black_box(out.as_slice());
                rkyv_buf = out;
            })
        });
        g.bench_function("postcard", |b| {
            b.iter(|| {
                black_box(postcard::to_slice(black_box(data), &mut buf).unwrap());
            })
        });
        g.bench_function("borsh", |b| {
            b.iter(|| {
                let mut out = &mut buf[..];
                black_box(data).serialize(&mut out).unwrap();
                black_box(out.len());
            })
        });
        g.bench_function("bincode1", |b| {
            b.iter(|| {
                let mut out = &mut buf[..];
                bincode::serialize_into(&mut out, black_box(data)).unwrap();
                black_box(out.len());
            })
        });
        let n = enc.marshal.len();
        g.bench_function("memcpy", |b| {
            b.iter(|| {
                buf[..n].copy_from_slice(black_box(&enc.marshal));
                black_box(&buf[..n]);
            })
        });
        g.finish();

        // Two passes: size the value, then write exactly that many bytes.
        let mut g = group(c, &format!("{name}-two-pass"));
        g.bench_function("marshal", |b| {
            b.iter(|| {
                let data = black_box(data);
                let n = marshal::Marshal::encoded_len(data);
                let written = marshal::Marshal::write_to(data, &mut buf[..n]);
                black_box(&buf[..written]);
            })
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                let data = black_box(data);
                let mut size = bincode2::enc::write::SizeWriter::default();
                bincode2::encode_into_writer(data, &mut size, legacy()).unwrap();
                let n = size.bytes_written;
                let n = bincode2::encode_into_slice(data, &mut buf[..n], legacy()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                let data = black_box(data);
                let n = wincode::config::serialized_size(data, wincode_cfg!()).unwrap() as usize;
                let mut out = &mut buf[..n];
                wincode::config::serialize_into(&mut out, data, wincode_cfg!()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("speedy", |b| {
            b.iter(|| {
                black_box(data)
                    .write_to_buffer_with_ctx(LittleEndian::default(), &mut buf)
                    .unwrap();
                black_box(&buf);
            })
        });
        g.bench_function("bincode1", |b| {
            b.iter(|| {
                let data = black_box(data);
                let n = bincode::serialized_size(data).unwrap() as usize;
                let mut out = &mut buf[..n];
                bincode::serialize_into(&mut out, data).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.finish();

        let mut g = group(c, &format!("{name}-deserialize"));
        g.bench_function("marshal", |b| {
            b.iter(|| black_box(marshal::from_bytes::<$ty>(black_box(&enc.marshal)).unwrap()))
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                black_box(
                    bincode2::decode_from_slice::<$ty, _>(black_box(&enc.bincode2), legacy())
                        .unwrap(),
                )
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                black_box(
                    wincode::config::deserialize::<$ty, _>(black_box(&enc.wincode), wincode_cfg!())
                        .unwrap(),
                )
            })
        });
        g.bench_function("bitcode", |b| {
            b.iter(|| black_box(bitcode_buf.decode::<$ty>(black_box(&enc.bitcode)).unwrap()))
        });
        g.bench_function("rkyv", |b| {
            b.iter(|| black_box(rkyv::from_bytes::<$ty, RkyvError>(black_box(&enc.rkyv)).unwrap()))
        });
        g.bench_function("postcard", |b| {
            b.iter(|| black_box(postcard::from_bytes::<$ty>(black_box(&enc.postcard)).unwrap()))
        });
        g.bench_function("borsh", |b| {
            b.iter(|| black_box(borsh::from_slice::<$ty>(black_box(&enc.borsh)).unwrap()))
        });
        g.bench_function("speedy", |b| {
            b.iter(|| {
                black_box(
                    <$ty>::read_from_buffer_with_ctx(
                        LittleEndian::default(),
                        black_box(&enc.speedy),
                    )
                    .unwrap(),
                )
            })
        });
        g.bench_function("bincode1", |b| {
            b.iter(|| black_box(bincode::deserialize::<$ty>(black_box(&enc.bincode1)).unwrap()))
        });
        // Not a peer: the allocation floor, a clone of the decoded value,
        // which makes exactly the allocations the value holds and copies
        // its bytes into them, with no parsing (and drops it, as every
        // decode here does).
        g.bench_function("alloc-floor", |b| {
            b.iter(|| black_box(black_box(data).clone()))
        });
        // Not a peer: skips validation, so it is only sound on trusted bytes.
        g.bench_function("rkyv-unvalidated", |b| {
            b.iter(|| {
                let bytes = black_box(&enc.rkyv);
                // SAFETY: these are the bytes rkyv wrote for this type, and
                // they validated in the round trip above.
                let value = unsafe { from_bytes_unchecked::<$ty, RkyvError>(bytes) };
                black_box(value.unwrap())
            })
        });
        g.finish();

        // Zero-copy access: no owned value is built, so it is listed apart.
        let mut g = group(c, &format!("{name}-access"));
        g.bench_function("rkyv-access", |b| {
            b.iter(|| {
                black_box(rkyv::access::<$archived, RkyvError>(black_box(&enc.rkyv)).unwrap())
            })
        });
        g.bench_function("rkyv-access-unvalidated", |b| {
            b.iter(|| {
                let bytes = black_box(&enc.rkyv);
                // SAFETY: as above.
                black_box(unsafe { rkyv::access_unchecked::<$archived>(bytes) })
            })
        });
        g.finish();
        enc
    }};
}

/// Encodes `$data` (of type `$ty`) in `config::standard()` with marshal,
/// bincode 2 and wincode (varint), asserts the three write the same bytes
/// and decode them back to the value, and benchmarks encoding (one pass,
/// two passes) and decoding for the dataset `$name` in that dialect.
macro_rules! standard_dataset {
    ($c:expr, $name:literal, $ty:ty, $data:expr) => {{
        let c: &mut Criterion<CpuTime> = $c;
        let data: &$ty = $data;
        let name: &str = $name;

        // The same bytes from the three, each read back to the value.
        let bytes = marshal::encode_to_vec(data, marshal::config::standard());
        assert_eq!(
            bytes.len(),
            marshal::encoded_len_with(data, marshal::config::standard())
        );
        assert_eq!(
            bytes,
            bincode2::encode_to_vec(data, standard()).unwrap(),
            "{name}: marshal vs bincode 2, standard()"
        );
        assert_eq!(
            bytes,
            wincode::config::serialize(data, wincode_varint!()).unwrap(),
            "{name}: marshal standard() vs wincode varint"
        );
        assert_eq!(
            bytes.len() as u64,
            wincode::config::serialized_size(data, wincode_varint!()).unwrap()
        );
        assert_eq!(
            &marshal::decode_from_slice::<$ty, _>(&bytes, marshal::config::standard())
                .unwrap()
                .0,
            data
        );
        assert_eq!(
            &bincode2::decode_from_slice::<$ty, _>(&bytes, standard())
                .unwrap()
                .0,
            data
        );
        assert_eq!(
            &wincode::config::deserialize::<$ty, _>(&bytes, wincode_varint!()).unwrap(),
            data
        );
        let key = format!("{name}-standard");
        for library in ["marshal", "bincode2", "wincode", "memcpy"] {
            record_size(&key, library, bytes.len());
        }

        // One output buffer, allocated and filled here, reused by everyone.
        let mut buf = vec![0u8; bytes.len() + 4096];

        // One pass: into a reused buffer already large enough, without
        // sizing the value first.
        let mut g = group(c, &format!("{name}-standard-one-pass"));
        g.bench_function("marshal", |b| {
            b.iter(|| {
                let n = marshal::encode_into_slice(
                    black_box(data),
                    &mut buf,
                    marshal::config::standard(),
                )
                .unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                let n = bincode2::encode_into_slice(black_box(data), &mut buf, standard()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                let mut out = &mut buf[..];
                wincode::config::serialize_into(&mut out, black_box(data), wincode_varint!())
                    .unwrap();
                black_box(out.len());
            })
        });
        let n = bytes.len();
        g.bench_function("memcpy", |b| {
            b.iter(|| {
                buf[..n].copy_from_slice(black_box(&bytes));
                black_box(&buf[..n]);
            })
        });
        g.finish();

        // Two passes: size the value, then write exactly that many bytes.
        let mut g = group(c, &format!("{name}-standard-two-pass"));
        g.bench_function("marshal", |b| {
            b.iter(|| {
                let data = black_box(data);
                let n = marshal::encoded_len_with(data, marshal::config::standard());
                let n =
                    marshal::encode_into_slice(data, &mut buf[..n], marshal::config::standard())
                        .unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                let data = black_box(data);
                let mut size = bincode2::enc::write::SizeWriter::default();
                bincode2::encode_into_writer(data, &mut size, standard()).unwrap();
                let n = size.bytes_written;
                let n = bincode2::encode_into_slice(data, &mut buf[..n], standard()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                let data = black_box(data);
                let n = wincode::config::serialized_size(data, wincode_varint!()).unwrap() as usize;
                let mut out = &mut buf[..n];
                wincode::config::serialize_into(&mut out, data, wincode_varint!()).unwrap();
                black_box(&buf[..n]);
            })
        });
        g.finish();

        let mut g = group(c, &format!("{name}-standard-deserialize"));
        g.bench_function("marshal", |b| {
            b.iter(|| {
                black_box(
                    marshal::decode_from_slice::<$ty, _>(
                        black_box(&bytes),
                        marshal::config::standard(),
                    )
                    .unwrap(),
                )
            })
        });
        g.bench_function("bincode2", |b| {
            b.iter(|| {
                black_box(
                    bincode2::decode_from_slice::<$ty, _>(black_box(&bytes), standard()).unwrap(),
                )
            })
        });
        g.bench_function("wincode", |b| {
            b.iter(|| {
                black_box(
                    wincode::config::deserialize::<$ty, _>(black_box(&bytes), wincode_varint!())
                        .unwrap(),
                )
            })
        });
        g.finish();
    }};
}

fn logs(c: &mut Criterion<CpuTime>) {
    let data = common::logs(LOGS);
    let enc = whole_dataset!(c, "logs", Logs, ArchivedLogs, &data);
    standard_dataset!(c, "logs", Logs, &data);
    serde_route(c, "logs", &data);

    // Borrowed decoding: `&str` fields point into the input.
    assert!(
        marshal::from_bytes::<LogsRef>(&enc.marshal)
            .unwrap()
            .matches(&data)
    );
    assert!(
        bincode2::borrow_decode_from_slice::<LogsRef, _>(&enc.bincode2, legacy())
            .unwrap()
            .0
            .matches(&data)
    );
    assert!(
        wincode::config::deserialize::<LogsRef, _>(&enc.wincode, wincode_cfg!())
            .unwrap()
            .matches(&data)
    );
    assert!(
        bitcode::decode::<LogsRef>(&enc.bitcode)
            .unwrap()
            .matches(&data)
    );
    assert!(
        postcard::from_bytes::<LogsRef>(&enc.postcard)
            .unwrap()
            .matches(&data)
    );
    assert!(
        LogsRef::read_from_buffer_with_ctx(LittleEndian::default(), &enc.speedy)
            .unwrap()
            .matches(&data)
    );
    assert!(
        bincode::deserialize::<LogsRef>(&enc.bincode1)
            .unwrap()
            .matches(&data)
    );
    let mut bitcode_buf = bitcode::Buffer::new();

    let mut g = group(c, "logs-borrowed");
    g.bench_function("marshal", |b| {
        b.iter(|| black_box(marshal::from_bytes::<LogsRef>(black_box(&enc.marshal)).unwrap()))
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            black_box(
                bincode2::borrow_decode_from_slice::<LogsRef, _>(
                    black_box(&enc.bincode2),
                    legacy(),
                )
                .unwrap(),
            )
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            black_box(
                wincode::config::deserialize::<LogsRef, _>(black_box(&enc.wincode), wincode_cfg!())
                    .unwrap(),
            )
        })
    });
    g.bench_function("bitcode", |b| {
        b.iter(|| {
            black_box(
                bitcode_buf
                    .decode::<LogsRef>(black_box(&enc.bitcode))
                    .unwrap(),
            )
        })
    });
    g.bench_function("postcard", |b| {
        b.iter(|| black_box(postcard::from_bytes::<LogsRef>(black_box(&enc.postcard)).unwrap()))
    });
    g.bench_function("speedy", |b| {
        b.iter(|| {
            black_box(
                LogsRef::read_from_buffer_with_ctx(LittleEndian::default(), black_box(&enc.speedy))
                    .unwrap(),
            )
        })
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| black_box(bincode::deserialize::<LogsRef>(black_box(&enc.bincode1)).unwrap()))
    });
    g.finish();
}

fn mesh(c: &mut Criterion<CpuTime>) {
    let data = common::mesh(TRIANGLES);
    whole_dataset!(c, "mesh", Mesh, ArchivedMesh, &data);
    standard_dataset!(c, "mesh", Mesh, &data);
}

fn saves(c: &mut Criterion<CpuTime>) {
    let data = common::saves(SAVES);
    whole_dataset!(c, "saves", Saves, ArchivedSaves, &data);
    standard_dataset!(c, "saves", Saves, &data);
    serde_route(c, "saves", &data);
}

fn updates(c: &mut Criterion<CpuTime>) {
    let data = common::updates(TICKS);
    whole_dataset!(c, "updates", Updates, ArchivedUpdates, &data);
    standard_dataset!(c, "updates", Updates, &data);
}

/// The serde route: `marshal::serde` against bincode 1.3, both through the
/// dataset's serde derives, into (and from) the same bytes.
fn serde_route<T>(c: &mut Criterion<CpuTime>, name: &str, data: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let bytes = marshal::serde::to_vec(data).unwrap();
    assert_eq!(
        bytes,
        bincode::serialize(data).unwrap(),
        "{name}: serde route"
    );
    assert_eq!(&marshal::serde::from_bytes::<T>(&bytes).unwrap(), data);
    assert_eq!(&bincode::deserialize::<T>(&bytes).unwrap(), data);
    let mut buf = vec![0u8; bytes.len() + 4096];

    let mut g = group(c, &format!("{name}-serde-serialize"));
    g.bench_function("marshal", |b| {
        b.iter(|| {
            let n = marshal::serde::try_write_to(black_box(data), &mut buf).unwrap();
            black_box(&buf[..n]);
        })
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| {
            let mut out = &mut buf[..];
            bincode::serialize_into(&mut out, black_box(data)).unwrap();
            black_box(out.len());
        })
    });
    g.finish();

    let mut g = group(c, &format!("{name}-serde-deserialize"));
    g.bench_function("marshal", |b| {
        b.iter(|| black_box(marshal::serde::from_bytes::<T>(black_box(&bytes)).unwrap()))
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| black_box(bincode::deserialize::<T>(black_box(&bytes)).unwrap()))
    });
    g.finish();
}

/// A stack buffer aligned for rkyv.
type RkyvStack = rkyv::util::Align<[MaybeUninit<u8>; 64]>;

/// Small fixed-size messages, encoded and decoded one at a time into a
/// stack buffer: per-call latency. Each timed iteration handles
/// [`MESSAGES`] messages; the report divides by that.
fn messages(c: &mut Criterion<CpuTime>) {
    let msgs = common::messages(MESSAGES);
    assert_eq!(<Quote as marshal::Marshal>::FIXED_LEN, Some(40));

    // Each library's bytes for each message, round-tripped.
    let each = |f: &dyn Fn(&Quote) -> Vec<u8>| msgs.iter().map(f).collect::<Vec<_>>();
    let marshal_b = each(&|m| marshal::to_vec(m));
    let bincode2_b = each(&|m| bincode2::encode_to_vec(m, legacy()).unwrap());
    let wincode_b = each(&|m| wincode::serialize(m).unwrap());
    let bitcode_b = each(&|m| bitcode::encode(m));
    let postcard_b = each(&|m| postcard::to_allocvec(m).unwrap());
    let borsh_b = each(&|m| borsh::to_vec(m).unwrap());
    let speedy_b = each(&|m| m.write_to_vec_with_ctx(LittleEndian::default()).unwrap());
    let bincode1_b = each(&|m| bincode::serialize(m).unwrap());
    let rkyv_b: Vec<rkyv::util::AlignedVec> = msgs
        .iter()
        .map(|m| rkyv::to_bytes::<RkyvError>(m).unwrap())
        .collect();
    for (i, m) in msgs.iter().enumerate() {
        assert_eq!(marshal_b[i], bincode1_b[i]);
        assert_eq!(marshal_b[i], bincode2_b[i]);
        assert_eq!(marshal_b[i], wincode_b[i]);
        assert_eq!(&marshal::from_bytes::<Quote>(&marshal_b[i]).unwrap(), m);
        assert_eq!(
            &bincode2::decode_from_slice::<Quote, _>(&bincode2_b[i], legacy())
                .unwrap()
                .0,
            m
        );
        assert_eq!(&wincode::deserialize::<Quote>(&wincode_b[i]).unwrap(), m);
        assert_eq!(&bitcode::decode::<Quote>(&bitcode_b[i]).unwrap(), m);
        assert_eq!(
            &rkyv::from_bytes::<Quote, RkyvError>(&rkyv_b[i]).unwrap(),
            m
        );
        assert_eq!(&postcard::from_bytes::<Quote>(&postcard_b[i]).unwrap(), m);
        assert_eq!(&borsh::from_slice::<Quote>(&borsh_b[i]).unwrap(), m);
        assert_eq!(
            &Quote::read_from_buffer_with_ctx(LittleEndian::default(), &speedy_b[i]).unwrap(),
            m
        );
        assert_eq!(&bincode::deserialize::<Quote>(&bincode1_b[i]).unwrap(), m);
    }
    let mean = |v: &[Vec<u8>]| v.iter().map(Vec::len).sum::<usize>() / v.len();
    for (library, bytes) in [
        ("marshal", mean(&marshal_b)),
        ("bincode2", mean(&bincode2_b)),
        ("wincode", mean(&wincode_b)),
        ("bitcode", mean(&bitcode_b)),
        (
            "rkyv",
            rkyv_b.iter().map(|v| v.len()).sum::<usize>() / MESSAGES,
        ),
        ("postcard", mean(&postcard_b)),
        ("borsh", mean(&borsh_b)),
        ("speedy", mean(&speedy_b)),
        ("bincode1", mean(&bincode1_b)),
        ("memcpy", mean(&marshal_b)),
    ] {
        record_size("messages", library, bytes);
    }
    let flat: Vec<[u8; 40]> = marshal_b
        .iter()
        .map(|v| v.as_slice().try_into().unwrap())
        .collect();
    let mut bitcode_buf = bitcode::Buffer::new();

    let mut g = c.benchmark_group("messages-one-pass");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let written = marshal::Marshal::try_write_to(m, &mut buf).unwrap();
                black_box(&buf[..written]);
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let n = bincode2::encode_into_slice(m, &mut buf, legacy()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let mut out = &mut buf[..];
                wincode::serialize_into(&mut out, m).unwrap();
                black_box(out.len());
                black_box(&buf);
            }
        })
    });
    g.bench_function("bitcode", |b| {
        // bitcode encodes into its own reusable `Buffer`, not a caller's.
        b.iter(|| {
            for m in black_box(&msgs) {
                black_box(bitcode_buf.encode(m));
            }
        })
    });
    g.bench_function("rkyv", |b| {
        b.iter(|| {
            let mut out: RkyvStack = rkyv::util::Align([MaybeUninit::uninit(); 64]);
            let mut scratch = [MaybeUninit::<u8>::uninit(); 64];
            for m in black_box(&msgs) {
                let written = rkyv::api::low::to_bytes_in_with_alloc::<_, _, Failure>(
                    m,
                    rkyv::ser::writer::Buffer::from(&mut *out),
                    rkyv::ser::allocator::SubAllocator::new(&mut scratch),
                )
                .unwrap();
                black_box(&*written);
            }
        })
    });
    g.bench_function("postcard", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                black_box(postcard::to_slice(m, &mut buf).unwrap());
            }
        })
    });
    g.bench_function("borsh", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let mut out = &mut buf[..];
                m.serialize(&mut out).unwrap();
                black_box(out.len());
                black_box(&buf);
            }
        })
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let mut out = &mut buf[..];
                bincode::serialize_into(&mut out, m).unwrap();
                black_box(out.len());
                black_box(&buf);
            }
        })
    });
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&flat) {
                buf[..40].copy_from_slice(m);
                black_box(&buf[..40]);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("messages-two-pass");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let n = marshal::Marshal::encoded_len(m);
                let written = marshal::Marshal::write_to(m, &mut buf[..n]);
                black_box(&buf[..written]);
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let mut size = bincode2::enc::write::SizeWriter::default();
                bincode2::encode_into_writer(m, &mut size, legacy()).unwrap();
                let n = size.bytes_written;
                let n = bincode2::encode_into_slice(m, &mut buf[..n], legacy()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let n = wincode::serialized_size(m).unwrap() as usize;
                let mut out = &mut buf[..n];
                wincode::serialize_into(&mut out, m).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("speedy", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                m.write_to_buffer_with_ctx(LittleEndian::default(), &mut buf)
                    .unwrap();
                black_box(&buf);
            }
        })
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&msgs) {
                let n = bincode::serialized_size(m).unwrap() as usize;
                let mut out = &mut buf[..n];
                bincode::serialize_into(&mut out, m).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("messages-deserialize");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            for bytes in black_box(&marshal_b) {
                black_box(marshal::from_bytes::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            for bytes in black_box(&bincode2_b) {
                black_box(bincode2::decode_from_slice::<Quote, _>(bytes, legacy()).unwrap());
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            for bytes in black_box(&wincode_b) {
                black_box(wincode::deserialize::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("bitcode", |b| {
        b.iter(|| {
            for bytes in black_box(&bitcode_b) {
                black_box(bitcode_buf.decode::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("rkyv", |b| {
        b.iter(|| {
            for bytes in black_box(&rkyv_b) {
                black_box(rkyv::api::low::from_bytes::<Quote, Failure>(bytes).unwrap());
            }
        })
    });
    g.bench_function("postcard", |b| {
        b.iter(|| {
            for bytes in black_box(&postcard_b) {
                black_box(postcard::from_bytes::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("borsh", |b| {
        b.iter(|| {
            for bytes in black_box(&borsh_b) {
                black_box(borsh::from_slice::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("speedy", |b| {
        b.iter(|| {
            for bytes in black_box(&speedy_b) {
                black_box(
                    Quote::read_from_buffer_with_ctx(LittleEndian::default(), bytes).unwrap(),
                );
            }
        })
    });
    g.bench_function("bincode1", |b| {
        b.iter(|| {
            for bytes in black_box(&bincode1_b) {
                black_box(bincode::deserialize::<Quote>(bytes).unwrap());
            }
        })
    });
    g.bench_function("rkyv-unvalidated", |b| {
        b.iter(|| {
            for bytes in black_box(&rkyv_b) {
                // SAFETY: rkyv wrote these bytes and they validated above.
                let value =
                    unsafe { rkyv::api::low::from_bytes_unchecked::<Quote, Failure>(bytes) };
                black_box(value.unwrap());
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("messages-access");
    g.bench_function("rkyv-access", |b| {
        b.iter(|| {
            for bytes in black_box(&rkyv_b) {
                black_box(rkyv::api::low::access::<ArchivedQuote, Failure>(bytes).unwrap());
            }
        })
    });
    g.bench_function("rkyv-access-unvalidated", |b| {
        b.iter(|| {
            for bytes in black_box(&rkyv_b) {
                // SAFETY: as above.
                black_box(unsafe { rkyv::access_unchecked::<ArchivedQuote>(bytes) });
            }
        })
    });
    g.finish();

    messages_standard(c, &msgs);
}

/// The messages of [`messages`] in `config::standard()`, one at a time into
/// (and from) a stack buffer: marshal, bincode 2 and wincode (varint),
/// whose bytes are asserted identical first.
fn messages_standard(c: &mut Criterion<CpuTime>, msgs: &[Quote]) {
    let bytes: Vec<Vec<u8>> = msgs
        .iter()
        .map(|m| marshal::encode_to_vec(m, marshal::config::standard()))
        .collect();
    for (m, b) in msgs.iter().zip(&bytes) {
        assert_eq!(
            b.len(),
            marshal::encoded_len_with(m, marshal::config::standard())
        );
        assert_eq!(b, &bincode2::encode_to_vec(m, standard()).unwrap());
        assert_eq!(
            b,
            &wincode::config::serialize(m, wincode_varint!()).unwrap()
        );
        assert_eq!(
            &marshal::decode_from_slice::<Quote, _>(b, marshal::config::standard())
                .unwrap()
                .0,
            m
        );
        assert_eq!(
            &bincode2::decode_from_slice::<Quote, _>(b, standard())
                .unwrap()
                .0,
            m
        );
        assert_eq!(
            &wincode::config::deserialize::<Quote, _>(b, wincode_varint!()).unwrap(),
            m
        );
    }
    let mean = bytes.iter().map(Vec::len).sum::<usize>() / bytes.len();
    for library in ["marshal", "bincode2", "wincode", "memcpy"] {
        record_size("messages-standard", library, mean);
    }

    let mut g = c.benchmark_group("messages-standard-one-pass");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let n =
                    marshal::encode_into_slice(m, &mut buf, marshal::config::standard()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let n = bincode2::encode_into_slice(m, &mut buf, standard()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let mut out = &mut buf[..];
                wincode::config::serialize_into(&mut out, m, wincode_varint!()).unwrap();
                black_box(out.len());
                black_box(&buf);
            }
        })
    });
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(&bytes) {
                buf[..m.len()].copy_from_slice(m);
                black_box(&buf[..m.len()]);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("messages-standard-two-pass");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let n = marshal::encoded_len_with(m, marshal::config::standard());
                let n = marshal::encode_into_slice(m, &mut buf[..n], marshal::config::standard())
                    .unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let mut size = bincode2::enc::write::SizeWriter::default();
                bincode2::encode_into_writer(m, &mut size, standard()).unwrap();
                let n = size.bytes_written;
                let n = bincode2::encode_into_slice(m, &mut buf[..n], standard()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            let mut buf = [0u8; 64];
            for m in black_box(msgs) {
                let n = wincode::config::serialized_size(m, wincode_varint!()).unwrap() as usize;
                let mut out = &mut buf[..n];
                wincode::config::serialize_into(&mut out, m, wincode_varint!()).unwrap();
                black_box(&buf[..n]);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("messages-standard-deserialize");
    g.bench_function("marshal", |b| {
        b.iter(|| {
            for b in black_box(&bytes) {
                black_box(
                    marshal::decode_from_slice::<Quote, _>(b, marshal::config::standard()).unwrap(),
                );
            }
        })
    });
    g.bench_function("bincode2", |b| {
        b.iter(|| {
            for b in black_box(&bytes) {
                black_box(bincode2::decode_from_slice::<Quote, _>(b, standard()).unwrap());
            }
        })
    });
    g.bench_function("wincode", |b| {
        b.iter(|| {
            for b in black_box(&bytes) {
                black_box(wincode::config::deserialize::<Quote, _>(b, wincode_varint!()).unwrap());
            }
        })
    });
    g.finish();
}

/// Short warm-up and measurement, on the thread's CPU time, and fewer
/// bootstrap resamples than criterion's default (only the median is
/// reported): `scripts/bench-compare.sh` runs the whole comparison (about
/// 200 benchmarks) several times.
fn config() -> Criterion<CpuTime> {
    common::fix_allocator();
    Criterion::default()
        .with_measurement(CpuTime)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(800))
        .sample_size(20)
        .nresamples(10_000)
        .without_plots()
}

criterion_group! {
    name = benches;
    config = config();
    targets = messages, logs, mesh, saves, updates
}
criterion_main!(benches);
