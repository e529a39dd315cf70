"""A small typed program against the live service, through the Python client that
openapi-python-client generates from /api/v1/openapi.json (scripts/test.sh runs it).

It reads as a user's program would: the generated call names (list_models, get_model,
compare_models, calculate_costs) and model classes (Cheapest, not CheapestType0), the
filters, and a workload's cost. Any exception or failed assertion fails the run.
"""

import sys

from mds_client import Client
from mds_client.api.models import compare_models, get_model, list_models
from mds_client.api.prices import calculate_costs
from mds_client.models import Cheapest, ModelDetail

base = sys.argv[1]
with Client(base_url=base, raise_on_unexpected_status=True) as client:
    page = list_models.sync(client=client, limit=5, tool_call=True, min_capability=150.0)
    assert page is not None and len(page.data) > 0, page
    for m in page.data:
        assert m.tool_call is True and m.capability_index >= 150, m.slug
        assert m.rank_basis is not None, m.slug
        assert m.cheapest is None or isinstance(m.cheapest, Cheapest)

    detail = get_model.sync(client=client, slug="gpt-4o-2024-11-20")
    assert detail is not None and isinstance(detail.data, ModelDetail)
    assert detail.data.creator is not None and detail.data.creator.slug == "openai"

    pair = compare_models.sync(client=client, models="anthropic/claude-sonnet-4.5,gpt-4o")
    assert pair is not None
    assert [m.slug for m in pair.data.models][0] == "claude-sonnet-4-5-20250929"

    month = calculate_costs.sync(
        client=client,
        models="claude-sonnet-4-5",
        input_tokens=200_000,
        output_tokens=0,
        requests=250,
        provider="anthropic",
    )
    assert month is not None and month.data[0].offerings[0].total == 150.0, month

print("generated Python client: list, detail, compare and a workload's cost check out")
