"""HTTP fetching with requests: a size cap, a deadline, and redirects the caller vets hop by hop.

requests and urllib3 are imported where a page is fetched: every verb imports this
module through `stemmer.crawl`, and they (with warcio) cost a command a tenth of a second.
"""
from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from stemmer.crawl.frontier import normalize_url

if TYPE_CHECKING:
    from http.cookiejar import CookieJar

    import requests

MAX_REDIRECTS = 5
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/xhtml"})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_CHUNK = 64 * 1024
# Headers that describe the bytes on the wire, not the decoded body we keep.
_WIRE_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})
# Request headers not worth archiving: they carry the user's credentials.
_PRIVATE_HEADERS = frozenset({"cookie", "authorization", "proxy-authorization"})


@functools.cache
def accept_encoding() -> str:
    """What urllib3 can decode here: gzip and deflate, plus br (zstd) only when brotli (zstandard) is installed."""
    from urllib3.util import make_headers
    return make_headers(accept_encoding=True)["accept-encoding"]


class FetchFailed(Exception):
    """A page that was not fetched or not kept.

    Attributes:
        url: the URL that failed (the last redirect hop).
        kind: why, one of ``http`` (status >= 400), ``timeout``, ``connection``,
            ``redirects`` (too many or a loop), ``too-big``, ``not-html``, or a
            refusal returned by the redirect check (``off-host``, ``rejected``,
            ``robots``, ``duplicate``).
        message: what went wrong, without the URL.
        target: the redirect target that was not followed, if any.
        redirects: the URLs that redirected before `url` failed.
    """

    def __init__(self, url: str, kind: str, message: str, target: str | None = None):
        super().__init__(f"{url}: {message}")
        self.url = url
        self.kind = kind
        self.message = message
        self.target = target
        self.redirects: tuple[str, ...] = ()  # the hops that led to `url`, set by Fetcher.get


@dataclass(frozen=True, slots=True)
class Fetched:
    """A fetched HTML page, as it will be archived.

    Attributes:
        url: the final URL, after redirects.
        requested: the URL asked for.
        status, reason, protocol: the response's status line, e.g. 200, "OK", "HTTP/1.1".
        headers: the response headers, minus Content-Encoding and Transfer-Encoding,
            with Content-Length set to the length of `body`.
        request_headers: the request headers sent, minus cookies and credentials.
        body: the decoded (un-gzipped) body.
        date: when the response arrived (UTC ISO 8601, seconds).
        redirects: the URLs that redirected, in order (empty if none).
    """

    url: str
    requested: str
    status: int
    reason: str
    protocol: str
    headers: tuple[tuple[str, str], ...]
    request_headers: tuple[tuple[str, str], ...]
    body: bytes
    date: str
    redirects: tuple[str, ...] = ()

    @property
    def content_type(self) -> str | None:
        """The Content-Type header value, or None."""
        for name, value in self.headers:
            if name.lower() == "content-type":
                return value
        return None


