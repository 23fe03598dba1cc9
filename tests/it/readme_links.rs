//! The README's links work on a registry page (crates.io shows the README without the repository): a
//! link to a file of this repository is an absolute link to docs.rs's source view of this version of the
//! crate, `https://docs.rs/crate/rfc3986/VERSION/source/PATH`, and PATH is a file of the repository (the
//! manifest's `include` list packages it; CI checks that against `cargo package --list`).

use std::path::Path;

const SOURCE_VIEW: &str = "https://docs.rs/crate/rfc3986/";

/// The targets of the Markdown links `[text](target)` of `markdown`.
fn link_targets(markdown: &str) -> Vec<&str> {
    markdown
        .match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &markdown[i + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn readme_links_are_absolute_or_anchors() {
    let readme = include_str!("../../README.md");
    let targets = link_targets(readme);
    assert!(targets.len() > 10, "{targets:?}");
    for target in targets {
        assert!(
            target.starts_with("https://")
                || target.starts_with("http://")
                || target.starts_with('#'),
            "a relative link breaks on a registry page: {target}"
        );
    }
}

#[test]
fn readme_source_links_name_this_version_and_a_file_of_the_repository() {
    let readme = include_str!("../../README.md");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let version_prefix = format!("{SOURCE_VIEW}{}/source/", env!("CARGO_PKG_VERSION"));
    let mut seen = 0;
    for target in link_targets(readme) {
        if !target.starts_with(SOURCE_VIEW) {
            continue;
        }
        let path = target.strip_prefix(&version_prefix).unwrap_or_else(|| {
            panic!(
                "{target} does not name version {}",
                env!("CARGO_PKG_VERSION")
            )
        });
        let path = path.split('#').next().unwrap();
        assert!(root.join(path).is_file(), "{target}: no file {path}");
        seen += 1;
    }
    assert!(seen >= 10, "{seen} source links");
}
