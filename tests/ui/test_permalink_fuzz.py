"""Damaged permalinks, generated from real ones with a fixed seed: ``decode`` either returns a
valid example that encodes and round-trips, or raises ``ExampleError`` — nothing else, ever.

Each case starts from the encoded form of a preset (or of an example with awkward ids) and
damages one layer of it: the text of the link, the compressed bytes, the JSON text, or the
decoded payload (wrong types, huge numbers, deep nesting, lone surrogates, control characters,
Markdown and HTML, wrong versions).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import re
import zlib

import pytest

from ranklab_ui.core import codec, presets, validation
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.validation import ExampleError

SEED = 20261124
CASES_PER_LAYER = 400   # five layers: 2,000 damaged links

HOSTILE = [
    "[Fix it here](http://evil.example/x)", "![i](http://evil.example/i.png)", "<img src=x onerror=alert(1)>",
    "**b**", ":red[x]", "$x$", "\ud800", "a\udfffb", "\x00", "\x1b[31m", "\u0085", "\u2028", "\r\n", "\t",
    "x" * 10_000, "", " ", "🐈‍⬛", "文書#1", "doc#D001", "www.evil.example", "me@evil.example", "\\", "'\"",
]
WEIRD = [None, True, False, 0, -1, 1.5, float("nan"), float("inf"), -float("inf"), 10**400, -(10**400),
         1e308, "1", "1e400", "nan", [], {}, [[]], {"a": 1}, "", 2**63, -(2**63) - 1]


def _base_examples() -> list[Example]:
    out = [presets.build_preset(name) for name in presets.PRESETS]
    awkward = Query("ids in the wild", (Item("doc#D001", "a # id", 3), Item("http://x.org/a b", "an address", 0),
                                        Item("文書-1", "非ラテン", 1)), (Item("a/b", "slash", 2),))
    out.append(Example((awkward,), k=2, mode="graded"))
    return out


def _pack(raw: bytes) -> str:
    return "1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


def _payload(example: Example) -> dict:
    return json.loads(zlib.decompress(base64.urlsafe_b64decode(_links_b64(codec.encode(example)))))


def _links_b64(link: str) -> str:
    packed = link.partition(".")[2]
    return packed + "=" * (-len(packed) % 4)


def _paths(node, prefix=()):
    """Every (path, value) inside a JSON value."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _set(root, path, value):
    if not path:
        return value
    node = root
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return root


def _deep(rng: random.Random) -> str:
    """A marker that :func:`_damage_payload` replaces by arrays nested this deep."""
    return f"DEEP{rng.choice([6, 9, 50, 1_000, 100_000])}"


def _damage_payload(rng: random.Random, payload: dict) -> str:
    data = copy.deepcopy(payload)
    for _ in range(rng.randint(1, 3)):
        paths = list(_paths(data))
        path, _ = rng.choice(paths)
        what = rng.random()
        if what < 0.35:
            value = copy.deepcopy(rng.choice(WEIRD))
        elif what < 0.7:
            value = rng.choice(HOSTILE)
        elif what < 0.8:
            value = _deep(rng)
        elif what < 0.9:
            value = rng.choice([2, 0, "1", None, 1.0])
            path = ("v",)
        else:
            value = {"extra": 1}
            path = (*path[:-1], "zz") if path and isinstance(_get(data, path[:-1]), dict) else path
        data = _set(data, path, value)
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    for marker in re.findall(r'"DEEP(\d+)"', text):   # nesting json.dumps itself could not write
        n = int(marker)
        text = text.replace(f'"DEEP{n}"', "[" * n + "]" * n, 1)
    return _pack(text.encode("utf-8", "surrogatepass"))


def _get(root, path):
    for step in path:
        root = root[step]
    return root


def _damage_text(rng: random.Random, link: str) -> str:
    chars = list(link)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(chars))
        chars[i] = rng.choice("AZaz09-_=.+/!%\x00\ud800é ")
    return "".join(chars)


def _truncate(rng: random.Random, link: str) -> str:
    cut = rng.randrange(0, len(link))
    return link[:cut] if rng.random() < 0.7 else link[:2] + link[cut:]


