//! Parse budgets: what an upstream file may cost before an adapter parses it. A file is
//! already capped in bytes when fetched; these bound what parsing it builds and how long
//! that takes (a YAML parser is quadratic in nesting depth, a JSON `[0,0,…]` builds a value
//! of 32 bytes per two bytes read). Checked by one cheap scan before any parse; a file over
//! budget fails its source with the reason. The values are documented in docs/security.md.

use std::path::Path;

use super::IngestError;

/// Deepest bracket nesting (`[`, `{`) accepted in a JSON or YAML file.
pub const MAX_NESTING: usize = 64;
/// Most values (counted as commas and opening brackets) in one JSON or YAML file; the
/// largest real file has about 125,000.
pub const MAX_VALUES: usize = 1_000_000;
/// Most rows in one CSV table (the largest real one has under 1,000).
pub const MAX_CSV_ROWS: usize = 100_000;
/// Most columns in one CSV table.
pub const MAX_CSV_COLUMNS: usize = 256;
/// Longest CSV header name, in bytes.
pub const MAX_CSV_HEADER: usize = 256;
/// Longest CSV field, in bytes.
pub const MAX_CSV_FIELD: usize = 16 * 1024;
/// Most bytes the rows of one CSV table may take once read (each row's header names and
/// fields, and a per-cell overhead).
pub const MAX_CSV_EXPANDED: usize = 64 * 1024 * 1024;
/// What one read cell costs beyond its text (the map entry and two strings).
pub const CSV_CELL_OVERHEAD: usize = 64;

fn over(path: &Path, what: String) -> IngestError {
    IngestError::TooLarge {
        path: path.to_path_buf(),
        what,
    }
}

/// Checks the nesting and the number of values of a JSON (`quoted`: brackets inside
/// double-quoted strings do not count) or YAML (every bracket counts: quoting rules are
/// too many to follow in a scan, and counting more only errs on the safe side) text.
pub fn structure(path: &Path, bytes: &[u8], quoted: bool) -> Result<(), IngestError> {
    let (mut depth, mut values, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' if quoted => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                values += 1;
                if depth > MAX_NESTING {
                    return Err(over(path, format!("nested more than {MAX_NESTING} deep")));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' => values += 1,
            _ => continue,
        }
        if values > MAX_VALUES {
            return Err(over(path, format!("more than {MAX_VALUES} values")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_or_huge_texts_are_refused_before_parsing() {
        let p = Path::new("x.json");
        assert!(structure(p, br#"{"a": ["[[[[", {"b": 1}]}"#, true).is_ok());
        let deep = "[".repeat(200_000);
        let started = std::time::Instant::now();
        assert!(structure(p, deep.as_bytes(), false).is_err());
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        let wide = format!("[{}0]", "0,".repeat(MAX_VALUES + 1));
        assert!(structure(p, wide.as_bytes(), true).is_err());
    }
}
