"""The Hugging Face Hub through ``huggingface_hub``: a dataset card's metadata as the Hub reads it, and the
upload of a verified release.

The token comes from ``HF_TOKEN`` or a file only its owner can read (default: huggingface_hub's own token
file); it is never printed or put in an error message.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from huggingface_hub import DatasetCardData, HfApi
from huggingface_hub.errors import HfHubHTTPError

from curation.core.errors import FetchError, InputError
from curation.release.manifest import read_manifest
from curation.release.verify import verify_release

DEFAULT_TOKEN_FILE = Path.home() / ".cache" / "huggingface" / "token"


def card_metadata(fields: Mapping[str, Any]) -> str:
    """The YAML front matter of a dataset card (without its ``---`` fences), as ``DatasetCardData`` writes it."""
    return DatasetCardData(**fields).to_yaml()


def resolve_token(env: Mapping[str, str] | None = None, token_file: Path | None = None) -> str:
    env = os.environ if env is None else env
    if env.get("HF_TOKEN", "").strip():
        return env["HF_TOKEN"].strip()
    path = token_file or DEFAULT_TOKEN_FILE
    if not path.is_file():
        raise InputError(f"no Hugging Face token: set HF_TOKEN or write the token to {path} (mode 600)")
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InputError(f"{path}: the token file is readable by others (mode {stat.S_IMODE(mode):o}); chmod 600 it")
    token = path.read_text(encoding="utf-8").strip()
    if not token:
        raise InputError(f"{path}: the token file is empty")
    return token


@dataclass(frozen=True)
class PushResult:
    repo_id: str
    commit_url: str
    files: int


def push_release(
    release_dir: str | Path,
    repo_id: str,
    *,
    token: str,
    private: bool = False,
    endpoint: str | None = None,
) -> PushResult:
    """Verify the release, create the dataset repo if needed and upload the folder in one commit."""
    root = Path(release_dir)
    if "/" not in repo_id or repo_id.count("/") != 1:
        raise InputError(f"--repo-id {repo_id!r}: expected ORG/NAME")
    problems = verify_release(root)
    if problems:
        raise InputError(f"{root} fails verification, not pushing: {problems[0]}")
    manifest = read_manifest(root)
    if manifest.part == "private" and not private:
        raise InputError(f"{root} is a private held-out part: push it only with --private")
    api = HfApi(endpoint=endpoint, token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        info = api.upload_folder(
            folder_path=str(root),
            repo_id=repo_id,
            repo_type="dataset",
            commit_message=f"Release {manifest.name}-{manifest.version}",
        )
    except HfHubHTTPError as exc:
        # The message names the URL and status; the token travels in a header and is not part of it.
        raise FetchError(f"push of {root} to {repo_id} failed: {exc}") from exc
    return PushResult(repo_id=repo_id, commit_url=str(info.commit_url), files=len(manifest.files) + 1)
