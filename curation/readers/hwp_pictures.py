"""The pictures embedded in an HWP 5 / HWPX document, in the order the document numbers them
(``BinData/BIN0001.bmp``, ``BIN0002.png``, ...): a key published as screenshots of its tables holds its
answers only there."""

from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path

import olefile

from curation.readers.hwpx import is_hwpx

PICTURE_TYPES = ("bmp", "png", "jpg", "jpeg", "gif", "tif", "tiff")


def hwp_pictures(path: str | Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of each embedded picture; an OLE or ZIP that is not an HWP document gives none."""
    path = Path(path)
    if olefile.isOleFile(str(path)):
        with olefile.OleFileIO(str(path)) as ole:
            found = [
                (entry[1], inflated(ole.openstream(entry).read()))
                for entry in ole.listdir()
                if len(entry) == 2 and entry[0] == "BinData" and _is_picture(entry[1])
            ]
    elif is_hwpx(path):
        with zipfile.ZipFile(path) as archive:
            found = [
                (name.rsplit("/", 1)[-1], archive.read(name))
                for name in archive.namelist()
                if name.startswith("BinData/") and _is_picture(name)
            ]
    else:
        return []
    return sorted(found, key=lambda item: int(re.sub(r"\D", "", item[0].rsplit(".", 1)[0]) or 0))


def _is_picture(name: str) -> bool:
    return name.rsplit(".", 1)[-1].lower() in PICTURE_TYPES


def inflated(data: bytes) -> bytes:
    """HWP 5 stores BinData raw-deflated unless the document or the item says otherwise; a stream that
    does not inflate is stored as is."""
    try:
        return zlib.decompress(data, -15)
    except zlib.error:
        return data
