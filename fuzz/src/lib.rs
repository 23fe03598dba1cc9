//! The properties the fuzz targets check, shared by all of them (each target in `fuzz_targets/` is one
//! line that picks a rule and calls one of these). A failed property panics, which libFuzzer reports as a
//! crash and saves the input under `fuzz/artifacts/<target>/`.
//!
//! Planned targets (for the stages not yet in the crate) get their own `check_*` function here and a
//! one-line file in `fuzz_targets/`: see the Fuzzing section of the README.

use std::net::{Ipv4Addr, Ipv6Addr};

use rfc3986::percent::{self, Component};
use rfc3986::{
    validate, validate_bytes, Host, HostKind, ParseError, PathKind, Rule, RuleMatch, Uri,
    UriBuilder, UriRef,
};

/// The four rules a whole URI or reference can be parsed by (RFC 3986 3, 4.1, 4.2, 4.3).
pub const TOP_RULES: [Rule; 4] = [
    Rule::URI,
    Rule::URI_REFERENCE,
    Rule::ABSOLUTE_URI,
    Rule::RELATIVE_REF,
];

/// Everything a parsed value says about its components, for comparing two parses of the same text.
type Components<'a> = (
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<&'a str>,
    Option<HostKind>,
    Option<&'a str>,
    &'a str,
    PathKind,
    Option<&'a str>,
    Option<&'a str>,
);

fn components<'a>(r: &'a UriRef<'_>) -> Components<'a> {
    (
        r.scheme(),
        r.authority().map(|a| a.as_str()),
        r.userinfo(),
        r.host_str(),
        r.host_kind(),
        r.port(),
        r.path(),
        r.path_kind(),
        r.query(),
        r.fragment(),
    )
}

/// The components of a match of any rule, as [`components`] gives them for a reference (a rule without
/// a path: the empty path, path-empty).
fn match_components<'a>(m: &RuleMatch<'a>) -> Components<'a> {
    (
        m.scheme(),
        m.authority(),
        m.userinfo(),
        m.host_str(),
        m.host_kind(),
        m.port(),
        m.path().unwrap_or(""),
        m.path_kind().unwrap_or(PathKind::Empty),
        m.query(),
        m.fragment(),
    )
}

/// Arbitrary bytes through `rule`: `validate_bytes`, `validate` and `UriRef::parse_rule` agree; an accepted
/// input has consistent components (see [`check_accepted`]); a rejected one has an error inside it whose
/// `annotate` does not panic. For the four top rules, also the relations between them.
pub fn check_rule(rule: Rule, data: &[u8]) {
    let by_bytes = validate_bytes(rule, data);
    let Ok(text) = std::str::from_utf8(data) else {
        let e = by_bytes.expect_err("validate_bytes accepted invalid UTF-8");
        check_error_bytes(&e, data);
        return;
    };
    let by_text = validate(rule, text);
    assert_eq!(
        by_bytes, by_text,
        "validate_bytes and validate differ on {text:?}"
    );
    let parsed = rfc3986::parse_as(rule, text);
    assert_eq!(
        parsed.as_ref().err(),
        by_text.as_ref().err(),
        "parse_rule and validate differ on {text:?}"
    );
    match parsed {
        Ok(r) => check_accepted(rule, text, &r),
        Err(e) => check_error(&e, text),
    }
    if TOP_RULES.contains(&rule) {
        check_top_rule_relations(text);
    }
}

/// URI-reference = URI / relative-ref, and the two are disjoint (4.1, 4.2); absolute-URI is a URI without
/// a fragment (4.3).
pub fn check_top_rule_relations(text: &str) {
    let uri = validate(Rule::URI, text).is_ok();
    let relative = validate(Rule::RELATIVE_REF, text).is_ok();
    let reference = validate(Rule::URI_REFERENCE, text).is_ok();
    let absolute = validate(Rule::ABSOLUTE_URI, text).is_ok();
    assert_eq!(
        reference,
        uri || relative,
        "URI-reference != URI / relative-ref on {text:?}"
    );
    assert!(!(uri && relative), "both URI and relative-ref: {text:?}");
    assert_eq!(
        absolute,
        uri && !text.contains('#'),
        "absolute-URI != URI without fragment on {text:?}"
    );
    assert_eq!(
        Uri::parse(text).is_ok(),
        uri,
        "Uri::parse != validate(URI) on {text:?}"
    );
}

