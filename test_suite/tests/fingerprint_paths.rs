//! No spelling enters a fingerprint: a `with` field gives the same
//! fingerprint however its module's path is written (bare, `self::`,
//! `crate::`, a string, a re-export), and a field's type the same through
//! an alias, a full path or a generic parameter. The fingerprint still
//! changes when the wire shape does.

use marshal::Marshal;

/// The with modules, reached below by several paths.
mod codecs {
    /// A `u16`, big-endian. Public, as the `pub use` below requires.
    pub mod be_u16 {
        /// Always 2.
        pub fn encoded_len(_: &u16) -> usize {
            2
        }

        /// Writes `v` big-endian.
        pub fn encode(v: &u16, w: &mut marshal::Writer<'_>) -> Result<(), marshal::Overflow> {
            w.put_array(v.to_be_bytes())
        }
    }

    /// A `u16`, widened to a little-endian `u32`: other bytes than `be_u16`.
    pub(crate) mod le_u32 {
        pub(crate) fn encoded_len(_: &u16) -> usize {
            4
        }

        pub(crate) fn encode(
            v: &u16,
            w: &mut marshal::Writer<'_>,
        ) -> Result<(), marshal::Overflow> {
            w.put_array(u32::from(*v).to_le_bytes())
        }
    }
}

use codecs::be_u16;

/// A re-export of the same module under another name.
pub use codecs::be_u16 as big_endian;

/// `T::FINGERPRINT`, for short.
fn fp<T: Marshal + ?Sized>() -> u64 {
    T::FINGERPRINT
}

#[derive(Marshal)]
struct Bare {
    id: u8,
    #[marshal(with = be_u16)]
    port: u16,
}

#[derive(Marshal)]
struct SelfPath {
    id: u8,
    #[marshal(with = self::be_u16)]
    port: u16,
}

#[derive(Marshal)]
struct CratePath {
    id: u8,
    #[marshal(with = crate::codecs::be_u16)]
    port: u16,
}

#[derive(Marshal)]
struct Reexported {
    id: u8,
    #[marshal(with = big_endian)]
    port: u16,
}

#[derive(Marshal)]
struct StringPath {
    id: u8,
    #[marshal(with = "codecs::be_u16")]
    port: u16,
}

#[derive(Marshal)]
enum InVariant {
    A,
    B(u8, #[marshal(with = be_u16)] u16),
}

#[derive(Marshal)]
enum InVariantCratePath {
    A,
    B(u8, #[marshal(with = crate::codecs::be_u16)] u16),
}

#[test]
fn the_path_of_a_with_module_does_not_enter_the_fingerprint() {
    let bare = fp::<Bare>();
    assert_eq!(fp::<SelfPath>(), bare);
    assert_eq!(fp::<CratePath>(), bare);
    assert_eq!(fp::<Reexported>(), bare);
    assert_eq!(fp::<StringPath>(), bare);
    assert_eq!(fp::<InVariant>(), fp::<InVariantCratePath>());
    assert_eq!(marshal::to_vec(&InVariant::A), [0, 0, 0, 0]);
    assert_eq!(marshal::to_vec(&InVariantCratePath::A), [0, 0, 0, 0]);
    assert_eq!(
        marshal::to_vec(&InVariant::B(1, 80)),
        marshal::to_vec(&InVariantCratePath::B(1, 80))
    );

    // The bytes are the same, too.
    let bytes = marshal::to_vec(&Bare { id: 1, port: 80 });
    assert_eq!(bytes, [1, 0, 80]);
    assert_eq!(marshal::to_vec(&SelfPath { id: 1, port: 80 }), bytes);
    assert_eq!(marshal::to_vec(&CratePath { id: 1, port: 80 }), bytes);
    assert_eq!(marshal::to_vec(&Reexported { id: 1, port: 80 }), bytes);
    assert_eq!(marshal::to_vec(&StringPath { id: 1, port: 80 }), bytes);
}

#[derive(Marshal)]
struct WiderId {
    id: u16,
    #[marshal(with = be_u16)]
    port: u16,
}

#[derive(Marshal)]
struct WithFirst {
    #[marshal(with = be_u16)]
    port: u16,
    id: u8,
}

#[derive(Marshal)]
struct Typed {
    id: u8,
    port: u16,
}

#[derive(Marshal)]
struct TwoWith {
    id: u8,
    #[marshal(with = be_u16)]
    port: u16,
    #[marshal(with = be_u16)]
    other: u16,
}

#[derive(Marshal)]
struct OtherModule {
    id: u8,
    #[marshal(with = codecs::le_u32)]
    port: u16,
}

#[test]
fn the_fingerprint_still_follows_the_wire_shape() {
    let bare = fp::<Bare>();
    // A field's type changed.
    assert_ne!(fp::<WiderId>(), bare);
    // The with field moved, became a typed field, or got a sibling.
    assert_ne!(fp::<WithFirst>(), bare);
    assert_ne!(fp::<Typed>(), bare);
    assert_ne!(fp::<TwoWith>(), bare);
    // What a with module writes is not visible to the fingerprint: another
    // module, with other bytes, gives the same one (see the docs of
    // `marshal::fingerprint`).
    assert_eq!(fp::<OtherModule>(), bare);
    assert_ne!(
        marshal::to_vec(&OtherModule { id: 1, port: 80 }),
        marshal::to_vec(&Bare { id: 1, port: 80 })
    );
}

/// The same type, spelled another way.
type Port = u16;

#[derive(Marshal)]
struct Spelled {
    id: u8,
    port: u16,
}

#[derive(Marshal)]
struct Aliased {
    id: u8,
    port: Port,
}

#[derive(Marshal)]
struct FullPath {
    id: ::core::primitive::u8,
    port: ::std::primitive::u16,
}

#[derive(Marshal)]
struct Generic<A, Banana> {
    id: A,
    port: Banana,
}

#[derive(Marshal)]
struct OtherGenericNames<X, Y> {
    id: X,
    port: Y,
}

#[derive(Marshal)]
enum GenericEnum<T> {
    One(T),
    Two,
}

#[derive(Marshal)]
enum OtherGenericEnum<Item> {
    First(Item),
    Second,
}

#[test]
fn type_names_and_paths_do_not_enter_the_fingerprint() {
    let spelled = fp::<Spelled>();
    assert_eq!(fp::<Aliased>(), spelled);
    assert_eq!(fp::<FullPath>(), spelled);
    assert_eq!(fp::<Generic<u8, u16>>(), spelled);
    assert_eq!(fp::<OtherGenericNames<u8, Port>>(), spelled);
    assert_eq!(fp::<GenericEnum<u32>>(), fp::<OtherGenericEnum<u32>>());
    assert_eq!(
        marshal::to_vec(&GenericEnum::One(7u32)),
        marshal::to_vec(&OtherGenericEnum::First(7u32))
    );
    assert_eq!(
        marshal::to_vec(&GenericEnum::<u32>::Two),
        marshal::to_vec(&OtherGenericEnum::<u32>::Second)
    );
    // A generic type's fingerprint is its arguments'.
    assert_ne!(fp::<Generic<u8, u32>>(), spelled);
    assert_ne!(fp::<GenericEnum<u32>>(), fp::<GenericEnum<u64>>());
}
