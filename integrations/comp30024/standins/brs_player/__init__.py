"""A best-reply-search agent (depth 3, alpha-beta, greedy evaluation), student style."""

from .player import Player

__all__ = ["Player"]
