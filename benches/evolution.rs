//! What making a dataset extensible costs: the `saves` dataset of
//! `common/mod.rs` against a copy of its types in which every struct and
//! enum is `#[marshal(extensible)]`, the same values in both.
//!
//! Encode is the real two-pass cost, `encoded_len()` then `write_to()`,
//! into a buffer allocated once outside the timing loop; decode is
//! `from_bytes`. Both encodings are checked to decode back to the values
//! before anything is timed, and the sizes of both are printed.
//!
//! ```sh
//! cargo bench -p marshal-benches --bench evolution
//! ```
//!
//! On a noisy machine, count instructions instead (see [`repeat`]).

// Criterion's macros generate undocumented items.
#![allow(missing_docs)]

// The datasets, read-only: only `saves` is used here.
#[allow(dead_code)]
#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, criterion_group};
use marshal::{Marshal, Unmarshal};

/// Records in `saves`, as in `compare.rs`.
const SAVES: usize = 500;

/// The `saves` types with every struct and enum extensible.
mod ext {
    use super::{Marshal, Unmarshal};

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum Class {
        Warrior,
        Mage,
        Rogue,
        Custom(String),
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum ArmorSlot {
        Head,
        Chest,
        Legs,
        Feet,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Enchant {
        pub(crate) kind: u8,
        pub(crate) level: u8,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum Item {
        Potion(u8, u16),
        Weapon {
            name: String,
            damage: u32,
            enchant: Option<Enchant>,
        },
        Armor {
            slot: ArmorSlot,
            defense: u16,
        },
        Key,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Slot {
        pub(crate) item: Option<Item>,
        pub(crate) count: u16,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum QuestState {
        NotStarted,
        InProgress { step: u16 },
        Done(u64),
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Objective {
        pub(crate) description: String,
        pub(crate) progress: u16,
        pub(crate) target: u16,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Quest {
        pub(crate) id: u32,
        pub(crate) title: String,
        pub(crate) state: QuestState,
        pub(crate) objectives: Vec<Objective>,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Player {
        pub(crate) name: String,
        pub(crate) class: Class,
        pub(crate) level: u16,
        pub(crate) xp: u32,
        pub(crate) position: [f32; 3],
        pub(crate) stats: [u16; 6],
        pub(crate) guild: Option<String>,
        pub(crate) inventory: Vec<Slot>,
        pub(crate) quests: Vec<Quest>,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum Biome {
        Plains,
        Forest,
        Desert,
        Ocean,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) enum EntityKind {
        Npc { name: String, dialogue: Vec<String> },
        Monster(u16, u8),
        Chest(Vec<Slot>),
        Marker,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Entity {
        pub(crate) kind: EntityKind,
        pub(crate) position: [f32; 3],
        pub(crate) health: Option<u32>,
        pub(crate) tags: Vec<String>,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Chunk {
        pub(crate) coords: (i32, i32),
        pub(crate) biome: Biome,
        pub(crate) entities: Vec<Entity>,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Settings {
        pub(crate) volume: [u8; 4],
        pub(crate) fullscreen: bool,
        pub(crate) keybinds: Vec<(String, u16)>,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Save {
        pub(crate) id: u64,
        pub(crate) slot_name: String,
        pub(crate) played_secs: u64,
        pub(crate) player: Player,
        pub(crate) seed: u64,
        pub(crate) chunks: Vec<Chunk>,
        pub(crate) settings: Settings,
    }

    #[derive(Debug, Clone, PartialEq, Marshal, Unmarshal)]
    #[marshal(extensible)]
    pub(crate) struct Saves {
        pub(crate) saves: Vec<Save>,
    }
}

/// The same values, as the extensible types.
mod convert {
    use super::{common as p, ext as e};

    fn class(c: &p::Class) -> e::Class {
        match c {
            p::Class::Warrior => e::Class::Warrior,
            p::Class::Mage => e::Class::Mage,
            p::Class::Rogue => e::Class::Rogue,
            p::Class::Custom(s) => e::Class::Custom(s.clone()),
        }
    }

    fn armor_slot(s: &p::ArmorSlot) -> e::ArmorSlot {
        match s {
            p::ArmorSlot::Head => e::ArmorSlot::Head,
            p::ArmorSlot::Chest => e::ArmorSlot::Chest,
            p::ArmorSlot::Legs => e::ArmorSlot::Legs,
            p::ArmorSlot::Feet => e::ArmorSlot::Feet,
        }
    }

    fn item(i: &p::Item) -> e::Item {
        match i {
            p::Item::Potion(a, b) => e::Item::Potion(*a, *b),
            p::Item::Weapon {
                name,
                damage,
                enchant,
            } => e::Item::Weapon {
                name: name.clone(),
                damage: *damage,
                enchant: enchant.as_ref().map(|x| e::Enchant {
                    kind: x.kind,
                    level: x.level,
                }),
            },
            p::Item::Armor { slot, defense } => e::Item::Armor {
                slot: armor_slot(slot),
                defense: *defense,
            },
            p::Item::Key => e::Item::Key,
        }
    }

    fn slot(s: &p::Slot) -> e::Slot {
        e::Slot {
            item: s.item.as_ref().map(item),
            count: s.count,
        }
    }

    fn quest(q: &p::Quest) -> e::Quest {
        e::Quest {
            id: q.id,
            title: q.title.clone(),
            state: match q.state {
                p::QuestState::NotStarted => e::QuestState::NotStarted,
                p::QuestState::InProgress { step } => e::QuestState::InProgress { step },
                p::QuestState::Done(t) => e::QuestState::Done(t),
            },
            objectives: q
                .objectives
                .iter()
                .map(|o| e::Objective {
                    description: o.description.clone(),
                    progress: o.progress,
                    target: o.target,
                })
                .collect(),
        }
    }

    fn player(p: &p::Player) -> e::Player {
        e::Player {
            name: p.name.clone(),
            class: class(&p.class),
            level: p.level,
            xp: p.xp,
            position: p.position,
            stats: p.stats,
            guild: p.guild.clone(),
            inventory: p.inventory.iter().map(slot).collect(),
            quests: p.quests.iter().map(quest).collect(),
        }
    }

    fn entity(x: &p::Entity) -> e::Entity {
        e::Entity {
            kind: match &x.kind {
                p::EntityKind::Npc { name, dialogue } => e::EntityKind::Npc {
                    name: name.clone(),
                    dialogue: dialogue.clone(),
                },
                p::EntityKind::Monster(a, b) => e::EntityKind::Monster(*a, *b),
                p::EntityKind::Chest(slots) => {
                    e::EntityKind::Chest(slots.iter().map(slot).collect())
                }
                p::EntityKind::Marker => e::EntityKind::Marker,
            },
            position: x.position,
            health: x.health,
            tags: x.tags.clone(),
        }
    }

    fn chunk(c: &p::Chunk) -> e::Chunk {
        e::Chunk {
            coords: c.coords,
            biome: match c.biome {
                p::Biome::Plains => e::Biome::Plains,
                p::Biome::Forest => e::Biome::Forest,
                p::Biome::Desert => e::Biome::Desert,
                p::Biome::Ocean => e::Biome::Ocean,
            },
            entities: c.entities.iter().map(entity).collect(),
        }
    }

    pub(crate) fn saves(s: &p::Saves) -> e::Saves {
        e::Saves {
            saves: s
                .saves
                .iter()
                .map(|s| e::Save {
                    id: s.id,
                    slot_name: s.slot_name.clone(),
                    played_secs: s.played_secs,
                    player: player(&s.player),
                    seed: s.seed,
                    chunks: s.chunks.iter().map(chunk).collect(),
                    settings: e::Settings {
                        volume: s.settings.volume,
                        fullscreen: s.settings.fullscreen,
                        keybinds: s.settings.keybinds.clone(),
                    },
                })
                .collect(),
        }
    }
}

/// The plain dataset and its extensible copy, each built by one traversal
/// of the generated values, so that both sit in memory alike (the
/// generator's own allocations are interleaved with its temporaries).
fn datasets() -> (common::Saves, ext::Saves) {
    let generated = common::saves(SAVES);
    let plain = generated.clone();
    let extensible = convert::saves(&generated);
    (plain, extensible)
}

/// Benchmarks encode and decode of `data` under `name`, after checking that
/// its bytes decode back to it.
fn encode_decode<T>(c: &mut Criterion, name: &str, data: &T) -> usize
where
    T: Marshal + for<'de> Unmarshal<'de> + PartialEq + std::fmt::Debug,
{
    let bytes = marshal::to_vec(data);
    assert_eq!(bytes.len(), data.encoded_len());
    assert_eq!(&marshal::from_bytes::<T>(&bytes).unwrap(), data);
    let mut buf = vec![0u8; bytes.len()];

    let mut g = c.benchmark_group("evolution");
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function(format!("{name}/encode"), |b| {
        b.iter(|| {
            let data = black_box(data);
            let n = data.encoded_len();
            let written = data.write_to(&mut buf[..n]);
            black_box(written)
        })
    });
    g.bench_function(format!("{name}/decode"), |b| {
        b.iter(|| black_box(marshal::from_bytes::<T>(black_box(&bytes)).unwrap()))
    });
    g.finish();
    bytes.len()
}

fn saves(c: &mut Criterion) {
    let (plain, extensible) = datasets();
    let plain_len = encode_decode(c, "plain", &plain);
    let ext_len = encode_decode(c, "extensible", &extensible);
    println!(
        "saves: plain {plain_len} bytes, extensible {ext_len} bytes (+{} bytes, +{:.1}%)",
        ext_len - plain_len,
        (ext_len as f64 / plain_len as f64 - 1.0) * 100.0
    );
}

/// Long enough measurements for stable medians of runs of about a
/// millisecond, on a busy two-core machine.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(40)
        .without_plots()
}

/// `MARSHAL_EVOLUTION_REPEAT=<plain|extensible>-<encode|decode>:<n>` runs
/// that operation `n` times and exits, without criterion: for counting
/// instructions with `valgrind --tool=callgrind`, where the difference
/// between two counts of `n` gives the cost of one run, free of noise.
/// `MARSHAL_EVOLUTION_REPEAT=interleaved:<n>` times `n` rounds of all four.
fn repeat(spec: &str) {
    let (op, n) = spec.split_once(':').expect("<op>:<n>");
    let n: usize = n.parse().expect("a count");
    let (plain, extensible) = datasets();
    match op {
        "interleaved" => interleaved(&plain, &extensible, n),
        "plain-encode" => repeat_encode(&plain, n),
        "plain-decode" => repeat_decode(&plain, n),
        "extensible-encode" => repeat_encode(&extensible, n),
        "extensible-decode" => repeat_decode(&extensible, n),
        _ => panic!("unknown operation {op}"),
    }
}

/// `n` rounds of the four operations, one after another in each round, so
/// that a busy machine slows them alike; prints each one's fastest and
/// median round, and the ratios of the extensible types' to the plain ones'.
fn interleaved(plain: &common::Saves, extensible: &ext::Saves, n: usize) {
    use std::time::Instant;
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        f();
        start.elapsed().as_secs_f64() * 1e3
    };
    let mut rounds: [Vec<f64>; 4] = Default::default();
    for _ in 0..n {
        rounds[0].push(time(&mut || repeat_encode(plain, 1)));
        rounds[1].push(time(&mut || repeat_encode(extensible, 1)));
        rounds[2].push(time(&mut || repeat_decode(plain, 1)));
        rounds[3].push(time(&mut || repeat_decode(extensible, 1)));
    }
    let stats = rounds.map(|mut r| {
        r.sort_by(f64::total_cmp);
        (r[0], r[r.len() / 2])
    });
    for (i, name) in [
        "plain encode",
        "extensible encode",
        "plain decode",
        "extensible decode",
    ]
    .iter()
    .enumerate()
    {
        println!(
            "{name:18} fastest {:.3} ms, median {:.3} ms",
            stats[i].0, stats[i].1
        );
    }
    println!(
        "extensible / plain: encode {:.3} (fastest) {:.3} (median), decode {:.3} (fastest) {:.3} (median)",
        stats[1].0 / stats[0].0,
        stats[1].1 / stats[0].1,
        stats[3].0 / stats[2].0,
        stats[3].1 / stats[2].1
    );
}

#[inline(never)]
fn repeat_encode<T: Marshal>(data: &T, n: usize) {
    let mut buf = vec![0u8; data.encoded_len()];
    for _ in 0..n {
        let data = black_box(data);
        let len = data.encoded_len();
        black_box(data.write_to(&mut buf[..len]));
    }
}

#[inline(never)]
fn repeat_decode<T: Marshal + for<'de> Unmarshal<'de>>(data: &T, n: usize) {
    let bytes = marshal::to_vec(data);
    for _ in 0..n {
        black_box(marshal::from_bytes::<T>(black_box(&bytes)).unwrap());
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = saves
}

fn main() {
    if let Ok(spec) = std::env::var("MARSHAL_EVOLUTION_REPEAT") {
        repeat(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
