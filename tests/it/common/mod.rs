//! Shared inputs and oracles of the integration tests.
//!
//! - [`VALID_REFERENCES`]: URI references that RFC 3986 accepts, each checked by hand against Appendix A.
//! - [`appendix_b`]: the regular expression of RFC 3986 Appendix B, which splits any string into the five
//!   components; for a valid reference our parser must split it the same way.
//! - [`abnf_regex`]: a second, independent transcription of the whole Appendix A grammar as regular
//!   expressions (the URI grammar is regular). `regex` decides membership over all alternatives at once,
//!   with no ordered choice, so it is an oracle for the PEG shapes of `uri.pest`.
//! - [`corpus`]: `data/real-uris-sample.txt` when the repository has it, an inline list otherwise.

#![allow(dead_code)] // each test crate uses part of this module

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::{Regex, RegexBuilder};

/// Valid URI references: the examples of RFC 3986 (1.1.2, 3, 5.4) and inputs at the edges of each
/// component. Every line was checked against the ABNF of Appendix A.
pub const VALID_REFERENCES: &[&str] = &[
    // RFC 3986 1.1.2
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "http://www.ietf.org/rfc/rfc2396.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    // RFC 3986 3
    "foo://example.com:8042/over/there?name=ferret#nose",
    "urn:example:animal:ferret:nose",
    // RFC 3986 5.4 base and references
    "http://a/b/c/d;p?q",
    "g:h",
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g#s",
    "g?y#s",
    ";x",
    "g;x",
    "g;x?y#s",
    "",
    ".",
    "./",
    "..",
    "../",
    "../g",
    "../..",
    "../../",
    "../../g",
    "../../../g",
    "../../../../g",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./../g",
    "./g/.",
    "g/./h",
    "g/../h",
    "g;x=1/./y",
    "g;x=1/../y",
    "g?y/./x",
    "g?y/../x",
    "g#s/./x",
    "g#s/../x",
    "http:g",
    // Other examples quoted in the RFC text
    "file:///etc/hosts",
    "http://example.com/",
    "http://example.com:/",
    "http://example.com:80/",
    "HTTP://www.EXAMPLE.com/",
    "http://www.example.com/%7Euser/",
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
    "http://[v7.fe80::a+en1]/",
    "mailto:fred@example.com",
    "foo://info.example.com?fred",
    "foo:bar:baz",
    "./this:that",
    // Edges of the components
    "a:",
    "a:/",
    "a://",
    "a:///",
    "a:////b",
    "a+b-c.d:x",
    "//",
    "///",
    "?",
    "#",
    "?#",
    "/",
    "//@",
    "//:",
    "//@:",
    "//u:p:q@h:1",
    "//%41@%42:65536",
    "//h:0080",
    "//h:99999999999999999999",
    "//!$&'()*+,;=",
    "//[::]",
    "//[::1]:1",
    "//[V1F.a:b]",
    "//1.2.3.4",
    "//1.2.3.4x",
    "//1.2.3.256",
    "//1.2.3",
    "//1.2.3.4.5",
    "//01.2.3.4",
    "/a//b/",
    "/@:!$&'()*+,;=-._~%20",
    "a/b:c",
    "./a:b",
    "@",
    "@a/b:c",
    "?/?:@",
    "#/?:@",
    "?a?b",
    "a?#",
    "%2F",
    "%aF",
    "s:%2F%2f?%00#%FF",
];

