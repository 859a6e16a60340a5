//! The benchmark datasets: the types (each deriving marshal's traits and
//! every peer's) and seeded generators that build them in code.
//!
//! Every type is plain Rust, the way users write it: no `repr` attributes
//! and no field attributes but serde's `borrow`. Each derives marshal's
//! traits and every peer's, so every library sees identical types. The
//! borrowed log types derive only the libraries that can decode `&str`
//! from the input: marshal, bincode 2, wincode, bitcode, serde (postcard,
//! bincode 1) and speedy; rkyv's zero-copy equivalent is `access`.

// A module of a bench binary: `pub` marks what the benchmarks use.
#![allow(unreachable_pub)]

/// Fixes glibc's allocator thresholds for the whole run. By default glibc
/// raises its mmap and trim thresholds after the first large free, so a
/// decode that allocates megabytes is timed in a different allocator state
/// depending on what ran before it in the process (the same
/// `bincode::deserialize::<Logs>` measured 1.6 ms in one group and 3.1 to
/// 4.1 ms in another of the same run). Fixed thresholds, large enough that
/// no dataset's allocation is mmapped nor its memory returned to the
/// kernel between iterations, put every library in the same state.
pub fn fix_allocator() {
    // SAFETY: `mallopt` only sets allocator parameters; each benchmark
    // calls this once, before anything is timed and before any thread of
    // its own or criterion's starts.
    let mmap = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20) };
    // SAFETY: as above.
    let trim = unsafe { libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20) };
    assert!(mmap == 1 && trim == 1, "mallopt refused the thresholds");
}

