"""Import directions between the packages (issue 19): what each package may import, as its
``__init__`` docstring says, checked on the source of every module of ``referee/`` and
``tournaments/`` (parsed, never imported), lazy imports inside functions included."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STDLIB = sys.stdlib_module_names

#: What the plumbing reads of the rules library: the profiles (a table's seat count).
PLUMBING_RULES = ("referee.rules.profiles", "referee.rules.games")
#: The packages that hold no screen: none of them imports a screen.
CONCERNS = (
    "tournaments.hands",
    "tournaments.seating",
    "tournaments.standings",
    "tournaments.archive",
    "tournaments.tournament",
    "tournaments.season",
    "tournaments.rounds",
    "tournaments.common",
    "tournaments.models",
    "tournaments.tasks",
    "tournaments.par",
)
#: The screens and their helpers, each audience's: nothing but themselves and the URLs use them.
SCREENS = (
    "tournaments.director",
    "tournaments.public",
    "tournaments.admin",
    "tournaments.templatetags",
    "referee.api",
    "referee.console",
)
#: The one way the hands reach the standings: asking for a recompute after the commit.
HANDS_TO_STANDINGS = {("tournaments.standings.snapshots", "standings_request")}
#: Pure Python, no Django: they import the standard library and each other only.
PURE = ("tournaments.seating.engine", "tournaments.standings.ranking", "tournaments.common.phrases")
#: Reads of a screen package that others may use: the public pages' template helpers, and the
#: director's reads (a hand's state on the results desk, shown on the referee's phone too).
SCREEN_READS = ("tournaments.templatetags.public_tags", "tournaments.director.selectors")
#: Names of a screen package a concern may import: none (a hand's state on the results desk,
#: once one, is ``tournaments.hands.gate.hand_desk_state``).
CONCERN_TO_SCREEN: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the module imported, or the module a name is imported from
    name: str | None  # that name (``from target import name``), None for a module
    line: int

    def __str__(self) -> str:
        what = self.target + (f".{self.name}" if self.name else "")
        return f"{self.source}:{self.line} imports {what}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    found = {}
    for top in ("referee", "tournaments"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


SOURCES = _sources()


def _imports(module: str, path: Path) -> list[Import]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{module}:{node.lineno}: relative import"
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if submodule in SOURCES:
                    found.append(Import(module, submodule, None, node.lineno))
                else:
                    found.append(Import(module, node.module, alias.name, node.lineno))
    return found


IMPORTS = [i for module, path in SOURCES.items() for i in _imports(module, path)]


def _within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _imports_of(*packages: str) -> list[Import]:
    return [i for i in IMPORTS if _within(i.source, *packages)]


def _ours(target: str) -> bool:
    return _within(target, "referee", "tournaments")


def test_every_module_of_both_apps_is_parsed() -> None:
    assert len(SOURCES) > 100
    for module in ("referee.rules.hand", "tournaments.hands.write", "referee.console.views"):
        assert module in SOURCES


#: The solver's optional compiled search may import numba and numpy (issue 33 allows a compiled
#: accelerator beside the pure-Python search); nothing else of the library may.
ACCELERATOR = ("referee.rules.solver_jit", ("numba", "numpy"))


def test_the_rules_library_imports_only_the_standard_library_and_itself() -> None:
    offenders = [
        str(i)
        for i in _imports_of("referee.rules")
        if not (i.target.split(".")[0] in STDLIB or _within(i.target, "referee.rules"))
        and not (i.source == ACCELERATOR[0] and i.target.split(".")[0] in ACCELERATOR[1])
    ]
    assert offenders == []


def test_the_accelerator_is_optional() -> None:
    # imported under ``try`` (ImportError: the pure search answers) and by nothing at import
    # time but ``solver.solver_for``, lazily
    text = (ROOT / "referee" / "rules" / "solver_jit.py").read_text("utf-8")
    assert "try:  # the accelerator is optional" in text and "except ImportError:" in text
    importers = {i.source for i in IMPORTS if i.target == ACCELERATOR[0]}
    assert importers <= {"referee.rules.solver"}, importers


def test_the_seating_engine_and_the_ranking_import_only_the_standard_library() -> None:
    offenders = [
        str(i)
        for i in _imports_of(*PURE)
        if i.target.split(".")[0] not in STDLIB and not _within(i.target, *PURE)
    ]
    assert offenders == []


def test_the_hands_reach_the_standings_only_by_asking_for_a_recompute() -> None:
    reached = {
        (i.target, i.name)
        for i in _imports_of("tournaments.hands")
        if _within(i.target, "tournaments.standings")
    }
    assert reached <= HANDS_TO_STANDINGS, reached - HANDS_TO_STANDINGS


def test_the_standings_never_import_the_hands() -> None:
    standings = _imports_of("tournaments.standings")
    offenders = [str(i) for i in standings if _within(i.target, "tournaments.hands")]
    assert offenders == []


def test_the_plumbing_imports_no_concern_only_the_models() -> None:
    offenders = [
        str(i)
        for i in _imports_of("tournaments.common")
        if _ours(i.target)
        and not _within(i.target, "tournaments.common", "tournaments.models", *PLUMBING_RULES)
    ]
    assert offenders == []


def test_the_models_import_only_the_limits_and_the_ranking_criteria() -> None:
    allowed = (
        "tournaments.models",
        "tournaments.common.limits",
        "tournaments.common.seats",
        "tournaments.common.json_arrays",
        "tournaments.common.row_checks",
        "tournaments.standings.ranking",
    )
    offenders = [
        str(i)
        for i in _imports_of("tournaments.models")
        if _ours(i.target) and not _within(i.target, *allowed)
    ]
    assert offenders == []


def test_no_concern_imports_a_screen() -> None:
    offenders = [
        str(i)
        for i in _imports_of(*CONCERNS)
        if _within(i.target, *SCREENS) and (i.target, i.name) not in CONCERN_TO_SCREEN
    ]
    assert offenders == []


def _screen_imports_of_hands(imports: list[Import]) -> list[str]:
    return [
        str(i)
        for i in imports
        if _within(i.source, "tournaments.hands") and _within(i.target, *SCREENS)
    ]


def test_the_hands_import_no_screen(tmp_path: Path) -> None:
    """``tournaments.hands`` says "never a screen": not the director's reads either (a
    hand's desk state is ``hands.gate.hand_desk_state``). The check itself catches one."""
    assert _screen_imports_of_hands(IMPORTS) == []
    module = tmp_path / "table_selectors.py"
    module.write_text("from tournaments.director.selectors import hand_desk_state\n")
    found = _screen_imports_of_hands(_imports("tournaments.hands.table_selectors", module))
    assert found == [
        "tournaments.hands.table_selectors:1 imports tournaments.director.selectors.hand_desk_state"
    ]


