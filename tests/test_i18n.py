"""The translations: every text the code marks is in every catalog, translated,
with the same placeholders; plural forms follow each language's rule; the language is the
session's (a block's), never the process's; an unknown language means English."""

from __future__ import annotations

import random
import string
import threading
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from ranklab_ui.core import i18n

ROOT = Path(__file__).resolve().parents[1]
LANGS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


def _ids(messages) -> set[str]:
    return {m if isinstance(m, str) else m[0] for m in messages}


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    """The message ids of the code as it is now, extracted as `make i18n` does (babel.cfg)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    return _ids(msg for _file, _line, msg, _comments, _context in
                extract_from_dir(str(ROOT), method_map, options_map))


def _catalog(code: str):
    with open(i18n.LOCALEDIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as f:
        return read_po(f)


@pytest.fixture(scope="module", params=LANGS)
def catalog(request):
    return request.param, _catalog(request.param)


def test_the_extraction_finds_the_marked_texts(extracted):
    # a few texts marked in different ways: _() in a page, N_() in a table, ngettext, a preset file
    for text in ("Playground", "Precision@k", "MRR over the {n} query of this example", "Cat in the box",
                 "First wrong step: {step} — you typed {typed}, the right value is {value}."):
        assert text in extracted, text


def test_the_template_is_up_to_date(extracted):
    """messages.pot holds exactly what the code marks: run `make i18n` after changing texts."""
    with open(i18n.LOCALEDIR / "messages.pot", "rb") as f:
        template = _ids(m.id for m in read_po(f) if m.id)
    assert sorted(extracted - template) == [], "not in messages.pot: run `make i18n`"
    assert sorted(template - extracted) == [], "in messages.pot but no longer in the code: run `make i18n`"


def test_no_text_is_marked_inside_an_f_string():
    """Babel's extractor does not look inside f-strings: ``f"[{_('open')}](…)"`` is never
    extracted, so it stays in English in every language. Mark the text outside the f-string."""
    import ast

    hidden = []
    for path in sorted([ROOT / "app.py", *ROOT.glob("app_pages/*.py"), *ROOT.glob("ranklab_ui/**/*.py"),
                        *ROOT.glob("metrics/**/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                for inner in ast.walk(node):
                    if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                            and inner.func.id in {"_", "N_", "ngettext"} and inner.args
                            and isinstance(inner.args[0], ast.Constant)):
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert hidden == [], "texts marked inside an f-string (never extracted): " + ", ".join(hidden)


def test_every_message_of_the_code_is_in_every_catalog(extracted, catalog):
    code, cat = catalog
    missing = sorted(extracted - _ids(m.id for m in cat if m.id))
    assert missing == [], f"{code}: missing from the catalog (run `make i18n`, then translate): {missing[:10]}"


def test_no_entry_is_untranslated_or_fuzzy(catalog):
    code, cat = catalog
    untranslated, fuzzy = [], []
    for m in cat:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if not forms or any(not form for form in forms):
            untranslated.append(m.id)
        if m.fuzzy:
            fuzzy.append(m.id)
    assert untranslated == [], f"{code}: untranslated: {untranslated[:10]}"
    assert fuzzy == [], f"{code}: fuzzy (check and clear the flag): {fuzzy[:10]}"


def _fields(text: str) -> list[str]:
    """The placeholders of a str.format text, sorted (``{}`` counts as an empty name), and
    the old-style %-conversions."""
    names = sorted(name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None)
    return names + sorted(part[:2] for part in text.split("%%") if "%s" in part or "%d" in part)


@pytest.mark.parametrize("text, fields", [("a {n} b {k}", ["k", "n"]), ("{}", [""]), ("no field", [])])
def test_fields_are_read_as_python_reads_them(text, fields):
    assert _fields(text) == fields


def test_placeholders_match_between_msgid_and_msgstr(catalog):
    code, cat = catalog
    wrong = []
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            wanted = {tuple(_fields(m.id[0])), tuple(_fields(m.id[1]))}
            forms = m.string
        else:
            wanted, forms = {tuple(_fields(m.id))}, (m.string,)
        for form in forms:
            if tuple(_fields(form)) not in wanted:
                wrong.append((m.id, form))
    assert wrong == [], f"{code}: placeholders differ: {wrong[:5]}"


def test_every_translation_formats_with_the_msgids_fields(catalog):
    """What the code does with a text: .format() with the msgid's fields never raises."""
    code, cat = catalog
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        names = {name for text in ids for name in _fields(text) if name}
        positional = any("" in _fields(text) for text in ids)
        for form in forms:
            form.format(*(["x"] if positional else []), **dict.fromkeys(names, "x"))


