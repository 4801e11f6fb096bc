"""A static leaderboard: one ``index.html`` with its data, CSS and JS inline, readable from disk with no
server and no CDN. Models x licences with accuracy and a pass mark, licences passed, a drill-down per
subject in every cell, columns sortable by clicking their header (or ``#sort=<column>&dir=asc|desc``).

The page builds its table from the embedded JSON with DOM text nodes only, so no model, licence or subject
name can inject markup; the JSON itself is escaped so it cannot close its script element.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from curation.catalog import load_catalog
from curation.core.errors import InputError
from curation.core.io import atomic_write
from curation.evaluate.report import Result


def board_data(results: Sequence[Result]) -> dict[str, Any]:
    if not results:
        raise InputError("no result folders given: pass the --out folders of `kmmlu eval run`")
    catalog = load_catalog()
    codes = sorted({lic.license for result in results for lic in result.summary.licenses})
    licenses = []
    for code in codes:
        found = catalog.find(code)
        sample = next(lic for r in results for lic in r.summary.licenses if lic.license == code)
        licenses.append({
            "code": code,
            "name": (found.name_ko if found else sample.license_ko) or code,
            "rule": sample.rule or "no pass rule in the catalog",
        })
    models = []
    for result in results:
        meta, summary = result.meta, result.summary
        models.append({
            "model": meta.model,
            "backend": meta.backend,
            "prompt": meta.prompt_id or meta.prompt_version,
            "release": meta.release,
            "manifest": meta.manifest_sha256[:12],
            "passed": summary.passed_count,
            "accuracy": summary.accuracy,
            "items": summary.items,
            "cells": {
                lic.license: {
                    "accuracy": lic.accuracy,
                    "passed": lic.passed,
                    "total": lic.total,
                    "subjects": lic.subjects,
                    "why": list(lic.failed_because),
                }
                for lic in summary.licenses
            },
        })
    return {
        "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "licenses": licenses,
        "models": models,
    }


def _script_json(data: dict[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def render_html(data: dict[str, Any]) -> str:
    return _PAGE.replace("__DATA__", _script_json(data))


def write_site(results: Sequence[Result], out: Path) -> Path:
    page = out / "index.html"
    with atomic_write(page) as handle:
        handle.write(render_html(board_data(results)))
    return page


_PAGE = """<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>KMMLU-Pro leaderboard</title>
<style>
body { font-family: system-ui, "Noto Sans KR", sans-serif; margin: 2rem; color: #222; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; }
p.note { color: #555; margin-top: .2rem; }
table#board { border-collapse: collapse; font-size: .9rem; }
#board th, #board td { border: 1px solid #ccc; padding: .35rem .5rem; vertical-align: top; }
#board th { background: #f3f3f3; cursor: pointer; user-select: none; white-space: nowrap; }
#board th[aria-sort="ascending"]::after { content: " \\25B2"; }
#board th[aria-sort="descending"]::after { content: " \\25BC"; }
#board td.num { text-align: right; }
summary { white-space: nowrap; cursor: pointer; }
td.pass summary { color: #1b5e20; font-weight: 600; }
td.fail summary { color: #b71c1c; }
td.none { color: #999; }
details table { border-collapse: collapse; margin-top: .3rem; font-size: .8rem; }
details td { border: 0; padding: 0 .4rem 0 0; }
small { color: #666; }
</style>
</head>
<body>
<h1>KMMLU-Pro leaderboard</h1>
<p class="note">Accuracy per licence; &#10003; = passes the licence's official rule, &#10007; = fails.
Click a cell for its subjects, a column header to sort.</p>
<noscript>This page builds its table with JavaScript; enable it to see the leaderboard.</noscript>
<table id="board"><thead></thead><tbody></tbody></table>
<p class="note" id="generated"></p>
<script type="application/json" id="board-data">__DATA__</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("board-data").textContent);
  var columns = [
    {key: "model", label: "Model", value: function (m) { return m.model; }},
    {key: "passed", label: "Licences passed", value: function (m) { return m.passed; }},
    {key: "accuracy", label: "Overall", value: function (m) { return m.accuracy; }}
  ];
  data.licenses.forEach(function (lic) {
    columns.push({key: lic.code, label: lic.name, title: lic.code + ": " + lic.rule, license: lic.code,
      value: function (m) { var c = m.cells[lic.code]; return c ? c.accuracy : -1; }});
  });
  var state = {key: "passed", dir: "desc"};
  location.hash.replace(/^#/, "").split("&").forEach(function (part) {
    var kv = part.split("=");
    if (kv[0] === "sort" && kv[1]) { state.key = decodeURIComponent(kv[1]); }
    if (kv[0] === "dir" && (kv[1] === "asc" || kv[1] === "desc")) { state.dir = kv[1]; }
  });
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }
  function pct(x) { return (x * 100).toFixed(2) + "%"; }
  function cell(model, lic) {
    var c = model.cells[lic];
    if (!c) { return el("td", "\\u2013", "none"); }
    var mark = c.passed === true ? " \\u2713" : c.passed === false ? " \\u2717" : "";
    var td = el("td", null, c.passed === true ? "pass" : c.passed === false ? "fail" : "");
    td.dataset.license = lic;
    td.dataset.passed = String(c.passed);
    var details = el("details");
    details.appendChild(el("summary", pct(c.accuracy) + mark));
    var sub = el("table");
    Object.keys(c.subjects).forEach(function (name) {
      var tr = el("tr");
      tr.appendChild(el("td", name));
      tr.appendChild(el("td", pct(c.subjects[name])));
      sub.appendChild(tr);
    });
    details.appendChild(sub);
    details.appendChild(el("small", c.total + " items" + (c.why.length ? "; " + c.why.join("; ") : "")));
    td.appendChild(details);
    return td;
  }
  function render() {
    var col = columns.filter(function (c) { return c.key === state.key; })[0] || columns[1];
    var sign = state.dir === "asc" ? 1 : -1;
    var rows = data.models.slice().sort(function (a, b) {
      var x = col.value(a), y = col.value(b);
      if (x < y) { return -sign; }
      if (x > y) { return sign; }
      return b.accuracy - a.accuracy;
    });
    var head = document.querySelector("#board thead");
    head.textContent = "";
    var htr = el("tr");
    columns.forEach(function (c) {
      var th = el("th", c.label);
      th.dataset.key = c.key;
      if (c.title) { th.title = c.title; }
      if (c.key === col.key) { th.setAttribute("aria-sort", state.dir === "asc" ? "ascending" : "descending"); }
      th.addEventListener("click", function () {
        state.dir = state.key === c.key && state.dir === "desc" ? "asc" : "desc";
        state.key = c.key;
        render();
      });
      htr.appendChild(th);
    });
    head.appendChild(htr);
    var body = document.querySelector("#board tbody");
    body.textContent = "";
    rows.forEach(function (m) {
      var tr = el("tr");
      tr.dataset.model = m.model;
      var name = el("td");
      name.appendChild(el("span", m.model, "model"));
      name.appendChild(el("br"));
      var about = [m.backend, m.prompt, m.release + " (" + m.manifest + ")"].join(" \\u00b7 ");
      name.appendChild(el("small", about));
      tr.appendChild(name);
      tr.appendChild(el("td", m.passed + " / " + Object.keys(m.cells).length, "num"));
      tr.appendChild(el("td", pct(m.accuracy), "num"));
      data.licenses.forEach(function (lic) { tr.appendChild(cell(m, lic.code)); });
      body.appendChild(tr);
    });
  }
  document.getElementById("generated").textContent = "Generated " + data.generated + ".";
  render();
}());
</script>
</body>
</html>
"""