/// About fifty real-looking URI references, used when `data/real-uris-sample.txt` is absent. All valid.
pub const INLINE_CORPUS: &[&str] = &[
    "https://www.rust-lang.org/",
    "https://doc.rust-lang.org/std/index.html",
    "https://doc.rust-lang.org/1.95.0/std/vec/struct.Vec.html#method.push",
    "https://github.com/rust-lang/rust/issues/12345",
    "https://crates.io/crates/pest",
    "https://docs.rs/pest/2.8.0/pest/",
    "https://datatracker.ietf.org/doc/html/rfc3986#section-3.2.2",
    "https://www.rfc-editor.org/rfc/rfc3986.txt",
    "http://www.w3.org/2000/svg",
    "http://www.w3.org/1999/xhtml",
    "https://en.wikipedia.org/wiki/Uniform_Resource_Identifier",
    "https://en.wikipedia.org/wiki/Percent-encoding#Percent-encoding_reserved_characters",
    "https://example.com/search?q=rust+pest&hl=en",
    "https://example.com/a%20b/c%2Fd",
    "https://user:pass@example.com:8443/private?x=1#top",
    "http://127.0.0.1:8080/health",
    "http://localhost:3000",
    "http://[::1]:8000/",
    "http://[2001:db8:85a3::8a2e:370:7334]/index.html",
    "ftp://ftp.debian.org/debian/",
    "file:///usr/share/doc/python3.11/html/index.html",
    "file:///C:/Windows/System32/drivers/etc/hosts",
    "mailto:someone@example.org?subject=Hello%20World",
    "tel:+1-201-555-0123",
    "urn:isbn:0451450523",
    "urn:ietf:rfc:3986",
    "data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==",
    "ssh://git@github.com/rust-lang/rust.git",
    "git+https://github.com/npm/cli.git",
    "s3://my-bucket/path/to/object",
    "gs://bucket-name/object-name",
    "postgresql://user@localhost:5432/mydb?sslmode=require",
    "redis://:secret@127.0.0.1:6379/0",
    "ws://example.com/socket",
    "wss://example.com:443/chat?room=1",
    "https://storage.googleapis.com/storage/v1/b/bucket/o?alt=media",
    "https://ec2.us-east-1.amazonaws.com/?Action=DescribeInstances&Version=2016-11-15",
    "https://www.sqlite.org/lang_select.html",
    "https://www.postgresql.org/docs/15/sql-select.html",
    "https://nodejs.org/api/url.html#the-whatwg-url-api",
    "../std/primitive.str.html",
    "../../core/option/enum.Option.html#variant.Some",
    "struct.String.html#impl-Display-for-String",
    "index.html",
    "#examples",
    "?search=iter",
    "/static/css/main.css?v=3",
    "//cdn.example.net/lib.js",
    "./img/logo.png",
    "https://example.com/~user/page.html",
    "https://example.com/path;params=1;2?query#frag/ment?",
];

/// The five components of `reference` as RFC 3986 Appendix B's regular expression splits them: scheme,
/// authority, path, query, fragment (`$2`, `$4`, `$5`, `$7`, `$9`; an unmatched group is `None`).
pub fn appendix_b(reference: &str) -> [Option<&str>; 5] {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?").unwrap()
    });
    // The regex matches every string: each group is optional or `*`.
    let c = re.captures(reference).unwrap();
    let group = |i: usize| c.get(i).map(|m| m.as_str());
    [group(2), group(4), group(5), group(7), group(9)]
}