def test_hand_events_are_appended_only_by_the_skeleton() -> None:
    """Every hand write, the seating's seat corrections included, appends its events through
    ``tournaments.hands.writing.hand_write``: nothing else imports the append."""
    offenders = [
        str(i)
        for i in IMPORTS
        if (i.name == "hand_event_append" or i.target.endswith(".hand_event_append"))
        and i.source != "tournaments.hands.writing"
    ]
    assert offenders == []


def test_a_screen_uses_another_only_through_its_reads() -> None:
    """The views, forms and URLs of one audience are its own; another screen may use only the
    public template helpers and the director's reads (the players' confirm page of the
    console shows a hand's desk state with ``tournaments.director.selectors``)."""
    crossings = [
        i
        for i in _imports_of(*SCREENS)
        for screen in SCREENS
        if _within(i.target, screen) and not _within(i.source, screen)
    ]
    assert {i.target for i in crossings} <= set(SCREEN_READS), [str(i) for i in crossings]
    pairs = {(i.source, i.target) for i in crossings}
    assert ("referee.console.confirm", "tournaments.director.selectors") in pairs


def test_the_api_and_the_console_use_the_models_package_never_a_model_module() -> None:
    offenders = [
        str(i)
        for i in _imports_of("referee.api", "referee.console")
        if _within(i.target, "tournaments.models") and i.target != "tournaments.models"
    ]
    assert offenders == []


def test_the_api_and_the_console_never_import_each_other() -> None:
    api, console = _imports_of("referee.api"), _imports_of("referee.console")
    offenders = [str(i) for i in api if _within(i.target, "referee.console")]
    offenders += [str(i) for i in console if _within(i.target, "referee.api")]
    assert offenders == []


def test_no_module_imports_another_packages_private_name() -> None:
    def package(module: str) -> str:
        return module if module in SOURCES and SOURCES[module].name == "__init__.py" else (
            module.rpartition(".")[0]
        )  # fmt: skip

    offenders = [
        str(i)
        for i in IMPORTS
        if _ours(i.target)
        and i.name
        and i.name.startswith("_")
        and package(i.source) != package(i.target)
    ]
    assert offenders == []


def test_the_tournaments_app_keeps_only_djangos_and_celerys_fixed_modules_at_its_top() -> None:
    """Every other module is in its concern's package: no flat module, no old path kept as
    a re-export."""
    top = sorted(p.name for p in (ROOT / "tournaments").glob("*.py"))
    assert top == ["__init__.py", "apps.py", "tasks.py"]
    assert not (ROOT / "tournaments" / "services").exists()
    assert not (ROOT / "tournaments" / "views").exists()


PACKAGES_WITH_A_DIRECTION = (
    "referee.api",
    "referee.console",
    "tournaments.hands",
    "tournaments.seating",
    "tournaments.standings",
    "tournaments.archive",
    "tournaments.admin",
    "tournaments.tournament",
    "tournaments.rounds",
    "tournaments.director",
    "tournaments.public",
    "tournaments.common",
)


def test_each_package_says_what_it_owns_and_what_it_may_import_and_holds_no_code() -> None:
    """The admin package's one import registers its model admins (Django's autodiscovery
    imports ``tournaments.admin``); every other package ``__init__`` is its docstring only."""
    for package in PACKAGES_WITH_A_DIRECTION:
        tree = ast.parse(SOURCES[package].read_text("utf-8"))
        docstring = ast.get_docstring(tree) or ""
        assert "May import" in docstring, package
        code = [ast.unparse(node) for node in tree.body[1:]]
        expected = (
            ["from tournaments.admin import model_admins"] if package == "tournaments.admin" else []
        )
        assert code == expected, package
