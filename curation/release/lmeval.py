"""An lm-evaluation-harness task folder inside a release: one generation task per license, grouped, scored by
``kmmlu eval``'s own protocol.

The folder carries byte copies of ``curation/evaluate/prompt_text.py`` and ``extract.py`` and a small
``utils.py`` that loads them: lm_eval shows the same prompt (options lettered A-E), reads the answer with the
same cascade of rules and counts an item right when the letter is any accepted answer, so one model gets one
score from both tools. The release stays self-contained: nothing in it imports ``curation``.

Users run it from the release folder (the data paths are relative, so the release stays relocatable and two
cuts stay byte-identical): ``cd kmmlu-pro-2026 && lm_eval --model hf --model_args pretrained=M
--tasks kmmlu_pro --include_path lm_eval --apply_chat_template``. Decoding is ``kmmlu eval``'s default for chat
models (greedy, up to 2048 new tokens, stopping at the model's end of sequence); a reasoning model's sampling
goes in ``--gen_kwargs``.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from curation.core.io import atomic_write
from curation.core.versions import LMEVAL_TASK_VERSION
from curation.evaluate import extract, prompt_text

FOLDER = "lm_eval"
# The protocol's modules, copied byte for byte next to the task files under these names.
PROTOCOL_FILES = {"prompt_text.py": Path(prompt_text.__file__), "extract.py": Path(extract.__file__)}
METRIC = "exact_match"

UTILS_PY = '''"""kmmlu eval's protocol for lm-evaluation-harness, written by `kmmlu release cut`.

prompt_text.py and extract.py beside this file are byte copies of curation/evaluate/prompt_text.py and
extract.py: the same prompt, the same answer extraction and the same rule for several accepted answers.
"""

import importlib.util
import sys
from pathlib import Path


def _sibling(name):
    spec = importlib.util.spec_from_file_location(f"kmmlu_protocol_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


_prompt = _sibling("prompt_text")
_extract = _sibling("extract")


def keyed(dataset):
    """Only items with an answer key are scored, as in `kmmlu eval score`."""
    return dataset.filter(lambda doc: bool(doc["answer"]))


def doc_to_text(doc):
    return _prompt.render_prompt(doc["question"], doc["options"])


def doc_to_target(doc):
    return ", ".join(_prompt.LETTERS[n - 1] for n in doc["answer"])


def process_results(doc, results):
    choice = _extract.extract_choice(results[0], n_options=len(doc["options"])).choice
    return {"%s": float(choice is not None and choice in doc["answer"])}
''' % METRIC


class _Function(str):
    """A YAML ``!function utils.NAME`` value: lm_eval loads the function from utils.py beside the task."""


class _TaskDumper(yaml.SafeDumper):
    pass


_TaskDumper.add_representer(_Function, lambda dumper, value: dumper.represent_scalar("!function", str(value)))


def task_name(release_name: str, license: str) -> str:
    return f"{group_name(release_name)}_{license}"


def group_name(release_name: str) -> str:
    return release_name.replace("-", "_")


def task_spec(release_name: str, license: str, data_file: str) -> dict:
    return {
        "task": task_name(release_name, license),
        "dataset_path": "parquet",
        "dataset_kwargs": {"data_files": {"test": data_file}},
        "test_split": "test",
        "process_docs": _Function("utils.keyed"),
        "output_type": "generate_until",
        "doc_to_text": _Function("utils.doc_to_text"),
        "doc_to_target": _Function("utils.doc_to_target"),
        "process_results": _Function("utils.process_results"),
        # Only the model's end of sequence stops it (lm_eval adds it), as in `kmmlu eval`.
        "generation_kwargs": {"until": [], "do_sample": False, "temperature": 0.0, "max_gen_toks": 2048},
        "metric_list": [{"metric": METRIC, "aggregation": "mean", "higher_is_better": True}],
        "metadata": {"version": LMEVAL_TASK_VERSION},
    }


def write_tasks(release_dir: Path, release_name: str, data_files: dict[str, str]) -> list[Path]:
    """Write one task YAML per license (``data_files``: license -> parquet path relative to the release), the
    group YAML, ``utils.py`` and the protocol's modules; returns the files written."""
    folder = release_dir / FOLDER
    written = []
    for license, data_file in sorted(data_files.items()):
        path = folder / f"{task_name(release_name, license)}.yaml"
        written.append(_write_yaml(path, task_spec(release_name, license, data_file)))
    group = {
        "group": group_name(release_name),
        "task": [task_name(release_name, license) for license in sorted(data_files)],
        # Weighted by size: the mean over every item, as `kmmlu eval` counts its overall accuracy.
        "aggregate_metric_list": [{"metric": METRIC, "aggregation": "mean", "weight_by_size": True}],
        "metadata": {"version": LMEVAL_TASK_VERSION},
    }
    written.append(_write_yaml(folder / f"_{group_name(release_name)}.yaml", group))
    written.append(_write_bytes(folder / "utils.py", UTILS_PY.encode("utf-8")))
    for name, source in PROTOCOL_FILES.items():
        written.append(_write_bytes(folder / name, source.read_bytes()))
    return written


def _write_yaml(path: Path, spec: dict) -> Path:
    with atomic_write(path) as handle:
        yaml.dump(spec, handle, Dumper=_TaskDumper, allow_unicode=True, sort_keys=False, width=1000)
    return path


def _write_bytes(path: Path, body: bytes) -> Path:
    with atomic_write(path, "wb") as handle:
        handle.write(body)
    return path
