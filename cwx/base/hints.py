""""Did you mean …?": the nearest of the names a player could have meant, and files as a
command a player types takes them, for errors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def nearest(word: str, names: Iterable[str], n: int = 2) -> list[str]:
    """The names closest to `word`, best first, ignoring case; a file name is compared
    without ".toml", which every candidate shares."""
    import difflib  # only on the way to an error

    from cwx.base.traitnames import fold

    def key(name: str) -> str:
        return fold(name).removesuffix(".toml")

    by_key = {key(name): name for name in names}
    typed = key(word)
    # The start of a longer name ("Knife" for "Knife Fighting") first, then the close ones.
    starts = [k for k in by_key if len(typed) >= 3 and k.startswith(typed)] if typed else []
    close = difflib.get_close_matches(typed, list(by_key), n=n, cutoff=0.6)
    return [by_key[k] for k in dict.fromkeys(starts + close)][:n]


def did_you_mean(word: str, choices: Iterable[str], shown: Mapping[str, str] | None = None,
                 ) -> str:
    """" (did you mean 'Repair'?)" for the closest choice; "" for none. `shown`: what to
    show for a choice, where that is not the choice itself (a file's path)."""
    close = nearest(word, choices)
    show = shown or {}
    return f" (did you mean {' or '.join(repr(show.get(c, c)) for c in close)}?)" \
        if close else ""


def typed(path: str) -> str:
    """A file as a shell command takes it: quoted, and one starting with a dash behind ./,
    never read as an option."""
    import shlex

    return shlex.quote(f"./{path}" if path.startswith("-") else path)


# What is wrong with a file whose name is not UTF-8, and what to do: cwx takes names in
# UTF-8 (on the command line and in the journal, which holds text), so no advice that
# names the file could be followed.
NOT_UTF8 = ("its name is not UTF-8, so no cwx command can name it nor the journal record "
            "it; rename it to a UTF-8 name (mv), then run the command again")


def utf8_named(path: str) -> bool:
    """Whether a file's name is UTF-8 (os gives other bytes as lone surrogates)."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
