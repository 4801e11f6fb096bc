"""One scoring protocol: the lm-eval task a release ships prompts, reads answers and scores exactly as
`kmmlu eval` does. The same recorded model outputs, replayed through lm_eval's own task machinery
(`simple_evaluate`), give the numbers `kmmlu eval score` gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from curation.evaluate import extract, prompt_text
from curation.evaluate.backends import Response
from curation.evaluate.dataset import load_release
from curation.evaluate.prompts import PromptSpec
from curation.evaluate.responses import predict
from curation.release import lmeval
from kmmlu_cli import app

RECORDED = {row["name"]: row for row in map(json.loads, (Path(__file__).parent / "recorded_outputs.jsonl")
                                              .read_text(encoding="utf-8").splitlines())}

# The recorded output each release item answers with (keys in tests/evalsupport.py).
ANSWERS = {
    "cpa-2025-1-A-001": "ko-final-line-a",           # key 1: right
    "cpa-2025-1-A-002": "ko-restated-format-d",      # key 3: wrong
    "cpa-2025-1-A-003": "ko-parenthesised-d",        # keys 2 and 4: right by the second accepted answer
    "cpa-2025-1-A-004": "tiny-2-many-d",             # key 5: no answer
    "lawyer-2025-1-A-005": "en-answer-a",            # key 1: right
    "lawyer-2025-1-A-006": "think-then-b",           # key 2: right (the A while thinking does not count)
    "lawyer-2025-1-A-007": "ko-answer-is-c",         # key 3: right
    "lawyer-2025-1-A-008": "tiny-2-jeongdap-without-colon",  # key 4: 정답 D without the colon: no answer
    "judicial_scrivener-2025-1-A-009": "ko-circled-1",       # key 1: right
    "judicial_scrivener-2025-1-A-010": "tiny-0-answer-word",  # key 2: no answer
    "customs_broker-2025-1-A-011": "ko-final-line-e-of-four",  # key 3, four options: E is none of them
    "customs_broker-2025-1-A-012": "ko-bold-d",      # key 4: right
}


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-datasets"))


def lm_eval_replay(release: Path, outputs: dict[str, str]) -> tuple[dict, dict[str, list[dict]]]:
    """lm_eval's results and the chat each item was asked, for a model that answers item id -> text."""
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    class Replay(LM):
        tokenizer_name = "replay"

        def __init__(self) -> None:
            super().__init__()
            self.asked: dict[str, list[dict]] = {}

        def apply_chat_template(self, chat_history, add_generation_prompt=True) -> str:
            return json.dumps(chat_history, ensure_ascii=False)

        def generate_until(self, requests, disable_tqdm=False):
            for request in requests:
                self.asked[request.doc["id"]] = json.loads(request.args[0])
            return [outputs[request.doc["id"]] for request in requests]

        def loglikelihood(self, requests, disable_tqdm=False):
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            raise NotImplementedError

    model = Replay()
    cwd = Path.cwd()
    os.chdir(release)  # the task's data paths are relative to the release, as for a user
    try:
        results = simple_evaluate(model=model, tasks=[lmeval.group_name("kmmlu-pro")], log_samples=True,
                                  apply_chat_template=True,
                                  task_manager=TaskManager(include_path=str(release / lmeval.FOLDER),
                                                           include_defaults=False))
    finally:
        os.chdir(cwd)
    return results, model.asked


def kmmlu_eval_score(release: Path, outputs: dict[str, str], tmp_path: Path) -> dict:
    """`kmmlu eval score` over the choices `kmmlu eval run` reads out of the same outputs."""
    items = load_release(release).by_id()
    lines = [predict(items[item_id], Response(text=text)).record() for item_id, text in outputs.items()]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines), encoding="utf-8")
    result = CliRunner().invoke(app, ["eval", "score", "--release", str(release), "--predictions", str(predictions),
                                      "--out", str(tmp_path / "scored"), "--model", "replay"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "scored" / "summary.json").read_text(encoding="utf-8"))


