"""The Copy link button's page (ranklab_ui/render/links.py): its style and script come from their
files whole, and its texts are attribute values, escaped."""

from __future__ import annotations

import html
import re
from pathlib import Path

from ranklab_ui.render import links

FILES = Path(links.__file__).parent


def _page(monkeypatch, label: str) -> str:
    drawn = []
    monkeypatch.setattr(links.st, "iframe", lambda body, height: drawn.append((body, height)))
    links.copy_link("http://x/?ex=1.abc", label)
    (body, height), = drawn
    assert height == 42
    return body


def test_the_style_and_the_script_are_the_files_whole(monkeypatch):
    body = _page(monkeypatch, "Copy link")
    assert (FILES / "copy_link.css").read_text(encoding="utf-8") in body
    assert (FILES / "copy_link.js").read_text(encoding="utf-8") in body
    assert not re.search(r"\$(style|script|label|tip|copied|failed)\b", body)   # every name filled


def test_a_text_with_quotes_and_markup_stays_an_attribute(monkeypatch):
    label = 'Copier le "lien" <b>&</b> \'ici\' </script>'
    body = _page(monkeypatch, label)
    button = re.search(r"<button [^>]*>", body).group(0)
    # the label is the data-again attribute, escaped: no quote ends it, no tag opens in it
    assert f'data-again="{html.escape(label, quote=True)}"' in button
    assert "<b>" not in body and "</script>" not in body.split("<script>")[0]
    assert body.count("</script>") == 1


def test_no_link_no_button(monkeypatch):
    shown = []
    monkeypatch.setattr(links.st, "iframe", lambda *a, **k: shown.append("iframe"))
    monkeypatch.setattr(links.st, "caption", lambda text: shown.append(text))
    links.copy_link(None)
    assert shown == ["This example is too large to fit in a link."]
