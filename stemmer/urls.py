"""URLs taken from pages and crawl records, parsed in one place that never raises.

Any page can carry a malformed URL (``http://[oops/x``, a port of letters), on
which `urllib.parse` raises ValueError. Such a URL is "no URL" for every stage,
so one bad link cannot cost a page or a site. A leaf module, like `errors` and
`files`, so that `pages`, `crawl` and `api` all use it.
"""
from __future__ import annotations

import logging
from urllib.parse import SplitResult, urljoin, urlsplit

log = logging.getLogger("stemmer")


def split_url(url: str) -> SplitResult | None:
    """The parts of `url`, or None when it is malformed (bad IPv6 host, bad port, ...)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (checks the port; urlsplit alone accepts "host:abc")
    except ValueError as exc:
        log.debug("malformed URL %.200r ignored: %s", url, exc)
        return None
    return parts


def join_url(base: str, href: str) -> str | None:
    """`href` resolved against the page URL `base`; None when either is malformed."""
    try:
        url = urljoin(base, href)
    except ValueError as exc:
        log.debug("malformed URL %.200r (on %.200r) ignored: %s", href, base, exc)
        return None
    return url if split_url(url) is not None else None
