//! The help of `arena`, made from the program's own games: the game argument of every
//! subcommand takes their names, and each subcommand's examples are real commands on them
//! (real positions and moves), so that a user's own binary with one game shows examples of
//! that game. What differs between games (players, evaluations, solvers, move limits) is read
//! from the registry, never written here.

use clap::Command;
use plyforge::agent::{KeyGroup, SPEC_KEYS};
use plyforge::{GameKind, SolverTraits};

/// The games the examples use: the first game, the first with three players, the first with
/// a solver (each the first game where there is none such).
struct Picks {
    game: GameKind,
    three: Option<GameKind>,
    solver: Option<GameKind>,
}

impl Picks {
    fn of(kinds: &[GameKind]) -> Option<Picks> {
        let game = *kinds.first()?;
        Some(Picks {
            game,
            three: kinds.iter().copied().find(|k| k.players() == 3),
            solver: kinds.iter().copied().find(|k| k.has_solver()),
        })
    }
}

/// A move or position as one shell argument: quoted when it has spaces or characters a shell
/// would read.
fn arg(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.,:/>+=@".contains(c))
    {
        text.to_string()
    } else {
        format!("'{text}'")
    }
}

/// The first legal moves of a game from its start, each followed by the next side's first
/// move, `n` of them at most.
fn first_moves(kind: GameKind, n: usize) -> Vec<String> {
    let mut state = kind.new_game();
    let mut out = Vec::new();
    while out.len() < n {
        let Some(mv) = state.legal_moves().into_iter().next() else {
            break;
        };
        if state.play(&mv).is_err() {
            break;
        }
        out.push(arg(&mv));
    }
    out
}

/// The game list of `arena --help`: each game, its players and what it offers.
fn games_section(kinds: &[GameKind]) -> String {
    let mut out = String::from("Games:\n");
    for k in kinds {
        let info = k.info();
        let solver = match info.solver {
            Some(SolverTraits {
                table_file: true, ..
            }) => ", solved table",
            Some(_) => ", exact solver",
            None => "",
        };
        out.push_str(&format!(
            "  {:<12} {} ({} players: {}{}); evaluations {}\n",
            k.name(),
            k.title(),
            k.players(),
            info.letters.join(" "),
            solver,
            info.evaluators.join(", ")
        ));
    }
    out
}

/// The examples of `arena --help`.
fn top_examples(p: &Picks) -> String {
    let g = p.game.name();
    let mut out = format!(
        "Examples:\n  arena match {g}                      a short match between two engine settings\n"
    );
    if let Some(t) = p.three {
        out.push_str(&format!(
            "  arena match {} --engine paranoid --engine brs --games 12\n",
            t.name()
        ));
    }
    out.push_str(&format!(
        "  arena play {g} --human {} --time 1s       you play {}\n  \
arena analyse {g} start --depth 12\n",
        p.game.player_letter(1),
        p.game.player_name(1)
    ));
    if let Some(s) = p.solver {
        out.push_str(&format!(
            "  arena solve {} start                    exact value and every best move\n",
            s.name()
        ));
    }
    out.push_str(&format!(
        "  arena perft {g} start 3 --divide\n  arena moves {g} start\n  arena apply {g} start {}\n  \
arena engine {g}                         the text protocol of docs/protocol.md\n\n\
POSITION is a position in the game's notation, or the word `start` (the rules' start; for\n\
games that start at random also `random` or `random:SEED`, a seeded random start).\n",
        first_moves(p.game, 2).join(" ")
    ));
    out
}

fn play_help(p: &Picks) -> String {
    let g = p.game.name();
    let mut out = format!(
        "Examples:\n  arena play {g}                      you are {} (the first player), 1 s per engine move\n",
        p.game.player_name(0)
    );
    if let Some(t) = p.three {
        out.push_str(&format!(
            "  arena play {} --human {} --human {}   two people and the engine ({})\n",
            t.name(),
            t.player_letter(0),
            t.player_letter(1),
            t.player_name(2)
        ));
    }
    out.push_str(&format!(
        "  arena play {g} --human none --time 200ms   watch the engine play itself\n\n\
At the prompt type a move in the game's notation, or: moves (list the legal moves),\n\
board, undo, help, quit. End of input ends the program cleanly."
    ));
    out
}