class Fetcher:
    """GET requests with one requests.Session per thread, all sharing one cookie jar."""

    def __init__(self, *, user_agent: str, timeout: float, max_bytes: int,
                 cookies: CookieJar | None = None):
        """Args:
            user_agent: the User-Agent header.
            timeout: seconds for connecting, for each read, and for reading a whole body.
            max_bytes: the most bytes of decoded body to read; a longer body fails as ``too-big``.
            cookies: a jar sent with every request; cookies set by servers go into it too.
        """
        self.user_agent = user_agent
        self.timeout = timeout
        self.max_bytes = max_bytes
        if cookies is None:
            from http.cookiejar import CookieJar  # with urllib.request: ~0.05 s, only for a crawl
            cookies = CookieJar()
        self.cookies = cookies
        self._local = threading.local()

    def _session(self) -> requests.Session:
        """This thread's session."""
        session = getattr(self._local, "session", None)
        if session is None:
            import requests
            session = requests.Session()
            session.headers.update({
                "User-Agent": self.user_agent,
                "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
                "Accept-Encoding": accept_encoding(),
            })
            session.cookies = self.cookies
            self._local.session = session
        return session

    def get(self, url: str, *, follow: Callable[[str], str | None] = lambda url: None,
            hop_delay: float = 0.0) -> Fetched:
        """Fetch an HTML page, following up to :data:`MAX_REDIRECTS` redirects.

        Args:
            url: the URL to fetch.
            follow: called with each redirect target; returns None to follow it,
                else the reason not to (it becomes :attr:`FetchFailed.kind`).
            hop_delay: seconds to wait before following a redirect.

        Returns:
            The page.

        Raises:
            FetchFailed: for an error status, a network error or timeout, too many
                redirects, a refused redirect, a non-HTML or an oversized response.
        """
        hops: list[str] = []
        current = url
        while True:
            try:
                response = self._request(current)
                try:
                    target = self._redirect(current, response, hops, follow)
                    if target is None:
                        return self._read_page(url, current, response, tuple(hops))
                finally:
                    response.close()
            except FetchFailed as exc:
                exc.redirects = tuple(hops)
                raise
            hops.append(current)
            current = target
            time.sleep(hop_delay)

    @staticmethod
    def _redirect(url: str, response: requests.Response, hops: list[str],
                  follow: Callable[[str], str | None]) -> str | None:
        """The target to follow if `response` redirects, else None; raises if it may not be followed."""
        location = response.headers.get("Location")
        if response.status_code not in _REDIRECT_STATUSES or not location:
            return None
        target = normalize_url(location, base=url)
        if target is None:
            raise FetchFailed(url, "rejected", f"redirect to a non-HTTP URL {location!r}", location)
        if len(hops) >= MAX_REDIRECTS or target == url or target in hops:
            raise FetchFailed(url, "redirects", f"more than {MAX_REDIRECTS} redirects or a loop", target)
        refusal = follow(target)
        if refusal is not None:
            raise FetchFailed(url, refusal, f"redirect to {target} not followed ({refusal})", target)
        return target

    def _request(self, url: str) -> requests.Response:
        """Send one GET without following redirects."""
        import requests
        try:
            return self._session().get(url, timeout=(self.timeout, self.timeout),
                                       stream=True, allow_redirects=False)
        except requests.Timeout:
            raise FetchFailed(url, "timeout", f"no answer within {self.timeout:g} s") from None
        except requests.RequestException as exc:
            raise FetchFailed(url, "connection", f"request failed: {_reason(exc)}") from None

    def _read_page(self, requested: str, url: str, response: requests.Response,
                   hops: tuple[str, ...]) -> Fetched:
        """Check the status and type of `response`, then read its body under the caps."""
        status = response.status_code
        if status >= 300:
            raise FetchFailed(url, "http", f"HTTP {status} {response.reason or ''}".rstrip())
        content_type = response.headers.get("Content-Type")
        media_type = (content_type or "text/html").split(";")[0].strip().lower()
        if media_type not in HTML_TYPES:
            raise FetchFailed(url, "not-html", f"not HTML ({media_type})")
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            raise FetchFailed(url, "too-big", f"{declared} bytes > --max-bytes {self.max_bytes}")
        body = self._read_body(url, response)
        raw = response.raw
        headers = [(k, v) for k, v in raw.headers.items() if k.lower() not in _WIRE_HEADERS]
        headers.append(("Content-Length", str(len(body))))
        request_headers = tuple((k, v) for k, v in response.request.headers.items()
                                if k.lower() not in _PRIVATE_HEADERS)
        return Fetched(
            url=url, requested=requested, status=status, reason=response.reason or "",
            protocol="HTTP/1.0" if getattr(raw, "version", 11) == 10 else "HTTP/1.1",
            headers=tuple(headers), request_headers=request_headers, body=body,
            date=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), redirects=hops,
        )

    def _read_body(self, url: str, response: requests.Response) -> bytes:
        """Read the decoded body, failing past `max_bytes` or past the deadline.

        ``read1`` returns what has arrived, so a server that trickles a byte at a
        time cannot hold the fetch past the deadline (``iter_content`` would wait
        for a whole chunk).
        """
        import requests
        import urllib3
        deadline = time.monotonic() + self.timeout
        raw = response.raw
        chunks, size = [], 0
        try:
            while chunk := (raw.read1(_CHUNK, decode_content=True) if hasattr(raw, "read1")
                            else raw.read(_CHUNK, decode_content=True)):
                size += len(chunk)
                if size > self.max_bytes:
                    raise FetchFailed(url, "too-big", f"more than --max-bytes {self.max_bytes} bytes")
                if time.monotonic() > deadline:
                    raise FetchFailed(url, "timeout", f"body not read within {self.timeout:g} s")
                chunks.append(chunk)
        except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
            kind = "timeout" if "timed out" in str(exc).lower() else "connection"
            raise FetchFailed(url, kind, f"reading the body failed: {_reason(exc)}") from None
        return b"".join(chunks)

    def get_small(self, url: str, max_bytes: int) -> tuple[int, bytes]:
        """GET a small resource such as robots.txt, redirects followed, body cut at `max_bytes`.

        Returns:
            (status, body).

        Raises:
            FetchFailed: a network error or timeout.
        """
        import requests
        try:
            with self._session().get(url, timeout=(self.timeout, self.timeout), stream=True) as response:
                body = b""
                for chunk in response.iter_content(_CHUNK):
                    body += chunk
                    if len(body) >= max_bytes:
                        break
                return response.status_code, body[:max_bytes]
        except requests.Timeout:
            raise FetchFailed(url, "timeout", f"no answer within {self.timeout:g} s") from None
        except requests.RequestException as exc:
            raise FetchFailed(url, "connection", f"request failed: {_reason(exc)}") from None


def _reason(exc: Exception) -> str:
    """The innermost, shortest description of a requests exception."""
    while exc.args and isinstance(exc.args[0], Exception):
        exc = exc.args[0]
    return str(exc) or type(exc).__name__


def request_line(url: str) -> str:
    """The request line of a GET for `url`, e.g. ``GET /a?b=1 HTTP/1.1``."""
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return f"GET {target} HTTP/1.1"
