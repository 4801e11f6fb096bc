"""ZIP bundles: CP949 names, routing by magic bytes, and refusal of anything unsafe."""

from __future__ import annotations

import io
import urllib.request
import zipfile
from pathlib import Path

import pytest
from conftest import realdata_path
from support.http_server import LocalServer, serve_directory

from curation.core.errors import InputError
from curation.parse import parse
from curation.readers.bundle import BundleLimits, member_name, unpack

CP949_NAMES = ["제19회 사회복지사 1급_1교시_B형.pdf", "2025년 정답/최종정답.pdf"]


def _cp949_zip(path: Path, members: dict[str, bytes]) -> None:
    """A ZIP as Korean Windows tools write it: names in CP949, UTF-8 flag unset. zipfile would write a
    non-ASCII name as UTF-8 with the flag set, so ASCII placeholders of the same length are written and
    then replaced by the CP949 bytes in the local headers and the central directory."""
    placeholders = {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for i, (name, data) in enumerate(members.items()):
            raw = name.encode("cp949")
            placeholder = f"@@{i}@@".encode().ljust(len(raw), b"#") if not name.isascii() else raw
            placeholders[placeholder] = raw
            archive.writestr(placeholder.decode(), data)
    blob = path.read_bytes()
    for placeholder, raw in placeholders.items():
        blob = blob.replace(placeholder, raw)
    path.write_bytes(blob)


def test_cp949_names_decoded_and_routed_by_magic(tmp_path):
    paper = realdata_path("pdf", "swc1_2021_r19_s1_B_q.pdf").read_bytes()
    key = realdata_path("pdf", "swc1_2021_r19_answers.pdf").read_bytes()
    bundle = tmp_path / "bundle.zip"
    _cp949_zip(bundle, {CP949_NAMES[0]: paper, CP949_NAMES[1]: key, "readme.txt": b"not a paper"})
    with zipfile.ZipFile(bundle) as archive:
        assert not archive.infolist()[0].flag_bits & 0x800
        assert [member_name(i) for i in archive.infolist()][:2] == CP949_NAMES
    members = unpack(bundle, tmp_path / "out")
    assert [(m.name, m.kind) for m in members] == [(CP949_NAMES[0], "pdf"), (CP949_NAMES[1], "pdf"), ("readme.txt", "text")]
    assert members[0].path.read_bytes() == paper
    assert members[1].path == tmp_path / "out" / "2025년 정답" / "최종정답.pdf"


def test_utf8_flagged_names_kept(tmp_path):
    bundle = tmp_path / "u.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr("문제지.pdf", b"%PDF-1.4\n")
    assert [m.name for m in unpack(bundle, tmp_path / "out")] == ["문제지.pdf"]


@pytest.mark.parametrize("name", ["../evil.pdf", "/etc/evil.pdf", "a/../../evil.pdf", "C:/evil.pdf"])
def test_path_traversal_refused(tmp_path, name):
    bundle = tmp_path / "t.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr(name, b"%PDF-1.4\n")
    with pytest.raises(InputError, match="refusing"):
        unpack(bundle, tmp_path / "out")
    assert not (tmp_path / "evil.pdf").exists()


def test_symlink_refused(tmp_path):
    bundle = tmp_path / "l.zip"
    info = zipfile.ZipInfo("link.pdf")
    info.external_attr = (0o120777 << 16)
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.writestr(info, "/etc/passwd")
    with pytest.raises(InputError, match="symbolic link"):
        unpack(bundle, tmp_path / "out")


def test_zip_bomb_refused_before_inflating(tmp_path):
    bundle = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bundle, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.pdf", b"\0" * 20_000_000)
    with pytest.raises(InputError, match="zip bomb"):
        unpack(bundle, tmp_path / "out")
    assert not (tmp_path / "out" / "zeros.pdf").exists()


def test_size_and_count_limits(tmp_path):
    bundle = tmp_path / "many.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        for i in range(5):
            archive.writestr(f"{i}.pdf", b"%PDF-1.4\n" + bytes(1000))
    with pytest.raises(InputError, match="more than 3 members"):
        unpack(bundle, tmp_path / "a", BundleLimits(max_members=3))
    with pytest.raises(InputError, match="more than 3000 bytes"):
        unpack(bundle, tmp_path / "b", BundleLimits(max_total_bytes=3000))


def test_nested_zips_bounded(tmp_path):
    def wrap(name: str, data: bytes) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as archive:
            archive.writestr(name, data)
        return buf.getvalue()

    inner = wrap("문제.pdf", b"%PDF-1.4\n")
    bundle = tmp_path / "n.zip"
    bundle.write_bytes(wrap("inner.zip", inner))
    members = unpack(bundle, tmp_path / "out")
    assert [(m.name, m.kind) for m in members] == [("inner.zip/문제.pdf", "pdf")]
    deep = tmp_path / "deep.zip"
    deep.write_bytes(wrap("a.zip", wrap("b.zip", inner)))
    with pytest.raises(InputError, match="nested deeper"):
        unpack(deep, tmp_path / "deep", BundleLimits(max_depth=1))


@pytest.fixture
def server(tmp_path):
    with LocalServer(fallback=serve_directory(tmp_path)) as srv:
        yield srv.base


def test_bundle_from_a_server_unpacked_and_parsed(tmp_path, server):
    paper = realdata_path("pdf", "swc1_2021_r19_s1_B_q.pdf").read_bytes()
    hwp = realdata_path("pdf", "cpa_2025_r60_1st_s3_acct_form1_q.hwp").read_bytes()
    _cp949_zip(tmp_path / "served.zip", {CP949_NAMES[0]: paper, "회계학(1형).hwp": hwp, "안내.txt": b"x"})
    fetched = tmp_path / "fetched.zip"
    with urllib.request.urlopen(f"{server}/served.zip") as response:
        fetched.write_bytes(response.read())
    results = parse(fetched)
    assert [r.source.split("!")[1] for r in results] == [CP949_NAMES[0], "회계학(1형).hwp"]
    assert [r.route for r in results] == ["pdf-text", "hwp5"]
    assert [len(r.items) for r in results] == [50, 50]
