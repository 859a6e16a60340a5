//! Evolving types: version 1 of a `User` and an `Event` writes bytes that
//! version 3 reads, filling in the fields version 1 did not have; version 3
//! writes bytes that version 1 reads, skipping the fields and turning the
//! variant it does not know into its `other` variant. Each side prints what
//! it sees.
//!
//! ```sh
//! cargo run --example evolution
//! ```

/// The first release.
mod v1 {
    use marshal::{Marshal, Unmarshal};

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) name: String,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub(crate) enum Event {
        Login {
            user: u64,
        },
        Logout {
            user: u64,
        },
        #[marshal(other)]
        Unknown,
    }
}

/// Two releases later: `email` came in version 2, `plan` and the `Ban`
/// event in version 3.
mod v3 {
    use marshal::{Marshal, Unmarshal};

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    pub(crate) enum Plan {
        Free,
        Pro { seats: u16 },
    }

    pub(crate) fn default_plan() -> Plan {
        Plan::Free
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible, history = [0x3df4_088e_86bc_3ca4, 0x7398_b795_2eda_d394])]
    pub(crate) struct User {
        pub(crate) id: u64,
        pub(crate) name: String,
        #[marshal(since = 2, default)]
        pub(crate) email: Option<String>,
        #[marshal(since = 3, default = default_plan)]
        pub(crate) plan: Plan,
    }

    #[derive(Marshal, Unmarshal, Debug, PartialEq)]
    #[marshal(extensible)]
    pub(crate) enum Event {
        Login {
            user: u64,
        },
        Logout {
            user: u64,
            #[marshal(since = 2, default)]
            reason: Option<String>,
        },
        #[marshal(other)]
        Unknown,
        #[marshal(since = 3)]
        Ban {
            user: u64,
            days: u16,
        },
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() -> Result<(), marshal::DecodeError> {
    println!("version 1 writes, version 3 reads:");
    let user = v1::User {
        id: 7,
        name: "ann".into(),
    };
    let events = vec![v1::Event::Login { user: 7 }, v1::Event::Logout { user: 7 }];
    let bytes = marshal::to_vec(&(&user, &events));
    println!("  v1 wrote {user:?}, {events:?}");
    println!("  {} bytes: {}", bytes.len(), hex(&bytes));
    let (user3, events3): (v3::User, Vec<v3::Event>) = marshal::from_bytes(&bytes)?;
    println!("  v3 read  {user3:?}, {events3:?}");
    assert_eq!(user3.email, None);
    assert_eq!(user3.plan, v3::Plan::Free);

    println!("version 3 writes, version 1 reads:");
    let user = v3::User {
        id: 8,
        name: "bo".into(),
        email: Some("bo@example.com".into()),
        plan: v3::Plan::Pro { seats: 5 },
    };
    let events = vec![
        v3::Event::Logout {
            user: 8,
            reason: Some("idle".into()),
        },
        v3::Event::Ban { user: 8, days: 30 },
    ];
    let bytes = marshal::to_vec(&(&user, &events));
    println!("  v3 wrote {user:?}, {events:?}");
    println!("  {} bytes: {}", bytes.len(), hex(&bytes));
    let (user1, events1): (v1::User, Vec<v1::Event>) = marshal::from_bytes(&bytes)?;
    println!("  v1 read  {user1:?}, {events1:?}");
    assert_eq!(events1, [v1::Event::Logout { user: 8 }, v1::Event::Unknown]);

    println!(
        "fingerprint {:#018x} on both sides; version 3's history: {:#018x?}",
        <v1::User as marshal::Marshal>::FINGERPRINT,
        marshal::fingerprint::history::<v3::User>()
    );
    Ok(())
}
