"""The shared shape of the simultaneous families (neisg and sandbox, arena, megachess): an update is
resolved by running a pipeline of named steps, declared as data, on one working context.

A family subclasses :class:`PipelineVariant` with its ``context`` (the working context class of one
update: :class:`bot.engine.update.Update` or a family's subclass of it) and its ``assemble`` (the
steps for the ruleset's policies, in the order its rules give); everything else of the protocol
stays the family's own.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Iterable, Mapping

from ..model import Player
from ..policies import Policies, policies_for
from ..report import Report
from ..ruleset import Ruleset
from ..state import GameState
from ..steps import Step
from ..update import Update
from .base import Variant

__all__ = ["PipelineVariant"]


class PipelineVariant(Variant):
    """A variant whose update is a pipeline of steps over a working context."""

    #: the working context of one update
    context: ClassVar[type[Update]] = Update
    #: the steps of one update for the ruleset's policies
    assemble: ClassVar[Callable[[Policies], tuple[Step, ...]]]

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.policies = policies_for(ruleset)     # Unplayable when a choice has no policy yet
        self.pipeline: tuple[Step, ...] = type(self).assemble(self.policies)

    def new_player(self, name: str, colour: str) -> Player:
        """A seated or joining player starts with the ruleset's starting balance."""
        return Player(name=name, colour=colour, balance=self.ruleset.economy.start)

    def begin(self, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str) -> Update:
        """The working context of the update ``state.update``, before its first step."""
        return self.context(self.ruleset, state, seed, orders, self.policies)

    def resolve(self, state: GameState, orders: Mapping[str, str | Iterable[str]], seed: int | str
                ) -> tuple[GameState, Report]:
        update = self.begin(state, orders, seed)
        for step in self.pipeline:
            step(update)
        return update.new_state(), update.report
