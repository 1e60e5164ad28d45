"""Shared test helpers: an HTML builder and writers of tiny crawls in each input format."""
from __future__ import annotations

import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest


def build_html(body: str = "", *, title: str = "", head: str = "") -> str:
    """A small complete HTML page."""
    return f"<html><head>{head}<title>{title}</title></head><body>{body}</body></html>"


@pytest.fixture
def html():
    """The HTML builder: ``html(body, title=..., head=...)``."""
    return build_html


@pytest.fixture
def write_wget(tmp_path):
    """Writes ``{relative path: str | bytes}`` under ``tmp_path/mirror`` and returns the root."""
    def write(files: dict[str, str | bytes], root: str = "mirror") -> Path:
        for rel, data in files.items():
            path = tmp_path / root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data.encode() if isinstance(data, str) else data)
        return tmp_path / root
    return write


@pytest.fixture
def write_zip(tmp_path):
    """Writes ``{member: str | bytes}`` (and ``linkinfo`` lines) to a zip and returns its path."""
    def write(members: dict[str, str | bytes], linkinfo: list[str] | None = None,
              name: str = "crawl.zip") -> Path:
        path = tmp_path / name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for member, data in members.items():
                z.writestr(member, data)
            if linkinfo is not None:
                z.writestr("linkinfo", "\n".join(linkinfo) + "\n")
        return path
    return write


@pytest.fixture
def write_warc(tmp_path):
    """Writes records to a WARC.gz with warcio and returns its path.

    Each record is ``(url, body)`` for a 200 ``text/html`` response, or a dict with keys
    ``url``, ``body`` and optionally ``type`` (WARC-Type), ``content_type`` (HTTP, or the
    record's for resource/metadata; None leaves it out) and ``status``.
    """
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    def write(records: list, name: str = "crawl.warc.gz", gzip_records: bool = True) -> Path:
        path = tmp_path / name
        with open(path, "wb") as f:
            writer = WARCWriter(f, gzip=gzip_records)
            for rec in records:
                if isinstance(rec, tuple):
                    rec = {"url": rec[0], "body": rec[1]}
                body = rec["body"].encode() if isinstance(rec["body"], str) else rec["body"]
                kind = rec.get("type", "response")
                content_type = rec.get("content_type", "text/html")
                if kind == "response":
                    headers = [("Content-Type", content_type)] if content_type else []
                    http = StatusAndHeaders(rec.get("status", "200 OK"), headers, protocol="HTTP/1.1")
                    record = writer.create_warc_record(rec["url"], kind, payload=io.BytesIO(body),
                                                       http_headers=http)
                else:
                    record = writer.create_warc_record(rec["url"], kind, payload=io.BytesIO(body),
                                                       warc_content_type=content_type)
                writer.write_record(record)
        return path
    return write


@pytest.fixture
def write_jsonl(tmp_path):
    """Writes objects (or raw str lines) as JSON Lines, gzipped if the name ends in .gz."""
    def write(rows: list, name: str = "pages.jsonl") -> Path:
        path = tmp_path / name
        text = "".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows)
        path.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
        return path
    return write
