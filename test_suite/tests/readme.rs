//! What the README says of the benchmarks is what `BENCHMARKS.md` shows: the
//! table of marshal's time against the fastest peer's, per dataset and
//! direction, and the serde route's range against bincode 1.3, each
//! recomputed here from `BENCHMARKS.md`'s own tables, and what the feature
//! `config`'s docs say of its compile time; and the README stays
//! a front door: at most 200 lines, its links to the project's documents
//! absolute, since rustdoc and crates.io render it away from the
//! repository.

use std::path::Path;

fn read(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of a Markdown table row.
fn cells(row: &str) -> Vec<String> {
    row.trim()
        .trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_owned())
        .collect()
}

/// A time as `BENCHMARKS.md` prints it (`151 µs`, `2.00 ms`), in
/// nanoseconds.
fn nanos(cell: &str) -> Option<f64> {
    let (value, unit) = cell.split_once(' ')?;
    let value: f64 = value.replace(',', "").parse().ok()?;
    let scale = match unit {
        "ns" => 1.0,
        "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        _ => return None,
    };
    Some(value * scale)
}

/// The table under `### `name`` in `BENCHMARKS.md`: its header, and its
/// rows (the peers' and marshal's; the italic reference rows left out).
fn dataset_table(bench: &str, name: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let heading = format!("### `{name}`");
    let section = &bench[bench.find(&heading).expect("dataset heading")..];
    let mut lines = section.lines().skip_while(|l| !l.starts_with("| library"));
    let header = cells(lines.next().expect("header row"));
    let rows = lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        // Italic rows (`| *memcpy ...*`) are references, not peers; marshal's
        // row is bold.
        .filter(|l| l.starts_with("| **") || !l.starts_with("| *"))
        .map(cells)
        .collect();
    (header, rows)
}

/// marshal's time in `column` divided by the fastest peer's, formatted as
/// the README prints it, with that peer's name (the first in the table on
/// a tie).
fn against_fastest(header: &[String], rows: &[Vec<String>], column: &str) -> String {
    let i = header.iter().position(|h| h == column).expect("column");
    let marshal = rows
        .iter()
        .find(|r| r[0] == "**marshal**")
        .and_then(|r| nanos(&r[i]))
        .expect("marshal's time");
    let (peer, fastest) = rows
        .iter()
        .filter(|r| r[0] != "**marshal**")
        .filter_map(|r| nanos(&r[i]).map(|t| (r[0].as_str(), t)))
        .fold(None::<(&str, f64)>, |best, (name, t)| match best {
            Some((_, b)) if b <= t => best,
            _ => Some((name, t)),
        })
        .expect("a peer's time");
    let peer = peer.split(" (").next().unwrap_or(peer);
    format!("{:.2}× ({peer})", marshal / fastest)
}