/// A small, fast, seeded PRNG (SplitMix64): the datasets are the same on
/// every run and every machine.
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `lo..hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo)
    }

    /// A `usize` in `lo..hi`.
    pub fn len(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as u64, hi as u64) as usize
    }

    /// An `f32` in `-scale..scale`.
    pub fn f32(&mut self, scale: f32) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.len(0, items.len())]
    }

    /// A lowercase word of `lo..hi` letters.
    pub fn word(&mut self, lo: usize, hi: usize) -> String {
        let n = self.len(lo, hi);
        (0..n)
            .map(|_| (b'a' + self.range(0, 26) as u8) as char)
            .collect()
    }

    /// A sentence of `lo..hi` words.
    pub fn sentence(&mut self, lo: usize, hi: usize) -> String {
        let n = self.len(lo, hi);
        (0..n)
            .map(|_| self.word(2, 9))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

// ---------------------------------------------------------------- logs

/// One line of an HTTP access log (Common Log Format, parsed).
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Log {
    pub address: String,
    pub identity: String,
    pub userid: String,
    pub date: String,
    pub request: String,
    pub code: u16,
    pub size: u64,
}

/// The `logs` dataset.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Logs {
    pub logs: Vec<Log>,
}

/// [`Log`] with its strings borrowed from the input.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::BorrowDecode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    serde::Serialize,
    serde::Deserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct LogRef<'a> {
    #[serde(borrow)]
    pub address: &'a str,
    #[serde(borrow)]
    pub identity: &'a str,
    #[serde(borrow)]
    pub userid: &'a str,
    #[serde(borrow)]
    pub date: &'a str,
    #[serde(borrow)]
    pub request: &'a str,
    pub code: u16,
    pub size: u64,
}

/// [`Logs`] with its strings borrowed from the input.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::BorrowDecode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    serde::Serialize,
    serde::Deserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct LogsRef<'a> {
    #[serde(borrow)]
    pub logs: Vec<LogRef<'a>>,
}

impl LogsRef<'_> {
    /// Whether this is `owned`, field by field.
    pub fn matches(&self, owned: &Logs) -> bool {
        self.logs.len() == owned.logs.len()
            && self.logs.iter().zip(&owned.logs).all(|(a, b)| {
                a.address == b.address
                    && a.identity == b.identity
                    && a.userid == b.userid
                    && a.date == b.date
                    && a.request == b.request
                    && a.code == b.code
                    && a.size == b.size
            })
    }
}

/// ~10,000 log records.
pub fn logs(count: usize) -> Logs {
    const METHODS: &[&str] = &["GET", "GET", "GET", "POST", "PUT", "DELETE", "HEAD"];
    const PATHS: &[&str] = &[
        "/",
        "/index.html",
        "/api/v1/users",
        "/api/v1/orders",
        "/static/app.js",
        "/static/style.css",
        "/images/logo.png",
        "/login",
        "/search",
        "/cart",
    ];
    const CODES: &[u16] = &[200, 200, 200, 200, 201, 204, 301, 304, 400, 403, 404, 500];
    const MONTHS: &[&str] = &[
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut rng = Rng::new(0x6c6f_6773);
    let logs = (0..count)
        .map(|_| {
            let address = format!(
                "{}.{}.{}.{}",
                rng.range(1, 255),
                rng.range(0, 256),
                rng.range(0, 256),
                rng.range(1, 255)
            );
            let userid = if rng.chance(0.6) {
                "-".to_string()
            } else {
                rng.word(4, 10)
            };
            let date = format!(
                "{:02}/{}/20{:02}:{:02}:{:02}:{:02} +0000",
                rng.range(1, 29),
                rng.pick(MONTHS),
                rng.range(10, 26),
                rng.range(0, 24),
                rng.range(0, 60),
                rng.range(0, 60)
            );
            let mut request = format!("{} {}", rng.pick(METHODS), rng.pick(PATHS));
            if rng.chance(0.3) {
                request.push_str(&format!("?id={}", rng.range(1, 100_000)));
            }
            request.push_str(" HTTP/1.1");
            Log {
                address,
                identity: "-".to_string(),
                userid,
                date,
                request,
                code: *rng.pick(CODES),
                size: rng.range(0, 100_000_000),
            }
        })
        .collect();
    Logs { logs }
}

// ---------------------------------------------------------------- mesh

/// A point or direction in space.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Vector3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

/// One face of a mesh: three vertices and a normal.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Triangle {
    pub v0: Vector3,
    pub v1: Vector3,
    pub v2: Vector3,
    pub normal: Vector3,
}

/// The `mesh` dataset.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Mesh {
    pub triangles: Vec<Triangle>,
}

/// One mesh of `count` (~125,000) triangles.
pub fn mesh(count: usize) -> Mesh {
    let mut rng = Rng::new(0x6d65_7368);
    let mut v = || Vector3 {
        x: rng.f32(100.0),
        y: rng.f32(100.0),
        z: rng.f32(100.0),
    };
    let triangles = (0..count)
        .map(|_| Triangle {
            v0: v(),
            v1: v(),
            v2: v(),
            normal: v(),
        })
        .collect();
    Mesh { triangles }
}

// ---------------------------------------------------------------- saves

/// A character class: unit variants and one tuple variant.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Class {
    Warrior,
    Mage,
    Rogue,
    Custom(String),
}

/// An armor slot: unit variants only.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum ArmorSlot {
    Head,
    Chest,
    Legs,
    Feet,
}

/// A weapon enchantment.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Enchant {
    pub kind: u8,
    pub level: u8,
}

/// An item: tuple, struct and unit variants.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Item {
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

/// An inventory slot, possibly empty.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Slot {
    pub item: Option<Item>,
    pub count: u16,
}

/// Where a quest stands.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum QuestState {
    NotStarted,
    InProgress { step: u16 },
    Done(u64),
}

/// One step of a quest.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Objective {
    pub description: String,
    pub progress: u16,
    pub target: u16,
}

/// A quest with its objectives.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Quest {
    pub id: u32,
    pub title: String,
    pub state: QuestState,
    pub objectives: Vec<Objective>,
}

/// The player's character.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Player {
    pub name: String,
    pub class: Class,
    pub level: u16,
    pub xp: u32,
    pub position: [f32; 3],
    pub stats: [u16; 6],
    pub guild: Option<String>,
    pub inventory: Vec<Slot>,
    pub quests: Vec<Quest>,
}

/// The terrain of a chunk.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Biome {
    Plains,
    Forest,
    Desert,
    Ocean,
}

/// What an entity is.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum EntityKind {
    Npc { name: String, dialogue: Vec<String> },
    Monster(u16, u8),
    Chest(Vec<Slot>),
    Marker,
}

/// Something placed in the world.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Entity {
    pub kind: EntityKind,
    pub position: [f32; 3],
    pub health: Option<u32>,
    pub tags: Vec<String>,
}

/// One loaded chunk of the world.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Chunk {
    pub coords: (i32, i32),
    pub biome: Biome,
    pub entities: Vec<Entity>,
}

/// The game's settings.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Settings {
    pub volume: [u8; 4],
    pub fullscreen: bool,
    pub keybinds: Vec<(String, u16)>,
}

/// One saved game.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Save {
    pub id: u64,
    pub slot_name: String,
    pub played_secs: u64,
    pub player: Player,
    pub seed: u64,
    pub chunks: Vec<Chunk>,
    pub settings: Settings,
}

/// The `saves` dataset.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Saves {
    pub saves: Vec<Save>,
}

fn item(rng: &mut Rng) -> Item {
    match rng.range(0, 4) {
        0 => Item::Potion(rng.range(0, 8) as u8, rng.range(1, 500) as u16),
        1 => Item::Weapon {
            name: rng.sentence(1, 4),
            damage: rng.range(1, 1000) as u32,
            enchant: rng.chance(0.3).then(|| Enchant {
                kind: rng.range(0, 16) as u8,
                level: rng.range(1, 6) as u8,
            }),
        },
        2 => Item::Armor {
            slot: match rng.range(0, 4) {
                0 => ArmorSlot::Head,
                1 => ArmorSlot::Chest,
                2 => ArmorSlot::Legs,
                _ => ArmorSlot::Feet,
            },
            defense: rng.range(1, 300) as u16,
        },
        _ => Item::Key,
    }
}

fn slots(rng: &mut Rng, lo: usize, hi: usize) -> Vec<Slot> {
    (0..rng.len(lo, hi))
        .map(|_| Slot {
            item: rng.chance(0.75).then(|| item(rng)),
            count: rng.range(0, 100) as u16,
        })
        .collect()
}

fn position(rng: &mut Rng) -> [f32; 3] {
    [rng.f32(5000.0), rng.f32(200.0), rng.f32(5000.0)]
}

fn save(rng: &mut Rng, id: u64) -> Save {
    let quests = (0..rng.len(2, 8))
        .map(|_| Quest {
            id: rng.range(1, 10_000) as u32,
            title: rng.sentence(2, 6),
            state: match rng.range(0, 3) {
                0 => QuestState::NotStarted,
                1 => QuestState::InProgress {
                    step: rng.range(1, 20) as u16,
                },
                _ => QuestState::Done(rng.next_u64() >> 20),
            },
            objectives: (0..rng.len(1, 5))
                .map(|_| Objective {
                    description: rng.sentence(3, 8),
                    progress: rng.range(0, 10) as u16,
                    target: rng.range(10, 20) as u16,
                })
                .collect(),
        })
        .collect();
    let player = Player {
        name: rng.word(4, 12),
        class: match rng.range(0, 4) {
            0 => Class::Warrior,
            1 => Class::Mage,
            2 => Class::Rogue,
            _ => Class::Custom(rng.word(5, 10)),
        },
        level: rng.range(1, 100) as u16,
        xp: rng.range(0, 1_000_000) as u32,
        position: position(rng),
        stats: core::array::from_fn(|_| rng.range(1, 100) as u16),
        guild: rng.chance(0.4).then(|| rng.sentence(1, 3)),
        inventory: slots(rng, 16, 40),
        quests,
    };
    let chunks = (0..rng.len(2, 6))
        .map(|_| Chunk {
            coords: (
                rng.range(0, 2000) as i32 - 1000,
                rng.range(0, 2000) as i32 - 1000,
            ),
            biome: match rng.range(0, 4) {
                0 => Biome::Plains,
                1 => Biome::Forest,
                2 => Biome::Desert,
                _ => Biome::Ocean,
            },
            entities: (0..rng.len(1, 7))
                .map(|_| Entity {
                    kind: match rng.range(0, 4) {
                        0 => EntityKind::Npc {
                            name: rng.word(3, 10),
                            dialogue: (0..rng.len(1, 4)).map(|_| rng.sentence(3, 10)).collect(),
                        },
                        1 => EntityKind::Monster(rng.range(0, 300) as u16, rng.range(1, 60) as u8),
                        2 => EntityKind::Chest(slots(rng, 1, 6)),
                        _ => EntityKind::Marker,
                    },
                    position: position(rng),
                    health: rng.chance(0.5).then(|| rng.range(1, 1000) as u32),
                    tags: (0..rng.len(0, 3)).map(|_| rng.word(3, 8)).collect(),
                })
                .collect(),
        })
        .collect();
    Save {
        id,
        slot_name: format!("Slot {id}: {}", rng.sentence(1, 3)),
        played_secs: rng.range(60, 1_000_000),
        player,
        seed: rng.next_u64(),
        chunks,
        settings: Settings {
            volume: core::array::from_fn(|_| rng.range(0, 101) as u8),
            fullscreen: rng.chance(0.5),
            keybinds: (0..rng.len(4, 12))
                .map(|_| (rng.word(3, 10), rng.range(0, 512) as u16))
                .collect(),
        },
    }
}

/// ~500 game saves.
pub fn saves(count: usize) -> Saves {
    let mut rng = Rng::new(0x7361_7665);
    Saves {
        saves: (0..count as u64).map(|id| save(&mut rng, id)).collect(),
    }
}

// ---------------------------------------------------------------- updates

/// What an entity is doing: a unit-only enum.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Activity {
    Idle,
    Walking,
    Running,
    Jumping,
    Falling,
    Attacking,
    Dead,
}

/// The side an entity is on: a unit-only enum.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Team {
    Red,
    Blue,
    Neutral,
}

/// What changed about one entity since the last tick: small fields, most
/// of them optional (sent only when they changed).
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct EntityUpdate {
    pub id: u32,
    pub kind: u8,
    pub team: Team,
    pub activity: Activity,
    pub position: Option<Vector3>,
    pub velocity: Option<Vector3>,
    pub yaw: Option<f32>,
    pub health: Option<u16>,
    pub ammo: Option<u8>,
    pub target: Option<u32>,
    pub flags: u16,
}

/// One server tick: the entities that changed and those removed.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Tick {
    pub tick: u32,
    pub time: f32,
    pub updates: Vec<EntityUpdate>,
    pub removed: Vec<u32>,
}

/// The `updates` dataset: a game-state update stream.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Updates {
    pub ticks: Vec<Tick>,
}

/// `count` ticks of 0 to 63 entity updates each (about 32 on average).
pub fn updates(count: usize) -> Updates {
    const ACTIVITIES: [Activity; 7] = [
        Activity::Idle,
        Activity::Walking,
        Activity::Running,
        Activity::Jumping,
        Activity::Falling,
        Activity::Attacking,
        Activity::Dead,
    ];
    const TEAMS: [Team; 3] = [Team::Red, Team::Blue, Team::Neutral];
    let mut rng = Rng::new(0x7570_6474);
    fn vector(rng: &mut Rng, scale: f32) -> Vector3 {
        Vector3 {
            x: rng.f32(scale),
            y: rng.f32(scale),
            z: rng.f32(scale),
        }
    }
    let ticks = (0..count as u32)
        .map(|tick| {
            let updates = (0..rng.len(0, 64))
                .map(|_| EntityUpdate {
                    id: rng.range(0, 4096) as u32,
                    kind: rng.range(0, 16) as u8,
                    team: rng.pick(&TEAMS).clone(),
                    activity: rng.pick(&ACTIVITIES).clone(),
                    position: rng.chance(0.7).then(|| vector(&mut rng, 1000.0)),
                    velocity: rng.chance(0.5).then(|| vector(&mut rng, 10.0)),
                    yaw: rng.chance(0.5).then(|| rng.f32(3.15)),
                    health: rng.chance(0.3).then(|| rng.range(0, 1000) as u16),
                    ammo: rng.chance(0.2).then(|| rng.range(0, 256) as u8),
                    target: rng.chance(0.1).then(|| rng.range(0, 4096) as u32),
                    flags: rng.range(0, 1 << 16) as u16,
                })
                .collect();
            let removed = (0..rng.len(0, 4))
                .map(|_| rng.range(0, 4096) as u32)
                .collect();
            Tick {
                tick,
                time: tick as f32 / 60.0,
                updates,
                removed,
            }
        })
        .collect();
    Updates { ticks }
}

// ---------------------------------------------------------------- messages

/// The side of a quote.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub enum Side {
    Bid,
    Ask,
}

/// A market-data quote: a small fixed-size message, 40 bytes on the
/// wire.
#[derive(
    Debug,
    Clone,
    PartialEq,
    marshal::Marshal,
    marshal::Unmarshal,
    bincode2::Encode,
    bincode2::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    serde::Serialize,
    serde::Deserialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
)]
#[bincode(crate = "bincode2")]
pub struct Quote {
    pub seq: u64,
    pub timestamp: u64,
    pub instrument: u32,
    pub price: i64,
    pub qty: u32,
    pub side: Side,
    pub flags: [u8; 4],
}

/// `count` quotes, encoded and decoded one at a time.
pub fn messages(count: usize) -> Vec<Quote> {
    let mut rng = Rng::new(0x6d73_6773);
    let mut seq = rng.range(0, 1 << 32);
    let mut timestamp = 1_700_000_000_000_000_000 + rng.range(0, 1 << 40);
    (0..count)
        .map(|_| {
            seq += 1;
            timestamp += rng.range(1, 50_000);
            Quote {
                seq,
                timestamp,
                instrument: rng.range(0, 5000) as u32,
                price: rng.range(1, 10_000_000) as i64,
                qty: rng.range(1, 10_000) as u32,
                side: if rng.chance(0.5) {
                    Side::Bid
                } else {
                    Side::Ask
                },
                flags: core::array::from_fn(|_| rng.range(0, 4) as u8),
            }
        })
        .collect()
}
