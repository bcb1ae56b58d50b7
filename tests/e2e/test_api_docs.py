"""The documented API schema (docs/api-schema.md) against the running app: the committed page is what
scripts/api_docs.py writes now, and every field a real call of each documented example returns is on the page.

One call per public endpoint, on the e2e tier's one app. When this fails after a deliberate change to an endpoint,
run `python scripts/api_docs.py` and commit the page (its diff is the change the API's users will see).
"""

import sys

import pytest

from tests.e2e.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import api_docs  # noqa: E402


@pytest.fixture(scope="module")
def generated(app_url):
    return api_docs.generate(app_url)


@pytest.fixture(scope="module")
def committed():
    return api_docs.PAGE.read_text(encoding="utf-8")


def test_every_public_endpoint_has_a_documented_example(app_url):
    public = set(api_docs.public_endpoints(api_docs.fetch_info(app_url)))
    assert public == set(api_docs.EXAMPLES), "scripts/api_docs.py EXAMPLES and the app's public endpoints differ"


def test_every_field_a_real_call_returns_is_documented(generated, committed):
    _, outputs = generated
    documented = api_docs.documented_fields(committed)
    for name, output in outputs.items():
        if output is None:  # its example's model cannot load offline here (the page says why)
            assert api_docs.unavailable(name) and not documented.get(name)
            continue
        returned = set(api_docs.field_types(output))
        missing, stale = returned - documented.get(name, set()), documented.get(name, set()) - returned
        assert not missing, f"{name} returns fields docs/api-schema.md does not list: {sorted(missing)[:10]}"
        assert not stale, f"{name}: docs/api-schema.md lists fields a real call no longer returns: {sorted(stale)[:10]}"


def test_the_committed_schema_page_is_what_the_app_says_now(generated, committed):
    page, _ = generated
    assert page == committed, "docs/api-schema.md is stale: run `python scripts/api_docs.py` and commit it"
