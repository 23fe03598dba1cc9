fn main() {
    for s in std::env::args().skip(1) {
        match rfc3986::UriRef::parse(&s) {
            Ok(u) => println!("{u:?} kind={:?}", u.host_kind()),
            Err(e) => println!("{}\n  kind={:?} expected={:?}", e.render(&s), e.kind(), e.expected()),
        }
    }
}
