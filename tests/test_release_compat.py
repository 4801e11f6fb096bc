"""A cut release read the way harnesses read the published KMMLU-Pro and KMMLU-Redux: ``load_dataset(path,
split="test")`` with no config, their column names and types, a 1-based ``solution`` inside ``options``; and
``kmmlu release diff --published`` naming any published column a release lacks or types differently."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import realdata_path
from typer.testing import CliRunner

from curation.catalog import load_catalog
from curation.redux.run import ReduxSettings, run_redux
from curation.release.cut import cut_release
from curation.release.policy import load_policy
from curation.release.published import load_published, schema_drift
from kmmlu_cli import app

sys.path.insert(0, str(Path(__file__).parent))
from release_store import PLANTED, build_store  # noqa: E402

PRO = load_published("KMMLU-Pro")
REDUX = load_published("KMMLU-Redux")
MULTI = next(item_id for item_id, reason in PLANTED.items() if reason == "multi_answer")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def pro_release(tmp_path_factory) -> Path:
    store = build_store(tmp_path_factory.mktemp("store"))
    return cut_release(store, "2026", tmp_path_factory.mktemp("pro"), name="kmmlu-pro").release_dir


@pytest.fixture(scope="module")
def redux_release(tmp_path_factory) -> Path:
    source = realdata_path("kmmlu", "kmmlu_45subjects_500rows_instruction-format.jsonl")
    out = tmp_path_factory.mktemp("redux")
    run_redux([source], out / "run", ReduxSettings(subjects="technical"))
    return cut_release(out / "run" / "store", "2026", out / "releases", name="kmmlu-redux").release_dir


def _load(release: Path, tmp_path: Path, *config: str):
    import datasets

    return datasets.load_dataset(str(release), *config, split="test", cache_dir=str(tmp_path / "cache"))


def _read_like_a_harness(release: Path, published, tmp_path: Path):
    """What a harness written for the published dataset does: no config, the test split, its columns."""
    ds = _load(release, tmp_path)
    schema = ds.data.schema
    for column, expected in published.columns.items():
        assert column in ds.column_names, f"{column} missing: harnesses for {published.repo} read it"
        assert schema.field(column).type.equals(expected), f"{column}: {schema.field(column).type}, not {expected}"
    for row in ds:
        assert isinstance(row["question"], str) and row["question"]
        assert isinstance(row["options"], list) and len(row["options"]) in (4, 5)
        assert all(isinstance(option, str) for option in row["options"])
        assert isinstance(row["solution"], str) and row["solution"].isdigit()
        assert 1 <= int(row["solution"]) <= len(row["options"])
        assert int(row["solution"]) in row["answer"]
        assert isinstance(row["subject"], str) and row["subject"]
    return ds


def test_a_kmmlu_pro_cut_reads_like_the_published_kmmlu_pro(pro_release, tmp_path):
    ds = _read_like_a_harness(pro_release, PRO, tmp_path)
    catalog = load_catalog()
    assert len(ds) == sum(pq.ParquetFile(p).metadata.num_rows for p in pro_release.glob("data/*/*.parquet"))
    assert {(row["license"], row["license_name"]) for row in ds} == {
        (code, catalog.get(code).name_ko) for code in ("cpa", "labor_attorney", "pharmacist", "tax_accountant")}
    assert "공인회계사" in set(ds["license_name"])
    assert all(row["solution"] == str(row["answer"][0]) for row in ds)
    # The per-licence configs stay beside the default one.
    assert set(_load(pro_release, tmp_path, "cpa")["license"]) == {"cpa"}
    assert schema_drift(pro_release, PRO) == []


def test_a_kmmlu_redux_cut_reads_like_the_published_kmmlu_redux(redux_release, tmp_path):
    ds = _read_like_a_harness(redux_release, REDUX, tmp_path)
    domains = {domain.code: domain.name_ko for domain in load_catalog().technical_domains}
    assert {row["category"] for row in ds} <= set(domains.values()) and len(set(ds["category"])) > 10
    assert all(row["category"] == domains[row["license"]] for row in ds)
    assert "안전관리" in set(ds["category"]) and set(ds["license_name"]) == {None}
    assert schema_drift(redux_release, REDUX) == []


def test_the_card_shows_the_default_config_and_how_to_run_it(pro_release):
    card = (pro_release / "README.md").read_text(encoding="utf-8")
    assert "- config_name: default\n  default: true\n  data_files:\n  - split: test\n    path: data/*/test-*.parquet" in card
    assert "config_name: cpa" in card
    for shown in ('split="test")', "kmmlu eval run --release", "lm_eval --model hf", "--include_path lm_eval",
                  'int(row["solution"])', "hf_dataset(", "## Pass rules"):
        assert shown in card, shown
    assert card.index("## Pass rules") < card.index("## Contents")  # beside the ways to run it
    assert "leaves out items whose key accepts several options" in card


def test_a_kept_multi_answer_item_ships_its_lowest_option_as_solution(tmp_path):
    policy = load_policy().model_copy(update={"exclude": load_policy().exclude.model_copy(update={"multi_answer": False})})
    release = cut_release(build_store(tmp_path / "store"), "2026", tmp_path / "r", policy=policy).release_dir
    row = next(r for r in _load(release, tmp_path) if r["id"] == MULTI)
    assert (row["answer"], row["solution"]) == ([1, 3], "1")
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "1 items accept several options" in card and "`solution` is the lowest-numbered accepted option" in card


@pytest.mark.parametrize("published", ["KMMLU-Pro", "KMMLU-Redux"])
def test_release_diff_published_passes_a_cut_that_drops_in(published, pro_release, redux_release):
    release = pro_release if published == "KMMLU-Pro" else redux_release
    shown = CliRunner().invoke(app, ["release", "diff", str(release), "--published", published], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "every column of" in shown.output


def _rewrite(release: Path, to: Path, change) -> Path:
    copy = shutil.copytree(release, to)
    for path in copy.glob("data/*/*.parquet"):
        pq.write_table(change(pq.read_table(path)), path)
    return copy


@pytest.mark.parametrize("column", sorted(set(PRO.columns) | set(REDUX.columns)))
def test_release_diff_published_names_a_missing_or_retyped_column(column, pro_release, redux_release, tmp_path):
    release, published = (pro_release, "KMMLU-Pro") if column in PRO.columns else (redux_release, "KMMLU-Redux")
    dropped = _rewrite(release, tmp_path / "dropped", lambda table: table.drop_columns([column]))
    shown = CliRunner().invoke(app, ["release", "diff", str(dropped), "--published", published], env={"COLUMNS": "200"})
    assert shown.exit_code == 1 and f"{column}: missing" in shown.output, shown.output

    def retype(table: pa.Table) -> pa.Table:
        index = table.schema.get_field_index(column)
        return table.set_column(index, pa.field(column, pa.large_string()), pa.array([None] * len(table), pa.large_string()))

    retyped = _rewrite(release, tmp_path / "retyped", retype)
    drift = schema_drift(retyped, load_published(published))
    assert [(d.column, d.found) for d in drift] == [(column, "large_string")]
    shown = CliRunner().invoke(app, ["release", "diff", str(retyped), "--published", published], env={"COLUMNS": "200"})
    assert shown.exit_code == 1 and f"{column}: large_string, published as" in shown.output, shown.output


def test_release_diff_refuses_an_unknown_published_name(pro_release):
    shown = CliRunner().invoke(app, ["release", "diff", str(pro_release), "--published", "KMMLU-pro"])
    assert shown.exit_code != 0 and "did you mean 'KMMLU-Pro'" in str(shown.exception or shown.output)


def test_a_release_file_still_reads_as_items_for_dedup_and_decontam(pro_release):
    from curation.core.io import read_items

    path = pro_release / "data" / "cpa" / "test-00000-of-00001.parquet"
    items = read_items(path)
    assert [item.id for item in items] == pq.read_table(path, columns=["id"]).column("id").to_pylist()
    assert all(item.license == "cpa" and item.answer for item in items)
