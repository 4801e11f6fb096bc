"""An annotator's session in a real browser: Debian's Chromium, driven by its chromedriver, against the real
Label Studio server with the bundled sample's review queues.

The annotator logs in on the login form with their own account, opens their queue from the project list, reads
the instructions, sees the provenance line, the page crop, the Korean question and options (never the task as
JSON), fixes one option by one keystroke and submits; the pulled annotation carries exactly that change and
`kmmlu review status` shows the time it took. A second annotator disagrees, the dispute goes to the
adjudication project, and the adjudicator sees both first-round reviews side by side. Screenshots of both views
are kept in $KMMLU_TEST_ARTIFACTS (default tests/artifacts/) under review-browser/.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from conftest import REPO
from PIL import Image
from support.label_studio import running_label_studio
from typer.testing import CliRunner

from curation.core.io import read_items
from curation.parse.store import PaperJob, parse_into
from curation.review.adjudicate import adjudicate, push_disputes
from curation.review.client import ReviewClient
from curation.review.config import ReviewResult, option_marker, provenance, result_regions
from curation.review.plan import Annotator
from curation.review.pull import pull, read_annotations
from curation.review.push import push_store
from kmmlu_cli import app
from kmmlu_sample import build_sample

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
NAME = "표본 검토"
FIRST, SECOND = (Annotator(name=f"검토자 {n}", email=f"reviewer{n}@kmmlu.test") for n in (1, 2))
ADJUDICATOR = Annotator(name="심판", email="adjudicator@kmmlu.test")
PASSWORD = {person.email: f"pw-{secrets.token_hex(6)}" for person in (FIRST, SECOND, ADJUDICATOR)}
ARTIFACTS = Path(os.environ.get("KMMLU_TEST_ARTIFACTS") or REPO / "tests" / "artifacts") / "review-browser"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1400,1700", "--lang=ko-KR")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.skipif(not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
                       reason="needs Debian's chromium and chromium-driver (`make system-deps` installs both)"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """The bundled sample's two papers, parsed with their final keys into a store (items, crops)."""
    root = tmp_path_factory.mktemp("sample")
    sample = build_sample(root / "site")
    for paper, key, licence in ((sample.papers[0], sample.keys[1], "cpa"), (sample.papers[1], sample.keys[3], "physician")):
        job = PaperJob(paper=str(paper), paper_sha256="", key=str(key), key_sha256="", license=licence,
                       year=sample.year, source_url=f"http://127.0.0.1/{paper.name}",
                       out_dir=str(root / "data" / "items" / licence / str(sample.year) / paper.stem))
        assert parse_into(job).items > 0
    return root / "data"


@pytest.fixture(scope="module")
def server(tmp_path_factory, store):
    with running_label_studio(tmp_path_factory.mktemp("label-studio"), store) as srv:
        yield srv


@pytest.fixture(scope="module")
def admin(server, store) -> ReviewClient:
    client = ReviewClient(server.url, server.credentials.token)
    push_store(client, store, NAME, [FIRST, SECOND], overlap=2)
    client.ensure_users([ADJUDICATOR])
    server.set_passwords(PASSWORD)
    return client


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="kmmlu-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    # Leaving a labeling page can ask "leave the page?"; selenium's default dismisses it, which cancels the
    # navigation and leaves the next person's log-in on the last one's page.
    options.unhandled_prompt_behavior = "accept"
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def page_text(driver) -> str:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.TAG_NAME, "body").text


def wait_for(driver, condition, what: str, timeout: float = 60):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.25).until(condition, message=f"waited for {what}")


def log_in(driver, url: str, who: Annotator) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    for _attempt in range(3):  # a loaded server can answer the navigation before the form is in the page
        driver.get(f"{url}/logout")  # as a person would; the browser accepts a labeling page's "leave the page?"
        driver.delete_all_cookies()
        driver.get(f"{url}/user/login/")
        try:
            form = wait_for(driver, lambda d: d.find_element(By.NAME, "email"), "the login form", timeout=20)
            break
        except TimeoutException:
            continue
    else:
        raise AssertionError(f"no login form at {driver.current_url} ({driver.title!r}): {page_text(driver)[:300]!r}")
    form.send_keys(who.email)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD[who.email])
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for(driver, lambda d: "/user/login" not in d.current_url, f"{who.email} to be logged in")


