"""What an update posts, composed from the engine's results (pure functions, run off the event loop).

A draft is ``(kind, body, attachment, filename, recipient)``: the outbox row to be. The kinds:

- ``board``: the board after the update (PNG) with a one-line caption;
- ``health_image`` and ``health_text``: the health board (RULES 4's lines, exactly; a game without
  end, megachess: the top 20, how many more, and each team's total; a game that is over: how it ended);
- ``events``: event starts and ends, only when some happened;
- ``report``: the public report of what every order did;
- ``private_report``: to each player concerned, what happened to them (refusals included);
- ``timelapse``: the session as an animated GIF, made after a game ends (:mod:`.timelapses`).

A text that cites rules (D12, RULES 3.4) ends with where the rulebook explains them (issue 27).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.report import PUBLIC, Report, render
from bot.engine.ruleset import Ruleset
from bot.engine.state import GameState
from bot.engine.variants import variant_for
from bot.render.board import Rendered, render_board
from bot.render.paint.health import health_board_png
from bot.render.scene.health import standings_lines

from .rulebook import Rulebook

__all__ = ["Draft", "update_posts", "cited", "entries_by_player", "timelapse_body", "EVENT_ENTRIES"]

EVENT_ENTRIES = ("event_start", "event_end")


@dataclass(frozen=True, slots=True)
class Draft:
    kind: str
    body: str
    attachment: bytes | None = None
    filename: str | None = None
    recipient: int | None = None


def update_posts(ruleset: Ruleset, before: GameState, after: GameState, report: Report,
                 user_ids: dict[str, int], game_name: str, palette: str = "default",
                 board: Rendered | None = None, rulebook: Rulebook | None = None) -> list[Draft]:
    """Every post of one resolved update, in the order they should appear (``board``: the board
    after the update, if it is drawn already; ``rulebook``: where the rules the texts cite are
    explained, the service's)."""
    rulebook = rulebook or Rulebook()
    number = report.update
    variant = variant_for(ruleset)
    brief = variant.brief_report(report)
    if brief is not None:      # an update where nothing happened (a skipped turn) is posted as one line
        return [Draft("report", cited(brief, rulebook), None, "report.md")]
    board = board or render_board(ruleset, after, palette=palette)
    panel = variant.standings_panel(after)
    lines = standings_lines(panel)       # a game without end: the top rows and each team's total
    standings = cited("\n".join(lines), rulebook) if lines else "No player has pieces on the board yet."
    drafts = []
    events = [e for e in report.entries if e.type in EVENT_ENTRIES]
    if events:
        drafts.append(Draft("events", cited(render(events, None, number), rulebook), None, "events.md"))
    told = report.context()      # whose piece dodged, who shared a capture: read once for every player
    # report.text(), told with the context just read rather than a second one of the same entries
    drafts.append(Draft("report", cited(render(report.public(), None, number, context=told), rulebook), None,
                        "report.md"))
    concerning = entries_by_player(report)
    for name in sorted(user_ids):
        own = concerning.get(name)
        if own:
            drafts.append(Draft("private_report", cited(render(own, name, number, context=told), rulebook), None,
                                f"{name}.md", user_ids[name]))
    picture = health_board_png(panel, after, game_title=variant.title, palette=palette)
    return [
        Draft("board", f"**{game_name}**: the board after update {number}.", board.png, "board.png"),
        Draft("health_image", f"{panel.title} after update {number}.", picture, "health.png"),
        Draft("health_text", standings, None, "health.txt"),
        *drafts,
    ]


def cited(text: str, rulebook: Rulebook) -> str:
    """``text`` and, when it cites rules, the line that says where the rulebook explains them."""
    footer = rulebook.footer(text)
    return f"{text}\n\n{footer}" if footer else text


def entries_by_player(report: Report) -> dict[str, list]:
    """``report.concerning(name)`` for every player at once, in one pass over the entries (asking
    each of 10,000 players in turn would read the whole report 10,000 times)."""
    found: dict[str, list] = {}
    for entry in report.entries:
        if entry.audience == PUBLIC:
            for name in dict.fromkeys(entry.players):
                found.setdefault(name, []).append(entry)
        elif entry.players:
            found.setdefault(entry.players[0], []).append(entry)
    return found


def timelapse_body(positions: int, step: int = 1) -> str:
    """The words of the timelapse post of a session of ``positions`` positions (the start and one
    after each update), shown one frame every ``step`` updates (and the last)."""
    updates = positions - 1
    played = f"{updates} update{'s' if updates != 1 else ''}"
    if step == 1:
        return f"The whole session, update by update ({played})."
    return (f"The whole session ({played}), one frame every {step} updates and the last, to stay under "
            f"Discord's 10 MB.")
