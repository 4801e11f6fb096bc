"""The redux stage's easy-item filter, with result folders written by ``kmmlu eval score``."""

from __future__ import annotations

import json

import pytest
from test_redux import row, write_csv
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.io import read_items
from curation.redux.easy import EasySettings
from curation.redux.run import ReduxSettings, run_redux
from curation.release.cut import cut_release
from kmmlu_cli import app


def test_easy_filter_reads_result_folders_of_kmmlu_eval(tmp_path):
    rows = [
        row("변압기의 병렬운전 조건에 해당하지 않는 것은?", ["극성이 같을 것", "권수비가 같을 것", "용량이 같을 것",
            "임피던스 전압이 같을 것"], 3),
        row("직류 분권발전기의 계자 저항을 증가시키면 단자 전압은 어떻게 되는가?", ["증가한다", "감소한다",
            "변하지 않는다", "0이 된다"], 2),
        row("송전선로에 복도체를 사용하는 주된 목적은?", ["코로나 방지", "건설비 절감", "전선 무게 감소",
            "유도장해 증가"], 1),
        row("전력용 콘덴서를 부하와 병렬로 설치하는 목적은?", ["주파수 조정", "역률 개선", "절연 강화",
            "고조파 증가"], 2),
        row("3상 유도전동기의 회전 방향을 바꾸는 방법은?", ["전원 전압을 높인다", "두 상의 결선을 바꾼다",
            "극수를 늘린다", "슬립을 줄인다"], 2),
        row("피뢰기가 갖추어야 할 성능으로 옳은 것은?", ["충격방전 개시전압이 높을 것", "제한전압이 높을 것",
            "속류 차단 능력이 클 것", "상용주파 방전개시전압이 낮을 것"], 3),
    ]
    source = write_csv(tmp_path / "Electrical-Engineering-test.csv", rows)
    first = run_redux([source], tmp_path / "pass1")
    assert len(first.survivors) == 6
    release = cut_release(tmp_path / "pass1" / "store", "1", tmp_path / "releases", name="kmmlu-redux").release_dir
    items = read_items(tmp_path / "pass1" / "items.jsonl")
    # How many of the 8 models solve each item: item 0 by 8, 1 by 4 (the K line), 2 by 3, 3 by 0, 4 by 5, 5 by 1.
    solvers = [8, 4, 3, 0, 5, 1]
    runner = CliRunner()
    folders = []
    for model in range(8):
        preds = tmp_path / f"model{model}.jsonl"
        with preds.open("w", encoding="utf-8") as handle:
            for item, count in zip(items, solvers):
                right = item.answer[0]
                guess = right if model < count else (right % 4) + 1
                handle.write(json.dumps({"id": item.id, "prediction": guess}) + "\n")
        folder = tmp_path / "results" / f"model{model}"
        result = runner.invoke(app, ["eval", "score", "--release", str(release), "--predictions", str(preds),
                                     "--out", str(folder), "--model", f"small-{model}"])
        assert result.exit_code == 0, result.output
        folders.append(folder)
    second = run_redux([source], tmp_path / "pass2", ReduxSettings(easy=EasySettings(k=4, n=8)), easy_results=folders)
    dropped = {j.item.id: j for j in second.dropped}
    assert sorted(dropped) == [items[i].id for i in (0, 1, 4)]
    assert "solved by 4 of 8 small models" in dropped[items[1].id].flags[0].reason
    assert second.report.rows["easy"]["total"] == 3 and second.report.meta["easy"]["k"] == 4
    assert [i.id for i in read_items(tmp_path / "pass2" / "items.jsonl")] == [items[i].id for i in (2, 3, 5)]
    stricter = run_redux([source], tmp_path / "pass3", ReduxSettings(easy=EasySettings(k=5, n=8)), easy_results=folders)
    assert len(stricter.dropped) == 2
    with pytest.raises(InputError, match="3 result folder"):
        run_redux([source], tmp_path / "pass4", ReduxSettings(easy=EasySettings(k=2, n=8)), easy_results=folders[:3])
