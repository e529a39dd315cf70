//! Bounds on a GraphQL document, checked before the engine does any work it cannot bound
//! itself.
//!
//! - **Nesting** of brackets in the query text (`{`, `[`, `(`), outside strings and
//!   comments, is checked before parsing: the engine's parser recurses once per level, so a
//!   4 KB argument nested 1,600 lists deep would overflow the stack.
//! - Right after parsing, before the engine's own checks and validation (which expand
//!   fragments), one walk of every
//!   operation counts, **with multiplicity** (a fragment spread twice counts twice):
//!   selections visited, fields selected (aliases included) and the selection depth. The walk
//!   stops as soon as a budget is spent, so a fragment chain that doubles at every link costs
//!   at most [`MAX_SELECTIONS`] steps, not 2^27.
//! - Depth is the depth of ordinary fields: the subtree under `__schema` / `__type` is not
//!   counted, so the standard introspection queries of graphql-js, graphql-core and gql
//!   (type recursion 7-9) pass while ordinary queries keep a tight depth limit. Introspection
//!   subtrees are still bounded by the nesting and selection budgets.

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::{Pos, Request, ServerError, ServerResult};

/// Deepest bracket nesting accepted in the query text.
pub const MAX_NESTING: usize = 64;
/// Deepest selection nesting of ordinary (non-introspection) fields.
pub const MAX_DEPTH: usize = 12;
/// Most fields (aliases included, fragments with multiplicity) one operation may select.
pub const MAX_FIELDS: usize = 400;
/// Most selections (fields, fragment spreads, inline fragments) one walk may visit.
pub const MAX_SELECTIONS: usize = 2_000;
/// Most root fields one operation may select.
pub const MAX_ROOT_FIELDS: usize = 20;

/// Most names (fields, aliases, arguments, types, enum values...) a query text may hold:
/// parsing costs about 200 bytes per name, so a 62 KB text of 31,000 one-letter fields is
/// refused by a scan instead of a parse (docs/security.md). The largest document the
/// other limits admit (400 fields, each aliased and with arguments) holds a few thousand.
pub const MAX_NAMES: usize = 10_000;

/// The deepest bracket nesting of a GraphQL text, ignoring strings, block strings and
/// comments; stops counting (and returns) as soon as `limit` is exceeded.
pub fn nesting(query: &str, limit: usize) -> usize {
    scan(query, limit, usize::MAX).0
}

