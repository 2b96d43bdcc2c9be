#!/usr/bin/env python3
"""An agent for `arena serve` that plays random legal moves (standard library only).

    python3 docs/example_client.py 127.0.0.1:7717 --name randy --games 3

It asks the server for the legal moves on each of its turns (`moves`) and answers with one
of them. The protocol is in docs/server-protocol.md.
"""
import argparse
import random
import socket
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("addr", help="the server, HOST:PORT")
    ap.add_argument("--name", default="randy")
    ap.add_argument("--games", type=int, default=0, help="leave after N games (0: stay)")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    host, port = args.addr.rsplit(":", 1)

    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = sock.makefile("rw", encoding="utf-8", newline="\n")

    def send(line):
        conn.write(line + "\n")
        conn.flush()

    me, played = None, 0
    for line in conn:
        words = line.split()
        if not words:
            continue
        if words[0] == "hello":  # hello arena-server 1 GAME
            send("hello 1 " + args.name)
        elif words[0] == "game":  # game ID LETTER MS MOVES NAME...
            me = words[2]
        elif words[0] == "turn" and words[1] == me:  # turn SIDE L=MS... left=N
            send("moves")
        elif words[0] == "legal":  # legal M1;M2;...
            send("move " + rng.choice(line.split(" ", 1)[1].strip().split(";")))
        elif words[0] == "error":
            print(args.name, "server said:", line.strip(), file=sys.stderr)
        elif words[0] == "over":  # over REASON RESULT
            played += 1
            print(args.name, "game over:", " ".join(words[1:]), file=sys.stderr)
            if played == args.games:
                send("quit")
        elif words[0] == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