/// An accepted input: Display gives it back; every component is a slice of it that matches its own rule;
/// the host kind is the alternative of `host` that matches (3.2.2, first match wins); for a top rule the
/// components recompose to the input (5.3), and re-parsing, `Uri`, the builder and owned values agree.
pub fn check_accepted(rule: Rule, text: &str, m: &RuleMatch<'_>) {
    let outer = rule;
    assert_eq!(m.to_string(), text);
    assert_eq!(m.as_str(), text);
    assert_eq!(m.rule(), Some(rule));
    assert_eq!(m.is_reference(), TOP_RULES.contains(&rule));
    let _ = format!("{m:?}");
    let (scheme, authority, userinfo, host, kind, port, path, path_kind, query, fragment) =
        match_components(m);
    for (rule, part) in [
        (Rule::SCHEME, scheme),
        (Rule::AUTHORITY, authority),
        (Rule::USERINFO, userinfo),
        (Rule::HOST, host),
        (Rule::PORT, port),
        (Rule::PATH, Some(path)),
        (Rule::QUERY, query),
        (Rule::FRAGMENT, fragment),
    ] {
        if let Some(part) = part {
            assert!(text.contains(part), "{rule} {part:?} is not in {text:?}");
            // Matched by a rule below `host` (`IPv6address`, `IPvFuture`), the host is that rule's text,
            // without the brackets of an IP-literal, so not a `host` by itself.
            let below_host = rule == Rule::HOST && part == text && validate(outer, text).is_ok();
            assert!(
                validate(rule, part).is_ok() || below_host,
                "{rule} {part:?} of {text:?} fails its rule"
            );
        }
    }
    // authority = [ userinfo "@" ] host [ ":" port ]
    if let Some(authority) = authority {
        let host = host.expect("an authority without a host");
        let mut recomposed = String::new();
        if let Some(userinfo) = userinfo {
            recomposed.push_str(userinfo);
            recomposed.push('@');
        }
        recomposed.push_str(host);
        if let Some(port) = port {
            recomposed.push(':');
            recomposed.push_str(port);
        }
        assert_eq!(recomposed, authority, "authority of {text:?}");
        if TOP_RULES.contains(&rule) {
            // (The rule `authority` alone has no path: path-empty.)
            assert_eq!(
                path_kind,
                PathKind::Abempty,
                "path after an authority in {text:?}"
            );
        }
    } else if TOP_RULES.contains(&rule) {
        // (Rules such as `host` or `reg-name` have a host but no authority.)
        assert_eq!(
            (userinfo, host, port, kind),
            (None, None, None, None),
            "{text:?}"
        );
    }
    if let (Some(host), Some(kind)) = (host, kind) {
        check_host(
            rule,
            text,
            host,
            kind,
            m.host().expect("host() with a host_str"),
        );
    }
    let path_rule = match path_kind {
        PathKind::Abempty => Rule::PATH_ABEMPTY,
        PathKind::Absolute => Rule::PATH_ABSOLUTE,
        PathKind::Noscheme => Rule::PATH_NOSCHEME,
        PathKind::Rootless => Rule::PATH_ROOTLESS,
        PathKind::Empty => Rule::PATH_EMPTY,
        other => panic!("a new path kind {other:?}"),
    };
    assert!(
        validate(path_rule, path).is_ok(),
        "path {path:?} is not {path_rule} in {text:?}"
    );
    if !TOP_RULES.contains(&rule) {
        assert!(m.clone().into_uri_ref().is_err(), "{rule} became a UriRef");
        return;
    }
    let r = &m
        .clone()
        .into_uri_ref()
        .expect("a top rule's match is a reference");
    let segments: Vec<&str> = r.path_segments().collect();
    let joined = segments.join("/");
    if path.starts_with('/') {
        assert_eq!(format!("/{joined}"), path, "segments of {text:?}");
    } else {
        assert_eq!(joined, path, "segments of {text:?}");
    }

    // RFC 3986 5.3, component recomposition
    let mut recomposed = String::new();
    if let Some(scheme) = scheme {
        recomposed.push_str(scheme);
        recomposed.push(':');
    }
    if let Some(authority) = authority {
        recomposed.push_str("//");
        recomposed.push_str(authority);
    }
    recomposed.push_str(path);
    if let Some(query) = query {
        recomposed.push('?');
        recomposed.push_str(query);
    }
    if let Some(fragment) = fragment {
        recomposed.push('#');
        recomposed.push_str(fragment);
    }
    assert_eq!(recomposed, text, "5.3 recomposition");
    assert_eq!(scheme.is_some(), r.is_uri());
    match rule {
        Rule::URI | Rule::ABSOLUTE_URI => {
            assert!(scheme.is_some(), "{rule} without scheme: {text:?}")
        }
        Rule::RELATIVE_REF => assert!(scheme.is_none(), "relative-ref with a scheme: {text:?}"),
        _ => {}
    }
    if rule == Rule::ABSOLUTE_URI {
        assert_eq!(fragment, None);
    }

    // The same text through every other door gives the same components.
    let again = UriRef::parse(text).expect("a top rule's input is a URI-reference");
    assert_eq!(
        components(&again),
        components(r),
        "UriRef::parse on {text:?}"
    );
    assert_eq!(&again, r);
    if let Some(uri) = r.as_uri() {
        let direct = Uri::parse(text).expect("as_uri but not Uri::parse");
        assert_eq!(components(direct.as_uri_ref()), components(r));
        assert_eq!(direct.scheme(), scheme.unwrap());
        assert_eq!(uri.to_string(), text);
        let rebuilt = UriBuilder::from(&direct)
            .build_uri()
            .expect("builder from a Uri");
        assert_eq!(rebuilt.as_str(), text);
    }
    let rebuilt = UriBuilder::from(r).build().expect("builder from a UriRef");
    assert_eq!(rebuilt.as_str(), text, "UriBuilder::from(&r).build()");
    assert_eq!(components(&rebuilt), components(r), "builder on {text:?}");
    let owned: UriRef<'static> = text.parse().expect("FromStr");
    assert_eq!(components(&owned), components(r));
    let owned = r.clone().into_owned();
    assert_eq!(components(&owned), components(r));
}

