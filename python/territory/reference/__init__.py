"""Plain pure-Python reference implementations of the three games.

Written from RULES.md alone, simply and slowly, to cross-check the native engine. Each
game of the engine's registry (``territory.GAMES``) has its module here, named after it
(``territory.reference.tabik``), holding the class of the native class's name.
"""

from importlib import import_module

from territory.registry import GAMES as _NATIVE

#: The reference's games by name, like ``territory.GAMES`` (found by the names: a new
#: game needs no line here).
GAMES: dict[str, type] = {
    name: getattr(import_module(f"{__name__}.{name}"), native.__name__) for name, native in _NATIVE.items()
}

# Each class also as an attribute of the package (``territory.reference.Tabik``).
globals().update({cls.__name__: cls for cls in GAMES.values()})
