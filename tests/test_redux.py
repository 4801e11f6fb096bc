"""The redux stage on the real KMMLU rows and on items planted for each flag rule (its easy-item filter:
tests/test_redux_easy.py)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import realdata_path
from typer.testing import CliRunner

from curation.core.errors import InputError
from curation.core.io import read_items, read_jsonl
from curation.core.item import Item
from curation.dedup.minhash import DedupParams, jaccard, shingles
from curation.redux.flags import LEAK_MIN_CHARS, flag_item
from curation.redux.readers import read_source, split_of, subject_name
from curation.redux.run import ReduxSettings, run_redux
from curation.redux.subjects import select_subjects
from curation.release.cut import cut_release
from kmmlu_cli import app

KMMLU = ("kmmlu",)
HEADER = ["question", "answer", "A", "B", "C", "D", "Category", "Human Accuracy"]


def _kmmlu(name: str) -> Path:
    return realdata_path(*KMMLU, name)


def _content(item: Item) -> tuple:
    return item.id, item.question, item.options, item.answer, item.subject, item.license


def write_csv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=HEADER)
        writer.writeheader()
        for row in rows:
            writer.writerow({"Category": "Electrical Engineering", "Human Accuracy": 0.5, **row})
    return path


def row(question: str, options: list[str], answer: int = 1, **extra) -> dict:
    return {"question": question, "answer": answer, **dict(zip("ABCD", options)), **extra}


# --- readers -------------------------------------------------------------------------------------------


def test_json_reader_gives_the_same_items_as_the_csv():
    from_csv = read_source(_kmmlu("kmmlu_Criminal-Law-test.csv"))
    from_json = read_source(_kmmlu("kmmlu_Criminal-Law-test_as_json.json"))
    assert len(from_csv.items) == len(from_json.items) == 200 and not from_csv.rejects and not from_json.rejects
    assert [_content(r.item) for r in from_csv.items] == [_content(r.item) for r in from_json.items]
    first = from_csv.items[0].item
    assert first.id == "kmmlu-Criminal-Law-test-00000" and first.subject == "Criminal-Law"
    assert first.answer == (1,) and first.license == "kmmlu_criminal_law" and from_csv.items[0].split == "test"
    assert from_csv.items[-1].item.id == "kmmlu-Criminal-Law-test-00199"


def test_instruction_format_recovers_question_options_and_answer():
    result = read_source(_kmmlu("kmmlu_45subjects_500rows_instruction-format.jsonl"))
    assert len(result.items) == 500 and not result.rejects
    assert len({r.item.subject for r in result.items}) == 45
    first = result.items[0].item
    assert first.subject == "Accounting" and first.answer == (4,)
    assert first.options == ("￦40,000", "￦45,000", "￦50,000", "￦55,000")
    assert first.question.startswith("(주)상공은 20×1년") and not first.question.startswith("문제")
    # Its nine Criminal-Law rows are rows of the real test split, recovered to the letter.
    csv_rows = {r.item.question: r.item for r in read_source(_kmmlu("kmmlu_Criminal-Law-test.csv")).items}
    criminal = [r.item for r in result.items if r.item.subject == "Criminal-Law"]
    assert len(criminal) == 9
    for item in criminal:
        twin = csv_rows[item.question]
        assert (item.options, item.answer) == (twin.options, twin.answer)
    # Electrical-Engineering is a technical subject: its items go to that domain's config.
    assert {r.item.license for r in result.items if r.item.subject == "Electrical-Engineering"} == {"electrical_electronics"}


def test_datasets_folder_and_parquet_read_like_the_csv(tmp_path):
    import datasets

    splits = {}
    for split in ("train", "dev", "test"):
        with _kmmlu(f"kmmlu_Criminal-Law-{split}.csv").open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        splits[split] = datasets.Dataset.from_list([{**r, "answer": int(r["answer"])} for r in rows])
    folder = tmp_path / "Criminal-Law"
    datasets.DatasetDict(splits).save_to_disk(str(folder))
    from_folder = read_source(folder).items
    from_csv = [r for split in ("train", "dev", "test") for r in read_source(_kmmlu(f"kmmlu_Criminal-Law-{split}.csv")).items]
    assert [(_content(r.item), r.split) for r in from_folder] == [(_content(r.item), r.split) for r in from_csv]
    single = tmp_path / "Criminal-Law-dev"
    splits["dev"].save_to_disk(str(single))
    assert [r.item.id for r in read_source(single).items] == [f"kmmlu-Criminal-Law-dev-{i:05d}" for i in range(5)]
    parquet = tmp_path / "Criminal-Law-test.parquet"
    splits["test"].to_parquet(str(parquet))
    assert [_content(r.item) for r in read_source(parquet).items] == [_content(r.item) for r in from_csv[-200:]]


def test_bad_rows_are_rejected_with_file_and_row_and_bad_files_refused(tmp_path):
    path = write_csv(tmp_path / "Electrical-Engineering-test.csv", [
        row("변압기의 철손을 줄이는 방법으로 옳은 것은?", ["규소강판 사용", "권선 증가", "부하 증가", "주파수 감소"]),
        row("정답이 범위를 벗어난 행", ["가", "나", "다", "라"], answer=5),
        row("", ["가", "나", "다", "라"]),
    ])
    result = read_source(path)
    assert [r.item.id for r in result.items] == ["kmmlu-Electrical-Engineering-test-00000"]
    assert [(r.reason, r.number) for r in result.rejects] == [("bad_answer", 1), ("no_question", 2)]
    assert str(path) in result.rejects[0].detail
    (tmp_path / "no-split.csv").write_text("question,answer,A,B,C,D\n", encoding="utf-8")
    with pytest.raises(InputError, match="the name says no split"):
        read_source(tmp_path / "no-split.csv")
    (tmp_path / "x-test.csv").write_text("question,answer,A,B\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"missing column\(s\) \['C', 'D'\]"):
        read_source(tmp_path / "x-test.csv")


def test_split_and_subject_names():
    assert split_of("kmmlu_Criminal-Law-test_as_json.json") == "test"
    assert split_of("Accounting-dev.csv") == "dev" and split_of("x-validation") == "dev"
    assert split_of("kmmlu_45subjects_500rows_instruction-format.jsonl") is None
    assert subject_name("Gas Technology and Engineering") == "Gas-Technology-and-Engineering"


def test_subject_selection_technical_all_and_list():
    rows = read_source(_kmmlu("kmmlu_45subjects_500rows_instruction-format.jsonl")).items
    technical, rest = select_subjects(rows, "technical")
    assert {r.item.subject for r in technical} >= {"Electrical-Engineering", "Fashion", "Public-Safety"}
    assert not {r.item.subject for r in technical} & {"Criminal-Law", "Accounting", "Math", "Korean-History"}
    assert len(technical) + len(rest) == 500 and len({r.item.subject for r in technical}) == 32
    assert len(select_subjects(rows, "all")[0]) == 500
    chosen, _ = select_subjects(rows, "criminal-law, Accounting")
    assert len(chosen) == 18 and {r.item.subject for r in chosen} == {"Criminal-Law", "Accounting"}
    with pytest.raises(InputError, match="Criminal-Lwa not in the sources"):
        select_subjects(rows, "Criminal-Lwa")


# --- flags: one planted item per rule, and clean controls ---------------------------------------------------

PLANTED = [
    ("answer_leak", "answer_in_stem",
     Item(id="p-leak", question="열역학 제2법칙, 즉 엔트로피 증가의 법칙에 해당하는 설명은 어느 것인가?",
          options=("에너지 보존 법칙", "엔트로피 증가의 법칙", "질량 보존 법칙", "작용 반작용 법칙"), answer=(2,))),
    ("ill_posed", "missing_figure",
     Item(id="p-fig", question="다음 그림과 같은 회로에서 a, b 단자 사이의 합성 저항은 몇 Ω인가?",
          options=("2", "4", "6", "8"), answer=(3,))),
    ("ill_posed", "missing_table",
     Item(id="p-table", question="아래 표의 자료를 이용하여 공정 A의 불량률을 구하면?",
          options=("1%", "2%", "3%", "4%"), answer=(1,))),
    ("ill_posed", "missing_formula",
     Item(id="p-formula", question="다음 식에서 반응속도상수 k의 단위로 옳은 것은?",
          options=("s", "mol/L", "L/(mol·s)", "mol/(L·s)"), answer=(3,))),
    ("ill_posed", "missing_bogi",
     Item(id="p-bogi", question="<보기>에서 전기설비기술기준에 맞는 것을 모두 고른 것은?",
          options=("접지선은 녹색으로 한다", "중성선은 청색으로 한다", "두 가지 모두", "해당 없음"), answer=(3,))),
    ("ill_posed", "missing_statements",
     Item(id="p-ox", question="재산범죄에 대한 설명으로 옳은 것(○)과 옳지 않은 것(×)을 바르게 연결한 것은?",
          options=("○×○○", "○ ○××", "×○ ○×", "××××"), answer=(4,))),
    ("ill_posed", "source_note",
     Item(id="p-note", question="체적이 20m3인 유체의 비중이 0.674이면 질량은 몇 kg인가?(오류 신고가 접수된 문제입니다.)",
          options=("1348", "13480", "2967.3", "29673"), answer=(2,))),
    ("notation", "cid", Item(id="p-cid", question="전동기의 (cid:19) 효율을 구하면?", options=("80%", "85%", "90%", "95%"), answer=(1,))),
    ("notation", "replacement_char",
     Item(id="p-fffd", question="저항 10\ufffd에 2A가 흐를 때 전압은?", options=("5V", "10V", "20V", "40V"), answer=(3,))),
    ("notation", "markup",
     Item(id="p-markup", question="단면적 4 cm<sup>2</sup>인 도선의 저항을 구하면?", options=("1", "2", "3", "4"), answer=(2,))),
    ("notation", "latex_without_math",
     Item(id="p-latex", question="전압 V = \\frac{1}{2} L I^2 에서 에너지를 구하면?", options=("1J", "2J", "3J", "4J"), answer=(1,))),
    ("notation", "split_formula",
     Item(id="p-chem", question="물(H 2 O) 1몰의 질량은 몇 g인가?", options=("16", "18", "20", "22"), answer=(2,))),
    ("notation", "lost_superscript",
     Item(id="p-sup", question="암석의 압축률이 1.5×10-6/MPa일 때 체적변화율을 구하면?", options=("0.1%", "0.2%", "0.3%", "0.4%"),
          answer=(1,))),
    ("notation", "unbalanced_brackets",
     Item(id="p-brackets", question="관로의 유량을 구하면? (단, Manning 공식을 적용할 것",
          options=("25 m³/s", "50 m³/s", "75 m³/s", "100 m³/s"), answer=(1,))),
    ("clarity", "space_before_punctuation",
     Item(id="p-space", question="변압기의 병렬운전 조건으로 옳지 않은 것은?",
          options=("극성이 같을 것", "권수비가 같을 것", "용량이 같을 것 , 반드시", "임피던스 전압이 같을 것"), answer=(3,))),
    ("clarity", "torn_word",
     Item(id="p-torn", question="유도전동기에 대한 설명으로 옳은 것은?",
          options=("슬립이 커지면 속도가 증가한 다 .", "회전자계는 고정자에서 생긴다", "역률은 항상 1이다", "토크는 일정하다"),
          answer=(2,))),
    ("clarity", "repeated_spaces",
     Item(id="p-spaces", question="직류발전기의      전기자 반작용을 줄이는 방법은?",
          options=("보극 설치", "계자 약화", "브러시 이동 금지", "부하 증가"), answer=(1,))),
    ("clarity", "page_furniture",
     Item(id="p-footer", question="전력용 콘덴서의 설치 목적은?",
          options=("역률 개선", "전압 강하 증가", "손실 증가", "주파수 변경 전기기사 가책형 3쪽"), answer=(1,))),
    ("clarity", "truncated_option",
     Item(id="p-trunc", question="계기용 변성기의 종류에 해당하는 것은?",
          options=("계기용 변압기 및", "전력용 변압기", "단권 변압기", "몰드 변압기"), answer=(1,))),
    ("clarity", "duplicate_options",
     Item(id="p-dup", question="이상기체 1몰이 등온가역 팽창할 때 엔트로피 변화는?",
          options=("1.15cal/K", "1.15 cal/K", "1.38cal/K", "2.76cal/K"), answer=(1,))),
    ("clarity", "empty_option",
     Item(id="p-empty", question="송전선로의 코로나 방지 대책은?", options=("굵은 전선 사용", "", "가는 전선 사용", "전압 상승"),
          answer=(1,))),
]

CLEAN = [
    Item(id="c-plain", question="다음 중 변압기의 철손을 줄이는 방법으로 가장 적절한 것은?",
         options=("규소강판을 성층하여 사용한다.", "권선의 굵기를 줄인다.", "부하를 늘린다.", "주파수를 낮춘다."), answer=(1,)),
    Item(id="c-table", question="다음 표는 두 공정의 불량 개수이다.\n공정 | A | B\n불량 | 3 | 5\n불량이 더 많은 공정은?",
         options=("공정 A", "공정 B", "같다", "알 수 없다"), answer=(2,)),
    Item(id="c-bogi", question="<보기>에서 도체인 것을 모두 고른 것은?\nㄱ. 구리\nㄴ. 고무\nㄷ. 알루미늄",
         options=("ㄱ", "ㄴ", "ㄱ, ㄷ", "ㄴ, ㄷ"), answer=(3,)),
    Item(id="c-ox", question="옳은 것(○)과 옳지 않은 것(×)을 바르게 연결한 것은?\n(가) 구리는 도체이다.\n(나) 고무는 도체이다.",
         options=("○○", "○×", "×○", "××"), answer=(2,)),
    Item(id="c-formula", question="다음 식에서 x의 값은? 2x + 3 = 7", options=("1", "2", "3", "4"), answer=(2,)),
    Item(id="c-foodword", question="다음 식품 중 단백질 함량이 가장 높은 것은?", options=("대두", "감자", "사과", "쌀"), answer=(1,)),
    Item(id="c-listed", question="메르카토르도법, 람베르트도법, 보나도법, 시누소이드도법 가운데 정각도법인 것은?",
         options=("메르카토르도법", "람베르트도법", "보나도법", "시누소이드도법"), answer=(1,)),
    Item(id="c-short", question="3상 유도전동기의 극수가 4이고 주파수가 60Hz일 때 동기속도는 몇 rpm인가?",
         options=("1200", "1800", "3600", "4"), answer=(2,)),
    Item(id="c-units", question="관경 0.5 m, 유속 2 m/s일 때 유량(m3/s)은? (단, π = 3.14로 한다.)",
         options=("0.39", "0.79", "1.57", "3.14"), answer=(1,)),
    Item(id="c-chem", question="물(H2O)과 이산화탄소(CO₂)의 분자량 차이는?", options=("16", "26", "28", "44"), answer=(2,)),
    Item(id="c-markers", question="다음 재료의 전도율 순서로 옳은 것은?\n1) 은\n2) 구리\n3) 알루미늄",
         options=("은 > 구리 > 알루미늄", "구리 > 은 > 알루미늄", "알루미늄 > 구리 > 은", "은 > 알루미늄 > 구리"), answer=(1,)),
]


@pytest.mark.parametrize("kind, rule, item", PLANTED, ids=[p[2].id for p in PLANTED])
def test_each_rule_flags_its_planted_item(kind, rule, item):
    flags = flag_item(item)
    assert (kind, rule) in {(f.kind, f.rule) for f in flags}, flags
    assert all(f.reason for f in flags)


@pytest.mark.parametrize("item", CLEAN, ids=[c.id for c in CLEAN])
def test_clean_controls_are_not_flagged(item):
    assert flag_item(item) == []


def test_answer_leak_states_its_minimum_length():
    short = Item(id="s", question="정답은 3상 결선인가?", options=("3상", "단상", "2상", "6상"), answer=(1,))
    assert LEAK_MIN_CHARS == 4 and flag_item(short) == []
    (leak,) = flag_item(PLANTED[0][2])
    assert f">= {LEAK_MIN_CHARS} characters" in leak.reason


# --- the whole stage on the real KMMLU rows ---------------------------------------------------------------


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("redux-real")
    sources = [_kmmlu(f"kmmlu_Criminal-Law-{s}.csv") for s in ("train", "dev", "test")]
    sources += [_kmmlu("kmmlu_Criminal-Law-test_as_json.json"), _kmmlu("kmmlu_45subjects_500rows_instruction-format.jsonl")]
    return run_redux(sources, out, ReduxSettings(subjects="all"))


def test_real_overlaps_are_the_one_duplicate_inside_the_test_split(real_run):
    # Inspected by hand: test rows 118 and 122 are the same question (사실의 착오) with the same four options
    # and key; 122 has extraction spacing ("사실 의 착 오"). No train or dev row repeats a test row.
    assert [o.record() for o in real_run.overlaps] == [{
        "id": "kmmlu-Criminal-Law-test-00122", "duplicate_of": "kmmlu-Criminal-Law-test-00118", "pair": "test/test",
        "kind": "exact", "similarity": 1.0, "lcs_ratio": 1.0,
    }]
    assert not [o for o in real_run.overlaps if o.pair in ("train/test", "dev/test")]


def test_nearest_real_train_test_pair_is_two_different_items_below_the_threshold():
    # The closest train/test pair: two O/X-grid questions on different crimes (강제집행면탈죄 / 재산범죄)
    # whose options are all ○/× strings. A threshold that merged them would be wrong.
    train = {r.item.id: r.item for r in read_source(_kmmlu("kmmlu_Criminal-Law-train.csv")).items}
    test = {r.item.id: r.item for r in read_source(_kmmlu("kmmlu_Criminal-Law-test.csv")).items}
    nearest = max(((jaccard(shingles(a, 5), shingles(b, 5)), a.id, b.id) for a in train.values() for b in test.values()))
    assert nearest[1:] == ("kmmlu-Criminal-Law-train-00084", "kmmlu-Criminal-Law-test-00005")
    assert 0.55 < nearest[0] < DedupParams().threshold


def test_real_rows_read_twice_are_merged_not_called_duplicates(real_run):
    # The JSON copy (200 rows) and the instruction file's nine Criminal-Law rows are rows of the test CSV.
    assert len(real_run.merged) == 209
    assert {m["same_as"] for m in real_run.merged} <= {f"kmmlu-Criminal-Law-test-{i:05d}" for i in range(200)}
    meta = real_run.report.meta["read"]
    assert meta["splits"] == {"dev": 5, "test": 691, "train": 85} and meta["rejected"] == 0


def test_real_flag_counts_and_known_items(real_run):
    rows = real_run.report.rows
    totals = {kind: rows[kind]["total"] for kind in rows}
    assert totals == {"answer_leak": 0, "ill_posed": 16, "notation": 17, "clarity": 85, "duplicate": 1,
                      "contaminated": 0, "easy": 0, "any": 114}
    assert real_run.report.rules["ill_posed"] == {"missing_bogi": 2, "missing_formula": 1, "missing_statements": 8,
                                                    "source_note": 6}
    by_id = {j.item.id: {(f.kind, f.rule) for f in j.flags} for j in real_run.judged}
    assert ("ill_posed", "missing_statements") in by_id["kmmlu-Criminal-Law-test-00005"]
    assert ("ill_posed", "missing_bogi") in by_id["kmmlu-Criminal-Law-test-00139"]
    assert ("clarity", "page_furniture") in by_id["kmmlu-Criminal-Law-test-00139"]
    restoring = "kmmlu-Civil-Engineering-test-kmmlu_45subjects_500rows_instruction_format-00094"  # options all "복원중"
    assert {("ill_posed", "source_note"), ("clarity", "duplicate_options")} <= by_id[restoring]
    assert rows["clarity"]["kmmlu_criminal_law"] == 70 and rows["ill_posed"]["environment_energy"] == 4


def test_real_outputs_review_interchange_and_a_redux_release(real_run, tmp_path):
    out = real_run.out
    survivors = read_items(out / "items.jsonl")
    flagged = read_items(out / "flagged.jsonl")  # the form `kmmlu review push --items` reads
    assert (len(survivors), len(flagged)) == (577, 113)
    assert all(not item.flags for item in survivors) and all(item.flags for item in flagged)
    first = next(read_jsonl(out / "flagged.jsonl"))
    assert first["reasons"] and {"kind", "rule", "reason"} <= first["reasons"][0].keys()
    rejects = list(read_jsonl(out / "rejects.jsonl"))
    assert [(r["item_id"], r["reason"]) for r in rejects] == [("kmmlu-Criminal-Law-test-00122", "duplicate")]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["rows"]["clarity"]["total"] == 85 and "environment_energy" in report["columns"]
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "| Notation errors |" in markdown and "Jaccard >= 0.8" in markdown
    cut = cut_release(out / "store", "2026", tmp_path / "releases", name="kmmlu-redux")
    assert cut.release_dir.name == "kmmlu-redux-2026" and cut.manifest.counts.items == 577
    assert cut.manifest.versions["dedup"] == DedupParams().fingerprint()


# --- CLI, subjects default, decontamination ---------------------------------------------------------------


def _technical_csv(tmp_path: Path) -> Path:
    return write_csv(tmp_path / "kmmlu_Electrical-Engineering-test.csv", [
        row(CLEAN[0].question, list(CLEAN[0].options), 1),
        row("송전선로에서 코로나 현상을 줄이는 대책으로 옳은 것은?", ["복도체를 사용한다.", "선간거리를 줄인다.",
            "가는 전선을 사용한다.", "전압을 높인다."], 1),
        row(PLANTED[1][2].question, list(PLANTED[1][2].options), 3),
        row("동기발전기의 단락비가 큰 기계의 특징으로 옳은 것은?", ["전압변동률이 작다.", "효율이 좋다.",
            "철기계이다라는 설명은 틀리다.", "전기자 반작용이 크다."], 1),
    ])


@pytest.mark.usefixtures("prefect_harness")
def test_cli_runs_with_the_technical_default_and_decontaminates(tmp_path, realdata):
    from tests.webdocs import render, web_documents, write_shard

    technical = _technical_csv(tmp_path)
    law = _kmmlu("kmmlu_Criminal-Law-dev.csv")
    items = read_source(technical).items
    docs = [text for _, text in web_documents(realdata / "web")[:200]]
    docs[17] = docs[17] + "\n\n" + render(items[1].item, 7) + "\n" + docs[18]
    write_shard(tmp_path / "web" / "shard-000.parquet", docs)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["redux", "--source", str(technical), "--source", str(law), "--out", str(out),
                                      "--web", str(tmp_path / "web")])
    assert result.exit_code == 0, result.output
    assert "4 test items: 2 kept, 1 sent to review, 1 dropped" in result.output
    rejects = list(read_jsonl(out / "rejects.jsonl"))
    assert [(r["item_id"], r["reason"]) for r in rejects] == [("kmmlu-Electrical-Engineering-test-00001", "contaminated")]
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["columns"] == ["electrical_electronics"]  # Criminal-Law is not a technical subject
    assert report["decontam"]["contaminated"] == 1 and report["decontam"]["fingerprint"]
    assert (out / "store" / "decontam" / "report.jsonl").is_file()


@pytest.mark.usefixtures("prefect_harness")
def test_cli_refuses_sources_without_a_test_split(tmp_path):
    result = CliRunner().invoke(app, ["redux", "--source", str(_kmmlu("kmmlu_Criminal-Law-dev.csv")), "--subjects", "all",
                                      "--out", str(tmp_path / "o")])
    assert isinstance(result.exception, InputError) and "no test rows" in str(result.exception)
