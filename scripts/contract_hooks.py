"""Schemathesis hooks for scripts/contract (loaded through SCHEMATHESIS_HOOKS).

libmicrohttpd answers a request whose head (request line and header fields) does not fit in a
connection's memory (`--connection-memory`, 32 KiB by default) by itself, with an HTML 414 or 431,
before routemap sees it: openapi.yaml and the README say so, and those answers cannot be
problem+json. Such requests are outside the contract, so they are not sent. Heads up to
HEAD_LIMIT bytes are, including targets long enough for routemap's own 414 `uri_too_long`.
"""
import requests
import schemathesis

HEAD_LIMIT = 16 * 1024


@schemathesis.hook
def filter_case(context, case):
    kwargs = case.as_transport_kwargs(base_url="http://127.0.0.1")
    prepared = requests.Request(
        kwargs["method"], kwargs["url"], params=kwargs.get("params"), headers=kwargs.get("headers")
    ).prepare()
    head = len(prepared.method) + len(prepared.path_url) + 12
    head += sum(len(name) + len(str(value)) + 4 for name, value in prepared.headers.items())
    return head <= HEAD_LIMIT
