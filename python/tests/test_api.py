"""The state contract, the encodings as Python sees them, and bad input: each a Python
exception with a message, never a crash of the interpreter."""

import copy
import json
import pickle
import random
import struct
from typing import Any

import numpy as np
import pytest

import plyforge

ALL = plyforge.games()


def test_games_and_their_facts() -> None:
    assert ALL == ["jumpy3", "chexers", "throne", "chaosclock"]
    facts = {
        "jumpy3": (2, 16, (5, 16)),
        "chexers": (3, 482, (11, 7, 7)),
        "throne": (2, 8282, (11, 11, 11)),
        "chaosclock": (2, 25, (17, 12)),
    }
    for name, (players, actions, shape) in facts.items():
        game = plyforge.load_game(name)
        assert game.name == name
        assert (game.num_players(), game.num_distinct_actions(), game.observation_shape()) == (
            players,
            actions,
            shape,
        )
        assert plyforge.load_game(name.upper()) == game
        assert pickle.loads(pickle.dumps(game)) == game
        assert game.has_solver() == (name != "chexers")  # three players: no exact solver
    assert plyforge.load_game("chexers").player_name(2) == "Blue"
    assert plyforge.load_game("throne").player_letter(0) == "b"


def test_jumpy3_start_contract() -> None:
    game = plyforge.load_game("jumpy3")
    s = game.new_initial_state()
    assert str(s) == "Wwww........bbbB w"
    assert s.current_player() == 0
    assert s.legal_moves() == ["1", "2", "3", "4"]
    assert s.legal_actions() == [0, 1, 2, 3]
    mask = s.legal_actions_mask()
    assert mask.dtype == np.bool_ and mask.shape == (16,)
    assert list(np.flatnonzero(mask)) == [0, 1, 2, 3]
    assert s.returns() == [0.0, 0.0] and s.result() is None and not s.is_terminal()
    s.apply_move("4")
    assert str(s) == "Www.w.......bbbB b" and s.current_player() == 1
    s.apply_action(12)  # square 13
    assert s.history() == ["4", "13"] and s.history_actions() == [3, 12]
    assert s.undo() == "13" and s.history() == ["4"]
    assert s.start() == "Wwww........bbbB w"


@pytest.mark.parametrize("name", ALL)
def test_random_games_keep_the_contract(name: str) -> None:
    game = plyforge.load_game(name)
    rng = random.Random(name)
    shape = game.observation_shape()
    for g in range(4):
        s = game.random_state(g) if name == "chaosclock" else game.new_initial_state()
        while not s.is_terminal():
            moves, actions = s.legal_moves(), s.legal_actions()
            assert len(moves) == len(actions) > 0
            assert [game.action_to_move(a) for a in actions] == moves
            assert [s.move_to_action(m) for m in moves] == actions
            mask = s.legal_actions_mask()
            assert int(mask.sum()) == len(actions) and all(mask[a] for a in actions)
            player = s.current_player()
            assert 0 <= player < game.num_players()
            obs = s.observation_tensor(player)
            assert obs.dtype == np.float32 and obs.shape == shape
            s.apply_action(rng.choice(actions))
        assert s.current_player() == -1
        assert s.legal_moves() == [] and s.legal_actions() == []
        assert not s.legal_actions_mask().any()
        returns = s.returns()
        assert len(returns) == game.num_players()
        result = s.result()
        assert result is not None
        if result.startswith("winner"):
            assert sorted(returns)[-1] == 1.0


