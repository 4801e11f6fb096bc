"""Discovery against board pages the test serves: relative links, a next page, percent-encoded Korean
file names, article pages, and a provisional key superseded by a final one."""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import quote

import pytest
import yaml
from support.http_server import LocalServer, send

from curation.catalog import DEFAULT_CATALOG, load_catalog
from curation.sources.discover import Discoverer, classify


def html(body: str) -> bytes:
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}</body></html>".encode()


def page_route(body: str):
    def route(handler):
        send(handler, 200, html(body), {"Content-Type": "text/html; charset=utf-8"})

    return route


@pytest.fixture
def board():
    with LocalServer() as srv:
        q2025 = quote("2025년도 제89회 의사 국가시험 1교시.pdf")
        prov = quote("2025년도 제89회 의사 국가시험 가답안.pdf")
        final = quote("2025년도 제89회 의사 국가시험 최종정답.pdf")
        srv.routes["/brd/list.do"] = page_route(
            '<a href="view.do?seq=101">2025년도 제89회 의사 국가시험 기출문제</a>'
            '<a href="view.do?seq=102">2025년도 제89회 한의사 국가시험 기출문제</a>'
            '<a href="view.do?seq=90">2024년도 제88회 의사 국가시험 기출문제</a>'
            '<a href="list.do?page=2">다음</a>'
        )
        srv.routes["/brd/list.do?page=2"] = page_route(
            '<a href="view.do?seq=103">2025년도 제89회 의사 국가시험 최종정답 공지</a>'
            '<a href="list.do?page=1">이전</a>'
        )
        srv.routes["/brd/view.do?seq=101"] = page_route(
            f'<a href="down.do?file_seq=1&amp;name={q2025}">{"2025년도 제89회 의사 국가시험 1교시.pdf"}</a>'
            f'<a href="./down.do?file_seq=2&amp;name={prov}">2025년도 제89회 의사 국가시험 가답안.pdf</a>'
        )
        srv.routes["/brd/view.do?seq=102"] = page_route('<a href="down.do?file_seq=9">2025년도 한의사 1교시.pdf</a>')
        srv.routes["/brd/view.do?seq=103"] = page_route(f'<a href="/brd/down.do?file_seq=3&amp;name={final}">첨부</a>')
        yield srv


def catalog_for(board, tmp_path, unconfirmed=False):
    raw = yaml.safe_load(DEFAULT_CATALOG.read_text(encoding="utf-8"))
    for entry in raw["licenses"]:
        if entry["code"] == "physician":
            entry["discovery"] = {
                "listing": board.url("/brd/list.do"),
                "article_pattern": r"view\.do\?seq=",
                "file_pattern": r"down\.do",
                "title_keyword": "의사",
                "unconfirmed": unconfirmed,
            }
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return path


def test_discovery_follows_pages_articles_and_supersedes_provisional_keys(board, tmp_path):
    cat = load_catalog(catalog_for(board, tmp_path))
    found = Discoverer(cat, known_urls=set()).discover(2025, ["physician"])
    by_title = {f.title: f for f in found}
    assert len(found) == 3, [f.title for f in found]
    paper = by_title["2025년도 제89회 의사 국가시험 1교시.pdf"]
    assert paper.role == "paper" and paper.new
    assert paper.url.startswith(board.url("/brd/down.do?file_seq=1"))
    assert paper.referer == board.url("/brd/view.do?seq=101")
    provisional = by_title["2025년도 제89회 의사 국가시험 가답안.pdf"]
    assert provisional.key_status == "provisional" and provisional.superseded
    final = next(f for f in found if f.key_status == "final")
    assert "최종정답" in final.title + final.url or "%EC%B5%9C%EC%A2%85" in final.url
    assert not final.superseded
    assert all("seq=102" not in f.referer for f in found), "한의사 articles are not 의사 papers"
    assert board.hits["/brd/view.do?seq=90"] == 0, "2024 articles are not opened for 2025"


def test_known_urls_are_not_new_and_nothing_is_downloaded(board, tmp_path):
    cat = load_catalog(catalog_for(board, tmp_path))
    first = Discoverer(cat, known_urls=set()).discover(2025, ["physician"])
    known = {first[0].url}
    again = Discoverer(cat, known_urls=known).discover(2025, ["physician"])
    assert [f.new for f in again] == [f.url not in known for f in again]
    assert not any(path.startswith("/brd/down.do") for path, _ in board.requests)


def test_cli_discover_json(board, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", "from kmmlu_cli import main; main()", "discover", "--year", "2025",
         "--licenses", "physician", "--catalog", str(catalog_for(board, tmp_path)), "--raw", str(tmp_path / "raw"), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert {r["role"] for r in rows} == {"paper", "key"}
    assert "unconfirmed" not in proc.stderr


def test_cli_discover_names_an_unconfirmed_endpoint(board, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", "from kmmlu_cli import main; main()", "discover", "--year", "2025",
         "--licenses", "physician", "--catalog", str(catalog_for(board, tmp_path, unconfirmed=True)),
         "--raw", str(tmp_path / "raw"), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)  # the search still runs
    assert "unconfirmed: physician: " + board.url("/brd/list.do") in proc.stderr.replace("\n", "")


@pytest.mark.parametrize(
    "title, role, status",
    [("2024년 제61회 세무사 1차 최종정답.pdf", "key", "final"), ("정답가안.pdf", "key", "provisional"),
     ("가답안(짝수형).pdf", "key", "provisional"), ("제19회 사회복지사 1급_1교시_B형.pdf", "paper", None),
     ("확정답안.pdf", "key", "final")],
)
def test_classify(title, role, status):
    assert classify(title, "http://x/" + quote(title)) == (role, status)
