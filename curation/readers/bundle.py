"""ZIP bundles (Q-Net serves papers as ZIPs of PDFs with CP949 names), unpacked safely.

Every member is checked before a byte is written: no absolute paths, no ``..``, no links; limits on the
member count, the total unpacked size and each member's compression ratio (a zip bomb is refused before
it is inflated, and the inflated size is counted as it is written, not taken from the header). Member
names without the UTF-8 flag (bit 11) are decoded as CP949, as Korean Windows tools write them. Each
member is classified by its magic bytes (``curation.sources.filetype.sniff``), never by its name; nested ZIPs are
unpacked too, to a bounded depth.
"""

from __future__ import annotations

import stat
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from curation.core.errors import InputError
from curation.sources.filetype import sniff

UTF8_FLAG = 0x800


@dataclass(frozen=True)
class BundleLimits:
    max_members: int = 2000
    max_total_bytes: int = 2 * 1024**3
    max_ratio: float = 200.0  # uncompressed / compressed, per member
    max_depth: int = 2  # a ZIP inside a ZIP inside the bundle, no deeper


@dataclass(frozen=True)
class Member:
    name: str  # decoded name inside the archive ("outer.zip/inner.pdf" for nested members)
    path: Path  # where it was written
    kind: str  # curation.sources.filetype.sniff result
    size: int


def member_name(info: zipfile.ZipInfo) -> str:
    """The member's real name: CP949 when the UTF-8 flag is unset and the bytes are not plain ASCII."""
    name = info.filename
    if not info.flag_bits & UTF8_FLAG:
        raw = name.encode("cp437")
        for encoding in ("utf-8", "cp949"):
            try:
                name = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    return unicodedata.normalize("NFC", name)


def _safe_parts(name: str, archive: Path) -> tuple[str, ...]:
    posix = PurePosixPath(name.replace("\\", "/"))
    if posix.is_absolute() or (posix.parts and posix.parts[0].endswith(":")):
        raise InputError(f"{archive}: member {name!r} has an absolute path; refusing to unpack the bundle")
    parts = tuple(p for p in posix.parts if p not in ("", "."))
    if ".." in parts:
        raise InputError(f"{archive}: member {name!r} points outside the bundle (..); refusing to unpack it")
    return parts


def unpack(path: str | Path, dest: str | Path, limits: BundleLimits = BundleLimits()) -> list[Member]:
    """Unpack ``path`` into ``dest`` (created) and return its files, nested ZIPs expanded in place of
    themselves. Raises InputError naming the archive and member on anything unsafe."""
    path, dest = Path(path), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    budget = [limits.max_total_bytes, limits.max_members]
    return _unpack(path, dest, limits, budget, depth=0, prefix="")


def _unpack(path: Path, dest: Path, limits: BundleLimits, budget: list[int], depth: int, prefix: str) -> list[Member]:
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path}: not a readable ZIP archive ({exc})") from exc
    members: list[Member] = []
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir()]
        budget[1] -= len(infos)
        if budget[1] < 0:
            raise InputError(f"{path}: more than {limits.max_members} members; refusing to unpack the bundle")
        for info in infos:
            name = member_name(info)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise InputError(f"{path}: member {name!r} is a symbolic link; refusing to unpack the bundle")
            parts = _safe_parts(name, path)
            if not parts:
                continue
            if info.compress_size and info.file_size / info.compress_size > limits.max_ratio:
                raise InputError(
                    f"{path}: member {name!r} expands {info.file_size / info.compress_size:.0f}x "
                    f"(limit {limits.max_ratio:.0f}x): a zip bomb? refusing to unpack it"
                )
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            written = _copy(archive, info, target, budget, limits, path, name)
            with target.open("rb") as handle:
                kind = _kind(handle.read(2048))
            full = prefix + name
            if kind == "zip" and not _is_office_package(target):
                if depth + 1 > limits.max_depth:
                    raise InputError(f"{path}: ZIPs nested deeper than {limits.max_depth} levels at {full!r}")
                inner = target.with_name(target.name + ".d")
                members.extend(_unpack(target, inner, limits, budget, depth + 1, full + "/"))
                target.unlink()
                continue
            members.append(Member(full, target, kind, written))
    return members


def _kind(head: bytes) -> str:
    # sniff() accepts "%PDF-" anywhere in the first KB (junk before the header), which a stored ZIP
    # holding a PDF also has: a ZIP's own magic at offset 0 wins.
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    return sniff(head)


def _copy(archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: list[int], limits: BundleLimits, path: Path, name: str) -> int:
    written = 0
    try:
        with archive.open(info) as src, target.open("wb") as out:
            while chunk := src.read(1 << 20):
                written += len(chunk)
                budget[0] -= len(chunk)
                if budget[0] < 0:
                    raise InputError(
                        f"{path}: unpacks to more than {limits.max_total_bytes} bytes (at {name!r}); refusing it"
                    )
                if info.compress_size and written / info.compress_size > limits.max_ratio:
                    raise InputError(f"{path}: member {name!r} expands past {limits.max_ratio:.0f}x; refusing it")
                out.write(chunk)
    except InputError:
        target.unlink(missing_ok=True)
        raise
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        target.unlink(missing_ok=True)
        raise InputError(f"{path}: member {name!r} is corrupt ({exc})") from exc
    return written


def _is_office_package(path: Path) -> bool:
    """HWPX (and OOXML) documents are ZIPs too: they are documents, not bundles."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        return False
    return "mimetype" in names or "[Content_Types].xml" in names or any(n.startswith("Contents/") for n in names)
