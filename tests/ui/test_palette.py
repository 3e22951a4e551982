"""The grade palette, computed: every tile's text meets WCAG 2.x AA (4.5:1), and neighbouring
grades stay apart for readers with protanopia or deuteranopia.

Contrast is WCAG's relative-luminance ratio. Colour-vision deficiency is simulated with the
matrices of Machado, Oliveira & Fernandes (2009) at full severity, applied in linear RGB;
distances are CIE76 ΔE in CIELAB (D65). A ΔE of about 2 is just noticeable side by side;
:data:`APART` asks neighbouring grades for four times that.
"""

from __future__ import annotations

import numpy as np
import pytest

from ranklab_ui.core.charts import FADED, FADED_INK, GRADE_COLORS, UNJUDGED_FILL, grade_text_color

AA = 4.5        # WCAG 2.x AA, normal-size text
APART = 8.0     # ΔE76 between neighbouring grades, under every vision below

VISIONS = {
    "typical": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}


def srgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(hex_colour: str) -> float:
    r, g, b = linear(srgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    dark, light = sorted((luminance(a), luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def over_white(hex_colour: str, opacity: float) -> str:
    """The colour a browser paints for ``hex_colour`` at ``opacity`` over white (sRGB blending)."""
    blended = opacity * srgb(hex_colour) + (1 - opacity)
    return "#" + "".join(f"{round(x * 255):02x}" for x in blended)


def lab(rgb_linear: np.ndarray) -> np.ndarray:
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ rgb_linear
    x, y, z = xyz / np.array([0.95047, 1.0, 1.08883])

    def f(t):
        return np.cbrt(t) if t > 0.008856 else 7.787 * t + 16 / 116

    return np.array([116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))])


def seen(hex_colour: str, vision: str) -> np.ndarray:
    return lab(np.clip(VISIONS[vision] @ linear(srgb(hex_colour)), 0, 1))


def test_the_helpers_reproduce_known_values():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)   # the classic AA near-miss
    assert seen("#ffffff", "typical") == pytest.approx([100, 0, 0], abs=0.05)
    # a protanope cannot tell pure red from a dark olive much better than a grey step
    assert np.linalg.norm(seen("#ff0000", "protanopia") - seen("#ff0000", "typical")) > 40


@pytest.mark.parametrize("grade", range(len(GRADE_COLORS)))
def test_every_tile_label_meets_aa(grade):
    assert contrast(GRADE_COLORS[grade], grade_text_color(grade)) >= AA


@pytest.mark.parametrize("grade", range(len(GRADE_COLORS)))
def test_a_faded_tile_past_k_keeps_its_label_readable(grade):
    assert contrast(over_white(GRADE_COLORS[grade], FADED), FADED_INK) >= AA


def test_unjudged_and_not_relevant_tiles_are_readable():
    assert contrast(UNJUDGED_FILL, grade_text_color(0)) >= AA
    assert contrast(over_white(UNJUDGED_FILL, FADED), FADED_INK) >= AA
    assert contrast("#ffffff", grade_text_color(0)) >= AA   # a grade-0 drag tile


@pytest.mark.parametrize("vision", VISIONS)
def test_neighbouring_grades_stay_apart(vision):
    labs = [seen(c, vision) for c in GRADE_COLORS]
    gaps = [float(np.linalg.norm(a - b)) for a, b in zip(labs[:-1], labs[1:], strict=True)]
    assert min(gaps) >= APART, gaps


@pytest.mark.parametrize("vision", VISIONS)
def test_unjudged_is_told_apart_from_every_grade(vision):
    unjudged = seen(UNJUDGED_FILL, vision)
    assert min(float(np.linalg.norm(unjudged - seen(c, vision))) for c in GRADE_COLORS) >= APART


def test_darker_means_better_in_every_vision():
    """Lightness falls with the grade for every reader, so 'darker = more relevant' holds
    without telling hues apart."""
    for vision in VISIONS:
        lightness = [seen(c, vision)[0] for c in GRADE_COLORS[1:]]
        assert lightness == sorted(lightness, reverse=True), vision


def test_the_strip_is_a_white_card_with_readable_text_in_both_themes():
    """The strip draws its own background (ranklab_ui/core/charts.py), so on a dark page the tints above
    (computed over white) and its axis and legend texts keep their contrast."""
    from ranklab_ui.core.charts import STRIP_BACKGROUND, STRIP_TEXT, ranking_strip

    assert STRIP_BACKGROUND == "#ffffff"
    assert contrast(STRIP_TEXT, STRIP_BACKGROUND) >= AA
    spec = ranking_strip([{"rank": 1, "label": "a", "grade": 1}], k=1).to_dict()
    assert spec["background"] == STRIP_BACKGROUND
    assert spec["layer"][0]["encoding"]["x"]["axis"]["labelColor"] == STRIP_TEXT


def test_the_step_tables_highlight_is_readable_in_both_themes():
    import re

    from ranklab_ui.render import tables

    # row k's style sets both its background and its text, so the theme's text colour never
    # meets the highlight's background
    style = dict(re.findall(r"([\w-]+):\s*([^;]+)", tables._ROW_K))
    assert contrast(style["background-color"].strip(), style["color"].strip()) >= AA
