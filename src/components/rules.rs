// The rules of `uri.pest` whose spans become the components of a value, by their pest names.
//
// This file is read by `build.rs` too (with `include!`), so the compiled recognizer records spans for
// exactly these rules, numbered by their position here, and `components::build` and
// `components::combine` put each span in the slot of that position (`component::*` names them).
pub(crate) const COMPONENT_RULES: [&str; 17] = [
    "scheme",
    "authority",
    "userinfo",
    "host",
    "ip_literal",
    "ipv4address",
    "ipv6address",
    "ipvfuture",
    "reg_name",
    "port",
    "path_abempty",
    "path_absolute",
    "path_noscheme",
    "path_rootless",
    "path_empty",
    "query",
    "fragment",
];