#[test]
fn the_readme_s_table_is_benchmarks_md_s() {
    let (readme, bench) = (read("README.md"), read("BENCHMARKS.md"));
    let columns = ["encode, one pass", "encode, two passes", "decode (owned)"];
    let mut rows = 0;
    let table = readme
        .lines()
        .skip_while(|l| !l.starts_with("| dataset | encode, one pass"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    for line in table {
        let row = cells(line);
        let name = row[0].trim_matches('`');
        let (header, table) = dataset_table(&bench, name);
        for (cell, column) in row[1..].iter().zip(columns) {
            assert_eq!(
                *cell,
                against_fastest(&header, &table, column),
                "{name}, {column}"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 5, "a row per dataset");
}

#[test]
fn the_readme_s_claims_about_the_routes_are_benchmarks_md_s() {
    let (readme, bench) = (read("README.md"), read("BENCHMARKS.md"));
    let text = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    // The serde route against bincode 1.3: the range of each direction.
    let section = &bench[bench.find("## The serde route").expect("serde section")..];
    let ratios = |direction: &str| -> (f64, f64) {
        let values: Vec<f64> = section
            .lines()
            .take_while(|l| !l.starts_with("## Targets"))
            .filter(|l| l.starts_with("| `"))
            .map(cells)
            .filter(|r| r[1].starts_with(direction))
            .map(|r| r[4].trim_matches(['*', '×']).parse().expect("a ratio"))
            .collect();
        assert!(!values.is_empty());
        let min = values.iter().copied().fold(f64::MAX, f64::min);
        let max = values.iter().copied().fold(f64::MIN, f64::max);
        (min, max)
    };
    let (lo, hi) = ratios("encode");
    assert!(text.contains(&format!("encodes in {lo:.2}–{hi:.2}× bincode 1.3's time")));
    let (lo, hi) = ratios("decode");
    assert!(text.contains(&format!(
        "decodes at about bincode's speed ({lo:.2}–{hi:.2}×)"
    )));
    // The derive route: the fastest encoder on three datasets, within 10%
    // on the other two.
    assert!(text.contains(
        "the fastest encoder on `logs`, `saves` and `updates` and within 10% of the fastest on `mesh` and `messages`"
    ));
    for (name, limit) in [
        ("logs", 1.0),
        ("saves", 1.0),
        ("updates", 1.0),
        ("mesh", 1.10),
        ("messages", 1.10),
    ] {
        let (header, table) = dataset_table(&bench, name);
        for column in ["encode, one pass", "encode, two passes"] {
            let ratio: f64 = against_fastest(&header, &table, column)
                .split('×')
                .next()
                .and_then(|r| r.parse().ok())
                .expect("a ratio");
            assert!(ratio <= limit, "{name}, {column}: {ratio}");
        }
    }
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines");
    // Links to the project's documents resolve where the README is
    // rendered away from the repository (docs.rs, crates.io).
    for doc in [
        "WIRE_FORMAT.md",
        "BENCHMARKS.md",
        "POLICIES.md",
        "LICENSE-MIT",
    ] {
        assert!(
            !readme.contains(&format!("]({doc}")),
            "a relative link to {doc}"
        );
        assert!(
            readme.contains(&format!(
                "(https://docs.rs/crate/marshalers/latest/source/{doc})"
            )),
            "no absolute link to {doc}"
        );
    }
    // The features table has a versions column.
    assert!(readme.contains("| feature | default | adds | versions |"));
}

/// The requirement marshal-core's manifest states for `krate`, as written
/// (`"0.4.32"`).
fn requirement(manifest: &str, krate: &str) -> String {
    let line = manifest
        .lines()
        .find(|l| l.starts_with(&format!("{krate} = {{")))
        .unwrap_or_else(|| panic!("no dependency on {krate}"));
    let version = &line[line.find("version = \"").expect("a version") + 11..];
    version[..version.find('"').expect("closing quote")].to_owned()
}

#[test]
fn the_features_table_states_the_versions_the_manifests_require() {
    let readme = read("README.md");
    let (core, facade) = (read("marshal-core/Cargo.toml"), read("Cargo.toml"));
    let table = readme
        .lines()
        .skip_while(|l| !l.starts_with("| feature | default | adds | versions |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut checked = 0;
    for row in table.map(cells) {
        // `chrono 0.4 (0.4.32 on)`, `heapless 0.9 (Rust 1.86)`, `jiff 1`,
        // `tokio 1, tokio-util 0.7`.
        for part in row[3].split(", ").filter(|p| !p.is_empty()) {
            let mut words = part.split(' ');
            let (krate, major) = (words.next().expect("crate"), words.next().expect("major"));
            let manifest = if core.contains(&format!("\n{krate} = {{")) {
                &core
            } else {
                &facade
            };
            let required = requirement(manifest, krate);
            assert!(
                required == major || required.starts_with(&format!("{major}.")),
                "{krate}: README says {major}, the manifest requires {required}"
            );
            if let Some(floor) = part.split('(').nth(1).and_then(|r| r.strip_suffix(" on)")) {
                assert_eq!(required, floor, "{krate}'s oldest release");
            }
            checked += 1;
        }
    }
    assert!(checked >= 13, "{checked} versions checked");
}

#[test]
fn marshal_core_has_no_dyn_outside_the_serde_bridge() {
    // README: no `dyn` on the derive route's paths. The serde bridge takes
    // serde's `&dyn Display` and `&dyn Expected` as serde hands them over.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../marshal-core/src");
    let mut stack = vec![root.clone()];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a directory") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                if path.file_name() != Some("serde".as_ref()) {
                    stack.push(path);
                }
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                assert!(
                    !code
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .any(|w| w == "dyn"),
                    "{}:{}: {line}",
                    path.display(),
                    n + 1
                );
            }
            files += 1;
        }
    }
    assert!(files > 30, "{files} files read");
}

/// The docs of the feature `config` say what its impls cost to compile:
/// "three quarters as long again" as the rest of the derive, which is
/// what `BENCHMARKS.md`'s compile-time table shows (the crate alone, with
/// the feature against without it).
#[test]
fn the_config_feature_s_compile_time_is_benchmarks_md_s() {
    let bench = read("BENCHMARKS.md");
    let section = &bench[bench.find("## Compile time").expect("compile-time section")..];
    let median = |build: &str| -> f64 {
        section
            .lines()
            .map(cells)
            .find(|r| r[0] == build)
            .and_then(|r| r[1].parse().ok())
            .unwrap_or_else(|| panic!("the row {build}"))
    };
    let ratio = median("crate alone, feature `config`") / median("crate alone");
    assert!((1.6..=1.9).contains(&ratio), "{ratio:.2}×");
    let claim = "three quarters as long again";
    for file in ["marshal-core/src/config.rs", "Cargo.toml"] {
        let text = read(file).split_whitespace().collect::<Vec<_>>().join(" ");
        let text = text.replace("//! ", "").replace("# ", "");
        assert!(text.contains(claim), "{file}");
    }
}