/// The deepest bracket nesting and the number of names of a GraphQL text, ignoring
/// strings, block strings and comments; stops as soon as a limit is exceeded.
pub fn scan(query: &str, limit: usize, names_limit: usize) -> (usize, usize) {
    let b = query.as_bytes();
    let (mut i, mut depth, mut deepest, mut names) = (0usize, 0usize, 0usize, 0usize);
    while i < b.len() {
        match b[i] {
            c if c == b'_' || c.is_ascii_alphabetic() => {
                names += 1;
                if names > names_limit {
                    return (deepest, names);
                }
                while i + 1 < b.len() && (b[i + 1] == b'_' || b[i + 1].is_ascii_alphanumeric()) {
                    i += 1;
                }
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if b[i..].starts_with(b"\"\"\"") => {
                i += 3;
                while i < b.len() && !b[i..].starts_with(b"\"\"\"") {
                    // `\"""` is an escaped triple quote inside a block string.
                    i += if b[i..].starts_with(b"\\\"\"\"") {
                        4
                    } else {
                        1
                    };
                }
                i += 2;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' | b'[' | b'(' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > limit {
                    return (deepest, names);
                }
            }
            b'}' | b']' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    (deepest, names)
}

/// What one walk of an operation counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub selections: usize,
    pub fields: usize,
    pub depth: usize,
}

impl Tally {
    fn over_budget(&self) -> bool {
        self.selections > MAX_SELECTIONS || self.fields > MAX_FIELDS || self.depth > MAX_DEPTH
    }
}

/// Walks `set`, following fragment spreads each time they occur. `depth` counts ordinary
/// field levels; `introspection` is true below `__schema` / `__type`. `hops` bounds the
/// recursion itself (fragment cycles are refused later by validation, but must not make
/// this walk recurse without end first).
fn walk(
    set: &SelectionSet,
    doc: &ExecutableDocument,
    depth: usize,
    introspection: bool,
    hops: usize,
    t: &mut Tally,
) {
    if hops > 2 * MAX_NESTING {
        t.selections = MAX_SELECTIONS + 1;
        return;
    }
    for sel in &set.items {
        if t.over_budget() {
            return;
        }
        t.selections += 1;
        match &sel.node {
            Selection::Field(f) => {
                t.fields += 1;
                let name = f.node.name.node.as_str();
                let intro = introspection || name == "__schema" || name == "__type";
                let d = if intro { depth } else { depth + 1 };
                t.depth = t.depth.max(d);
                walk(&f.node.selection_set.node, doc, d, intro, hops + 1, t);
            }
            Selection::InlineFragment(fr) => {
                walk(
                    &fr.node.selection_set.node,
                    doc,
                    depth,
                    introspection,
                    hops + 1,
                    t,
                );
            }
            Selection::FragmentSpread(sp) => {
                if let Some(fr) = doc.fragments.get(&sp.node.fragment_name.node) {
                    walk(
                        &fr.node.selection_set.node,
                        doc,
                        depth,
                        introspection,
                        hops + 1,
                        t,
                    );
                }
            }
        }
    }
}

/// Counts one selection set (an operation's root) with multiplicity.
pub fn tally(set: &SelectionSet, doc: &ExecutableDocument) -> Tally {
    let mut t = Tally::default();
    walk(set, doc, 0, false, 0, &mut t);
    t
}

fn too_complex(message: String) -> ServerError {
    let mut e = ServerError::new(message, Some(Pos::default()));
    e.locations.clear();
    e.extensions
        .get_or_insert_with(Default::default)
        .set("code", crate::error::ErrorCode::QueryTooComplex.graphql());
    e
}

/// Checks a parsed document against every budget; the message names the one exceeded.
pub fn check(doc: &ExecutableDocument) -> Result<(), String> {
    for (_, op) in doc.operations.iter() {
        let roots = op.node.selection_set.node.items.len();
        if roots > MAX_ROOT_FIELDS {
            return Err(format!(
                "Query selects {roots} root fields; at most {MAX_ROOT_FIELDS} are allowed"
            ));
        }
        let t = tally(&op.node.selection_set.node, doc);
        if t.selections > MAX_SELECTIONS {
            return Err(format!(
                "Query expands to more than {MAX_SELECTIONS} selections (fragments count each time they are spread)"
            ));
        }
        if t.fields > MAX_FIELDS {
            return Err(format!(
                "Query selects too many fields (aliases and fragment spreads included); at most {MAX_FIELDS} are allowed"
            ));
        }
        if t.depth > MAX_DEPTH {
            return Err(format!(
                "Query is nested too deep: at most {MAX_DEPTH} levels of fields are allowed"
            ));
        }
    }
    Ok(())
}

/// Checks every operation's introspection selections against their budget, each list
/// multiplied by the schema's real sizes ([`super::introspection`]).
pub fn check_introspection(
    doc: &ExecutableDocument,
    sizes: &super::introspection::Sizes,
) -> Result<(), String> {
    use super::introspection::{MAX_INTROSPECTION_VALUES, values};
    for (_, op) in doc.operations.iter() {
        if values(sizes, &op.node.selection_set.node, doc) > MAX_INTROSPECTION_VALUES {
            return Err(format!(
                "Introspection would produce more than {MAX_INTROSPECTION_VALUES} values (each list counts the schema's real sizes); select less or ask for one type with __type"
            ));
        }
    }
    Ok(())
}

/// A document sent with its hash, to be registered once it has passed every check
/// ([`PersistedQueries::register`]).
pub struct Registration {
    hash: String,
    text: String,
}

/// Admits a request: the text's bracket nesting is checked before anything parses it, an
/// Automatic Persisted Query is resolved ([`PersistedQueries`]), and the parsed document is
/// counted before the engine's own checks and validation (which expand fragments) see it.
/// The engine then runs with no extensions, so no per-field hook slows every resolver.
/// A document sent with its hash comes back as a [`Registration`]: it is stored only once
/// validation has passed too (docs/security.md).
pub fn admit(
    mut request: Request,
    persisted: &PersistedQueries,
    sizes: &super::introspection::Sizes,
) -> ServerResult<(Request, Option<Registration>)> {
    let (deepest, names) = scan(&request.query, MAX_NESTING, MAX_NAMES);
    if deepest > MAX_NESTING {
        return Err(too_complex(format!(
            "Query text nests brackets more than {MAX_NESTING} levels deep"
        )));
    }
    if names > MAX_NAMES {
        return Err(too_complex(format!(
            "Query text holds more than {MAX_NAMES} names"
        )));
    }
    let mut registration = None;
    if let Some(ext) = request.extensions.remove("persistedQuery") {
        let (doc, reg) = persisted.resolve(&request.query, ext)?;
        registration = reg;
        request.query = String::new();
        request.set_parsed_query(doc);
    }
    let doc = request.parsed_query()?;
    check(doc).map_err(too_complex)?;
    check_introspection(doc, sizes).map_err(too_complex)?;
    Ok((request, registration))
}

/// Most bytes of query text the persisted-query store keeps, all clients together.
pub const PERSISTED_BYTES: usize = 4 * 1024 * 1024;
/// Most bytes of query text one client (an address, or an API key) may have registered.
pub const PERSISTED_BYTES_PER_CLIENT: usize = 256 * 1024;
/// Most documents kept, whatever their size.
pub const PERSISTED_ENTRIES: usize = 2048;
/// What an entry costs beyond its text (its hash, its owner, the map's own bookkeeping).
const ENTRY_OVERHEAD: usize = 256;

/// Documents registered by Automatic Persisted Queries (Apollo's protocol, version 1): a
/// client sends a query's SHA-256 alone, and the query with it once when the hash is
/// unknown. Only documents that passed every check are kept, as text (parsed again when
/// used: a parsed document takes a hundred times its text's size), bounded in bytes in all
/// and per client; the oldest go first (docs/security.md).
pub struct PersistedQueries {
    inner: std::sync::Mutex<Store>,
}

#[derive(Default)]
struct Store {
    docs: std::collections::HashMap<String, Stored>,
    by_owner: std::collections::HashMap<String, usize>,
    bytes: usize,
    seq: u64,
}

struct Stored {
    text: std::sync::Arc<str>,
    owner: String,
    seq: u64,
    bytes: usize,
}

impl Store {
    fn remove(&mut self, hash: &str) {
        if let Some(old) = self.docs.remove(hash) {
            self.bytes -= old.bytes;
            if let Some(b) = self.by_owner.get_mut(&old.owner) {
                *b -= old.bytes;
                if *b == 0 {
                    self.by_owner.remove(&old.owner);
                }
            }
        }
    }

    /// The oldest entry (of `owner`, when given). A scan: at most [`PERSISTED_ENTRIES`].
    fn oldest(&self, owner: Option<&str>) -> Option<String> {
        self.docs
            .iter()
            .filter(|(_, d)| owner.is_none_or(|o| d.owner == o))
            .min_by_key(|(_, d)| d.seq)
            .map(|(h, _)| h.clone())
    }
}

#[derive(serde::Deserialize)]
struct PersistedQuery {
    version: i32,
    #[serde(rename = "sha256Hash")]
    sha256_hash: String,
}

impl Default for PersistedQueries {
    fn default() -> Self {
        Self::new()
    }
}

impl PersistedQueries {
    pub fn new() -> Self {
        Self {
            inner: std::sync::Mutex::new(Store::default()),
        }
    }

    /// Bytes of query text kept (with each entry's overhead), and how many documents.
    pub fn usage(&self) -> (usize, usize) {
        self.inner
            .lock()
            .map_or((0, 0), |s| (s.bytes, s.docs.len()))
    }

    fn get(&self, hash: &str) -> Option<std::sync::Arc<str>> {
        self.inner
            .lock()
            .ok()
            .and_then(|s| s.docs.get(hash).map(|d| d.text.clone()))
    }

    /// Keeps a document that passed every check, for `owner`: the owner's oldest go first
    /// when it is over its share, then everyone's oldest when the store is full.
    pub fn register(&self, reg: Registration, owner: &str) {
        let bytes = reg.text.len() + ENTRY_OVERHEAD;
        if bytes > PERSISTED_BYTES_PER_CLIENT {
            return;
        }
        let Ok(mut s) = self.inner.lock() else {
            return;
        };
        if s.docs.contains_key(&reg.hash) {
            return;
        }
        while s.by_owner.get(owner).copied().unwrap_or(0) + bytes > PERSISTED_BYTES_PER_CLIENT {
            match s.oldest(Some(owner)) {
                Some(h) => s.remove(&h),
                None => break,
            }
        }
        while s.bytes + bytes > PERSISTED_BYTES || s.docs.len() >= PERSISTED_ENTRIES {
            match s.oldest(None) {
                Some(h) => s.remove(&h),
                None => break,
            }
        }
        s.seq += 1;
        let seq = s.seq;
        s.bytes += bytes;
        *s.by_owner.entry(owner.to_string()).or_default() += bytes;
        s.docs.insert(
            reg.hash,
            Stored {
                text: reg.text.into(),
                owner: owner.to_string(),
                seq,
                bytes,
            },
        );
    }

    /// The document of a request carrying the `persistedQuery` extension `ext`: the
    /// registered one when `query` is empty, else `query` itself once its hash is checked
    /// (with what registering it takes, once it has passed every check).
    fn resolve(
        &self,
        query: &str,
        ext: async_graphql::Value,
    ) -> ServerResult<(ExecutableDocument, Option<Registration>)> {
        let pq: PersistedQuery = async_graphql::from_value(ext).map_err(|_| {
            ServerError::new("Invalid \"PersistedQuery\" extension configuration.", None)
        })?;
        if pq.version != 1 {
            return Err(ServerError::new(
                format!(
                    "Only the \"PersistedQuery\" extension of version \"1\" is supported, and the current version is \"{}\".",
                    pq.version
                ),
                None,
            ));
        }
        if query.is_empty() {
            let text = self
                .get(&pq.sha256_hash)
                .ok_or_else(|| ServerError::new("PersistedQueryNotFound", None))?;
            return Ok((async_graphql::parser::parse_query(&*text)?, None));
        }
        if crate::snapshot::sha256_hex(query.as_bytes()) != pq.sha256_hash {
            return Err(ServerError::new("provided sha does not match query", None));
        }
        let doc = async_graphql::parser::parse_query(query)?;
        Ok((
            doc,
            Some(Registration {
                hash: pq.sha256_hash,
                text: query.to_string(),
            }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(q: &str) -> ExecutableDocument {
        async_graphql::parser::parse_query(q).unwrap()
    }

    #[test]
    fn nesting_ignores_strings_and_comments() {
        assert_eq!(nesting("{ a(x: \"{{{{\") }", 64), 2);
        assert_eq!(nesting("{ a # {{{{\n b }", 64), 1);
        assert_eq!(nesting("{ a(x: \"\"\" [[[ \\\"\"\" ((( \"\"\") }", 64), 2);
        let deep = format!("{{ a(x: {}1{}) }}", "[".repeat(1600), "]".repeat(1600));
        assert!(nesting(&deep, 64) > 64);
        // Names, not letters, are counted; those in strings and comments are not.
        assert_eq!(scan("{ abc_1 d(x: \"e f\") # g h\n }", 64, 100), (2, 3));
        let wide = format!("{{u {}}}", "a ".repeat(31_000));
        assert!(scan(&wide, 64, MAX_NAMES).1 > MAX_NAMES);
    }

    #[test]
    fn fragment_spreads_count_with_multiplicity_and_stop_early() {
        let mut q =
            String::from("query { ...F26 }\nfragment F0 on Query { models { totalCount } }\n");
        for i in 1..=26 {
            q.push_str(&format!(
                "fragment F{i} on Query {{ ...F{} ...F{} }}\n",
                i - 1,
                i - 1
            ));
        }
        let d = doc(&q);
        let t = tally(
            &d.operations
                .iter()
                .next()
                .unwrap()
                .1
                .node
                .selection_set
                .node,
            &d,
        );
        assert!(
            t.selections <= MAX_SELECTIONS + 1 && t.over_budget(),
            "{t:?}"
        );
        assert!(check(&d).is_err());
    }

    #[test]
    fn fragment_cycles_end() {
        let d =
            doc("query { ...A } fragment A on Query { ...B ...B } fragment B on Query { ...A }");
        assert!(check(&d).is_err());
    }

    #[test]
    fn introspection_depth_is_not_counted() {
        let intro = format!(
            "{{ __schema {{ types {{ fields {{ type {{ {}name{} }} }} }} }} }}",
            "ofType { ".repeat(10),
            " }".repeat(10)
        );
        let d = doc(&intro);
        assert_eq!(check(&d), Ok(()));
        let mut deep = String::from("{ models { nodes { ");
        for _ in 0..12 {
            deep.push_str("creator { createdModels { nodes { ");
        }
        let deep = deep + "slug" + &" } } }".repeat(12) + " } } }";
        assert!(check(&doc(&deep)).is_err());
    }

    #[test]
    fn the_persisted_store_is_bounded_in_all_and_per_client() {
        let store = PersistedQueries::new();
        let reg = |i: usize| Registration {
            hash: format!("h{i}"),
            text: format!("{{ a{i} {} }}", "b ".repeat(4000)),
        };
        for i in 0..500 {
            store.register(reg(i), "one");
        }
        let (bytes, _) = store.usage();
        assert!(bytes <= PERSISTED_BYTES_PER_CLIENT, "{bytes}");
        assert!(store.get("h499").is_some() && store.get("h0").is_none());
        for c in 0..100 {
            for i in 0..50 {
                store.register(reg(c * 1000 + i), &format!("c{c}"));
            }
        }
        let (bytes, n) = store.usage();
        assert!(
            bytes <= PERSISTED_BYTES && n <= PERSISTED_ENTRIES,
            "{bytes} {n}"
        );
        assert!(bytes > PERSISTED_BYTES / 2, "{bytes}");
    }
}