/// Appendix A transcribed as regular expressions, by ABNF name. Each value matches exactly the rule's
/// language (no anchors; see [`abnf_matches`]).
fn abnf_table() -> &'static HashMap<&'static str, String> {
    static TABLE: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: HashMap<&'static str, String> = HashMap::new();
        let alpha = "[A-Za-z]".to_string();
        let digit = "[0-9]".to_string();
        let hexdig = "[0-9A-Fa-f]".to_string();
        let unreserved = r"[A-Za-z0-9\-._~]".to_string();
        let sub_delims = r"[!$&'()*+,;=]".to_string();
        let gen_delims = r"[:/?#\[\]@]".to_string();
        let reserved = format!("(?:{gen_delims}|{sub_delims})");
        let pct = format!("(?:%{hexdig}{hexdig})");
        let pchar = format!("(?:{unreserved}|{pct}|{sub_delims}|[:@])");
        let segment = format!("(?:{pchar}*)");
        let segment_nz = format!("(?:{pchar}+)");
        let segment_nz_nc = format!("(?:(?:{unreserved}|{pct}|{sub_delims}|@)+)");
        let path_abempty = format!("(?:(?:/{segment})*)");
        let path_absolute = format!("(?:/(?:{segment_nz}(?:/{segment})*)?)");
        let path_noscheme = format!("(?:{segment_nz_nc}(?:/{segment})*)");
        let path_rootless = format!("(?:{segment_nz}(?:/{segment})*)");
        let path_empty = "(?:)".to_string();
        let path = format!(
            "(?:{path_abempty}|{path_absolute}|{path_noscheme}|{path_rootless}|{path_empty})"
        );
        let query = format!("(?:(?:{pchar}|[/?])*)");
        let fragment = query.clone();
        let dec_octet = "(?:[0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])".to_string();
        let ipv4 = format!(r"(?:{dec_octet}\.{dec_octet}\.{dec_octet}\.{dec_octet})");
        let h16 = format!("(?:{hexdig}{{1,4}})");
        let ls32 = format!("(?:{h16}:{h16}|{ipv4})");
        // [ *n( h16 ":" ) h16 ]
        let head = |n: usize| format!("(?:(?:{h16}:){{0,{n}}}{h16})?");
        let ipv6 = [
            format!("(?:{h16}:){{6}}{ls32}"),
            format!("::(?:{h16}:){{5}}{ls32}"),
            format!("(?:{h16})?::(?:{h16}:){{4}}{ls32}"),
            format!("{}::(?:{h16}:){{3}}{ls32}", head(1)),
            format!("{}::(?:{h16}:){{2}}{ls32}", head(2)),
            format!("{}::{h16}:{ls32}", head(3)),
            format!("{}::{ls32}", head(4)),
            format!("{}::{h16}", head(5)),
            format!("{}::", head(6)),
        ]
        .map(|alt| format!("(?:{alt})"))
        .join("|");
        let ipv6 = format!("(?:{ipv6})");
        let ipvfuture = format!(r"(?:[vV]{hexdig}+\.(?:{unreserved}|{sub_delims}|:)+)");
        let ip_literal = format!(r"(?:\[(?:{ipv6}|{ipvfuture})\])");
        let reg_name = format!("(?:(?:{unreserved}|{pct}|{sub_delims})*)");
        let host = format!("(?:{ip_literal}|{ipv4}|{reg_name})");
        let port = "(?:[0-9]*)".to_string();
        let userinfo = format!("(?:(?:{unreserved}|{pct}|{sub_delims}|:)*)");
        let authority = format!("(?:(?:{userinfo}@)?{host}(?::{port})?)");
        let scheme = format!(r"(?:{alpha}[A-Za-z0-9+\-.]*)");
        let hier_part =
            format!("(?://{authority}{path_abempty}|{path_absolute}|{path_rootless}|{path_empty})");
        let uri = format!(r"(?:{scheme}:{hier_part}(?:\?{query})?(?:#{fragment})?)");
        let absolute_uri = format!(r"(?:{scheme}:{hier_part}(?:\?{query})?)");
        let relative_part =
            format!("(?://{authority}{path_abempty}|{path_absolute}|{path_noscheme}|{path_empty})");
        let relative_ref = format!(r"(?:{relative_part}(?:\?{query})?(?:#{fragment})?)");
        let uri_reference = format!("(?:{uri}|{relative_ref})");

        for (name, re) in [
            ("ALPHA", alpha),
            ("DIGIT", digit),
            ("HEXDIG", hexdig),
            ("URI", uri),
            ("hier-part", hier_part),
            ("URI-reference", uri_reference),
            ("absolute-URI", absolute_uri),
            ("relative-ref", relative_ref),
            ("relative-part", relative_part),
            ("scheme", scheme),
            ("authority", authority),
            ("userinfo", userinfo),
            ("host", host),
            ("port", port),
            ("IP-literal", ip_literal),
            ("IPvFuture", ipvfuture),
            ("IPv6address", ipv6),
            ("h16", h16),
            ("ls32", ls32),
            ("IPv4address", ipv4),
            ("dec-octet", dec_octet),
            ("reg-name", reg_name),
            ("path", path),
            ("path-abempty", path_abempty),
            ("path-absolute", path_absolute),
            ("path-noscheme", path_noscheme),
            ("path-rootless", path_rootless),
            ("path-empty", path_empty),
            ("segment", segment),
            ("segment-nz", segment_nz),
            ("segment-nz-nc", segment_nz_nc),
            ("pchar", pchar),
            ("query", query),
            ("fragment", fragment),
            ("pct-encoded", pct),
            ("unreserved", unreserved),
            ("reserved", reserved),
            ("gen-delims", gen_delims),
            ("sub-delims", sub_delims),
        ] {
            t.insert(name, re);
        }
        t
    })
}

