"""An lm-evaluation-harness task folder inside a release: one generation task per license, grouped.

Users run it from the release folder (the data paths are relative, so the release stays relocatable and two
cuts stay byte-identical): ``cd kmmlu-pro-2026 && lm_eval --model hf --model_args pretrained=M
--tasks kmmlu_pro --include_path lm_eval --apply_chat_template``.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from curation.core.io import atomic_write
from curation.core.versions import LMEVAL_TASK_VERSION

FOLDER = "lm_eval"

# The paper's protocol: zero-shot chain of thought in Korean, the answer read after "정답:".
PROMPT_KO = (
    "다음은 {{license_ko}} 시험의 {{subject}} 과목 객관식 문제입니다. "
    "문제를 읽고 단계별로 차근차근 생각한 뒤, 마지막 줄에 \"정답: (번호)\" 형식으로 정답 번호 하나를 쓰세요.\n\n"
    "문제: {{question}}\n"
    "{% for option in options %}{{loop.index}}. {{option}}\n{% endfor %}"
)
ANSWER_REGEX = r"정답\s*[:：]\s*\**\s*[(\[]?\s*([1-9])"


def task_name(release_name: str, license: str) -> str:
    return f"{group_name(release_name)}_{license}"


def group_name(release_name: str) -> str:
    return release_name.replace("-", "_")


def write_tasks(release_dir: Path, release_name: str, data_files: dict[str, str]) -> list[Path]:
    """Write one task YAML per license (``data_files``: license -> parquet path relative to the release)
    and the group YAML; returns the files written."""
    folder = release_dir / FOLDER
    written = []
    for license, data_file in sorted(data_files.items()):
        spec = {
            "task": task_name(release_name, license),
            "dataset_path": "parquet",
            "dataset_kwargs": {"data_files": {"test": data_file}},
            "test_split": "test",
            "output_type": "generate_until",
            "doc_to_text": PROMPT_KO,
            # A list of accepted option numbers: lm-eval scores exact_match as a hit on any of them.
            "doc_to_target": "{{answer | map('string') | list}}",
            "generation_kwargs": {"until": ["<|im_end|>", "<|endoftext|>", "</s>"], "do_sample": False,
                                  "max_gen_toks": 2048},
            "filter_list": [{
                "name": "strict-match",
                "filter": [
                    {"function": "regex", "regex_pattern": ANSWER_REGEX, "group_select": -1},
                    {"function": "take_first"},
                ],
            }],
            "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": True}],
            "metadata": {"version": LMEVAL_TASK_VERSION},
        }
        written.append(_write(folder / f"{task_name(release_name, license)}.yaml", spec))
    group = {
        "group": group_name(release_name),
        "task": [task_name(release_name, license) for license in sorted(data_files)],
        "aggregate_metric_list": [
            {"metric": "exact_match", "aggregation": "mean", "weight_by_size": True, "filter_list": "strict-match"}
        ],
        "metadata": {"version": LMEVAL_TASK_VERSION},
    }
    written.append(_write(folder / f"_{group_name(release_name)}.yaml", group))
    return written


def _write(path: Path, spec: dict) -> Path:
    with atomic_write(path) as handle:
        yaml.safe_dump(spec, handle, allow_unicode=True, sort_keys=False, width=1000)
    return path
