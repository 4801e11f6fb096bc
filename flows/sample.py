"""``make run``: the whole pipeline on the bundled sample, end to end, on one machine.

The sample board is served over real HTTP (so the real discovery and fetcher run), the refresh parses,
validates, dedups and decontaminates, review is pushed to a local Label Studio left running for reviewers,
a release candidate is cut (its card says review is pending) and a tiny random model evaluates it on CPU.
A second run repeats no download, parse or scan and leaves the release files as they were.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from prefect import flow, task

from curation.evaluate.evaluation import EvalRequest
from curation.evaluate.random_model import build_random_lm
from curation.review.plan import Annotator
from curation.review.server import ENV_URL, LabelStudioServer, load_credentials, secrets_path
from flows.evaluate import evaluate_flow
from flows.refresh import refresh_flow
from flows.release import release_flow
from flows.summary import StageSummary
from kmmlu_sample import build_sample
from kmmlu_sample.site import SampleServer, write_sample_catalog

SAMPLE_LICENSES = ["cpa", "physician"]
# A fixed port keeps the sample's URLs the same from run to run, so a re-run finds them in raw/manifest.jsonl.
SAMPLE_PORT = 8765
LABEL_STUDIO_PORT = 8080
SAMPLE_REVIEW = "kmmlu-pro-sample"
SAMPLE_REVIEWERS = tuple(Annotator(name=f"검토자 {n}", email=f"reviewer{n}@kmmlu.local") for n in range(1, 5))


@task(name="label-studio")
def label_studio_task(store: str, work: str, port: int) -> dict[str, str]:
    """A local Label Studio for the sample's reviewers, started here and left running (its process group id
    goes into WORK/labelstudio.pid for `make stop`); a running one is reused."""
    creds = load_credentials()
    server = LabelStudioServer(Path(work) / "labelstudio", creds, port=port, files_root=Path(store))
    if not server.healthy():
        server.start()
        (Path(work) / "labelstudio.pid").write_text(str(server.pid))
    return {"url": server.url, "login": creds.email, "password": f"in {secrets_path()} (or $KMMLU_LS_PASSWORD)"}


@dataclass(frozen=True)
class SampleOutputs:
    summaries: list[StageSummary]
    where: dict[str, str]


@flow(name="sample", log_prints=True)
def sample_flow(work: str = "work", evaluate: bool = True, port: int = SAMPLE_PORT) -> SampleOutputs:
    root = Path(work)
    site = build_sample(root / "site")
    studio = label_studio_task(str(root / "data"), str(root), LABEL_STUDIO_PORT)
    os.environ[ENV_URL] = studio["url"]
    summaries: list[StageSummary] = []
    with SampleServer(site.root, port) as server:
        catalog = write_sample_catalog(root / "catalog.yaml", server.base_url, tuple(SAMPLE_LICENSES))
        summaries += refresh_flow(year=site.year, licenses=SAMPLE_LICENSES, catalog=str(catalog),
                                  web=[str(site.web_shard)], raw=str(root / "raw"), store=str(root / "data"),
                                  review_project=SAMPLE_REVIEW, annotators=list(SAMPLE_REVIEWERS))
    version = f"{site.year}.0rc1"
    releases = root / "releases"
    summaries += release_flow(version, store=str(root / "data"), out=str(releases), reuse_existing=True).summaries
    release_dir = releases / f"kmmlu-pro-{version}"
    where = {
        "sample board": str(site.root),
        "raw files": str(root / "raw"),
        "items": str(root / "data" / "items"),
        "decontamination": str(root / "data" / "decontam" / "report.jsonl"),
        "release candidate": str(release_dir),
        "Label Studio (left running)": f"{studio['url']}  login {studio['login']}, password {studio['password']}",
    }
    if evaluate:
        model = root / "models" / "tiny-random-llama"
        if not (model / "config.json").exists():
            build_random_lm(model, "tiny")
        out = root / "eval" / "tiny-random-llama"
        summaries += evaluate_flow(EvalRequest(release=release_dir, model=str(model), backend="hf", out=out,
                                               max_new_tokens=24, device="cpu")).summaries
        where["evaluation"] = str(out / "report.md")
    return SampleOutputs(summaries, where)