/// `host = IP-literal / IPv4address / reg-name`, first match wins (3.2.2).
fn check_host(rule: Rule, text: &str, host: &str, kind: HostKind, value: Host<'_>) {
    let is_ipv4 = validate(Rule::IPV4ADDRESS, host).is_ok();
    match (kind, value) {
        (HostKind::Ipv4address, Host::Ipv4(addr)) => {
            assert!(is_ipv4, "{host:?} in {text:?}");
            // dec-octet has no leading zeros, so std's reading and display agree with the text.
            assert_eq!(host.parse::<Ipv4Addr>().ok(), Some(addr));
            assert_eq!(addr.to_string(), host);
        }
        (HostKind::Ipv6address, Host::Ipv6(addr)) => {
            // Brackets, except when matched by the rule `IPv6address` itself.
            let inner = if rule == Rule::IPV6ADDRESS {
                host
            } else {
                assert!(host.starts_with('[') && host.ends_with(']'), "{host:?}");
                &host[1..host.len() - 1]
            };
            assert!(validate(Rule::IPV6ADDRESS, inner).is_ok(), "{host:?}");
            if let Ok(std_addr) = inner.parse::<Ipv6Addr>() {
                assert_eq!(std_addr, addr, "IPv6 value of {host:?}");
            }
        }
        (HostKind::IpvFuture, Host::IpvFuture { version, address }) => {
            let inner = if rule == Rule::IPVFUTURE {
                host
            } else {
                &host[1..host.len() - 1]
            };
            assert!(validate(Rule::IPVFUTURE, inner).is_ok(), "{host:?}");
            assert_eq!(
                format!("v{version}.{address}"),
                inner[..1].to_lowercase() + &inner[1..]
            );
        }
        (HostKind::RegName, Host::RegName(name)) => {
            assert_eq!(name, host);
            // 3.2.2 first-match-wins decides `host`; matched by the rule `reg-name` itself, "1.2.3.4" is a
            // reg-name.
            assert!(
                !is_ipv4 || rule == Rule::REG_NAME,
                "IPv4address {host:?} taken as a reg-name in {text:?}"
            );
            assert!(validate(Rule::REG_NAME, host).is_ok(), "{host:?}");
        }
        (kind, value) => panic!("host_kind {kind:?} but host() {value:?} for {text:?}"),
    }
}

