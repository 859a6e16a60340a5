// A frame codec without a configuration is `legacy()`'s: a value that is
// not `Marshal` is reported as such, with what to do.
struct NotMarshal;

fn main() {
    let codec = marshal::frame::Codec::new();
    let mut out = Vec::new();
    let _ = codec.encode_into_vec(&NotMarshal, &mut out);
}
