"""The campaign's operations: what a command does to a campaign (a draw, a resolve, a
sealed number revealed, a file made, an undo, a sync), each one change under its files'
locks, journaled, all or nothing, and each returning what it did. A command parses its
options, calls one of them and shows its result; a script or a chat bot calls them the
same way (docs/api.md, "A campaign").

Each group's work is in a module of its own (clockplay, wheelplay, accounts, sync),
imported when one of its operations is called: a resolve loads no ledger, no git.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from cwx.campaign.files import Acting, Say
from cwx.campaign.folder import stem

if TYPE_CHECKING:
    from cwx.campaign import accounts, clockplay, sync, wheelplay
    from cwx.campaign.results import Initialised, Revealed, Sealed
    from cwx.rules.clockworx import Advancement
    from cwx.rules.colorwheel import Bag, Luck, Question, Table

class Campaign(Acting):
    """A campaign and what can be done to it (files.Acting says how it is opened, and
    what it tells the player)."""

    # ---------------------------------------------------------------- ClockWorx

    def resolve(self, guess: int, *, target: int | None = None, trait: str | None = None,
                char: str | None = None, score: int | None = None, sealed: bool = False,
                commitment: str | None = None, folder: str | None = None,
                ) -> clockplay.Resolved:
        """A guess against the GM's number (`target`, or the `sealed` one kept in
        `folder`), the experience added to `char`; against a number sealed in another
        clone, a guess journaled to wait for its reveal (clockplay.resolve)."""
        from cwx.campaign import clockplay

        return clockplay.resolve(self, guess, target=target, trait=trait, char=char,
                                 score=score, sealed=sealed, commitment=commitment,
                                 folder=folder)

    def seal(self, *, target: int | None = None, force: bool = False, void: bool = False,
             folder: str | None = None) -> Sealed:
        """The GM's number (`target`, else a random one) sealed, its commitment
        published in the journal; over a number guesses wait on, refused unless `void`
        (they are made void)."""
        from cwx.campaign import clockplay

        return clockplay.seal(self, target=target, force=force, void=void, folder=folder)

    def reveal(self, *, folder: str | None = None) -> Revealed:
        """The sealed number revealed with its proof, the guesses on it settled."""
        from cwx.campaign import clockplay

        return clockplay.reveal(self, folder=folder)

    def score(self, char: str, trait: str) -> int:
        """The character's score in a trait, read from its sheet (for its odds)."""
        from cwx.campaign import clockplay

        return clockplay.score(self, char, trait)

    def spend_xp(self, char: str, *, new: str | None = None,
                 raise_: str | None = None) -> Advancement:
        """Experience spent on a new trait or one more point in a trait."""
        from cwx.campaign import clockplay

        return clockplay.spend_xp(self, char, new=new, raise_=raise_)

    # ---------------------------------------------------------------- the Color Wheel

    def draw(self, char: str, *, bag: str | None = None, colour: str | None = None,
             trait: str | None = None, dice: Callable[[Bag], str],
             choose: Callable[[Question, Table], bool], spend_white: bool = False,
             ask_to_spend: Callable[[Table], bool] | None = None) -> wheelplay.Move:
        """One action drawn from the bag for `char` (its `colour`, or its `trait`'s);
        `dice` gives each die, `choose` answers each keep choice, `ask_to_spend` is asked
        whether to spend a white on a failure (unless `spend_white`)."""
        from cwx.campaign import wheelplay

        return wheelplay.draw(self, char, bag=bag, colour=colour, trait=trait, dice=dice,
                              choose=choose, spend_white=spend_white,
                              ask_to_spend=ask_to_spend)

    def spend_luck(self, char: str, *, bag: str | None = None,
                   draw: str | None = None) -> wheelplay.Move:
        """A held white spent: the character's last draw, a failure, succeeds."""
        from cwx.campaign import wheelplay

        return wheelplay.turn(self, "spend", char, bag, draw)

    def curse(self, char: str, *, bag: str | None = None,
              draw: str | None = None) -> wheelplay.Move:
        """The GM spends a black the character holds: its last draw, a success, fails."""
        from cwx.campaign import wheelplay

        return wheelplay.turn(self, "curse", char, bag, draw)

    def buy(self, char: str, *, trait: str, colour: str,
            bag: str | None = None) -> wheelplay.Move:
        """Whites traded for a new trait on a colour."""
        from cwx.campaign import wheelplay

        return wheelplay.buy(self, char, trait=trait, colour=colour, bag=bag)

    def end_game(self, char: str, *, bag: str | None = None) -> wheelplay.Move:
        """The character's luck settled at the end of a game."""
        from cwx.campaign import wheelplay

        return wheelplay.end(self, char, bag)

    def table(self, char: str | None = None, *, bag: str | None = None,
              trait: str | None = None, held: Luck | None = None) -> tuple[Table, str | None]:
        """What one action of `char` can move (the bag, its reserve, the luck it holds) and
        its `trait`'s colour, read from the files (for its odds); without `char`, the luck
        `held` at `bag`, or at a new bag."""
        from cwx.campaign import wheelplay

        return wheelplay.seated(self, char, bag=bag, trait=trait, held=held)

    # ---------------------------------------------------------------- files and the ledger

    def start(self, folder: str, *, force: bool = False, dry_run: bool = False,
              git_setup: bool = True) -> Initialised:
        """A new campaign in `folder` (made if missing): its settings, a bag and the files
        a table needs (files already there kept), and in git, this clone set up for it
        (unless not `git_setup`)."""
        import os

        from cwx.campaign import accounts, gitsetup
        from cwx.git import repo

        started = accounts.start(self.opener(dry_run), folder, force=force, dry_run=dry_run)
        # Outside git, git is null: one shape in both places, for scripts.
        result: Initialised = {"folder": started["folder"], "created": started["created"],
                               "kept": started["kept"], "git": None}
        in_git = repo.of(folder) is not None and os.path.isdir(folder)
        if in_git and git_setup:  # in git: ready for clones
            # A dry run made no campaign.toml: the folder is the campaign it would be.
            made = self.like(folder, folder) if dry_run else self.elsewhere(folder)
            result["git"] = gitsetup.setup(self.opener(dry_run), made,
                                           self.note or _silent, dry_run=dry_run).as_json()
        return result

    def new_character(self, file: str, *, system: str, traits: list[tuple[str, str]],
                      name: str | None = None, force: bool = False,
                      dry_run: bool = False) -> accounts.Made:
        """A new character file of `system`, its `traits` as pairs (NAME, SCORE or
        COLOUR, NAME), named `name` (else by its file); journaled as made."""
        from cwx import systems
        from cwx.base.errors import about
        from cwx.campaign import accounts
        from cwx.systems import sheets

        with about(file):  # the file it would be: the file a refusal names
            sheet = sheets.new_character(system, name or stem(file), traits)
        entry = systems.system(sheet.system)
        result = {**entry.as_json(sheet), **entry.created(sheet)}
        accounts.make(self.opener(dry_run), "char new", self.of(file), file, sheet,
                      force=force, result=result, who=sheet.name)
        return accounts.Made(sheet, result)

    def new_bag(self, file: str, *, white_reserve: int, black_reserve: int,
                force: bool = False) -> accounts.Made:
        """A new bag of five dice, whites and blacks in the reserve beside it (W3)."""
        from cwx.campaign import accounts
        from cwx.rules import colorwheel
        from cwx.systems import bag as bags

        sheet = bags.BagSheet(colorwheel.Bag(), colorwheel.Luck(white_reserve, black_reserve))
        result = bags.as_json(sheet)
        accounts.make(self.opener(), "bag new", self.of(file), file, sheet, force=force,
                      result=result)
        return accounts.Made(sheet, result)

    def undo(self, event: str | None = None, *, char: str | None = None,
             player: str | None = None, redo: bool = False,
             dry_run: bool = False) -> accounts.Undoing:
        """`player`'s latest change (of `char`, if given; the player: CWX_PLAYER, else the
        clone's git author, else the login), or the `event` named by its id, taken back;
        with `redo`, their latest undo made again (accounts.undo)."""
        from cwx.campaign import accounts, players

        char = self.character(char) if char else None
        camp = self.of(char) if char else self
        player = players.checked(player, "--player") if player is not None else \
            players.current(camp.journal_folder)
        return accounts.undo(self.opener(dry_run), camp, char, player, redo=redo,
                             named=event)

    def adopt(self, paths: Sequence[str], *, supply: bool = False,
              dry_run: bool = False) -> accounts.Adopted:
        """The hand edits of `paths` journaled, so the ledger agrees with them; dice only
        move between them, unless the GM changes the `supply`."""
        from cwx.campaign import accounts

        return accounts.adopt(self.opener(dry_run), paths, supply=supply)

    def reconcile(self, *, dry_run: bool = False) -> list[accounts.Corrected]:
        """Every file of the campaign set to its ledger value."""
        from cwx.campaign import accounts
        from cwx.git import grows

        grows.refuse_rewritten(self.needed(), "cwx reconcile")  # as the hooks refuse it
        return accounts.reconcile(self.opener(dry_run), self)

    def retire(self, file: str, *, bag: str | None = None,
               dry_run: bool = False) -> accounts.Retirement:
        """A character or a bag taken out of the campaign, its dice accounted for, and its
        file removed (and from git's index)."""
        from cwx.campaign import accounts

        path = self.character(file) if self.root is not None else file
        done = accounts.retire(self.opener(dry_run), self.of(path), path, bag)
        return accounts.Retirement(done, accounts.removed(path) if not dry_run else None)

    def sync(self, message: str | None = None, say: Say = print) -> sync.Synced:
        """The turn shared: commit, pull, settle, push and check, each step told to
        `say`."""
        from cwx.campaign import sync

        return sync.sync(self.opener(), self, message, say)


def _silent(text: str) -> None:
    """What a campaign opened with no `note` says beside its result: nothing."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _one_state(operation: Callable[_P, _R]) -> Callable[_P, _R]:
    """The operation asks git each question once, and nothing it asked is kept past it
    (repo.one_state): a bot calls operations one after another in one process, and
    between them git changes."""

    @functools.wraps(operation)
    def operating(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        from cwx.git.repo import one_state

        with one_state():
            return operation(*args, **kwargs)

    return operating


# Every operation: each method Campaign itself says (files.Acting's are how it is opened).
for _name, _operation in list(vars(Campaign).items()):
    if isinstance(_operation, types.FunctionType) and not _name.startswith("_"):
        setattr(Campaign, _name, _one_state(_operation))
