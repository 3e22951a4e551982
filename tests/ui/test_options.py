"""ranklab_ui.session.options: every lesson option round-trips through the link; bad values are refused clearly."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklab_ui.session import options
from tests.strength import scaled


def _value(opt: options.Option):
    if opt.values:
        return st.sampled_from(list(opt.values))
    return st.integers(opt.low, opt.high)


@st.composite
def page_and_values(draw):
    page = draw(st.sampled_from(sorted(options.OPTIONS)))
    chosen = {}
    for opt in options.OPTIONS[page]:
        if draw(st.booleans()):
            chosen[opt.param] = draw(_value(opt))
    return page, chosen


@settings(derandomize=True, max_examples=scaled(300))
@given(page_and_values())
def test_every_option_round_trips_through_the_link(case):
    page, chosen = case
    link = options.encode_params(page, chosen)
    assert all(isinstance(v, str) for v in link.values())
    expected = {p: v for p, v in chosen.items() if v != options.option(page, p).default}
    assert options.decode_params(page, link) == expected


def test_every_option_value_has_its_own_text():
    for page, opts in options.OPTIONS.items():
        assert len({o.param for o in opts}) == len(opts), page
        for o in opts:
            assert len(set(o.values.values())) == len(o.values), (page, o.param)


@pytest.mark.parametrize("page, param, raw", [
    ("lesson_dcg", "dcg", "exp"), ("lesson_dcg", "ideal", ""), ("lesson_ap", "denominator", "r"),
    ("check_calculation", "seed", "-1"), ("check_calculation", "seed", "1e3"),
    ("check_calculation", "seed", str(2**31)), ("check_calculation", "seed", "٣"),  # an Arabic-Indic 3
    ("check_calculation", "measure", "P@5"), ("practice", "level", "4"), ("lesson_dcg", "dcg", "x" * 5000),
])
def test_a_bad_value_is_an_option_error_naming_it(page, param, raw):
    with pytest.raises(options.OptionError, match=f"the link's {param}=") as err:
        options.option(page, param).read(raw)
    assert len(str(err.value)) < 300  # a long value is cut in the message


@settings(derandomize=True, max_examples=scaled(300))
@given(st.sampled_from(sorted(options.OPTIONS)), st.dictionaries(st.text(max_size=12), st.text(max_size=30)))
def test_decoding_any_query_raises_only_option_errors(page, query):
    try:
        options.decode_params(page, query)
    except options.OptionError:
        pass
