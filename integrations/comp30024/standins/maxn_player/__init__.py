"""A max^n agent (depth 3, per-player greedy evaluations, an opening book), student style."""

from .player import Player

__all__ = ["Player"]