def test_the_same_recorded_outputs_score_the_same_through_lm_eval_and_kmmlu_eval(eval_release, tmp_path):
    outputs = {item_id: RECORDED[name]["text"] for item_id, name in ANSWERS.items()}
    assert set(outputs) == {item.id for item in load_release(eval_release).items}
    results, asked = lm_eval_replay(eval_release, outputs)
    summary = kmmlu_eval_score(eval_release, outputs, tmp_path)

    # lm_eval asked every item exactly what `kmmlu eval` asks: the same chat, options lettered A-E
    items = load_release(eval_release).by_id()
    assert asked == {item_id: PromptSpec("ko").messages(item) for item_id, item in items.items()}

    per_task = {name.removeprefix("kmmlu_pro_"): row["exact_match,none"] for name, row in results["results"].items()
                if name != "kmmlu_pro"}
    assert per_task == {lic["license"]: lic["accuracy"] for lic in summary["licenses"]}
    right = sum(lic["accuracy"] * lic["total"] for lic in summary["licenses"])
    assert results["results"]["kmmlu_pro"]["exact_match,none"] == pytest.approx(right / summary["items"])
    # item by item, not only on average
    samples = {s["doc"]["id"]: s["exact_match"] for task in results["samples"].values() for s in task}
    scored = {p["id"]: float(p["prediction"] in items[p["id"]].answer) if p["prediction"] else 0.0
              for p in map(json.loads, (tmp_path / "scored" / "predictions.jsonl").read_text().splitlines())}
    assert samples == scored
    # the replay is a real test of both: right, wrong, unanswered and multi-answer items
    assert 0 < right < summary["items"]
    assert samples["cpa-2025-1-A-003"] == 1.0 and samples["customs_broker-2025-1-A-011"] == 0.0


def test_the_task_carries_the_protocol_byte_for_byte(eval_release):
    folder = eval_release / lmeval.FOLDER
    assert (folder / "prompt_text.py").read_bytes() == Path(prompt_text.__file__).read_bytes()
    assert (folder / "extract.py").read_bytes() == Path(extract.__file__).read_bytes()
    for name in ("cpa", "customs_broker", "judicial_scrivener", "lawyer"):
        spec = (folder / f"kmmlu_pro_{name}.yaml").read_text(encoding="utf-8")
        assert "process_results: !function 'utils.process_results'" in spec and "until: []" in spec


def test_the_task_runs_without_curation(eval_release, tmp_path):
    """A user's lm_eval has no `curation`: the task's utils.py loads its copies and nothing of ours."""
    release = tmp_path / "elsewhere"
    subprocess.run(["cp", "-r", str(eval_release), str(release)], check=True)
    item = load_release(eval_release).items[2]
    probe = (
        "import importlib.util, json, sys\n"
        "spec = importlib.util.spec_from_file_location('utils', 'lm_eval/utils.py')\n"
        "utils = importlib.util.module_from_spec(spec); spec.loader.exec_module(utils)\n"
        f"doc = json.loads({json.dumps(json.dumps(item.to_record(), ensure_ascii=False))})\n"
        "print(json.dumps([utils.doc_to_text(doc), utils.doc_to_target(doc),\n"
        "                  utils.process_results(doc, ['정답: D']), utils.process_results(doc, ['정답: C'])]))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('curation', 'kmmlu_cli', 'flows')))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-I", "-c", probe], cwd=release, env=env, capture_output=True, text=True,
                          check=True)
    shown, ours = done.stdout.splitlines()
    assert json.loads(shown) == [PromptSpec("ko").render(item), "B, D", {"exact_match": 1.0}, {"exact_match": 0.0}]
    assert ours == "[]"


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_recorded_outputs_are_read_as_recorded(name):
    """The protocol reads every recorded output (real ones of the tiny random models, hand-written ones in the
    forms chat models answer) as the fixture says, with the rule it names."""
    row = RECORDED[name]
    found = extract.extract_choice(row["text"], n_options=row["n_options"])
    assert (found.choice, found.rule) == (row["choice"], row["rule"]), row["why"]