/// A rejected text: the offset is inside it (the end counts) and on a character boundary, and the
/// messages can be drawn.
pub fn check_error(e: &ParseError, text: &str) {
    assert!(
        e.offset() <= text.len(),
        "offset {} past {} bytes of {text:?}",
        e.offset(),
        text.len()
    );
    assert!(
        text.is_char_boundary(e.offset()),
        "offset {} inside a character of {text:?}",
        e.offset()
    );
    assert!(!e.message().is_empty());
    let drawn = e.annotate(text).to_string();
    assert_eq!(
        drawn.lines().count(),
        2,
        "annotate draws two lines: {drawn:?}"
    );
    assert!(
        !drawn.chars().any(|c| c.is_control() && c != '\n'),
        "annotate echoes a control character: {drawn:?}"
    );
    let _ = e.annotate(text).without_message().to_string();
    let _ = e.to_string();
    let _ = e.expected().iter().map(ToString::to_string).count();
    let span = e.span();
    assert!(span.start == e.offset() && span.end <= text.len().max(e.offset()));
    let _ = (e.kind().name(), e.found(), e.rule(), e.hint(), e.detail());
}

/// A rejected byte string (not UTF-8): the error comes at or before the first bad byte and can be drawn on
/// the lossy text and on the UTF-8 prefix.
pub fn check_error_bytes(e: &ParseError, data: &[u8]) {
    let valid_up_to = std::str::from_utf8(data).map_or_else(|e| e.valid_up_to(), str::len);
    assert!(
        e.offset() <= valid_up_to,
        "offset {} after the first bad byte {valid_up_to}",
        e.offset()
    );
    let prefix = std::str::from_utf8(&data[..valid_up_to]).unwrap();
    let _ = e.annotate(prefix).to_string();
    let _ = e.annotate(&String::from_utf8_lossy(data)).to_string();
    let _ = e.annotate("").to_string();
    let _ = e.message();
}

/// `validate_bytes` against `validate` on the text (same verdict, same error), errors inside the input.
pub fn check_validate_bytes(rule: Rule, data: &[u8]) {
    let by_bytes = validate_bytes(rule, data);
    match std::str::from_utf8(data) {
        Ok(text) => {
            let by_text = validate(rule, text);
            assert_eq!(by_bytes, by_text, "{rule} on {text:?}");
            if let Err(e) = by_text {
                check_error(&e, text);
            }
        }
        Err(_) => check_error_bytes(&by_bytes.expect_err("invalid UTF-8 accepted"), data),
    }
}

/// Parse then Display gives the input back, by every parsing entry point (and the builder).
pub fn check_roundtrip(text: &str) {
    for rule in TOP_RULES {
        if let Ok(m) = rfc3986::parse_as(rule, text) {
            check_accepted(rule, text, &m);
        }
    }
    if let Ok(uri) = Uri::parse(text) {
        assert_eq!(uri.to_string(), text);
        let owned: Uri<'static> = text.parse().expect("Uri FromStr");
        assert_eq!(owned.as_str(), text);
    }
}

