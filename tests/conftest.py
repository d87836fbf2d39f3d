import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.figures import FIGURES  # noqa: E402

# Hypothesis profiles for the gateway fuzz suites (tests/test_fuzz_*.py): "ci" (the default) runs
# 2,000 examples per pattern, derandomized and without an example database, so every CI run tries
# the same examples; "deep" (HYPOTHESIS_PROFILE=deep) runs 20,000 per pattern from a random seed and
# keeps failing examples in .hypothesis/ to replay them.
_COMMON = {
    "deadline": None,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
}
settings.register_profile("ci", max_examples=2000, derandomize=True, database=None, **_COMMON)
settings.register_profile("deep", max_examples=20_000, **_COMMON)
settings.register_profile("quick", max_examples=200, derandomize=True, database=None, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = FIGURES.lines()
    if lines:
        terminalreporter.section("gateway figures")
        terminalreporter.write_line(f"hypothesis profile: {settings().max_examples} examples per fuzz test")
        for line in lines:
            terminalreporter.write_line(line)