@pytest.mark.parametrize("code, n, expected", [
    # French: 0 and 1 take the singular (CLDR's rule "i = 0,1"), 2 and more the plural
    ("fr", 0, "0 jeton"), ("fr", 1, "1 jeton"), ("fr", 2, "2 jetons"), ("fr", 11, "11 jetons"),
    # Korean and Chinese have one form whatever the number
    ("ko", 1, "토큰 1개"), ("ko", 7, "토큰 7개"), ("zh", 1, "1 个词元"), ("zh", 7, "7 个词元"),
    ("en", 1, "1 token"), ("en", 0, "0 tokens"),
])
def test_plural_forms_follow_each_language(code, n, expected):
    with i18n.language(code):
        assert i18n.ngettext("{n} token", "{n} tokens", n).format(n=n) == expected


def test_metric_names_use_each_fields_terms_and_keep_the_abbreviation():
    expected = {"fr": ("Précision@k (P@k)", "Rappel@k (R@k)", "Rang réciproque (RR)"),
                "ko": ("정밀도@k (P@k)", "재현율@k (R@k)", "역순위 (RR)"),
                "zh": ("精确率@k (P@k)", "召回率@k (R@k)", "倒数排名 (RR)")}
    for code, names in expected.items():
        with i18n.language(code):
            assert tuple(i18n._(text) for text in ("Precision@k", "Recall@k", "Reciprocal rank")) == names
    with i18n.language("zh"):   # MAP: 平均精度均值, the abbreviation beside it
        assert "平均精度均值" in i18n._(
            "Walk down the ranking; **each time you meet a relevant document, note the precision at that "
            "rank**. Average precision adds those precisions and divides by a **denominator**: trec_eval "
            "divides by R, the number of relevant documents *judged*, so a relevant document that was never "
            "retrieved pulls AP down. **MAP** is the mean of AP over queries.")


def test_measure_notation_and_formulas_are_never_translated(catalog):
    """A measure written in a msgid (nDCG@10, P(rel=2)@3, trec_eval names) is in its msgstr too."""
    code, cat = catalog
    import re

    notation = re.compile(r"(?:nDCG|DCG|IDCG|AP|P|R|RR|F1)(?:\([^)]*\))?@\w+|\b\w+_cut_\d+\b|recip_rank|log2\(i \+ 1\)")
    lost = []
    for m in cat:
        if not m.id or isinstance(m.id, tuple):
            continue
        for term in notation.findall(m.id):
            if term not in m.string:
                lost.append((term, m.id[:50]))
    assert lost == [], f"{code}: notation changed: {lost[:5]}"


def test_the_decimal_point_is_kept(catalog):
    code, cat = catalog
    import re

    for m in cat:
        if m.id and not isinstance(m.id, tuple):
            for number in re.findall(r"\b\d+\.\d+\b", m.id):
                assert number in m.string, (code, number, m.id[:60])


