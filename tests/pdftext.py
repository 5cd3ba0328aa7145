"""Text of a PDF printed by chromium (Skia), for tests: no PDF library is a
dependency, and Skia writes simple files (Flate streams, Type0 fonts with a
ToUnicode CMap, hex strings in Tj/TJ)."""

from __future__ import annotations

import re
import zlib

_OBJ = re.compile(rb"(\d+)\s+0\s+obj(.*?)endobj", re.S)
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)


def _stream(body: bytes) -> bytes:
    m = _STREAM.search(body)
    if not m:
        return b""
    data = m.group(1)
    try:
        return zlib.decompress(data)
    except zlib.error:
        return data


def _cmap(text: bytes) -> dict[int, str]:
    out = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            base = int(dst, 16)
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(base + i)
    return out


def pdf_text(data: bytes) -> str:
    return "".join(pdf_pages(data))


def pdf_pages(data: bytes) -> list[str]:
    """The text of each content stream that shows text: one per page in chromium's files (in the
    file's object order, which need not be the pages' order)."""
    objs = {int(n): body for n, body in _OBJ.findall(data)}
    fonts: dict[int, dict[int, str]] = {}
    for n, body in objs.items():
        m = re.search(rb"/ToUnicode\s+(\d+)\s+0\s+R", body)
        if m and b"/Font" in body:
            fonts[n] = _cmap(_stream(objs.get(int(m.group(1)), b"")))
    names: dict[bytes, dict[int, str]] = {}
    for body in objs.values():
        for name, ref in re.findall(rb"/(F\d+)\s+(\d+)\s+0\s+R", body):
            if int(ref) in fonts:
                names[name] = fonts[int(ref)]
    pages = []
    for body in objs.values():
        content = _stream(body)
        if b"Tf" not in content:
            continue
        text: list[str] = []
        cmap: dict[int, str] = {}
        for tok in re.finditer(rb"/(F\d+)\s+[\d.]+\s+Tf|\[(.*?)\]\s*TJ|<([0-9A-Fa-f]*)>\s*Tj|(BT)", content, re.S):
            if tok.group(1):
                cmap = names.get(tok.group(1), {})
            elif tok.group(4):
                text.append(" ")
            else:
                hexes = re.findall(rb"<([0-9A-Fa-f]*)>", tok.group(2)) if tok.group(2) is not None else [tok.group(3)]
                for h in hexes:
                    h = h.decode()
                    text.append("".join(cmap.get(int(h[i : i + 4], 16), "?") for i in range(0, len(h) - 3, 4)))
        pages.append("".join(text))
    return pages
