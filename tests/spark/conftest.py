"""Spark fixtures: one local[2] SparkSession for the whole test session.

Without pyspark (``pip install -e '.[spark]'``, or ``make spark``) or without Java 17+
(``apt-get install openjdk-17-jre-headless``) the Spark tests are skipped with the reason,
unless RANKLAB_REQUIRE_SPARK=1 (CI sets it): then they fail.
"""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest


def need_spark() -> None:
    reason = None
    if importlib.util.find_spec("pyspark") is None:
        reason = "pyspark is not installed (make spark, or pip install -e '.[spark]')"
    elif shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        reason = "Java is missing (apt-get install openjdk-17-jre-headless)"
    if reason is None:
        return
    reason += " — the Spark tests need it"
    if os.environ.get("RANKLAB_REQUIRE_SPARK") == "1":
        pytest.fail(reason + "; RANKLAB_REQUIRE_SPARK=1 forbids skipping")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def spark():
    need_spark()
    from metrics.spark import session

    s = session("local[2]", partitions=4, app="ranklab-tests")
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()