fn analyse_help(p: &Picks) -> String {
    let g = p.game.name();
    format!(
        "Examples:\n  arena analyse {g} start --depth 12\n  arena analyse {g} start --time 5s --threads 2\n  \
arena analyse {g} start --engine alphabeta,eval={} --time 3s",
        p.game.evaluator_names()[0]
    )
}

const MATCH_HELP: &str = "\
SPEC is KIND[,KEY=VALUE]...:
  KIND  engine (the game's recommended settings), alphabeta, paranoid, brs, maxn,
        mcts (Monte Carlo tree search), greedy (one ply, the evaluation's favourite), random
{KEYS}
A search spec without depth, time or nodes thinks --time per move.

Seats: with two specs A and B in a two-player game, games come in pairs from one opening,
A-B then B-A. In a three-player game two specs rotate through ABB BAB BBA BAA ABA AAB, so
each plays every seat, in the majority and in the minority; three specs rotate through all
six orders. Each opening is its own start (--book: the book's next position; --position: that
one; a game that starts at random without either: its random start of seed + opening
number; `--position fair`: the fair start of seed + opening number) followed by --opening
random plies (seeded). Where the openings share their start, no opening ends where an
earlier one did: a repeat is drawn again, and once the short openings are used up the next
ones are a ply longer (6x6 Othello has 12 positions two plies in, Connect Four 49: games
from one opening are not independent, and would narrow the intervals falsely).

Openings and books: --book FILE has one position per line in the game's notation (or
`start`, `random:SEED`, `fair:SEED`; blank lines and # comments skipped), used in file order
or, with --book-order random, in a seeded shuffle; when used up it starts over. `fair:SEED`
(games with fair starts) is the first of a seeded series of random deals that the exact
solver proves \"both win\", so that neither side is favoured.

Scores: a win counts 1, a loss 0, any other result (draws, both win, both lose) ½. The Elo
difference of each pair of specs comes from their head-to-head score: the spec whose seat
won beats every other spec in that game; other results count ½. With two engines in a
two-player game the table adds the pentanomial (pairs by engine 1's score in the pair: LL,
LD, DD+WL, WD, WW), Elo, normalised Elo and LOS on pairs. In a three-player game a ranking
by places (winner 1st, losers ordered by the game's progress, such as exits). Three-player
games have no SPRT: they give no pairs with the seats swapped and no single Elo difference
to test.

SPRT: --sprt ELO0 ELO1 tests H0 nElo = ELO0 against H1 nElo = ELO1 for engine 1 (normalised
Elo, pentanomial model on pairs, log-likelihood ratio as fishtest computes it; bounds from
--alpha and --beta). The pairs are taken in schedule order: the match stops at the first
pair whose complete prefix crosses a bound, and counts exactly those pairs, however many
games run at once. --games is then the most games (default 10000).

Concurrency: --concurrency N plays N games at once, each in its own thread; each engine's
threads (threads=N in the spec, or --threads) count against the cores: N games with T
threads each want N x T cores, or timed engines think less than asked (a warning says so).
Each thread keeps its engines from game to game and clears their tables before each game (a
cleared engine plays as a new one): for engines of a few hundred nodes a move the clearing
costs more than the searching, and a small table (tt=1 in the spec) is many times faster.

Files: --out FILE writes a header line, then every game as one JSON line (engines, seats,
opening, moves, result, time, nodes and score per move) as it finishes, flushed per game.
--resume continues the match of FILE (same options: the match id in every line must agree),
playing only the games not there; a line cut short by a kill is dropped and replayed.
--shard K/N plays only openings K-1, K-1+N, K-1+2N, ... of the match, so N processes play
each game once; `arena merge` combines their files. A shard of a test with --out reads the
other .jsonl files beside its own every few seconds, so that on a shared volume all shards
stop once the test is decided on their games together.

Adjudication: --max-plies N ends a game after N plies with the game's move-limit result;
--resign MOVES,SCORE and --draw PLY,MOVES,SCORE judge two-player games by both engines'
scores (players that do not search have none, and are never adjudicated this way).";

/// `text` in lines of at most `width` characters (a word longer stays whole), each after
/// the first indented by `indent`, every line ending in a newline.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let lead = text.len() - text.trim_start().len();
    let mut line = text[..lead].to_string();
    for word in text[lead..].split(' ') {
        if !line.trim().is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
        } else if !line.trim().is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// The keys of an engine specification, from the one list of them.
fn spec_keys_help() -> String {
    let mut out = String::new();
    for (group, title) in [
        (KeyGroup::Search, "KEYs"),
        (
            KeyGroup::Selective,
            "selective search (with mode=selective)",
        ),
        (KeyGroup::Mcts, "mcts"),
    ] {
        out.push_str(&format!("  {title}:\n"));
        for k in SPEC_KEYS.iter().filter(|k| k.group == group) {
            let mut line = format!("    {}={}", k.names[0], k.value);
            if k.names.len() > 1 {
                line.push_str(&format!(" (or {})", k.names[1..].join(", ")));
            }
            if !k.about.is_empty() {
                line.push_str(&format!(": {}", k.about));
            }
            out.push_str(&wrap(&line, 90, "        "));
        }
    }
    out.push_str(
        "  NAME=NUMBER for each of the evaluation's parameters (listed below; `arena tune`\n    \
         tunes them), checked against its range; an evaluation may take settings after its\n    \
         name, eval=NAME:WEIGHT=N:..., where its game says so\n",
    );
    out
}

fn match_help(p: &Picks, kinds: &[GameKind]) -> String {
    let g = p.game.name();
    let [a, b] = p.game.info().default_match;
    let mut out = format!(
        "{}\n\nDefault matches (without --engine):\n",
        MATCH_HELP.replace("{KEYS}\n", &spec_keys_help())
    );
    for k in kinds {
        let [x, y] = k.info().default_match;
        out.push_str(&format!("  {:<12} {x} against {y}\n", k.name()));
    }
    out.push_str("\nEvaluation parameters (spec keys; `arena tune --help` has their ranges):\n");
    for k in kinds {
        let params = k.info().params.clone();
        let names: Vec<&str> = params.iter().map(|p| p.name).collect();
        out.push_str(&format!(
            "  {:<12} {}\n",
            k.name(),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(" ")
            }
        ));
    }
    out.push_str(&format!(
        "\nExamples:\n  arena match {g}\n  arena match {g} --engine {a},depth=6 --engine {b} --games 40\n"
    ));
    if let Some(t) = p.three {
        out.push_str(&format!(
            "  arena match {} --engine paranoid --engine brs --engine maxn --games 12\n",
            t.name()
        ));
    }
    out.push_str(&format!(
        "  arena match {g} --engine engine,depth=7 --engine engine,depth=6 --sprt 0 10 \\\n      \
--concurrency 2 --out test.jsonl --quiet\n  \
arena match {g} --engine engine,depth=3 --engine greedy --book openings.txt \\\n      \
--book-order random --max-plies 200 --resign 3,800\n  \
arena match {g} --sprt 0 5 --games 10000 --shard 3/8 --out results/3.jsonl --resume\n  \
arena merge results/*.jsonl\n  \
arena match {g} --engine maxn --engine random --games 20 --record games.txt"
    ));
    out
}

const MERGE_HELP: &str = "\
Reads the files `arena match --out FILE` wrote (the shards of one match, or one match resumed),
refuses files of different matches (every line names its match), counts a game found in
several files once, and prints the table of the whole match: the same figures, Elo and SPRT
verdict as the match played in one process. --out writes the merged match file.

Examples:
  arena merge results/shard-*.jsonl
  arena merge a.jsonl b.jsonl --out whole.jsonl";

const SPEEDUP_HELP: &str = "\
What a second thread (or the sixteenth) buys at a clock: the threads play one thread at the
same time per move (or clock), one thread with FACTOR times the time plays one thread, and
the effective speedup is the factor whose Elo equals the threads' Elo (a line in log FACTOR
between the factors measured, through 0 Elo at 1), with the interval of both matches.

Examples:
  arena match throne --engine engine,threads=2 --engine engine --time 100ms --games 400 --out t2.jsonl
  arena match throne --engine engine,time=150ms --engine engine --time 100ms --games 400 --out k15.jsonl
  arena match throne --engine engine,time=200ms --engine engine --time 100ms --games 400 --out k2.jsonl
  arena speedup t2.jsonl --odds 1.5=k15.jsonl --odds 2=k2.jsonl";

fn solve_help(p: &Picks, kinds: &[GameKind]) -> String {
    let mut out = String::from(
        "Output: `value: …` (the value for the side to move: `win N`, `loss N` or `draw`, N plies\n\
to the end with best play, or the game's own result code), `best: M…` (every best move),\n\
then `line: M…`, one perfect-play line.\n\n\
Every two-player game is solved by proof-number search (df-pn) unless it has a solver of its\n\
own; positions far from the end can take very long (--time T gives up). The solvers here:\n",
    );
    for k in kinds.iter().filter(|k| k.has_solver()) {
        out.push_str(&format!("  {:<12} {}\n", k.name(), k.info().solver_note));
    }
    if let Some(s) = p.solver {
        let name = s.name();
        out.push_str(&format!("\nExamples:\n  arena solve {name} start\n"));
        let traits = s.info().solver.unwrap_or(SolverTraits::SEARCH);
        if traits.table_file {
            out.push_str(&format!(
                "  arena solve {name} start --table {name}.table\n"
            ));
        }
        if traits.time_limit {
            out.push_str(&format!("  arena solve {name} POSITION --time 30s\n"));
        }
    }
    out.trim_end().to_string()
}

fn perft_help(p: &Picks) -> String {
    let g = p.game.name();
    format!(
        "Prints `perft D N` for each depth up to DEPTH, or with --divide `MOVE: N` per legal move and\n\
`total N`. The position's own rules only: history rules (repetition) are not applied.\n\n\
Examples:\n  arena perft {g} start 5\n  arena perft {g} start 3 --divide"
    )
}

fn moves_help(p: &Picks) -> String {
    let g = p.game.name();
    let mut state = p.game.new_game();
    if let Some(mv) = state.legal_moves().into_iter().next() {
        let _ = state.play(&mv);
    }
    format!(
        "Examples:\n  arena moves {g} start\n  arena moves {g} {}",
        arg(&state.position())
    )
}

fn apply_help(p: &Picks) -> String {
    format!(
        "Each MOVE is one argument; a move that contains spaces is quoted as one argument,\n\
though its words may also come as separate arguments. The moves go through the game's\n\
record, so history rules (repetition) apply. Result lines: `result: winner X` (X a player\n\
letter), `draw repetition`, `draw turns`, `draw score`, `both win`, `both lose`. An illegal\n\
move, or a move after the end, is an error (exit code 2).\n\n\
Examples:\n  arena apply {} start {}",
        p.game.name(),
        first_moves(p.game, 3).join(" ")
    )
}

fn engine_help(p: &Picks) -> String {
    let moves = first_moves(p.game, 1);
    format!(
        "Example session:\n  position startpos moves {}\n  go depth 8\n  info depth 1 score … nodes … nps … time … pv …\n  …\n  bestmove …",
        moves.first().map_or("", String::as_str)
    )
}

fn serve_help(p: &Picks) -> String {
    let g = p.game.name();
    format!(
        "Agents connect over TCP and speak the line protocol of docs/server-protocol.md (any
language; docs/example_client.py is one in Python). The server seats waiting agents in
arrival order (or, with --round-robin K, waits for K agents and plays every seating among
them) and enforces the rules and the clock: each side has --time for the whole game, the
clock runs only for the side to move, an illegal move is refused (the turn does not pass,
the clock runs on), a side whose clock reaches zero loses, an agent that leaves loses (before
its first move, the game is void instead: it never started). A game ends by its rules or
after --moves moves each (default: the game's own limit where it has one, else 150; the
result then is the game's result for a move limit, a draw unless the game says otherwise).
Everything an agent controls is limited (--max-clients, --max-per-address, --max-games,
--idle, line length, refused lines in a row), each refusal an `error limit …` line.

The first line printed is `listening ADDR`. Every game is appended to the record file as it
is played (default: arena-serve-GAME-YYYYMMDD-HHMMSS.txt in the current directory), and made
durable at its end; a server started on the record of one that crashed first marks the games
it left unfinished (`end crashed aborted`). The standings are printed at the end: after
--games games, after the round robin, or on Ctrl-C.

Examples:
  arena serve {g}                          127.0.0.1:7717, 2 minutes a side
  arena serve {g} --port 9000 --time 30s --games 10
  arena serve {g} --round-robin 4 --time 10s --moves 60
  arena connect {g} 127.0.0.1:7717 --name ours"
    )
}

fn connect_help(p: &Picks) -> String {
    let g = p.game.name();
    format!(
        "Plays every game the server seats it in, until the server says goodbye or --games are
played. The engine's time for each move comes from the server's clock (the time left less
--margin, shared over the moves left with a reserve), so that it does not lose on time.

Examples:
  arena connect {g} 127.0.0.1:7717
  arena connect {g} 127.0.0.1:7717 --name fast --engine engine,time=100ms --games 6"
    )
}

fn web_help(kinds: &[GameKind]) -> String {
    let pages: Vec<String> = kinds.iter().map(|k| format!("/{}", k.name())).collect();
    let g = kinds.first().map_or("GAME", |k| k.name());
    format!(
        "Serves a page per game (http://127.0.0.1:8080{}): the board drawn in SVG, moves by
clicking or typed in notation, seats for people and engines (the specs of `arena match`), a
live analysis panel, exact solves (games with a solver), clocks, and the game's record in
the page's URL to share it. The first line printed is `listening ADDR`. Loopback unless
--addr says otherwise (the page has no login).

With --watch FILE (the record file of `arena serve`, repeatable) the page /watch lists the
server's games and shows each one live as the server writes it.

Examples:
  arena web                                    http://127.0.0.1:8080/
  arena web --addr 127.0.0.1:9000 --threads 2
  arena serve {g} --record games.txt &  arena web --watch games.txt",
        pages.join(", ")
    )
}

fn bench_help(p: &Picks) -> String {
    format!(
        "Each game's fixed positions (its adapter's bench list) searched to fixed depths with the\n\
game's recommended engine and default evaluation, each from an empty table; a line per\n\
position, a line per game, then the total. With one thread the search is deterministic: the\n\
total node count (`signature`) changes only when the search's behaviour changes, as in the\n\
chess engines' `bench`.\n\n\
Examples:\n  arena bench\n  arena bench {} --threads 2",
        p.game.name()
    )
}

const TUNE_HELP: &str = "\
SPSA (as fishtest and OpenBench tune chess engines): each iteration perturbs every chosen
parameter at once by +-c_k (a random sign each), plays theta+ against theta- (or each against
--opponent) in --pairs game pairs from new openings with the seats swapped (all six seat
orders for three players), and moves theta along the signs by theta+'s score less theta-'s
per pair. The schedule (printed at the start): c_k = c/(k+1)^gamma and a_k = a/(A+k+1)^alpha
with c = c_end*N^gamma, a = r_end*c_end^2*(A+N)^alpha, A = --spsa-a*N, where c_end is the
parameter's declared step and N the iterations. Values stay in their ranges; whole-number
parameters are rounded where they are played.

Every game goes to --out FILE as it finishes (JSON lines; they are also records for
--records). A killed run continues with --resume and loses no finished game. Workers
(--shard K/N, one --out FILE per worker in one shared directory, as `deploy/` runs them on
Slurm and Kubernetes) each play their pairs of every iteration and wait for the others' games
in the directory's other .jsonl files; they all compute the same theta, the same as one
process would. --verify then plays the tuned values against the start values on new openings
(an SPRT, --verify-sprt, for two players). --svg draws each parameter's path and the
verification (by default beside --out).

Texel's method (--records FILE...): fits the evaluation's parameters to the results of
recorded games (the softmax of the players' scores; for two players the logistic), the
temperature fitted to the start values first, cross-validated over --folds folds of games.
With --predict NAME... it fits them to the moves those players chose instead (a model of
opponents, learned from their games: the softmax of each legal move's resulting position,
scored for the mover, predicts the move played); the records must name their seats (text
records of `arena match --record` or of the course referee harness's --record).";

/// `arena tune --help`: the method, each game's parameters and examples.
fn tune_help(p: &Picks, kinds: &[GameKind]) -> String {
    let g = p.game.name();
    let mut out =
        format!("{TUNE_HELP}\n\nParameters (NAME=DEFAULT (RANGE, step STEP): what it weighs):\n");
    for k in kinds {
        out.push_str(&format!("  {}:\n", k.name()));
        let params = k.info().params.clone();
        if params.is_empty() {
            out.push_str(
                "    none (an mcts engine has the search's own: c, bias, scale, playout)\n",
            );
        }
        for param in params {
            out.push_str(&format!("    {}\n", param.help_line()));
        }
    }
    out.push_str(&format!(
        "\nExamples:\n  arena tune {g} --engine engine,depth=4 --iterations 500 --concurrency 2 --out tune.jsonl\n  \
arena tune {g} --out tune.jsonl --resume --verify --verify-sprt 0 10\n  \
arena tune {g} --param {} --opponent greedy --pairs 4 --time 10ms\n  \
arena tune {g} --shard 2/8 --out runs/2.jsonl ...   (worker 2 of 8; see deploy/README.md)\n  \
arena tune {g} --records games.jsonl more.txt --folds 5\n  \
arena tune {g} --records games.txt --predict greedy random --folds 0",
        p.game
            .info()
            .params
            .first()
            .map_or("NAME".to_string(), |p| format!("{}={}", p.name, p.show(p.default)))
    ));
    out
}

/// `command` with each subcommand's help made from the arena's games.
pub(crate) fn with_help(kinds: &[GameKind], command: Command) -> Command {
    let Some(p) = Picks::of(kinds) else {
        return command.after_help(games_section(kinds));
    };
    let mut command = command.after_help(format!("{}\n{}", top_examples(&p), games_section(kinds)));
    let helps: Vec<(&str, String)> = vec![
        ("play", play_help(&p)),
        ("analyse", analyse_help(&p)),
        ("match", match_help(&p, kinds)),
        ("merge", MERGE_HELP.to_string()),
        ("speedup", SPEEDUP_HELP.to_string()),
        ("solve", solve_help(&p, kinds)),
        ("perft", perft_help(&p)),
        ("moves", moves_help(&p)),
        ("apply", apply_help(&p)),
        ("engine", engine_help(&p)),
        ("serve", serve_help(&p)),
        ("connect", connect_help(&p)),
        ("web", web_help(kinds)),
        ("bench", bench_help(&p)),
        ("tune", tune_help(&p, kinds)),
    ];
    for (name, text) in helps {
        command = command.mut_subcommand(name, |s| s.after_help(text));
    }
    command
}
