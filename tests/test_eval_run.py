"""``kmmlu eval run`` end to end: transformers in process with a tiny random Llama built here, and an
OpenAI-compatible HTTP server started by the test (retries, cache, ``--serve vllm``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import threading
from pathlib import Path

import pytest
from evalsupport import tiny_causal_lm
from support.http_server import LocalServer, send_json
from typer.testing import CliRunner

from curation.core.io import sha256_file
from curation.evaluate.dataset import load_release
from kmmlu_cli import app

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("prefect_harness")  # `eval run` runs the evaluate flow


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def release(eval_release: Path) -> Path:
    return eval_release


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch

    # A 0.5 MB model gains nothing from a second thread, and on a busy machine thread spin-waits cost 10x.
    torch.set_num_threads(1)
    return tiny_causal_lm(tmp_path_factory.mktemp("models") / "tiny-llama")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# --- hf backend -------------------------------------------------------------------------------------------


def test_hf_backend_end_to_end(release: Path, tiny_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "hf"
    model = Path(shutil.copytree(tiny_model, tmp_path / "model"))
    args = ("eval", "run", "--release", str(release), "--model", str(model), "--backend", "hf",
            "--batch-size", "4", "--max-new-tokens", "6", "--seed", "7", "--out", str(out))
    output = invoke(*args)
    assert "12 requests sent, 0 responses from the cache" in output
    run = json.loads((out / "run.json").read_text())
    assert run["model"] == str(model) and run["backend"] == "hf" and run["seed"] == 7
    assert run["prompt_id"] == "zs-cot-v1-ko" and run["scoring_version"] and run["extract_version"]
    assert run["manifest_sha256"] == sha256_file(release / "manifest.json")
    assert "device=cpu dtype=float32 batch_size=4" == run["backend_detail"]
    predictions = read_jsonl(out / "predictions.jsonl")
    assert len(predictions) == 12 and all(isinstance(p["response"], str) for p in predictions)
    summary = json.loads((out / "summary.json").read_text())
    assert [lic["license"] for lic in summary["licenses"]] == ["cpa", "customs_broker", "judicial_scrivener", "lawyer"]
    assert set(summary["licenses"][0]["subjects"]) == {"회계학", "세법개론"}
    assert summary["passed_count"] == sum(1 for lic in summary["licenses"] if lic["passed"])
    assert (out / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "accuracy.png" in (out / "report.md").read_text()

    # a re-run answers everything from the cache and gives the same predictions, without loading the model
    (model / "model.safetensors").unlink()
    again = invoke(*args)
    assert "0 requests sent, 12 responses from the cache" in again
    assert read_jsonl(out / "predictions.jsonl") == predictions


def test_hf_batching_with_left_padding_matches_one_by_one(release: Path, tiny_model: Path) -> None:
    from curation.evaluate.backends import GenerationSettings, Request
    from curation.evaluate.backends.hf import HFBackend
    from curation.evaluate.prompts import PromptSpec

    items = load_release(release).items[:6]
    requests = [Request(item.id, tuple(PromptSpec("en").messages(item))) for item in items]
    settings = GenerationSettings(max_new_tokens=5)
    batched = {r.item_id: out.text for r, out in HFBackend(str(tiny_model), settings, batch_size=6).generate(requests)}
    single = {r.item_id: out.text for r, out in HFBackend(str(tiny_model), settings, batch_size=1).generate(requests)}
    assert batched == single
    assert len({len(PromptSpec("en").render(item)) for item in items}) > 1  # the batch really needed padding


def test_hf_thinking_budget_closes_thinking(release: Path, tiny_model: Path) -> None:
    from curation.evaluate.backends import GenerationSettings, Request
    from curation.evaluate.backends.hf import HFBackend
    from curation.evaluate.prompts import PromptSpec

    item = load_release(release).items[0]
    settings = GenerationSettings.for_model(reasoning=True, max_new_tokens=3, thinking_budget=4, seed=1)
    assert (settings.temperature, settings.top_p) == (0.6, 0.95)
    backend = HFBackend(str(tiny_model), settings, batch_size=1)
    [(_, response)] = list(backend.generate([Request(item.id, tuple(PromptSpec("ko").messages(item)))]))
    # the random model did not end its thinking within 4 tokens (seeded): the budget closed it, and the
    # answer phase continued after it
    thought, answer = response.text.split("</think>")
    assert thought and answer.strip()


# --- openai backend ---------------------------------------------------------------------------------------

# Canned chain-of-thought answers per item number: right for cpa 1, 3 (multi-answer, picks 4) and 4; wrong
# for cpa 2; the lawyer items in English style; one answer without the requested last line.
CANNED = {
    1: "회계학 원칙에 따라 각 선택지를 검토하면, A만 기준서와 일치한다.\n\n정답: A",
    2: "B는 감가상각 방법을 잘못 설명하고, C 역시 틀렸다... 따라서 옳은 것은 D이다.\n정답: D",
    3: "부가가치세법상 D가 옳다.\n\n정답: (D)",
    4: "소득세법 제20조를 보면 E가 맞다.\n정답: **E**",
    5: "Under the Constitution, option A is correct.\nAnswer: A",
    6: "The Civil Act makes B the right answer.\nAnswer: B",
    7: "형법 총칙상 C는 옳다. 검토 결과 정답은 C입니다.",
    8: "잘 모르겠습니다.",
}


class FakeOpenAI(LocalServer):
    """Speaks /v1/chat/completions; fails the first request for item 2 with a 500 and the first for item 5
    with a 429, so the client must retry."""

    def __init__(self) -> None:
        super().__init__(fallback=self._answer)
        self.posts: list[dict] = []
        self.failures_left = {2: [500], 5: [429]}
        self.lock = threading.Lock()

    @property
    def base_url(self) -> str:
        return self.url("/v1")

    def _answer(self, handler) -> None:
        body = json.loads(handler.body)
        number = int(re.search(r"문항 (\d+)", body["messages"][-1]["content"]).group(1))
        with self.lock:
            self.posts.append(body)
            pending = self.failures_left.get(number)
            status = pending.pop(0) if pending else 200
        if handler.path != "/v1/chat/completions":
            status = 404
        if status != 200:
            return send_json(handler, status, {"error": "try again"}, {"Retry-After": "0"} if status == 429 else {})
        text = CANNED.get(number, "정답: A")
        send_json(handler, 200, {"choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                              "finish_reason": "stop"}]})


def test_openai_backend_retries_caches_and_scores(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "openai"
    args = ("eval", "run", "--release", str(release), "--model", "served-model", "--backend", "openai",
            "--base-url", "", "--concurrency", "4", "--rate-limit", "200", "--out", str(out), "--prompt", "ko")
    with FakeOpenAI() as server:
        args = tuple(server.base_url if a == "" else a for a in args)
        invoke(*args)
        assert len(server.posts) == 12 + 2  # every item once, plus the retries after the 500 and the 429
        assert {r["model"] for r in server.posts} == {"served-model"}
        assert server.posts[0]["temperature"] == 0.0 and server.posts[0]["seed"] == 0
        predictions = {p["id"]: p for p in read_jsonl(out / "predictions.jsonl")}
        assert predictions["cpa-2025-1-A-002"]["prediction"] == 4
        assert predictions["lawyer-2025-1-A-007"]["extracted_by"] == "answer_is"
        assert predictions["lawyer-2025-1-A-008"]["prediction"] is None
        summary = json.loads((out / "summary.json").read_text())
        cpa = summary["licenses"][0]
        assert cpa["license"] == "cpa" and cpa["subjects"] == {"세법개론": 1.0, "회계학": 0.5}
        assert cpa["accuracy"] == 0.75 and cpa["passed"] is True
        lawyer = next(lic for lic in summary["licenses"] if lic["license"] == "lawyer")
        assert lawyer["accuracy"] == 0.75 and lawyer["passed"] is True

        # a re-run sends nothing: every response comes from the cache
        before = len(server.posts)
        output = invoke(*args)
        assert len(server.posts) == before
        assert "0 requests sent, 12 responses from the cache" in output

        # the English prompt is another prompt: asked again
        invoke(*args[:-1], "en", "--limit", "1")
        assert len(server.posts) == before + 4
        assert "Answer: X" in server.posts[-1]["messages"][0]["content"]


def test_openai_backend_gives_up_after_retries_and_keeps_the_rest(release: Path, tmp_path: Path) -> None:
    from curation.core.errors import FetchError

    out = tmp_path / "failing"
    with FakeOpenAI() as server:
        server.failures_left = {2: [500, 500, 500]}
        result = runner.invoke(app, ["eval", "run", "--release", str(release), "--model", "m", "--backend", "openai",
                                     "--base-url", server.base_url, "--max-retries", "1", "--out", str(out)])
        assert isinstance(result.exception, FetchError)
        assert "1 of 12 requests failed" in str(result.exception) and "cpa-2025-1-A-002" in str(result.exception)
        server.failures_left = {}
        output = invoke("eval", "run", "--release", str(release), "--model", "m", "--backend", "openai",
                        "--base-url", server.base_url, "--out", str(out))
        assert "1 requests sent, 11 responses from the cache" in output


FAKE_VLLM = '''#!{python}
"""A stand-in for `vllm serve MODEL --host H --port P`: an OpenAI-compatible server, healthy after a delay."""
import json, os, sys, time
sys.path.insert(0, {tests!r})
from support.http_server import LocalServer, send, send_json

args = sys.argv[1:]
assert args[0] == "serve", args
model, host, port = args[1], args[args.index("--host") + 1], int(args[args.index("--port") + 1])
with open(os.environ["FAKE_VLLM_PIDFILE"], "w") as handle:
    handle.write(str(os.getpid()))
print("loading weights ...", flush=True)
time.sleep(1.0)
server = LocalServer(host, port)

@server.route("/health")
def health(handler):
    send(handler, 200)

@server.route("/v1/chat/completions")
def chat(handler):
    assert json.loads(handler.body)["model"] == model
    send_json(handler, 200, {{"choices": [{{"message": {{"content": "정답: A"}}, "finish_reason": "stop"}}]}})

server.serve_forever()
'''


def test_serve_vllm_starts_waits_and_stops(release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "vllm"
    fake.write_text(FAKE_VLLM.format(python=sys.executable, tests=str(Path(__file__).parent)), encoding="utf-8")
    fake.chmod(0o755)
    pidfile = tmp_path / "vllm.pid"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_VLLM_PIDFILE", str(pidfile))
    out = tmp_path / "served"
    output = invoke("eval", "run", "--release", str(release), "--model", "org/model-7b", "--backend", "openai",
                    "--serve", "vllm", "--license", "cpa", "--out", str(out))
    assert "4 requests sent" in output
    assert "loading weights" in (out / "vllm.log").read_text()
    pid = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # stopped after the run (and reaped: no zombie left)
    run = json.loads((out / "run.json").read_text())
    assert run["backend_detail"].startswith("base_url=http://127.0.0.1:")

    # everything is cached now: a re-run does not start the server at all
    pidfile.unlink()
    output = invoke("eval", "run", "--release", str(release), "--model", "org/model-7b", "--backend", "openai",
                    "--serve", "vllm", "--license", "cpa", "--out", str(out))
    assert "0 requests sent, 4 responses from the cache" in output and not pidfile.exists()


def test_serve_vllm_reports_a_server_that_dies(release: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from curation.core.errors import FetchError

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "vllm"
    fake.write_text(f"#!{sys.executable}\nimport sys\nprint('CUDA out of memory', flush=True)\nsys.exit(3)\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = runner.invoke(app, ["eval", "run", "--release", str(release), "--model", "m", "--backend", "openai",
                                 "--serve", "vllm", "--out", str(tmp_path / "o")])
    assert isinstance(result.exception, FetchError)
    assert "exited with code 3" in str(result.exception) and "CUDA out of memory" in str(result.exception)


def test_score_command_on_a_predictions_file(release: Path, tmp_path: Path) -> None:
    preds = tmp_path / "preds.jsonl"
    lines = [{"id": item.id, "prediction": item.answer[-1]} for item in load_release(release).items]
    lines[0]["prediction"] = None
    lines.append({"id": "cpa-2024-1-A-001", "prediction": 1})  # excluded from this release
    preds.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    output = invoke("eval", "score", "--release", str(release), "--predictions", str(preds),
                    "--out", str(tmp_path / "scored"), "--model", "oracle")
    assert "1 predictions are for items not in the release" in output
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text())
    assert summary["items"] == 12 and summary["not_in_release"] == 1
    assert summary["run"]["model"] == "oracle" and summary["passed_count"] == 4
    cpa = summary["licenses"][0]
    assert cpa["subjects"] == {"세법개론": 1.0, "회계학": 0.5} and cpa["passed"] is True


def test_user_mistakes_are_one_line_errors(release: Path, tmp_path: Path) -> None:
    from curation.core.errors import InputError

    for args, message in [
        (["--backend", "tgi"], "use hf or openai"),
        (["--backend", "openai"], "needs --base-url"),
        (["--backend", "openai", "--prompt", "jp"], "--prompt 'jp'"),
    ]:
        result = runner.invoke(app, ["eval", "run", "--release", str(release), "--model", "m", "--out",
                                     str(tmp_path / "x"), *args])
        assert isinstance(result.exception, InputError) and message in str(result.exception)
    result = runner.invoke(app, ["eval", "run", "--release", str(tmp_path), "--model", "m", "--backend", "hf",
                                 "--out", str(tmp_path / "x")])
    assert "no manifest.json" in str(result.exception)
