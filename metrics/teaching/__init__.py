"""The teaching layer: pure logic behind the "Teach" pages.

- :mod:`.check` — check a learner's calculation step by step and name the likely mistake.
- :mod:`.exercises` — seeded exercises, "predict, then reveal" questions, worksheets.
- :mod:`.explorer` — one example under every convention preset, with library snippets.
- :mod:`.pitfalls` — one small example per classic pitfall, wrong and right side by side.
- :mod:`.compare` — two systems: per-query deltas, paired t-test, randomization test.
- :mod:`.swap` — how much each metric moves when two positions swap.
- :mod:`.diagnose` — which conventions make Ranklab print another tool's numbers (``ranklab diagnose``).

Everything here computes metric values through :mod:`metrics` (``score``/``explain``);
the only metric arithmetic written here reproduces *mistakes* (named mistaken kernels).
"""