/// Whether `input` as a whole is in the language of the ABNF rule `abnf_name` by the regular-expression
/// transcription of Appendix A; `None` if the table has no such rule.
pub fn abnf_matches(abnf_name: &str, input: &str) -> Option<bool> {
    static COMPILED: OnceLock<std::sync::Mutex<HashMap<String, Regex>>> = OnceLock::new();
    let source = abnf_table().get(abnf_name)?;
    let mut cache = COMPILED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let re = cache.entry(abnf_name.to_string()).or_insert_with(|| {
        RegexBuilder::new(&format!("^(?:{source})$"))
            .size_limit(1 << 28)
            .dfa_size_limit(1 << 28)
            .build()
            .unwrap()
    });
    Some(re.is_match(input))
}

/// The ABNF names the regular-expression transcription covers.
pub fn abnf_names() -> Vec<&'static str> {
    abnf_table().keys().copied().collect()
}

/// The corpus of real URI references: the lines of `data/real-uris-sample.txt` if the repository has that
/// file (valid and invalid lines alike), [`INLINE_CORPUS`] otherwise.
///
/// `RFC3986_CORPUS=/path/to/file` reads another file instead (to run the oracles on a larger corpus).
pub fn corpus() -> Vec<String> {
    let path = match std::env::var_os("RFC3986_CORPUS") {
        Some(path) => std::path::PathBuf::from(path),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/real-uris-sample.txt"),
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => text.lines().map(str::to_string).collect(),
        Err(_) => INLINE_CORPUS.iter().map(|s| s.to_string()).collect(),
    }
}

/// Generators of references for the property tests of several stages (resolution, normalization).
pub mod generate {
    use proptest::prelude::*;

    /// One of `values`, or `None` (an undefined component).
    pub fn opt(values: Vec<&'static str>) -> impl Strategy<Value = Option<&'static str>> {
        prop::option::of(prop::sample::select(values))
    }

    /// A path of up to five segments drawn from `segments`, absolute (starting with `/`) or not.
    pub fn path(segments: &'static [&'static str]) -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            prop::collection::vec(prop::sample::select(segments), 0..6),
        )
            .prop_map(|(absolute, s)| {
                let joined = s.join("/");
                if absolute {
                    format!("/{joined}")
                } else {
                    joined
                }
            })
    }

    /// The text of a reference from its components (RFC 3986 5.3), with a `/` put before a rootless
    /// path after an authority so that the text is a reference whatever was drawn.
    pub fn reference_text(
        scheme: Option<&str>,
        authority: Option<&str>,
        path: &str,
        query: Option<&str>,
        fragment: Option<&str>,
    ) -> String {
        let mut s = String::new();
        if let Some(x) = scheme {
            s += x;
            s += ":";
        }
        if let Some(x) = authority {
            s += "//";
            s += x;
            if !path.is_empty() && !path.starts_with('/') {
                s += "/";
            }
        }
        s += path;
        if let Some(x) = query {
            s += "?";
            s += x;
        }
        if let Some(x) = fragment {
            s += "#";
            s += x;
        }
        s
    }
}