def open_queue(driver, url: str, title: str) -> None:
    """From the project list, as a person would: the project's card, then "Label All Tasks", then past the
    instructions (shown before labeling)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(f"{url}/projects/")
    card = wait_for(driver, lambda d: d.find_element(By.XPATH, f"//*[normalize-space(text())='{title}']"),
                    f"the project card {title!r}")
    card.click()
    button = wait_for(driver, lambda d: d.find_element(By.XPATH, "//button[contains(., 'Label All Tasks')]"),
                      "the Label All Tasks button")
    button.click()
    wait_for(driver, lambda d: "검토 안내 / Review instructions" in page_text(d), "the instructions")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait_for(driver, lambda d: "검토 안내 / Review instructions" not in page_text(d), "the instructions to close")


def korean_renders(driver) -> bool:
    """Whether Hangul draws as glyphs: without a CJK font Chromium draws every syllable as the same box, the
    box it draws for an unassigned code point."""
    return driver.execute_script("""
        const draw = (s) => { const c = document.createElement('canvas'); c.width = 200; c.height = 40;
            const g = c.getContext('2d'); g.font = '24px sans-serif'; g.fillText(s, 4, 30); return c.toDataURL(); };
        return draw('검토가나') !== draw('\\u0378\\u0378\\u0378\\u0378');""")


def first_task(admin: ReviewClient, owner: Annotator) -> tuple[int, str]:
    queue = next(p for p in admin.projects(NAME) if p.annotator == owner.email)
    tasks = admin.task_ids(queue.id)
    item_id = min(tasks, key=tasks.get)  # the labeling stream opens the queue's first task
    return tasks[item_id], item_id


def test_annotator_fixes_one_option_in_the_browser(server, admin, store, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    papers = {item.id: (item, path.parent) for path in store.glob("items/*/*/*/items.jsonl") for item in read_items(path)}
    _, item_id = first_task(admin, FIRST)
    item, paper = papers[item_id]
    with Image.open(paper / item.image_path) as image:
        crop_width = image.width

    started = time.monotonic()
    log_in(browser, server.url, FIRST)
    open_queue(browser, server.url, f"{NAME} · {FIRST.name}")
    wait_for(browser, lambda d: "판정 / verdict" in page_text(d), "the labeling view")
    text = page_text(browser)
    assert '"predictions"' not in text and '"item_id"' not in text, "the view shows the task as JSON"
    shown = text.split("판정 / verdict")[0]  # what is shown of the item, above the annotator's controls
    assert korean_renders(browser), "Hangul draws as boxes: install fonts-noto-cjk"
    assert re.fullmatch(r"공인회계사 · 2026 · 1교시 · A형 · \d+번 · p\.\d+", provenance(item)) and provenance(item) in shown
    assert item.question in shown, "the Korean question is not shown"
    for n, option in enumerate(item.options, 1):
        assert f"{option_marker(n)} {option}" in shown, f"option {n} is not shown"
    assert item.answer_status == "final" and f"{' '.join(map(option_marker, item.answer))} · 최종 정답 / final" in shown
    sequence = [shown.index(part) for part in (provenance(item), "전체 페이지 보기", item.question, item.options[-1],
                                               "최종 정답 / final")]
    assert sequence == sorted(sequence), "the view is out of order"
    widths = wait_for(browser, lambda d: [w for w in d.execute_script(
        "return Array.from(document.images).map(i => i.complete ? i.naturalWidth : 0)") if w] or None, "the crop",
        timeout=30)
    assert crop_width in widths, f"the crop ({crop_width} px wide) did not load: images {widths}"
    link = browser.find_element(By.PARTIAL_LINK_TEXT, "전체 페이지 보기")
    page = browser.execute_async_script("""const done = arguments[1];
        fetch(arguments[0]).then(r => r.blob()).then(b => done([b.type, b.size])).catch(e => done(String(e)));""",
                                        link.get_attribute("href"))
    assert page[0] == "image/png" and page[1] > 10_000, page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "labeling-view.png"))

    # One keystroke: a full stop at the end of option ①, in the field that starts from the options as shown.
    options_field = browser.find_elements(By.CSS_SELECTOR, "textarea")[1]
    assert options_field.get_attribute("value").splitlines()[0] == f"① {item.options[0]}"
    options_field.click()
    options_field.send_keys(Keys.CONTROL, Keys.HOME)
    options_field.send_keys(Keys.END, ".")
    browser.find_element(By.XPATH, "//*[contains(text(), 'fix 고침')]").click()
    browser.find_element(By.XPATH, "//*[contains(text(), 'parse error 추출 오류')]").click()
    browser.find_element(By.XPATH, "//button[normalize-space()='Submit']").click()
    wait_for(browser, lambda d: item.question not in page_text(d), "the next task after submitting")
    session_seconds = time.monotonic() - started

    report = pull(admin, NAME, tmp_path)
    [mine] = [a for a in read_annotations(report.path) if a.annotator == FIRST.email]
    assert mine.item_id == item_id and mine.planned
    assert mine.review == ReviewResult(verdict="fix", errors=("parse_error",),
                                       options=(item.options[0] + ".", *item.options[1:]))

    output = CliRunner(env={"KMMLU_LS_URL": server.url, "KMMLU_LS_TOKEN": server.credentials.token,
                            "KMMLU_LS_PASSWORD": server.credentials.password}).invoke(app, ["review", "status",
                                                                                             "--project", NAME])
    assert output.exit_code == 0, output.output
    row = next(line for line in output.output.splitlines() if FIRST.email in line)
    cells = [c.strip() for c in row.split("│") if c.strip()]
    assert cells[:4] == [FIRST.email, "19", "1", "18"]
    assert 0 < float(cells[4]) < session_seconds
    idle = next(line for line in output.output.splitlines() if SECOND.email in line)
    assert [c.strip() for c in idle.split("│") if c.strip()] == [SECOND.email, "19", "0", "19", "n/a"]


def test_adjudicator_sees_both_first_round_reviews_side_by_side(server, admin, browser, tmp_path):
    from selenium.webdriver.common.by import By

    task_id, item_id = first_task(admin, SECOND)
    ReviewClient.login(server.url, SECOND.email, PASSWORD[SECOND.email]).submit(
        task_id, result_regions(ReviewResult(verdict="accept")))
    report = pull(admin, NAME, tmp_path)
    outcome = adjudicate(read_annotations(report.path))
    assert [subject for subject, _content in outcome.disputes] == [item_id]
    assert push_disputes(admin, NAME, outcome.disputes) == 1

    log_in(browser, server.url, ADJUDICATOR)
    open_queue(browser, server.url, f"{NAME} · adjudication")
    wait_for(browser, lambda d: "first-round review 2" in page_text(d), "the first-round reviews")
    columns = [c for c in browser.find_elements(By.CSS_SELECTOR, ".kmmlu-reviews > *") if c.text.strip()]
    texts = [c.text for c in columns]
    assert len(texts) == 2 and texts[0].startswith("1차 검토 1 /") and texts[1].startswith("1차 검토 2 /"), texts
    assert f"{FIRST.email}: fix" in texts[0] and "errors: parse_error" in texts[0] and "options →" in texts[0]
    assert f"{SECOND.email}: accept" in texts[1]
    left, right = (c.rect for c in columns)
    assert abs(left["y"] - right["y"]) < 5 and right["x"] >= left["x"] + left["width"], (left, right)
    assert re.search(r"공인회계사 · 2026 · 1교시 · A형 · \d+번 · p\.\d", page_text(browser))
    browser.save_screenshot(str(ARTIFACTS / "adjudication-view.png"))
