"""The license catalog: validated on load, the 14 KMMLU-Pro codes with their pass rules, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from curation.catalog import DEFAULT_CATALOG, KMMLU_PRO_CODES, load_catalog
from curation.core.errors import ConfigError


def test_fourteen_licenses_with_pass_rules():
    cat = load_catalog()
    assert tuple(lic.code for lic in cat.kmmlu_pro) == KMMLU_PRO_CODES
    rules = {lic.code: lic.pass_rule for lic in cat.kmmlu_pro}
    assert (rules["cpa"].subject_min, rules["cpa"].average_min, rules["cpa"].total_min) == (0.4, 0.6, None)
    assert (rules["judicial_scrivener"].subject_min, rules["judicial_scrivener"].average_min) == (0.4, None)
    assert (rules["lawyer"].total_min, rules["lawyer"].subject_min) == (0.5422, None)
    for lic in cat.kmmlu_pro:
        assert lic.domain in {"law", "tax_accounting", "value_estimation", "medicine"}
        assert lic.name_ko and lic.subjects and lic.source and lic.body


def test_technical_domains_are_fourteen():
    cat = load_catalog()
    assert len(cat.technical_domains) == 14
    assert cat.technical_domain_of("Chemical-Engineering") == "chemistry"
    assert all(lic.domain in {d.code for d in cat.technical_domains} for lic in cat.licenses if lic.kind == "technical")


def test_unknown_code_suggests_the_nearest():
    with pytest.raises(ConfigError, match="did you mean 'pharmacist'"):
        load_catalog().get("pharmacis")


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda raw: raw["licenses"].pop(0), "lawyer.*missing"),
        (lambda raw: raw["licenses"][0].update(pass_rule="nope"), "pass_rule 'nope'"),
        (lambda raw: raw["licenses"][1].update(options=9), r"patent_attorney.*options"),
        (lambda raw: raw["licenses"][2].update(domain="space"), "labor_attorney: domain 'space'"),
    ],
)
def test_invalid_catalog_names_the_entry(tmp_path, mutate, message):
    raw = yaml.safe_load(DEFAULT_CATALOG.read_text(encoding="utf-8"))
    mutate(raw)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_catalog(path)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from kmmlu_cli import main; main()", *args], capture_output=True, text=True, timeout=120)


def test_cli_catalog_json_lists_codes_and_rules():
    proc = run_cli("catalog", "--json")
    assert proc.returncode == 0, proc.stderr
    licenses = json.loads(proc.stdout)["licenses"]
    assert [lic["code"] for lic in licenses] == list(KMMLU_PRO_CODES)
    lawyer = licenses[0]
    assert lawyer["pass_rule"]["total_min"] == 0.5422


def test_cli_catalog_table_and_errors():
    proc = run_cli("catalog")
    assert proc.returncode == 0 and "judicial_scrivener" in proc.stdout
    proc = run_cli("catalog", "--catalog", "/nonexistent.yaml")
    assert proc.returncode == 2 and "catalog file not found" in proc.stderr and "Traceback" not in proc.stderr


def test_unconfirmed_endpoints_are_named():
    catalog = load_catalog()
    lines = catalog.unconfirmed_endpoints([lic.code for lic in catalog.kmmlu_pro])
    unconfirmed = [lic for lic in catalog.kmmlu_pro if lic.discovery is not None and lic.discovery.unconfirmed]
    assert len(lines) == len(unconfirmed) >= 1
    assert all(line.startswith(f"{lic.code}: ") and "unconfirmed" in line for line, lic in zip(lines, unconfirmed))
    assert catalog.unconfirmed_endpoints(["cpa"]) == []  # the CPA board was confirmed
