use std::io::BufRead;
fn main() {
    let stdin = std::io::stdin();
    for line in stdin.lock().split(b'\n') {
        let line = line.unwrap();
        let ok = rfc3986::validate_bytes(rfc3986::Rule::URI_REFERENCE, &line).is_ok();
        println!("{}", if ok { 1 } else { 0 });
    }
}
