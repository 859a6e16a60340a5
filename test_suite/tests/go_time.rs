//! `GoTime` against real Go.
//!
//! `tests/go/time_vectors.txt` holds what Go's `time.Time.MarshalBinary`
//! wrote for a set of instants and zones, and the offsets it refuses;
//! `tests/go/gen_time_vectors.go` made it. Both directions are checked here
//! without Go: Rust writes exactly Go's bytes, and reads Go's bytes back as
//! the instant and zone Go started from. `go_accepts_rust_bytes` also hands
//! Rust's bytes to Go's `UnmarshalBinary` when `go` is on `PATH`, and skips
//! otherwise.

use std::path::Path;
use std::process::Command;

use marshal::time::{GoTime, TimeError};
use marshal::{DecodeErrorKind, Marshal, Unmarshal};
use marshal_test_suite::rng::XorShift;

/// One line of the vector file.
#[derive(Debug)]
struct Vector {
    name: String,
    unix_secs: i64,
    nanos: u32,
    /// `None` for Go's UTC location.
    zone: Option<i32>,
    /// `None` where `MarshalBinary` refused the value.
    bytes: Option<Vec<u8>>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn vectors() -> Vec<Vector> {
    include_str!("go/time_vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 5, "malformed line {line:?}");
            Vector {
                name: f[0].to_string(),
                unix_secs: f[1].parse().expect("seconds"),
                nanos: f[2].parse().expect("nanoseconds"),
                zone: (f[3] != "UTC").then(|| f[3].parse().expect("offset")),
                bytes: (f[4] != "error").then(|| unhex(f[4])),
            }
        })
        .collect()
}

fn go_time(v: &Vector) -> Result<GoTime, TimeError> {
    GoTime::new(v.unix_secs, v.nanos, v.zone)
}

/// The vectors cover what the format has to get right.
#[test]
fn the_vectors_cover_the_cases() {
    let all = vectors();
    let encodable: Vec<&Vector> = all.iter().filter(|v| v.bytes.is_some()).collect();
    assert!(encodable.len() >= 15, "{} vectors", encodable.len());
    let has = |pred: &dyn Fn(&Vector) -> bool| encodable.iter().any(|v| pred(v));
    assert!(
        has(&|v| v.unix_secs == 0 && v.nanos == 0 && v.zone.is_none()),
        "the epoch"
    );
    assert!(
        has(&|v| v.unix_secs == -62_135_596_800 && v.zone.is_none()),
        "Go's zero time"
    );
    assert!(
        has(&|v| v.unix_secs < 0 && v.unix_secs > -86_400 * 366),
        "just before 1970"
    );
    assert!(has(&|v| v.nanos % 1_000 != 0), "nanosecond precision");
    assert!(
        has(&|v| v.unix_secs == 253_402_300_799),
        "the end of year 9999"
    );
    assert!(has(&|v| v.unix_secs < -62_167_219_200), "negative years");
    assert!(
        has(&|v| v.zone.is_some_and(|z| z > 0 && z % 3600 == 0)),
        "east of UTC"
    );
    assert!(
        has(&|v| v.zone.is_some_and(|z| z < 0 && z % 3600 == 0)),
        "west of UTC"
    );
    assert!(
        has(&|v| v.zone.is_some_and(|z| z % 3600 == 1800)),
        "half-hour east"
    );
    assert!(
        has(&|v| v.zone.is_some_and(|z| z % 3600 == -1800)),
        "half-hour west"
    );
    assert!(
        has(&|v| v.zone.is_some_and(|z| z % 60 > 0)),
        "seconds east (version 2)"
    );
    assert!(
        has(&|v| v.zone.is_some_and(|z| z % 60 < 0)),
        "seconds west (version 2)"
    );
    assert!(has(&|v| v.zone == Some(0)), "offset zero that is not UTC");
    assert!(all.iter().any(|v| v.bytes.is_none()), "offsets Go refuses");
}

