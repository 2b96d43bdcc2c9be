"""plyforge: board games from AI courses and contests (ours: Jumpy3, Chexers, Throne, Chaos
Clock; ``games()`` lists every game the package was built with) and a parallel game-tree
search engine, at native speed from Python.

The API follows OpenSpiel's state contract::

    import plyforge
    game = plyforge.load_game("jumpy3")       # any name of plyforge.games()
    s = game.new_initial_state()
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    print(s.result(), s.returns())

Moves are strings in each game's notation (the notation of the ``arena`` program); actions are
the same moves as integers below ``game.num_distinct_actions()``. Bad input raises
``ValueError`` with a message that names what is wrong.

Submodules: ``plyforge.pettingzoo`` (AEC environments, needs ``pettingzoo``) and
``plyforge.comp30024`` (the COMP30024 course referee's ``Player``, in-process).
"""

from ._plyforge import (
    Engine,
    Game,
    SearchResult,
    Solution,
    State,
    __version__,
    games,
    load_game,
    network_kind,
    solve,
)

__all__ = [
    "Engine",
    "Game",
    "SearchResult",
    "Solution",
    "State",
    "__version__",
    "games",
    "load_game",
    "network_kind",
    "solve",
]