def test_clone_copy_and_pickle_are_independent() -> None:
    game = plyforge.load_game("chexers")
    s = game.new_initial_state()
    s.apply_move("MOVE -3 1 -2 0")
    for other in (s.clone(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert str(other) == str(s) and other.history() == s.history()
        other.apply_action(other.legal_actions()[0])
        assert len(other.history()) == 2 and len(s.history()) == 1


def test_chaosclock_both_win_returns() -> None:
    game = plyforge.load_game("chaosclock")
    # Even is complete; Odd makes one last move: placing its last piece completes it too.
    s = game.state("1,2,3,4,5,6,7,8,9,10,0,12;0;0")
    s.apply_move("p11")
    assert s.result() == "both win" and s.returns() == [0.5, 0.5]
    # Had Odd passed, Even would have won alone.
    t = game.state("1,2,3,4,5,6,7,8,9,10,0,12;0;0")
    t.apply_move("pass")
    assert t.result() == "winner even" and t.returns() == [-1.0, 1.0]
    # Two passes in succession: both lose.
    s = game.random_state(1)
    s.apply_moves(["pass", "pass"])
    assert s.result() == "both lose" and s.returns() == [-0.5, -0.5]


def test_random_start_is_seeded() -> None:
    game = plyforge.load_game("chaosclock")
    assert str(game.random_state(42)) == str(game.random_state(42))
    assert str(game.random_state(42)) != str(game.random_state(43))
    with pytest.raises(ValueError, match="no random start"):
        plyforge.load_game("jumpy3").random_state(1)


def test_random_playout_and_perft() -> None:
    game = plyforge.load_game("jumpy3")
    a, b = game.new_initial_state(), game.new_initial_state()
    n = a.random_playout(7)
    assert n == b.random_playout(7) and str(a) == str(b)
    assert a.is_terminal() and len(a.history()) == n
    c = game.new_initial_state()
    assert c.random_playout(7, max_moves=5) == 5 and not c.is_terminal()
    # Plain minimax visits 4^d leaves from the start for d <= 10 (the course implementations' figures).
    assert game.new_initial_state().perft(6) == 4**6


def test_draw_shows_the_board() -> None:
    text = plyforge.load_game("throne").new_initial_state().draw()
    assert "Black to move" in text and "*" in text


def test_bad_notation_is_a_value_error_naming_the_field() -> None:
    for name, bad, words in [
        ("jumpy3", "Wwww x", "board"),
        ("chexers", "gggg/..... r 0,0,0 0", ""),
        ("throne", "nonsense", ""),
        ("chaosclock", "1,2,3;0", ""),
    ]:
        with pytest.raises(ValueError, match="position") as e:
            plyforge.load_game(name).state(bad)
        assert words in str(e.value)


def test_unknown_game() -> None:
    with pytest.raises(ValueError, match='unknown game "chess"'):
        plyforge.load_game("chess")


def test_illegal_moves_and_actions() -> None:
    s = plyforge.load_game("jumpy3").new_initial_state()
    with pytest.raises(ValueError, match="square 9 is empty"):
        s.apply_move("9")
    with pytest.raises(ValueError, match="move 1"):
        s.apply_move("banana")
    with pytest.raises(ValueError, match="action 99: out of range"):
        s.apply_action(99)
    with pytest.raises(ValueError, match="action -1: out of range"):
        s.apply_action(-1)
    with pytest.raises(ValueError, match="action 8"):
        s.apply_action(8)
    with pytest.raises(ValueError, match="move 2"):
        s.apply_moves(["4", "4"])
    assert s.history() == ["4"]  # the moves before the bad one are played
    c = plyforge.load_game("chexers").new_initial_state()
    with pytest.raises(ValueError, match="names no move"):
        c.apply_action(0)  # (0,-3) one step along (-1,0): off the board
    with pytest.raises(ValueError):
        c.move_to_action("MOVE -3 0 3 0")  # not neighbours: no action number
    with pytest.raises(TypeError):
        s.apply_move(4)  # type: ignore[arg-type]


def test_wrong_player_index() -> None:
    s = plyforge.load_game("chexers").new_initial_state()
    for p in (3, -1, 10**30):
        with pytest.raises((ValueError, OverflowError)):
            s.observation_tensor(p)
    with pytest.raises(ValueError, match="player 3 does not exist: the game has players 0 to 2"):
        s.observation_tensor(3)
    with pytest.raises(ValueError, match="player -1 does not exist"):
        s.observation_tensor(-1)
    with pytest.raises(ValueError):
        s.game.player_name(5)


def test_evaluation_terms() -> None:
    # Chexers: 11 measured terms per player from the observer round, then the default
    # evaluation's three scores; seen from another seat, the same numbers turned.
    s = plyforge.load_game("chexers").new_initial_state()
    for m in ["MOVE -3 0 -2 0", "MOVE 0 -3 0 -2", "JUMP 0 3 0 1"]:
        if m in s.legal_moves():
            s.apply_move(m)
    seen = [s.evaluation_terms(p) for p in range(3)]
    for p in range(3):
        assert seen[p].shape == (36,) and seen[p].dtype == np.float32
        for k in range(3):
            q = (p + k) % 3
            assert list(seen[p][11 * k : 11 * k + 11]) == list(seen[q][:11])
            assert seen[p][33 + k] == seen[q][33]
    # Two players by default: the default evaluation's zero-sum scores, squashed.
    j = plyforge.load_game("jumpy3").state("W..w..........Bb w")
    a, b = j.evaluation_terms(0), j.evaluation_terms(1)
    assert a.shape == (2,) and a[0] == b[1] and a[1] == b[0] and a[0] == -a[1]
    with pytest.raises(ValueError, match="player 3 does not exist"):
        s.evaluation_terms(3)


def test_features() -> None:
    # Jumpy3's features are its observation's ones (a sparse network's input); Chexers'
    # are its own: pieces seen turned, exits and turns, each below num_features().
    j = plyforge.load_game("jumpy3").new_initial_state()
    assert j.game.num_features() == 80
    for p in range(2):
        f = j.features(p)
        assert f.dtype == np.uint32 and list(f) == sorted(set(f))
        ones = np.flatnonzero(j.observation_tensor(p).ravel() == 1.0)
        assert list(f) == list(ones)
        t = j.features_tensor(p)
        assert t.shape == (80,) and t.dtype == np.float32
        assert list(np.flatnonzero(t)) == list(f)
    c = plyforge.load_game("chexers").new_initial_state()
    assert c.game.num_features() == 133
    seen = [c.features(p) for p in range(3)]
    # At the start every player sees the same: its 4 pieces, the next player's, the last's,
    # no exits, turn 0.
    assert all(list(f) == list(seen[0]) for f in seen)
    assert len(seen[0]) == 13 and seen[0][-1] == 120
    with pytest.raises(ValueError, match="player 3 does not exist"):
        c.features(3)


def test_moves_after_the_end() -> None:
    s = plyforge.load_game("jumpy3").state("B..............W w")
    s.apply_move("16")
    assert s.result() == "winner w" and s.returns() == [1.0, -1.0]
    with pytest.raises(ValueError, match="already over"):
        s.apply_move("1")
    with pytest.raises(ValueError, match="already over"):
        s.apply_action(0)
    with pytest.raises(ValueError, match="already over"):
        plyforge.solve(s)


def _safetensors(path: Any, metadata: dict[str, str]) -> str:
    # A safetensors file of no tensors: the header's length (8 bytes, little-endian), then
    # the header, which holds the metadata a network's kind is read from.
    header = json.dumps({"__metadata__": metadata}).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header)
    return str(path)


def test_network_kind(tmp_path: Any) -> None:
    # Which input a network file reads, from its header alone.
    sparse = _safetensors(tmp_path / "s.safetensors", {"game": "jumpy3", "kind": "sparse"})
    assert plyforge.network_kind(sparse) == "sparse"
    dense = _safetensors(tmp_path / "d.safetensors", {"game": "jumpy3"})
    assert plyforge.network_kind(dense) == "dense"
    other = _safetensors(tmp_path / "o.safetensors", {"kind": "lstm"})
    with pytest.raises(ValueError, match="not a network of this crate"):
        plyforge.network_kind(other)
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a file")
    with pytest.raises(ValueError, match="not a safetensors file"):
        plyforge.network_kind(str(junk))
    with pytest.raises(ValueError, match="missing"):
        plyforge.network_kind(str(tmp_path / "missing"))