/// Rust writes exactly the bytes Go wrote, and sizes them exactly.
#[test]
fn rust_encodes_go_bytes() {
    for v in vectors() {
        let Some(expected) = &v.bytes else { continue };
        let t = go_time(&v).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert_eq!(hex(&marshal::to_vec(&t)), hex(expected), "{}", v.name);
        assert_eq!(t.encoded_len(), expected.len(), "{}", v.name);
        assert_eq!(usize::from(t.version()) + 14, expected.len(), "{}", v.name);
        assert_eq!(expected[0], t.version(), "{}", v.name);
    }
}

/// Rust reads Go's bytes as the instant and zone Go started from, including
/// the negative offsets with seconds that Go's own decoder misreads.
#[test]
fn rust_decodes_go_bytes() {
    for v in vectors() {
        let Some(bytes) = &v.bytes else { continue };
        let (t, used) = GoTime::read_from(bytes).unwrap_or_else(|e| panic!("{}: {e}", v.name));
        assert_eq!(used, bytes.len(), "{}", v.name);
        assert_eq!(
            (t.unix_secs(), t.nanos(), t.offset()),
            (v.unix_secs, v.nanos, v.zone),
            "{}",
            v.name
        );
        assert_eq!(marshal::from_bytes::<GoTime>(bytes).unwrap(), t);
        // Embedded in a stream, the version byte says where it ends.
        let mut stream = bytes.clone();
        stream.extend_from_slice(&[7, 0, 0, 0]);
        let (pair, used) = <(GoTime, u32)>::read_from(&stream).unwrap();
        assert_eq!((pair, used), ((t, 7), stream.len()), "{}", v.name);
    }
}

/// What Go's `MarshalBinary` refuses, `GoTime::new` refuses.
#[test]
fn rust_refuses_what_go_refuses() {
    let refused: Vec<Vector> = vectors()
        .into_iter()
        .filter(|v| v.bytes.is_none())
        .collect();
    assert_eq!(refused.len(), 5);
    for v in refused {
        let zone = v.zone.expect("refused for the zone");
        assert_eq!(
            go_time(&v),
            Err(TimeError::InvalidOffset(zone)),
            "{}",
            v.name
        );
    }
}

/// Bytes that Go would read differently, or not at all, are errors that say
/// which field is wrong.
#[test]
fn rust_rejects_bytes_go_cannot_have_written() {
    let epoch = unhex("010000000e7791f70000000000ffff");
    let kind = |bytes: &[u8]| {
        let e = GoTime::read_from(bytes).unwrap_err();
        (e.kind(), e.offset())
    };

    let mut bad = epoch.clone();
    bad[0] = 3;
    assert_eq!(kind(&bad), (DecodeErrorKind::UnknownGoTimeVersion(3), 0));
    bad[0] = 0;
    assert_eq!(kind(&bad), (DecodeErrorKind::UnknownGoTimeVersion(0), 0));

    let mut bad = epoch.clone();
    bad[9..13].copy_from_slice(&1_000_000_000u32.to_be_bytes());
    assert_eq!(
        kind(&bad),
        (DecodeErrorKind::InvalidNanos(1_000_000_000), 9)
    );

    // Go seconds below i64::MIN + 62,135,596,800 have no i64 Unix seconds.
    let mut bad = epoch.clone();
    bad[1..9].copy_from_slice(&i64::MIN.to_be_bytes());
    assert_eq!(
        kind(&bad),
        (DecodeErrorKind::TimestampOutOfRange { secs: i64::MIN }, 1)
    );

    // Version 2: -1 minute and -30 seconds is -90 s, whose whole-minute
    // part is Go's UTC marker; -32768 minutes and -60 seconds is beyond i16.
    let mut v2 = epoch.clone();
    v2[0] = 2;
    v2.push(0xe2);
    assert_eq!(
        kind(&v2),
        (DecodeErrorKind::InvalidUtcOffset { secs: -90 }, 13)
    );
    v2[13..15].copy_from_slice(&i16::MIN.to_be_bytes());
    v2[15] = (-60i8).to_be_bytes()[0];
    assert_eq!(
        kind(&v2),
        (DecodeErrorKind::InvalidUtcOffset { secs: -1_966_140 }, 13)
    );

    // Short input.
    assert_eq!(
        kind(&epoch[..14]),
        (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 1)
    );
    let mut v2 = epoch.clone();
    v2[0] = 2;
    assert_eq!(
        kind(&v2),
        (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 15)
    );
    assert_eq!(kind(&[]), (DecodeErrorKind::UnexpectedEnd { needed: 1 }, 0));
}

