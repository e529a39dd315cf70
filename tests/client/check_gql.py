"""A GraphQL frontend's program against the live service, through `gql` (PyPI, pinned in
scripts/test.sh), the Python GraphQL client: it fetches the schema by introspection and
validates every document against it before sending, then POSTs, as Apollo Client does.

What it checks, as a user would see it:
- the introspection gql sends is admitted (it is within the service's query bounds);
- a page walked by cursor (`pageInfo.endCursor`) meets each model once;
- answers keep the order of the selection;
- a repeated POST is answered from memory (the service's cache counter, read at /metrics);
- `compare` and `cost` take any identifier, and a `requests` workload bills tiers per request;
- an unknown id is a GraphQL error naming the closest models, raised as gql raises errors.
Any exception or failed assertion fails the run.
"""

import re
import sys

import requests
from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport

base = sys.argv[1]


def cache_hits() -> int:
    text = requests.get(f"{base}/metrics", timeout=30).text
    m = re.search(r'^mds_response_cache_requests_total\{result="hit"\} (\d+)$', text, re.M)
    assert m, "the cache counter is exposed at /metrics"
    return int(m.group(1))


transport = RequestsHTTPTransport(url=f"{base}/graphql", timeout=30)
client = Client(transport=transport, fetch_schema_from_transport=True)

with client as session:
    # The schema gql fetched is the one it validates against: a misspelt field fails here,
    # before any request.
    assert client.schema is not None and "models" in client.schema.query_type.fields
    try:
        session.execute(gql("{ models { nodez { slug } } }"))
        raise AssertionError("gql validates documents against the fetched schema")
    except Exception as e:  # graphql-core's GraphQLError
        assert "nodez" in str(e), e

    page = gql(
        """
        query Page($first: Int!, $after: String) {
          models(first: $first, after: $after, filter: { toolCall: true }) {
            totalCount
            pageInfo { hasNextPage endCursor }
            nodes { slug name toolCall creator { name } }
          }
        }
        """
    )
    seen, after, total = [], None, None
    while True:
        r = session.execute(page, variable_values={"first": 100, "after": after})
        conn = r["models"]
        total = conn["totalCount"]
        # Keys in selection order, as the GraphQL spec asks (not alphabetical).
        assert list(conn) == ["totalCount", "pageInfo", "nodes"], list(conn)
        for node in conn["nodes"]:
            assert list(node) == ["slug", "name", "toolCall", "creator"], list(node)
            assert node["toolCall"] is True, node["slug"]
            seen.append(node["slug"])
        if not conn["pageInfo"]["hasNextPage"]:
            break
        after = conn["pageInfo"]["endCursor"]
    assert total > 100 and len(seen) == total and len(set(seen)) == total, (total, len(seen))

    # A repeated POST of the same document and variables is a hit in the response cache.
    first = session.execute(page, variable_values={"first": 50, "after": None})
    hits = cache_hits()
    again = session.execute(page, variable_values={"first": 50, "after": None})
    assert again == first
    assert cache_hits() == hits + 1, "a repeated POST is answered from memory"

    both = session.execute(
        gql(
            """
            query {
              compare(models: ["anthropic/claude-sonnet-4.5", "gpt-4o"]) { models { slug } }
              cost(models: ["claude-sonnet-4-5"], provider: "anthropic",
                   inputTokens: 200000, outputTokens: 0, requests: 250) {
                offerings { total }
              }
            }
            """
        )
    )
    assert both["compare"]["models"][0]["slug"] == "claude-sonnet-4-5-20250929", both
    # 250 requests of 200k prompt tokens: each stays under the 200k tier, 50M tokens at $3/M.
    assert both["cost"][0]["offerings"][0]["total"] == 150.0, both

    try:
        session.execute(gql('{ lookupModel(id: "claude-sonet-4.5") { slug } }'))
        raise AssertionError("an unknown id is an error")
    except TransportQueryError as e:
        err = e.errors[0]
        assert err["extensions"]["code"] == "NOT_FOUND", err
        closest = [c["slug"] for c in err["extensions"]["closest"]]
        assert any(s.startswith("claude-sonnet-4-5") for s in closest), closest

print("gql: introspection, cursor paging, selection order, cached POST, compare/cost, errors check out")
