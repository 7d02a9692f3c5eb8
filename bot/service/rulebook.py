"""Where players read the rules a message cites (issue 27): the pages of ``docs/rulebook``.

Refusals, reports and ``/rules`` cite rules as D-, T- and P-numbers ("(D12)", "(T4)", "(P51)") and
as sections of the rules contract ("(RULES 3.4)"). The rulebook explains each: a decision under
its number in ``decisions.md`` (anchor ``#d12``), a section under the heading of that number in a
game page (``basics.md#rules-3-4``, ``territory.md#rules-5-4-3``). :class:`Rulebook` turns a
citation into that address, on the web when the configuration names the rulebook's URL
(``[docs] rulebook_url``), else as the file's path in the project, and writes the line a message
ends with: "Read D12 in the rulebook: <link>".

tests/service/test_rulebook.py checks that every citation the engine's messages can make has its
entry in the rulebook.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Rulebook", "citations", "RULEBOOK_DIR", "RULESET_PAGES"]

#: the rulebook's folder in the project
RULEBOOK_DIR = "docs/rulebook"

#: the page of each shipped preset, by the ruleset's name; a ruleset of another name gets the index
RULESET_PAGES = {"neisg": "neisg.md", "sandbox": "sandbox.md", "arena": "arena.md", "megachess": "megachess.md",
                 "territory": "territory.md"}

#: the page that explains a section of the rules contract, by its number's first parts (the longest
#: one known decides: 5.4.3 is in territory.md, 3.4 in basics.md)
_SECTION_PAGES = {"1": "basics.md", "2": "basics.md", "3": "basics.md", "4": "neisg.md", "5": "README.md",
                  "5.1": "sandbox.md", "5.2": "arena.md", "5.3": "megachess.md", "5.4": "territory.md",
                  "6": "basics.md", "7": "basics.md", "8": "basics.md"}

#: "D12", "T4", "P51" (not "P0": that is the position before an update) and "RULES 3.4", each at the
#: start of a word (``\b(?:[DTP][1-9]\d*)\b|\bRULES \d+(?:\.\d+)*``); written with the letter first and
#: the start of the word checked behind it, so that the search jumps from one D, T, P or R to the
#: next instead of trying every character (a thousand private reports an update, issue 25)
_CITATION = re.compile(r"[DTP](?<!\w.)[1-9]\d*\b|R(?<!\w.)ULES \d+(?:\.\d+)*")

#: the most references a message's footer links one by one; beyond, it links the pages
_LINKED = 4


def citations(*texts: str | None) -> list[str]:
    """The rule references in ``texts`` (D-, T-, P-numbers and ``RULES x.y`` sections), each once,
    in the order they first appear."""
    found: dict[str, None] = {}
    for text in texts:
        for match in _CITATION.finditer(text or ""):
            found.setdefault(match.group(0), None)
    return list(found)


@dataclass(frozen=True, slots=True)
class Rulebook:
    """The rulebook's pages: under ``base`` (the URL of ``docs/rulebook`` on the web, e.g.
    ``https://github.com/OWNER/skirmish/blob/main/docs/rulebook``) or, without one, as paths in the
    project (``docs/rulebook/decisions.md#d12``)."""

    base: str | None = None

    def page(self, name: str = "README.md") -> str:
        """The address of a page (``neisg.md``, ``decisions.md#d12``)."""
        return f"{(self.base or RULEBOOK_DIR).rstrip('/')}/{name}"

    @staticmethod
    def entry(reference: str) -> str:
        """The page and anchor of one reference: ``D12`` -> ``decisions.md#d12``, ``RULES 3.4`` ->
        ``basics.md#rules-3-4``, ``RULES 5.4.3`` -> ``territory.md#rules-5-4-3``."""
        reference = reference.strip()
        if reference.startswith("RULES "):
            number = reference[len("RULES "):]
            parts = number.split(".")
            page = next((_SECTION_PAGES[".".join(parts[:size])] for size in range(len(parts), 0, -1)
                         if ".".join(parts[:size]) in _SECTION_PAGES), "README.md")
            return f"{page}#rules-{number.replace('.', '-')}"
        return f"decisions.md#{reference.lower()}"

    def link(self, reference: str) -> str:
        """The address where ``reference`` is explained."""
        return self.page(self.entry(reference))

    def ruleset_page(self, ruleset_name: str) -> str:
        """The address of a ruleset's page (the index for a ruleset without one)."""
        return self.page(RULESET_PAGES.get(ruleset_name, "README.md"))

    def shown(self, address: str) -> str:
        """An address as a message shows it: a URL in angle brackets (Discord shows no preview)."""
        return f"<{address}>" if self.base else address

    def footer(self, *texts: str | None) -> str:
        """The line that tells where to read the rules ``texts`` cite ("" when they cite none):
        ``Read D12 in the rulebook: <link>``; with several, each with its link, up to four; beyond
        that, the pages that explain them."""
        references = citations(*texts)
        if not references:
            return ""
        named = _listed(references)
        if len(references) <= _LINKED:
            links = ", ".join(self.shown(self.link(reference)) for reference in references)
        else:
            pages = dict.fromkeys(self.entry(reference).split("#")[0] for reference in references)
            links = ", ".join(self.shown(self.page(page)) for page in pages)
        return f"Read {named} in the rulebook: {links}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