/// Percent-encoding round trip for every component (2.1, 2.4, 2.5), and `decode` on arbitrary text.
pub fn check_percent(data: &[u8]) {
    for c in Component::ALL {
        let encoded = percent::encode_bytes(data, c);
        assert!(
            validate(c.rule(), &encoded).is_ok(),
            "encode_bytes({data:?}, {c}) = {encoded:?}"
        );
        assert_eq!(
            &*percent::decode(&encoded).expect("decode(encode)"),
            data,
            "{c}"
        );
        if let Ok(text) = std::str::from_utf8(data) {
            let encoded_text = percent::encode(text, c);
            assert_eq!(
                encoded_text, encoded,
                "encode and encode_bytes differ for {c}"
            );
            assert_eq!(
                &*percent::decode_utf8(&encoded_text).expect("decode_utf8(encode)"),
                text
            );
            // Text that already matches the rule is left alone, except `%`, which is always encoded (2.4).
            if validate(c.rule(), text).is_ok() && !text.contains('%') {
                assert_eq!(encoded_text, text, "encode changed valid {c} {text:?}");
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        match percent::decode(text) {
            Ok(bytes) => {
                assert!(bytes.len() <= text.len());
                if let Ok(utf8) = percent::decode_utf8(text) {
                    assert_eq!(utf8.as_bytes(), &*bytes);
                }
            }
            Err(e) => {
                assert_eq!(
                    text.as_bytes()[e.offset()],
                    b'%',
                    "decode error not at a % in {text:?}"
                );
                assert!(
                    percent::decode_utf8(text).is_err(),
                    "decode_utf8 accepts {text:?}"
                );
            }
        }
        if let Err(e) = percent::decode_utf8(text) {
            assert!(e.offset() < text.len());
        }
        // Anything a component rule accepts decodes.
        for c in Component::ALL {
            if validate(c.rule(), text).is_ok() {
                assert!(
                    percent::decode(text).is_ok(),
                    "{c} {text:?} does not decode"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// Stages after parsing: resolution (5.2), normalization (6.2.2, 6.2.3), lint, the run-time grammar.

/// Splits fuzz input in two: at the first NUL if there is one (the NUL is dropped), else halfway (moved
/// back to a character boundary when the data is UTF-8). `None` when either half is not UTF-8.
pub fn split_pair(data: &[u8]) -> Option<(&str, &str)> {
    let (a, b) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => data.split_at(data.len() / 2),
    };
    Some((std::str::from_utf8(a).ok()?, std::str::from_utf8(b).ok()?))
}

/// RFC 3986 5.2: base and reference from [`split_pair`]. When the base is a `URI` and the reference a
/// `URI-reference`: resolution succeeds (the default resolver never errs), the target re-parses to the same
/// components, resolving the target against the same base gives the target again, and strict and
/// non-strict resolution differ only when the reference's scheme equals the base's ignoring case.
pub fn check_resolve(data: &[u8]) {
    let Some((base, reference)) = split_pair(data) else {
        return;
    };
    let (Ok(base), Ok(reference)) = (Uri::parse(base), UriRef::parse(reference)) else {
        return;
    };
    let (b, r) = (base.as_str(), reference.as_str());
    let target = reference
        .resolve_against(&base)
        .unwrap_or_else(|e| panic!("resolve {r:?} against {b:?}: {e}"));
    let t = target.as_str();
    let again = Uri::parse(t).unwrap_or_else(|e| panic!("target {t:?} of {r:?} on {b:?}: {e}"));
    assert_eq!(
        components(again.as_uri_ref()),
        components(target.as_uri_ref()),
        "components of the target {t:?} of {r:?} on {b:?}"
    );
    assert_eq!(
        target.fragment(),
        reference.fragment(),
        "fragment of {r:?} on {b:?}"
    );
    let twice = target
        .as_uri_ref()
        .resolve_against(&base)
        .unwrap_or_else(|e| panic!("resolve target {t:?} against {b:?}: {e}"));
    // An empty reference path takes the base's path as it is ("T.path = Base.path", 5.2.2: no
    // dot-segments removed), so `""` against `g:)/.` gives `g:)/.`, which resolves to `g:)/`. Then the
    // target is stable one step later.
    let copies_base_path = reference.scheme().is_none()
        && reference.authority().is_none()
        && reference.path().is_empty();
    if copies_base_path {
        assert_eq!(target.path(), base.path(), "{r:?} on {b:?}");
        let thrice = twice.as_uri_ref().resolve_against(&base).expect("resolve");
        assert_eq!(
            thrice.as_str(),
            twice.as_str(),
            "{r:?} on {b:?} is not stable"
        );
    } else {
        assert_eq!(twice.as_str(), t, "target of {r:?} on {b:?} is not stable");
    }

    let resolver = rfc3986::resolve::Resolver::new();
    let strict = resolver.resolve(&base, &reference).expect("Resolver::new");
    assert_eq!(strict.as_str(), t, "Resolver::new() != resolve_against");
    let lax = resolver
        .strict(false)
        .resolve(&base, &reference)
        .unwrap_or_else(|e| panic!("non-strict {r:?} on {b:?}: {e}"));
    let same_scheme = reference
        .scheme()
        .is_some_and(|s| s.eq_ignore_ascii_case(base.scheme()));
    if !same_scheme {
        assert_eq!(lax.as_str(), t, "strict != non-strict for {r:?} on {b:?}");
    } else {
        // The non-strict target is the reference without its scheme, resolved strictly.
        let without = &r[reference.scheme().unwrap().len() + 1..];
        // (Only when that text is a reference: `g::)` minus `g:` is `:)`, a path-rootless whose first
        // segment has a colon, which no relative-ref can be; the pseudo-code still works on components.)
        if let Ok(without) = UriRef::parse(without) {
            if without.scheme().is_none() {
                let expected = without.resolve_against(&base).expect("resolve");
                assert_eq!(lax.as_str(), expected.as_str(), "non-strict {r:?} on {b:?}");
            }
        }
    }
    // Without the `/.` prefix, either the same target or AmbiguousPath for a target written with `/.//`.
    match resolver.dot_prefix(false).resolve(&base, &reference) {
        Ok(plain) => assert_eq!(plain.as_str(), t, "dot_prefix(false) on {r:?} {b:?}"),
        Err(rfc3986::resolve::ResolveError::AmbiguousPath { path }) => {
            assert!(path.starts_with("//"), "{path:?}");
            assert!(target.authority().is_none() && target.path().starts_with("/.//"));
            assert_eq!(&target.path()[2..], path, "{r:?} on {b:?}");
        }
        Err(e) => panic!("dot_prefix(false) on {r:?} {b:?}: {e}"),
    }
    // A base fragment is ignored (5.2.2 never reads Base.fragment).
    if base.fragment().is_none() {
        let with_fragment = format!("{b}#frag");
        let based = Uri::parse(&with_fragment).expect("base with a fragment");
        let t2 = reference.resolve_against(&based).expect("resolve");
        assert_eq!(t2.as_str(), t, "{r:?} on {with_fragment:?}");
    }
}

/// RFC 3986 6.2.2 and 6.2.3: at the Syntax and Scheme levels, the normal form parses (as a reference, and
/// as a URI when the input is one), is a fixed point, is `equivalent` to the input, and `Uri` and `UriRef`
/// normalize alike. Simple normalization is the identity.
pub fn check_normalize(text: &str) {
    let Ok(r) = UriRef::parse(text) else {
        return;
    };
    assert_eq!(
        r.normalize_with(rfc3986::normalize::Level::Simple).as_str(),
        text
    );
    assert_eq!(
        r.normalize().as_str(),
        r.normalize_with(rfc3986::normalize::Level::Syntax).as_str()
    );
    for level in [
        rfc3986::normalize::Level::Syntax,
        rfc3986::normalize::Level::Scheme,
    ] {
        let n = r.normalize_with(level);
        let n_text = n.as_str();
        let reparsed = UriRef::parse(n_text)
            .unwrap_or_else(|e| panic!("{level:?} normal form {n_text:?} of {text:?}: {e}"));
        assert_eq!(components(&reparsed), components(&n), "{n_text:?}");
        let nn = n.normalize_with(level);
        assert_eq!(
            nn.as_str(),
            n_text,
            "{level:?} normalization of {text:?} is not idempotent"
        );
        assert!(
            rfc3986::normalize::equivalent(&r, &n, level),
            "{text:?} not {level:?}-equivalent to its normal form {n_text:?}"
        );
        assert!(rfc3986::normalize::equivalent(&n, &r, level));
        assert_eq!(n.is_uri(), r.is_uri(), "{text:?} -> {n_text:?}");
        assert_eq!(n.fragment().is_some(), r.fragment().is_some());
        assert_eq!(n.query().is_some(), r.query().is_some());
        if let Ok(uri) = Uri::parse(text) {
            let un = uri.normalize_with(level);
            assert_eq!(un.as_str(), n_text, "Uri and UriRef {level:?} on {text:?}");
            assert!(Uri::parse(un.as_str()).is_ok());
        }
        if level == rfc3986::normalize::Level::Scheme {
            // Scheme-based includes syntax-based.
            let syntax = r.normalize_with(rfc3986::normalize::Level::Syntax);
            assert!(
                rfc3986::normalize::equivalent(&syntax, &n, level),
                "{text:?}"
            );
        }
    }
}

/// The messages `Finding::message` can show without input text (copied from `Code::message` in
/// src/lint.rs; a false alarm in [`check_lint`] means this list is stale).
const LINT_MESSAGES: [&str; 20] = [
    "scheme should be lowercase",
    "percent-encoding should use uppercase hex digits",
    "percent-encoded unreserved character should be decoded",
    "percent-encoded NUL octet (%00) should be rejected",
    "userinfo contains a password (user:password is deprecated)",
    "userinfo looks like a host name and may mislead a reader about the host",
    "registered name should be lowercase",
    "registered name does not follow the DNS host name syntax",
    "registered name is longer than 255 characters",
    "percent-encoded octets in registered name are not UTF-8",
    "registered name may be read as an IPv4 address in a non-standard form",
    "IPv6 address should use lowercase hex digits",
    "IPvFuture literal has no defined meaning",
    "empty port: the \":\" should be omitted",
    "port is the scheme's default and should be omitted",
    "port 0 is reserved: no service can be reached there",
    "port is above 65535, the largest TCP and UDP port",
    "percent-encoded \"/\" makes a dot-segment for a back end that decodes before splitting the path",
    "dot-segment in the path of a URI should be removed",
    "port  is the default for  and should be omitted",
];

/// Lint never panics; every span is inside the input, ordered and on character boundaries; no message
/// repeats a password of 3 characters or more (unless the password is text the message has anyway: a
/// word of a fixed message, the scheme or the port).
pub fn check_lint(text: &str) {
    let Ok(r) = UriRef::parse(text) else {
        return;
    };
    let findings = r.lint();
    assert_eq!(findings, rfc3986::lint::lint(&r));
    if let Some(uri) = r.as_uri() {
        assert_eq!(uri.lint(), findings);
    }
    let password = r
        .userinfo()
        .and_then(|u| u.split_once(':'))
        .map(|(_, p)| p)
        .filter(|p| p.chars().count() >= 3);
    let mut previous = 0;
    for f in &findings {
        let (start, end) = f.span();
        assert_eq!((f.start(), f.end()), (start, end));
        assert!(
            start <= end && end <= text.len(),
            "span {start}..{end} of {f} in {text:?}"
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "span {start}..{end} of {f} not on char boundaries in {text:?}"
        );
        assert!(start >= previous, "findings out of order in {text:?}");
        previous = start;
        assert!(!f.message().is_empty());
        let shown = f.to_string();
        if let Some(pw) = password {
            let lower = pw.to_ascii_lowercase();
            let explained = LINT_MESSAGES.iter().any(|m| m.contains(pw))
                || r.scheme()
                    .is_some_and(|s| s.to_ascii_lowercase().contains(&lower))
                || r.port().is_some_and(|p| p.contains(pw))
                || f.section().contains(pw)
                || f.code().as_str().contains(pw);
            // The Display form is `CODE: MESSAGE (RFC 3986 SECTION)`: fixed text around the message, which
            // can contain the password by chance (`nts:` in `path-dot-segments: `).
            assert_eq!(
                shown,
                format!(
                    "{}: {} (RFC 3986 {})",
                    f.code().as_str(),
                    f.message(),
                    f.section()
                )
            );
            assert!(
                explained || !f.message().contains(pw),
                "finding {shown:?} repeats the password {pw:?} of {text:?}"
            );
        }
    }
}

/// The grammar file read at run time (`Grammar::load` of uri.pest) against the built-in parser, for the
/// rule `URI-reference`: same verdict, same components.
pub fn check_runtime_grammar(text: &str) {
    use std::sync::OnceLock;
    static GRAMMAR: OnceLock<rfc3986::runtime::Grammar> = OnceLock::new();
    let grammar = GRAMMAR.get_or_init(|| {
        rfc3986::runtime::Grammar::load(include_str!("../../uri.pest")).expect("uri.pest loads")
    });
    let entry = grammar.entry("URI-reference").expect("rule URI-reference");
    let run_time = entry.parse(text);
    let built_in = UriRef::parse(text);
    match (&run_time, &built_in) {
        (Ok(a), Ok(b)) => assert_eq!(match_components(a), components(b), "components of {text:?}"),
        // uri.pest loaded at run time runs on the compiled engine and explains a rejection as the
        // built-in twin does: the same error, expected items in the same order.
        (Err(a), Err(b)) => assert_eq!(
            (a.offset(), a.kind(), a.expected(), a.hint()),
            (b.offset(), b.kind(), b.expected(), b.hint()),
            "error on {text:?}"
        ),
        _ => panic!("run-time {run_time:?} but built-in {built_in:?} on {text:?}"),
    }
}

/// When the environment variable `RFC3986_FUZZ_LAST_INPUT` names a file, writes each input there before
/// it runs. A stack overflow kills a libFuzzer process without a report or an artifact (its signal
/// handler has no stack left to run on); that file then holds the input that did it.
pub fn keep_last_input(data: &[u8]) {
    use std::sync::OnceLock;
    static PATH: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    let path = PATH.get_or_init(|| std::env::var_os("RFC3986_FUZZ_LAST_INPUT").map(Into::into));
    if let Some(path) = path {
        let _ = std::fs::write(path, data);
    }
}

/// `data` = grammar text, NUL, input. The grammar is loaded alone ([`rfc3986::runtime::Grammar::load`])
/// and, when the text has a `// overlay` line, as an overlay on uri.pest; a load error has issues at positions inside the text (line and column
/// 1-based); a loaded grammar matches the input with its start rule (or its first rule) and with
/// [`rfc3986::runtime::Entry::parse_bytes`], agreeing on the verdict, with an error offset inside the
/// input.
pub fn check_grammar_text(data: &[u8]) {
    use rfc3986::runtime::{Grammar, GrammarError};
    let (grammar_bytes, input) = match data.iter().position(|&b| b == 0) {
        Some(nul) => (&data[..nul], &data[nul + 1..]),
        None => (data, &b"http://a/b?c#d"[..]),
    };
    let Ok(text) = std::str::from_utf8(grammar_bytes) else {
        return;
    };
    let lines = text.split('\n').count();
    // Loading as an overlay reads all of uri.pest too (milliseconds): only for texts that ask for it with
    // a `// overlay` line, so that most executions fuzz the loader on the text alone.
    let overlay = text.contains("// overlay").then(|| Grammar::overlay(text));
    for loaded in std::iter::once(Grammar::load(text)).chain(overlay) {
        let grammar = match loaded {
            Ok(grammar) => grammar,
            Err(GrammarError::Invalid { issues, .. }) => {
                for issue in &issues {
                    assert!(issue.line() >= 1 && issue.column() >= 1, "{issue:?}");
                }
                let _ = lines;
                continue;
            }
            Err(_) => continue,
        };
        let entry = match grammar.start_rule() {
            Some(entry) => entry,
            None => match grammar.rule_names().next() {
                Some((name, _)) => grammar.entry(name).expect("a listed rule"),
                None => continue,
            },
        };
        let by_bytes = entry.parse_bytes(input);
        if let Ok(text_input) = std::str::from_utf8(input) {
            let by_text = entry.parse(text_input);
            assert_eq!(by_text.is_ok(), by_bytes.is_ok(), "{text_input:?}");
            // The compiled engine against pest_vm, the reference, on small grammars (building pest_vm
            // runs pest_meta's optimizer): same verdict, components, and error but for the order of
            // the expected items (pest_vm's are alphabetical). Limits differ (each engine has its own
            // stack guard), so a limit on either side is not compared.
            if entry.is_compiled() && text.len() <= 4096 {
                let reference = entry.parse_with_reference(text_input);
                let limit = |r: &Result<_, rfc3986::ParseError>| matches!(r, Err(e) if e.kind() == rfc3986::ParseErrorKind::LimitReached);
                if !limit(&by_text) && !limit(&reference) {
                    match (&by_text, &reference) {
                        (Ok(a), Ok(b)) => assert_eq!(a, b, "{text_input:?}"),
                        (Err(a), Err(b)) => {
                            let said = |e: &rfc3986::ParseError| {
                                let mut items: Vec<String> =
                                    e.expected().iter().map(|x| x.to_string()).collect();
                                items.sort();
                                (e.offset(), e.kind(), items)
                            };
                            assert_eq!(said(a), said(b), "{text_input:?}");
                        }
                        _ => panic!(
                            "engine {:?}, pest_vm {:?} on {text_input:?}",
                            by_text.is_ok(),
                            reference.is_ok()
                        ),
                    }
                }
            }
            if let Err(e) = &by_text {
                assert!(e.offset() <= text_input.len(), "{e:?}");
                let _ = e.annotate(text_input).to_string();
            }
        }
        if let Err(e) = &by_bytes {
            assert!(e.offset() <= input.len(), "{e:?}");
        }
    }
}
