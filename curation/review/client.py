"""The one adapter over Label Studio (``label-studio-sdk`` 2.x): users, projects, tasks, annotations.

Review projects are found by a marker in their description (titles are capped at 50 characters): the
review name, the project's role (``annotate`` for one annotator's queue, ``adjudicate`` for the second
round) and, for a queue, the annotator's email. Every network failure becomes a ``ServerError`` that says
which server did not answer and that re-running the command is safe.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence, TypeVar

import httpx
from label_studio_sdk import LabelStudio
from label_studio_sdk.core.api_error import ApiError

from curation.core.errors import CurationError, FetchError
from curation.review.config import instructions, label_config
from curation.review.plan import Annotator
from curation.sources.http import GaveUp, HttpClient, HttpPolicy

Role = Literal["annotate", "adjudicate"]
_MARKER = "kmmlu-review "
_TITLE_MAX = 50  # Label Studio's PROJECT_TITLE_MAX_LEN

F = TypeVar("F", bound=Callable[..., Any])


class ServerError(CurationError):
    """Label Studio did not answer or refused a request."""


def _wrapped(method: F) -> F:
    @functools.wraps(method)
    def call(self: "ReviewClient", *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except GaveUp as exc:  # the plain listing, through the library's HTTP client
            if exc.response is None:
                raise _not_answering(self.url, exc.reason) from exc
            raise _refused(self.url, method.__name__, exc.response.status_code, exc.response.text) from exc
        except httpx.TransportError as exc:  # the SDK's own httpx
            raise _not_answering(self.url, type(exc).__name__) from exc
        except ApiError as exc:
            raise _refused(self.url, method.__name__, exc.status_code, exc.body) from exc

    return call  # type: ignore[return-value]


def _not_answering(url: str, reason: str) -> ServerError:
    return ServerError(
        f"Label Studio at {url} is not answering ({reason}); start it with "
        "`kmmlu review serve` and re-run the command: work already done is kept, none is repeated"
    )


def _refused(url: str, what: str, status: int | None, body: Any) -> ServerError:
    body = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    if body.lstrip().startswith("<"):
        body = "(an HTML page)"
    return ServerError(f"Label Studio at {url} refused {what}: HTTP {status} {body[:300]}")


@dataclass(frozen=True)
class ProjectRef:
    id: int
    title: str
    name: str
    role: Role
    annotator: str | None  # the queue owner's email; None for the adjudication project


def project_title(name: str, role: Role, annotator: Annotator | None) -> str:
    suffix = annotator.name if role == "annotate" and annotator else "adjudication"
    title = f"{name} · {suffix}"
    return title if len(title) <= _TITLE_MAX else title[: _TITLE_MAX - 1] + "…"


def _marker(name: str, role: Role, annotator: str | None) -> str:
    return _MARKER + json.dumps({"name": name, "role": role, "annotator": annotator}, ensure_ascii=False)


def _parse_marker(description: str | None) -> dict[str, Any] | None:
    for line in reversed((description or "").splitlines()):
        if line.startswith(_MARKER):
            try:
                return json.loads(line[len(_MARKER):])
            except json.JSONDecodeError:
                return None
    return None


def _policy(timeout_s: float) -> HttpPolicy:
    return HttpPolicy(timeout_s=timeout_s, per_host_concurrency=None, per_host_interval_s=0.0)


class ReviewClient:
    def __init__(self, url: str, token: str, timeout: float = 300.0) -> None:
        self.url = url.rstrip("/")
        self._ls = LabelStudio(base_url=self.url, api_key=token, timeout=timeout)
        # The SDK's task pager parses every field into models: 4x slower than this plain listing.
        self._http = HttpClient(_policy(timeout), headers={"Authorization": f"Token {token}"})

    @classmethod
    def login(cls, url: str, email: str, password: str) -> "ReviewClient":
        """A client acting as ``email``, with the API token that user gets after logging in."""
        url = url.rstrip("/")
        try:
            # A busy SQLite server answers 500 now and then: the client's retries ask again.
            with HttpClient(_policy(60), follow_redirects=False) as http:
                http.get(f"{url}/user/login/")
                response = http.post(
                    f"{url}/user/login/",
                    data={"email": email, "password": password, "csrfmiddlewaretoken": http.cookie("csrftoken")},
                    headers={"Referer": f"{url}/user/login/"},
                )
                if response.status_code != 302:
                    raise ServerError(f"Label Studio at {url}: login as {email} failed (wrong password?)")
                response = http.get(f"{url}/api/current-user/token")
        except FetchError as exc:
            raise ServerError(f"Label Studio at {url}: logging in as {email} failed ({exc})") from exc
        if response.status_code != 200:
            raise _refused(url, f"the API token of {email}", response.status_code, response.text)
        return cls(url, response.json()["token"])

    # users -------------------------------------------------------------------------------------------

    @_wrapped
    def whoami(self) -> tuple[int, str]:
        me = self._ls.users.whoami()
        return me.id, me.email

    @_wrapped
    def users(self) -> dict[int, str]:
        """User id -> email, for everyone in the organisation."""
        return {user.id: user.email for user in self._ls.users.list()}

    @_wrapped
    def ensure_users(self, annotators: Sequence[Annotator]) -> int:
        """Create the annotators that do not exist yet (no password: see ``LabelStudioServer.set_passwords``)."""
        known = {email.lower() for email in self.users().values()}
        created = 0
        for annotator in annotators:
            if annotator.email in known:
                continue
            first, _, last = annotator.name.partition(" ")
            self._ls.users.create(username=annotator.email, email=annotator.email, first_name=first, last_name=last)
            created += 1
        return created

    # projects ----------------------------------------------------------------------------------------

    @_wrapped
    def projects(self, name: str) -> list[ProjectRef]:
        found = []
        for project in self._ls.projects.list(page_size=1000):
            marker = _parse_marker(project.description)
            if marker and marker.get("name") == name:
                found.append(ProjectRef(project.id, project.title or "", name, marker["role"], marker.get("annotator")))
        return sorted(found, key=lambda p: (p.role, p.annotator or "", p.id))

    @_wrapped
    def ensure_project(
        self, name: str, role: Role, annotator: Annotator | None = None, known: Sequence[ProjectRef] | None = None
    ) -> tuple[ProjectRef, bool]:
        """The project for (name, role, annotator), created when missing; returns it and whether it is new.

        ``known`` is the review's projects when the caller already listed them.
        """
        email = annotator.email if annotator else None
        for project in self.projects(name) if known is None else known:
            if project.role == role and project.annotator == email:
                return project, False
        title = project_title(name, role, annotator)
        who = f"Review queue of {annotator.name} <{email}>" if annotator else "Second-round adjudication"
        description = f"{who} for the review {name!r}.\n\n{_marker(name, role, email)}"
        project = self._ls.projects.create(
            title=title,
            description=description,
            label_config=label_config(),
            expert_instruction=instructions(),
            show_instruction=True,
            maximum_annotations=1,
            show_skip_button=False,
            enable_empty_annotation=False,
        )
        return ProjectRef(project.id, title, name, role, email), True

    @_wrapped
    def ensure_file_storage(self, project_id: int, path: Path) -> None:
        """Let the project's users open files under ``path`` (served under LOCAL_FILES_DOCUMENT_ROOT)."""
        path = Path(path).resolve()
        for storage in self._ls.import_storage.local.list(project=project_id):
            if Path(storage.path or "") == path:
                return
        self._ls.import_storage.local.create(project=project_id, path=str(path), title="crops", use_blob_urls=True)

    # tasks -------------------------------------------------------------------------------------------

    @_wrapped
    def annotated_tasks(self, project_id: int) -> list[dict[str, Any]]:
        """The project's tasks that have annotations, with them (Label Studio's JSON export)."""
        chunks = self._ls.projects.exports.download_sync(project_id, export_type="JSON", download_all_tasks=False)
        return json.loads(b"".join(chunks) or b"[]")

    def _task_rows(self, project_id: int, page_size: int = 5000) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        page = 1
        while True:
            response = self._http.get(
                f"{self.url}/api/tasks",
                params={"project": project_id, "fields": "task_only", "include": "id,data,total_annotations",
                        "page": page, "page_size": page_size},
            )
            if response.status_code == 404:  # past the last page
                break
            if response.status_code != 200:
                raise ApiError(status_code=response.status_code, body=response.text)
            tasks = response.json()["tasks"]
            rows.extend(tasks)
            if len(tasks) < page_size:
                break
            page += 1
        return rows

    @_wrapped
    def task_ids(self, project_id: int) -> dict[str, int]:
        """item id -> task id for the project's tasks."""
        return {row["data"]["item_id"]: row["id"] for row in self._task_rows(project_id)}

    @_wrapped
    def task_data(self, project_id: int) -> dict[str, dict[str, Any]]:
        """item id -> the task's data."""
        return {row["data"]["item_id"]: row["data"] for row in self._task_rows(project_id)}

    @_wrapped
    def all_task_data(self, project_id: int) -> list[dict[str, Any]]:
        """Every task's data, oldest first (an item re-queued after a re-parse has a task per content)."""
        return [row["data"] for row in self._task_rows(project_id)]

    @_wrapped
    def task_progress(self, project_id: int) -> list[tuple[dict[str, Any], int]]:
        """(task data, number of annotations) per task."""
        return [(row["data"], int(row.get("total_annotations") or 0)) for row in self._task_rows(project_id)]

    @_wrapped
    def import_tasks(self, project_id: int, data: Iterable[dict[str, Any]]) -> int:
        """Import one batch; Label Studio stores a batch in one transaction, so it lands whole or not at all."""
        batch = [{"data": row} for row in data]
        if not batch:
            return 0
        response = self._ls.projects.import_tasks(project_id, request=batch, return_task_ids=True)
        return int(response.task_count or len(batch))

    @_wrapped
    def import_reviewed(self, project_id: int, rows: Iterable[tuple[dict[str, Any], list[dict[str, Any]], int]]) -> int:
        """Import tasks that already carry an annotation: (task data, result, user id) each.

        For carrying reviews over from another Label Studio; the bench uses it to stage annotations.
        """
        batch = [{"data": data, "annotations": [{"result": result, "completed_by": user}]} for data, result, user in rows]
        if not batch:
            return 0
        response = self._ls.projects.import_tasks(project_id, request=batch, return_task_ids=True)
        return int(response.annotation_count or 0)

    # annotations -------------------------------------------------------------------------------------

    @_wrapped
    def submit(self, task_id: int, result: list[dict[str, Any]]) -> int:
        """Submit an annotation as this client's user (what the labeling UI does on Submit)."""
        return self._ls.annotations.create(task_id, result=result).id
