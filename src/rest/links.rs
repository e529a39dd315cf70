//! RFC 8288 `Link` headers for paged lists, as GitHub's API sends them: `first`, `prev`,
//! `next` and `last`, each the same request with another `page`, so generic paginators
//! (`requests`' `r.links`, GitHub-style clients) can walk any list.

/// The `Link` value for page `page` of `total_pages` (no `prev` on the first page, no
/// `next` on the last; a page past the end links back to `last`). `base` is the public URL
/// (empty: links relative to the host).
pub fn header(
    base: &str,
    path: &str,
    query: &[(String, String)],
    page: u64,
    total_pages: u64,
) -> String {
    let last = total_pages.max(1);
    let url = |p: u64| format!("<{}>", self::url(base, path, query, p));
    let mut links = vec![format!("{}; rel=\"first\"", url(1))];
    if page > 1 {
        links.push(format!("{}; rel=\"prev\"", url((page - 1).min(last))));
    }
    if page < last {
        links.push(format!("{}; rel=\"next\"", url(page + 1)));
    }
    links.push(format!("{}; rel=\"last\"", url(last)));
    links.join(", ")
}

/// The same request as page `page`.
pub fn url(base: &str, path: &str, query: &[(String, String)], page: u64) -> String {
    let mut pairs: Vec<(&str, String)> = query
        .iter()
        .filter(|(k, _)| k != "page")
        .map(|(k, v)| (k.as_str(), v.clone()))
        .collect();
    pairs.push(("page", page.to_string()));
    let q = serde_urlencoded::to_string(&pairs).unwrap_or_default();
    format!("{}{path}?{q}", base.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn middle_pages_link_all_four_ways() {
        let h = header(
            "",
            "/api/v1/models",
            &q(&[("limit", "20"), ("page", "2")]),
            2,
            5,
        );
        assert_eq!(
            h,
            "</api/v1/models?limit=20&page=1>; rel=\"first\", </api/v1/models?limit=20&page=1>; rel=\"prev\", \
             </api/v1/models?limit=20&page=3>; rel=\"next\", </api/v1/models?limit=20&page=5>; rel=\"last\""
        );
    }

    #[test]
    fn ends_have_no_prev_or_next() {
        let first = header("https://x.example/", "/p", &q(&[]), 1, 3);
        assert!(
            !first.contains("prev") && first.contains("<https://x.example/p?page=2>; rel=\"next\"")
        );
        let last = header("", "/p", &q(&[("sort", "name")]), 3, 3);
        assert!(!last.contains("next") && last.contains("rel=\"prev\""));
        let empty = header("", "/p", &q(&[]), 1, 0);
        assert_eq!(
            empty,
            "</p?page=1>; rel=\"first\", </p?page=1>; rel=\"last\""
        );
    }
}
