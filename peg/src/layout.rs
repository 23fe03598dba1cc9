//! Lays out generated Rust written on one line: a line break after `{`, `;` and a match arm's `,`, and
//! before `}`, with four spaces of indentation per open brace, so that the emitted code reads like code
//! (one statement per line). Strings, byte strings and character literals are copied as they are.
//!
//! Used by `build.rs` through [`crate::generate`]; unit tests in `peg/tests/generator.rs`.

/// `code` laid out, starting at `indent` levels.
pub fn format(code: &str, indent: usize) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::new();
    let mut line = String::new();
    // The open delimiters: `{` breaks lines inside it, `(` and `[` do not.
    let mut open: Vec<char> = Vec::new();
    let base = indent;
    let flush = |out: &mut String, line: &mut String, level: usize| {
        let text = line.trim();
        if !text.is_empty() {
            for _ in 0..level {
                out.push_str("    ");
            }
            out.push_str(text);
            out.push('\n');
        }
        line.clear();
    };
    let level = |open: &Vec<char>| base + open.iter().filter(|&&c| c == '{').count();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' => {
                // A string or byte string: copy to the closing quote.
                line.push(c);
                i += 1;
                while i < chars.len() {
                    line.push(chars[i]);
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        line.push(chars[i + 1]);
                        i += 2;
                        continue;
                    }
                    if chars[i] == '"' {
                        break;
                    }
                    i += 1;
                }
            }
            '\'' if chars.get(i + 1) == Some(&'\\') || chars.get(i + 2) == Some(&'\'') => {
                // A character literal (a label or lifetime has no closing quote).
                line.push(c);
                i += 1;
                while i < chars.len() {
                    line.push(chars[i]);
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        line.push(chars[i + 1]);
                        i += 2;
                        continue;
                    }
                    if chars[i] == '\'' {
                        break;
                    }
                    i += 1;
                }
            }
            '{' if chars.get(i + 1) == Some(&'}') => {
                line.push_str("{}");
                i += 1;
            }
            '{' => {
                line.push('{');
                flush(&mut out, &mut line, level(&open));
                open.push('{');
            }
            '(' | '[' => {
                line.push(c);
                open.push(c);
            }
            ')' | ']' => {
                line.push(c);
                open.pop();
            }
            '}' => {
                flush(&mut out, &mut line, level(&open));
                open.pop();
                line.push('}');
                let rest: String = chars[i + 1..].iter().collect();
                let rest = rest.trim_start();
                let joins = rest.starts_with([')', ',', ';', '.', ']'])
                    || rest.starts_with("else")
                    || rest.is_empty();
                if !joins {
                    flush(&mut out, &mut line, level(&open));
                }
            }
            ';' | ',' if open.last().is_none_or(|&o| o == '{') => {
                line.push(c);
                flush(&mut out, &mut line, level(&open));
            }
            _ => line.push(c),
        }
        i += 1;
    }
    flush(&mut out, &mut line, level(&open));
    out
}
