//! Encodes a realistic order with an exact size pass and no allocation, then
//! prints its size and bytes.

use marshal::Marshal;

#[derive(Marshal)]
struct Order<'a> {
    id: u64,
    price: f64,
    symbol: &'a str,
    tags: Vec<String>,
    side: Side,
}

#[derive(Marshal)]
enum Side {
    Buy,
    Sell,
    Limit { max: f64 },
}

fn main() {
    let order = Order {
        id: 42,
        price: 101.25,
        symbol: "ACME",
        tags: vec!["gtc".to_string(), "préféré".to_string()],
        side: Side::Limit { max: 102.5 },
    };

    // Size once: exact, computed without allocating.
    let n = order.encoded_len();

    // Encode in place, here into a stack buffer.
    let mut buf = [0u8; 256];
    let written = order.write_to(&mut buf);
    assert_eq!(written, n);

    println!("Order encodes to {n} bytes:");
    for (i, chunk) in buf[..n].chunks(16).enumerate() {
        let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
        println!("  {:04x}  {}", i * 16, hex.join(" "));
    }

    // The same bytes in a Vec, from one allocation of exactly n bytes.
    let v = marshal::to_vec(&order);
    assert_eq!(v, &buf[..n]);

    // A buffer that is too small is an error, not a panic, with try_write_to.
    let mut small = [0u8; 16];
    match order.try_write_to(&mut small) {
        Ok(_) => unreachable!("16 bytes cannot hold this order"),
        Err(e) => println!("into 16 bytes: {e}"),
    }

    // Side's variants differ in size, so it has a maximum but no fixed size.
    for side in [Side::Buy, Side::Sell, Side::Limit { max: 1.0 }] {
        println!(
            "{:>5} bytes: {:?}",
            side.encoded_len(),
            marshal::to_vec(&side)
        );
    }
    println!(
        "Side: FIXED_LEN = {:?}, MAX_LEN = {:?}",
        Side::FIXED_LEN,
        Side::MAX_LEN
    );
}
