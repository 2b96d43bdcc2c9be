"""Stand-ins for the COMP30024 (2019) student agents of issue 20, written the way course
students wrote them (Python 3, standard library only, depth-3 search over the referee's
rules): `brs_player` (best-reply search with alpha-beta) and `maxn_player` (max^n with an
opening book). `chexers_state` is their rules and greedy evaluation."""