def _damage_bytes(rng: random.Random, link: str) -> str:
    blob = bytearray(base64.urlsafe_b64decode(_links_b64(link)))
    for _ in range(rng.randint(1, 3)):
        blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
    return "1." + base64.urlsafe_b64encode(bytes(blob)).decode().rstrip("=")


def _damage_json_text(rng: random.Random, link: str) -> str:
    raw = bytearray(zlib.decompress(base64.urlsafe_b64decode(_links_b64(link))))
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(raw))
        raw[i] = rng.choice(b'[]{}",:0123456789e-\\\xff\xc3')
    return _pack(bytes(raw))


def damaged_links() -> list[tuple[str, str]]:
    rng = random.Random(SEED)
    bases = _base_examples()
    links = [codec.encode(ex) for ex in bases]
    payloads = [_payload(ex) for ex in bases]
    cases = []
    for n in range(CASES_PER_LAYER):
        i = n % len(links)
        cases.append(("text", _damage_text(rng, links[i])))
        cases.append(("truncated", _truncate(rng, links[i])))
        cases.append(("bytes", _damage_bytes(rng, links[i])))
        cases.append(("json text", _damage_json_text(rng, links[i])))
        cases.append(("payload", _damage_payload(rng, payloads[i])))
    return cases


def check_decode(link: str) -> str:
    """'ok' or 'refused'; fails the test on anything else."""
    try:
        example = codec.decode(link)
    except ExampleError as err:
        message = str(err)
        message.encode("utf-8")   # the message itself can be sent to the browser
        assert message and len(message) < 600, message[:200]
        return "refused"
    assert isinstance(example, Example)
    assert validation.validate(example) == example
    again = codec.encode(example)   # a decoded example always encodes (and so can be published)
    assert codec.decode(again) == example
    return "ok"


def test_two_thousand_damaged_links_decode_or_raise_example_error():
    cases = damaged_links()
    assert len(cases) >= 2_000
    outcomes: dict[str, dict[str, int]] = {}
    for layer, link in cases:
        try:
            result = check_decode(link)
        except ExampleError:
            raise
        except Exception as exc:   # noqa: BLE001 - the point: name the link that broke it
            pytest.fail(f"{layer}: {type(exc).__name__}: {exc!s:.200} for link {link[:120]!r}")
        outcomes.setdefault(layer, {}).setdefault(result, 0)
        outcomes[layer][result] += 1
    # the damage is real: every layer is mostly refused, and the payload layer also yields
    # some changed-but-valid examples (a hostile label is still a label)
    for layer, counts in outcomes.items():
        assert counts.get("refused", 0) > CASES_PER_LAYER // 3, (layer, counts)
    assert outcomes["payload"].get("ok", 0) > 0, outcomes


@pytest.mark.parametrize("payload_change", [
    lambda p: _set(p, ("q", 0, "r", 0, 2), 10**400),
    lambda p: _set(p, ("q", 0, "n"), "\ud800"),
    lambda p: _set(p, ("q", 0, "r", 0, 1), "\ud800"),
    lambda p: _set(p, ("q", 0, "r", 0, 0), "\udfff"),
    lambda p: _set(p, ("k",), 10**400),
    lambda p: _set(p, ("c",), -(10**400)),
    lambda p: _set(p, ("v",), 10**400),
])
def test_the_reported_links_are_refused(payload_change):
    payload = payload_change(_payload(presets.build_preset("cat")))
    for ensure_ascii in (True, False):
        link = _pack(json.dumps(payload, ensure_ascii=ensure_ascii).encode("utf-8", "surrogatepass"))
        with pytest.raises(ExampleError):
            codec.decode(link)


@pytest.mark.parametrize("depth", [9, 100, 10_000, 1_000_000])
def test_deep_nesting_is_refused_before_parsing(depth):
    raw = b'{"v":1,"k":1,"m":"b","q":' + b"[" * depth + b"]" * depth + b"}"
    with pytest.raises(ExampleError, match="damaged"):
        codec.decode(_pack(raw))