/// Forms Go's decoder accepts but its encoder never writes: version 2 with
/// a zero seconds byte, and a minutes field of -1 (UTC) with seconds.
#[test]
fn rust_reads_go_forms_that_go_never_writes() {
    let mut v2_utc = unhex("020000000e7791f70000000000ffff00");
    let t = GoTime::read_from(&v2_utc).unwrap().0;
    assert_eq!(t.offset(), None);
    // It re-encodes in the canonical version 1 form.
    assert_eq!(marshal::to_vec(&t), unhex("010000000e7791f70000000000ffff"));

    // -1 minute and +5 seconds: Go reads -55 s, and so does Rust.
    v2_utc[15] = 5;
    assert_eq!(GoTime::read_from(&v2_utc).unwrap().0.offset(), Some(-55));
}

/// Go-encodable values spread over the whole range, with every kind of
/// zone; from a seeded generator, so the Go check sees the same values on
/// every run.
fn rust_values() -> Vec<(String, GoTime)> {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for i in 0..300 {
        let unix_secs = match i % 3 {
            0 => rng.next() as i64,
            1 => (rng.next() % 400_000_000_000) as i64 - 200_000_000_000,
            _ => (rng.next() % 4_000_000_000) as i64 - 2_000_000_000,
        }
        .min(GoTime::MAX_UNIX_SECS);
        let nanos = (rng.next() % 1_000_000_000) as u32;
        let offset = match i % 4 {
            0 => None,
            1 => Some((rng.next() % (2 * 14 * 3600)) as i32 - 14 * 3600),
            2 => Some(((rng.next() % 97) as i32 - 48) * 15 * 60),
            _ => Some((rng.next() % 3_932_219) as i32 - 1_966_139),
        };
        if let Ok(t) = GoTime::new(unix_secs, nanos, offset) {
            out.push((format!("rust_random_{i}"), t));
        }
    }
    for v in vectors() {
        if let Ok(t) = go_time(&v) {
            out.push((format!("rust_{}", v.name), t));
        }
    }
    out
}

/// Go's `UnmarshalBinary` accepts every byte string Rust writes, as the
/// same instant and zone (or, for a negative offset with seconds, as
/// exactly the misreading Go's decoder makes of its own encoding). Runs
/// only where `go` is on `PATH`.
#[test]
fn go_accepts_rust_bytes() {
    if Command::new("go").arg("version").output().is_err() {
        eprintln!("skipped: `go` is not on PATH");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let input = dir.join("go_time_rust_bytes.txt");
    let mut lines = String::from("# name unix_secs nanos zone bytes, written by marshal\n");
    let values = rust_values();
    assert!(values.len() > 250);
    for (name, t) in &values {
        let zone = t.offset().map_or("UTC".to_string(), |z| z.to_string());
        lines += &format!(
            "{name} {} {} {zone} {}\n",
            t.unix_secs(),
            t.nanos(),
            hex(&marshal::to_vec(t))
        );
    }
    std::fs::write(&input, lines).unwrap();

    let out = Command::new("go")
        .args(["run", "gen_time_vectors.go", "check"])
        .arg(&input)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/go"))
        .env("GOCACHE", dir.join("go-cache"))
        .env("GOPATH", dir.join("go-path"))
        .env("GOFLAGS", "-mod=mod")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "Go rejected Rust's bytes:\n{stdout}\n{stderr}"
    );
    let summary = stdout.lines().last().unwrap_or_default();
    eprintln!("{summary}");
    assert!(summary.ends_with(", 0 failed"), "{stdout}");
    // Go misreads exactly the negative offsets with seconds.
    for (name, t) in &values {
        let misread = stdout.contains(&format!("GO-MISREAD {name}:"));
        let negative_seconds = t.offset().is_some_and(|z| z % 60 < 0);
        assert!(
            !misread || negative_seconds,
            "Go misread {name} ({t:?}):\n{stdout}"
        );
    }
}
