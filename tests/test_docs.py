"""The README's and every ``docs/*.md`` file's Python examples run as written (offline).

Each block runs on its own, in a fresh namespace, from a scratch folder; a block fenced as
```` ```python notest ```` is shown, not run (it needs a server, say)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from langchain_core._api import LangChainBetaWarning

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)


def _blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


CASES = [(path, index) for path in DOCS for index in range(len(_blocks(path)))]
#: Pages about an optional extra: their blocks need its packages. The development lock installs every
#: extra (`make test` runs these blocks); the lowest-versions matrix installs `dev` only, and skips them.
EXTRAS = {"mcp.md": ("mcp", "fastmcp", "langchain.mcp"), "cedar.md": ("cedarpy",)}


@pytest.mark.parametrize(("path", "index"), CASES, ids=[f"{p.relative_to(ROOT)}[{i}]" for p, i in CASES])
def test_python_block_runs(path, index, monkeypatch, tmp_path):
    for module in EXTRAS.get(path.name, ()):
        with warnings.catch_warnings():  # langchain.mcp is in beta, and says so once, on import
            warnings.simplefilter("ignore", LangChainBetaWarning)
            pytest.importorskip(module, reason=f"{path.name} documents an extra that is not installed here")
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # files an example writes land in a scratch folder
    code = _blocks(path)[index]
    # dont_inherit: a block runs as a user's file would, without this module's __future__ imports
    where = f"{path.relative_to(ROOT)}[python block {index}]"
    exec(compile(code, where, "exec", dont_inherit=True), {"__name__": "__doc__"})


def test_the_readme_and_docs_have_python_examples():
    assert _blocks(ROOT / "README.md")
    assert len(DOCS) > 5 and all(p.suffix == ".md" for p in DOCS)


def test_links_between_docs_resolve():
    broken = []
    for path in DOCS:
        for target in re.findall(
            r"\]\(((?:docs/|\.\./)?[\w./-]+\.md)(?:#[\w-]+)?\)", path.read_text(encoding="utf-8")
        ):
            if not (path.parent / target).resolve().is_file():
                broken.append(f"{path.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_the_readme_is_a_starting_point():
    """At most 300 lines (everything else lives in docs/), and its first screen says what
    ``GovernanceMiddleware`` adds to ``create_agent`` + LangChain's ``HumanInTheLoopMiddleware``
    (issue 36), and shows how to run a pattern, approve a waiting run and plug in a model."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    first_screen = "\n".join(text.splitlines()[:45])
    for needle in (
        "GovernanceMiddleware",
        "HumanInTheLoopMiddleware",
        "agent-patterns run ",
        "agent-patterns approve ",
        "OPENAI_API_KEY",
        "build_graph(llm=",
    ):
        assert needle in first_screen, needle


def test_python_blocks_name_modules_as_the_installed_package_has_them():
    """An example's code and comments name our modules through ``governed_agent_patterns``: the
    top-level ``graphs``, ``nodes``, ``policies``, ``demo_tools`` exist in a clone only (a README
    comment sent readers to ``nodes.store``; issue 36)."""
    fenced = re.compile(r"^```python(?: notest)?\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)
    top_level = re.compile(r"(?<![\w.])(?:graphs|nodes|policies|demo_tools)\.[a-z_]+")
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in DOCS
        for block in fenced.findall(path.read_text(encoding="utf-8"))
        for line in block.splitlines()
        if top_level.search(line)
    ]
    assert found == []


def test_own_agent_md_gives_the_readmes_example_its_length():
    """docs/own-agent.md names the length of the README's own-agent example; it said 40 lines for
    one of 62 (issue 36)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Govern your own agent") :]
    [example] = BLOCK.findall(section[: section.index("\n## ", 3)])
    said = re.search(
        r"the README has a (\d+)-line quick version", (ROOT / "docs" / "own-agent.md").read_text()
    )
    assert said is not None and int(said.group(1)) == len(example.splitlines())