def test_a_block_language_is_only_that_blocks():
    """Two threads at once, each in its own language: neither sees the other's."""
    barrier = threading.Barrier(2)
    seen = {}

    def run(code):
        with i18n.language(code):
            barrier.wait()
            seen[code] = [i18n._("Playground") for _ in range(200)]

    threads = [threading.Thread(target=run, args=(code,)) for code in ("fr", "ko")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(seen["fr"]) == {"Bac à sable"} and set(seen["ko"]) == {"플레이그라운드"}
    assert i18n._("Playground") == "Playground"   # outside any block: English


def test_metrics_teaching_texts_follow_the_language():
    from metrics.teaching import exercises

    q = exercises.Question("compute", "P@3?", "P@3", 1 / 3, "1/3")
    assert exercises.grade_answer(q, "0.33").message == "Right: 0.3333 (±0.005)."
    with i18n.language("fr"):
        assert exercises.grade_answer(q, "0.33").message == "Juste : 0.3333 (±0.005)."
        assert not exercises.grade_answer(q, "").counted


def test_unknown_languages_mean_english_fuzz():
    rng = random.Random(14)
    alphabet = string.ascii_letters + string.digits + "-_.,;@ \t\n\x00é한中🙂"
    values = ["", " ", "xx", "EN-us", "fr_FR", "zh-Hant", "zh-TW", "ko-KP", "../../etc/passwd", "<script>",
              "a" * 10_000, "\x00", "zh-Hans-CN", "und", "i-klingon"]
    values += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(500)]
    for value in values:
        assert i18n.normalise(value) in (*i18n.LANGUAGES, None)
        assert i18n.from_locale(value) in i18n.LANGUAGES
        with i18n.language(value):
            assert i18n.current_language() in i18n.LANGUAGES
            assert i18n._("Playground") in ("Playground", "Bac à sable", "플레이그라운드", "练习场")
    assert i18n.normalise(None) is None and i18n.from_locale(None) == "en" and i18n.from_locale(42) == "en"


def test_a_changed_po_is_used_before_make_compiles_it(tmp_path, monkeypatch):
    """The .mo beside a .po is used while it is newer; an edited .po (older .mo, or none) is
    compiled in memory, so the app never shows a stale catalog."""
    po = i18n.LOCALEDIR / "fr" / "LC_MESSAGES" / "messages.po"
    copy = tmp_path / "fr" / "LC_MESSAGES" / "messages.po"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(po.read_bytes().replace('msgstr "Bac à sable"'.encode(), b'msgstr "Terrain de jeu"'))
    stale = copy.with_suffix(".mo")
    stale.write_bytes(b"not a catalog")
    import os

    os.utime(stale, (0, 0))   # older than the .po
    monkeypatch.setattr(i18n, "LOCALEDIR", tmp_path)
    i18n.catalog.cache_clear()
    try:
        with i18n.language("fr"):
            assert i18n._("Playground") == "Terrain de jeu"
    finally:
        i18n.catalog.cache_clear()


def test_exports_are_in_the_language():
    """The worked solution (Markdown) and the worksheet carry the session's language; the
    numbers and the formula are the same as in English: R@2 of (a, b) with b relevant = 1/1."""
    import metrics
    from metrics.teaching import exercises
    from ranklab_ui.core.views import worked_solution

    e = metrics.explain("R@2", ["a", "b"], {"b": 1})
    english = worked_solution(e, labels={}, k=2, title="Recall")
    with i18n.language("fr"):
        french = worked_solution(e, labels={}, k=2, title=i18n._("Recall"))
        sheet = exercises.worksheet_markdown([exercises.generate(1, 1)])
    assert french.splitlines()[0] == "# Rappel: R@2 = 1"
    assert "Définition :" in french and "| rang | à k | doc | étiquette |" in french
    assert e.formula in french and e.formula in english   # the formula is never translated
    assert sheet.startswith("# Fiche d'exercices sur les mesures de classement")
    assert "## Corrigé" in sheet and "| rang | document | note |" in sheet
    with i18n.language("ko"):
        assert "## 정답" in exercises.worksheet_markdown([exercises.generate(1, 1)])
