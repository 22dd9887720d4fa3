"""Immutable records, cheap to define: what a NamedTuple is, at a tenth of its start-up.

A `typing.NamedTuple` class costs about 1.5M instructions to make (collections.namedtuple
compiles a constructor for it from source), and a command's start-up makes a score of
them: a quarter of a stateful command's own cost. A `Record` is the same thing, an
immutable tuple whose fields are named by its annotations (with defaults, `_fields`,
`_replace`), made from one shared constructor, for some 0.1M each. The price is paid per
record built (the shared constructor is slower than a NamedTuple's compiled one): for
the few a command builds, nothing to speak of.

    class Seal(Record):
        target: int
        revealed: bool = False
"""

from __future__ import annotations

from operator import itemgetter

# typing is a tenth of a git hook's start-up, and only mypy reads its names here (every
# module a hook loads does the same: docs/design.md). What runs in its place: `Any` in the
# base class below, and the decorator that tells mypy a record's annotations are its
# fields, which does nothing at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Self, dataclass_transform
else:
    Any = object

    def dataclass_transform(**_: object) -> Callable[[type], type]:
        return lambda cls: cls


@dataclass_transform(frozen_default=True)
class Record(tuple[Any, ...]):
    """A tuple whose fields are named by its subclass's annotations, in order."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = [name for name in _own_annotations(cls)
               if name not in ("_fields", "_defaults")]
        cls._fields = (*cls._fields, *own)
        cls._defaults = {**cls._defaults, **{name: cls.__dict__[name] for name in own
                                             if name in cls.__dict__}}
        for index, name in enumerate(cls._fields):
            setattr(cls, name, property(itemgetter(index), doc=f"Field {index}: {name}."))

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        fields = cls._fields
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__} takes {len(fields)} fields, not {len(args)}")
        values = list(args)
        for name in fields[len(args):]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in cls._defaults:
                values.append(cls._defaults[name])
            else:
                raise TypeError(f"{cls.__name__} needs its field {name!r}")
        if kwargs:
            raise TypeError(f"{cls.__name__} has no field {next(iter(kwargs))!r}")
        return tuple.__new__(cls, values)

    def _replace(self, **changes: Any) -> Self:
        values = [changes.pop(name, value) for name, value in zip(self._fields, self,
                                                                   strict=True)]
        if changes:
            raise TypeError(f"{type(self).__name__} has no field {next(iter(changes))!r}")
        return tuple.__new__(type(self), values)

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self,
                                                                      strict=True))
        return f"{type(self).__name__}({inner})"

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)


def _own_annotations(cls: type) -> dict[str, Any]:
    """A class's own annotations, as strings where its module says so. From the class's
    dict where Python keeps them there (to 3.13, and with `from __future__ import
    annotations`): `inspect` costs a git hook, which loads no Typer, a tenth of its start."""
    own = cls.__dict__.get("__annotations__")  # noqa: RUF063 (inspect is what it saves)
    if isinstance(own, dict):
        return own
    import inspect

    return inspect.get_annotations(cls)
