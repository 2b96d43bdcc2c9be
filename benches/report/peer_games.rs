//! The section `peer-games`: games at a clock on the benchmark games a user would write
//! (`user_duel`): this engine (its selective search) against the `minimax` crate in its
//! default and in its strongest options for the game, and against its own exact search;
//! where the game ships a network (`GameAdapter::network`), the network's selective search
//! against the hand-made evaluation's and against the peer; and where Throne, Chaos Clock or
//! Jumpy3 ships one, its recommended engine with it against the same engine with the hand-made
//! evaluation. At equal time per move, one thread each, seeded openings played with the
//! colours swapped.
//! W/D/L, score, Elo and normalised Elo with their 95% intervals, and the SPRT of
//! nElo [0, 10] on the game pairs where it decides.

use std::fmt::Write as _;
use std::time::Duration;

use example_games::breakthrough::{Breakthrough, BreakthroughEval};
use example_games::othello::{Othello, OthelloEval};
use lab::sprt::{estimate, Sprt, Verdict};
use plyforge::games::{ChaosClock, Jumpy3, Throne};
use plyforge::search::{Evaluator, SideToMoveEval};
use plyforge::GameAdapter;

use crate::learned::{self, shipped};
use crate::user_duel::{duel, openings, our_config, peer_options, Duel, Ours, Peer, Player};
use crate::user_peer::PeerGame;
use crate::{table, Report};

/// The `minimax` options that played best for each game, with how they were chosen:
/// each option set against its default, 200 games at 25 ms a move, the same openings.
const STRONGEST: [(&str, &str, &str); 3] = [
    (
        "breakthrough",
        "q4",
        "quiescence 4 scored 53.0% against the default (null move 2: 34.5%, singular extension: 50.5%, countermoves and their history: 44.0%, all five: 41.0%)",
    ),
    (
        "othello",
        "se+cm+cmh",
        "singular extension with countermoves and their history scored 51.0% (singular extension alone: 50.5%, countermoves alone: 47.8%; Othello has no noisy moves and no pass that is not a move)",
    ),
    (
        "connect_four",
        "se+cm+cmh",
        "singular extension with countermoves and their history scored 56.8% (singular extension alone: 47.2%, countermoves alone: 49.8%; Connect Four has no noisy moves and no pass)",
    ),
];

/// The games per pairing, the time per move and the openings of a run.
pub(crate) struct PeerGames {
    /// Games per pairing (an even number: pairs).
    pub games: usize,
    /// Time per move of both players.
    pub movetime: Duration,
}

impl PeerGames {
    /// The run of the report: 20 games a pairing at 100 ms (quick: 2 at 10 ms), unless
    /// `--peer-games N` says otherwise.
    pub fn new(quick: bool, games: Option<usize>) -> Self {
        PeerGames {
            games: games.unwrap_or(if quick { 2 } else { 20 }),
            movetime: Duration::from_millis(if quick { 10 } else { 100 }),
        }
    }
}

type Boxed<G> = Box<dyn Player<G>>;

/// One game's players: its hand-made evaluation and the network it ships, if any.
struct Evals<E, N> {
    own: E,
    net: Option<N>,
}

/// A player by its name: `minimax:OPTIONS` (the peer), this engine's configuration with
/// the hand-made evaluation, or `net+CONFIGURATION` with the game's shipped network.
fn player<G, E, N>(spec: &str, evals: &Evals<E, N>, movetime: Duration) -> Boxed<G>
where
    G: PeerGame + 'static,
    E: SideToMoveEval<G> + Copy + 'static,
    N: Evaluator<G> + Clone + 'static,
{
    if let Some(options) = spec.strip_prefix("minimax:") {
        return Box::new(Peer::<G>::new(
            peer_options(options).expect("the report's option sets parse"),
            movetime,
        ));
    }
    if let Some(config) = spec.strip_prefix("net+") {
        let config = our_config(config).expect("the report's configurations parse");
        let net = evals.net.clone().expect("a game that ships a network");
        return Box::new(Ours::with_config(config.with_threads(1), net, movetime));
    }
    Box::new(Ours::new(
        our_config(spec).expect("the report's configurations parse"),
        evals.own,
        movetime,
    ))
}

/// One pairing of one game: `first` against `second` from `pairs` openings.
fn pairing<G, E, N>(
    start: G,
    evals: &Evals<E, N>,
    plies: usize,
    run: &PeerGames,
    first: &str,
    second: &str,
) -> Duel
where
    G: PeerGame + PartialEq + 'static,
    E: SideToMoveEval<G> + Copy + 'static,
    N: Evaluator<G> + Clone + 'static,
{
    let list = openings(&start, plies, run.games / 2, 1);
    let mut a = player::<G, E, N>(first, evals, run.movetime);
    let mut b = player::<G, E, N>(second, evals, run.movetime);
    duel(&mut *a, &mut *b, &list, |_, _, _| {})
}

/// The row of a pairing, and whether its Elo reached `target`.
fn row(
    game: &str,
    ours: &str,
    opponent: &str,
    d: &Duel,
    target: f64,
) -> (Vec<String>, Option<f64>) {
    let counts = d.pentanomial().map(u64::from);
    let est = estimate(&counts);
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).expect("valid bounds");
    let verdict = match est.map(|_| sprt.verdict(sprt.llr(&counts))) {
        Some(Verdict::H1) => "H1 (nElo ≥ 10)",
        Some(Verdict::H0) => "H0 (nElo ≤ 0)",
        _ => "undecided",
    };
    // Every game won: no finite Elo, and above any target (shown as +∞).
    let swept = d.games() > 0 && d.wdl[1] == 0 && d.wdl[2] == 0;
    let elo = est
        .map(|e| e.elo)
        .filter(|e| e.is_finite())
        .or(swept.then_some(f64::INFINITY));
    let show = |v: Option<f64>, pm: Option<f64>| match (v, pm) {
        (Some(v), Some(pm)) if v.is_finite() => format!("{:+.0} ± {pm:.0}", v + 0.0),
        (Some(v), None) if v.is_finite() => format!("{:+.0}", v + 0.0),
        (Some(v), _) if v == f64::INFINITY => "+∞ (every game won)".to_string(),
        _ => "-".to_string(),
    };
    let cells = vec![
        game.to_string(),
        ours.to_string(),
        opponent.to_string(),
        format!("{} / {} / {}", d.wdl[0], d.wdl[1], d.wdl[2]),
        format!("{:.1}%", 100.0 * d.score()),
        show(elo, est.and_then(|e| e.elo95)),
        show(est.and_then(|e| e.nelo), est.map(|e| e.nelo95)),
        verdict.to_string(),
        format!("{:.1} / {:.1}", d.first.mean_depth(), d.second.mean_depth()),
        format!(
            "{:.0} / {:.0}",
            d.first.mean_time().as_secs_f64() * 1000.0,
            d.second.mean_time().as_secs_f64() * 1000.0
        ),
        format!("{target:+.0}"),
    ];
    (cells, elo)
}

/// The pairings of one game: the selective search with the hand-made evaluation against
/// the peer's default and strongest options and against the exact search; where the game
/// ships a network, the network's selective search against the hand-made evaluation's and
/// against the peer's two. The rows and the targets.
fn game_rows<G, E, N>(
    rep: &mut Report,
    run: &PeerGames,
    name: &str,
    start: G,
    evals: &Evals<E, N>,
    plies: usize,
) -> Vec<Vec<String>>
where
    G: PeerGame + PartialEq + 'static,
    E: SideToMoveEval<G> + Copy + 'static,
    N: Evaluator<G> + Clone + 'static,
{
    let strongest = STRONGEST
        .iter()
        .find(|(g, ..)| *g == name)
        .map_or("default", |s| s.1);
    let c4 = name == "connect_four";
    let against_peer = if c4 { 50.0 } else { 150.0 };
    let mut pairings = vec![
        ("selective", format!("minimax:{strongest}"), against_peer),
        ("selective", "minimax:default".to_string(), against_peer),
        ("selective", "exact".to_string(), 50.0),
    ];
    if evals.net.is_some() {
        let net_against_peer = if c4 { 100.0 } else { 200.0 };
        pairings.extend([
            ("net+selective", "selective".to_string(), 100.0),
            (
                "net+selective",
                format!("minimax:{strongest}"),
                net_against_peer,
            ),
            (
                "net+selective",
                "minimax:default".to_string(),
                net_against_peer,
            ),
        ]);
    }
    let mut rows = Vec::new();
    for (ours, opponent, target) in pairings {
        let d = pairing(start, evals, plies, run, ours, &opponent);
        let (cells, elo) = row(name, ours, &opponent, &d, target);
        push_target(
            rep,
            format!(
                "{name}: {ours} against {opponent}, {} games at {} ms",
                d.games(),
                run.movetime.as_millis()
            ),
            elo,
            target,
        );
        rows.push(cells);
    }
    rows
}

/// Adds a pairing's line to the targets table: its Elo (`+∞` where every game was won)
/// against `target`.
fn push_target(rep: &mut Report, what: String, elo: Option<f64>, target: f64) {
    let words = match target {
        t if t >= 200.0 => "≥ +200 Elo",
        t if t >= 150.0 => "≥ +150 Elo",
        t if t >= 100.0 => "≥ +100 Elo",
        t if t >= 50.0 => "≥ +50 Elo",
        _ => "≥ +0 Elo",
    };
    rep.targets.user_games.push((
        what,
        elo.map_or("-".to_string(), |e| match e.is_finite() {
            true => format!("{e:+.0} Elo"),
            false => "+∞ Elo (every game won)".to_string(),
        }),
        words,
        elo.is_some_and(|e| e >= target),
    ));
}

/// Where our game `A` ships a network: its recommended engine (one thread) with the
/// network against the same engine with the hand-made evaluation, from openings of `plies`
/// random plies. No `minimax` here: it plays the example games alone. The row, if any.
fn shipped_row<A: GameAdapter>(
    rep: &mut Report,
    run: &PeerGames,
    plies: usize,
) -> Option<Vec<String>>
where
    A::Pos: PartialEq,
{
    let net = shipped::<A>()?;
    let config = A::engine_config().with_threads(1);
    let list = openings(&A::start(), plies, run.games / 2, 1);
    let mut with_net = Ours::with_config(config.clone(), net, run.movetime);
    let mut own = Ours::with_config(config, A::default_eval(), run.movetime);
    let d = duel(&mut with_net, &mut own, &list, |_, _, _| {});
    let (cells, elo) = row(A::NAME, "net (engine)", "engine, hand-made", &d, 0.0);
    push_target(
        rep,
        format!(
            "{}: its shipped network against its hand-made evaluation, {} games at {} ms",
            A::NAME,
            d.games(),
            run.movetime.as_millis()
        ),
        elo,
        0.0,
    );
    Some(cells)
}

/// The section.
pub(crate) fn peer_games_section(rep: &mut Report, games: Option<usize>) {
    let run = PeerGames::new(rep.quick, games);
    let evals = Evals {
        own: BreakthroughEval,
        net: shipped::<learned::breakthrough::Breakthrough>(),
    };
    let mut rows = game_rows(rep, &run, "breakthrough", Breakthrough::start(), &evals, 4);
    let evals = Evals {
        own: OthelloEval,
        net: shipped::<learned::othello::Othello>(),
    };
    rows.extend(game_rows(rep, &run, "othello", Othello::start(), &evals, 6));
    let evals = Evals {
        own: connect_four::DefaultEval,
        net: shipped::<learned::connect_four::ConnectFour>(),
    };
    rows.extend(game_rows(
        rep,
        &run,
        "connect_four",
        connect_four::Position::start(),
        &evals,
        4,
    ));
    rows.extend(shipped_row::<Throne>(rep, &run, 4));
    rows.extend(shipped_row::<ChaosClock>(rep, &run, 4));
    rows.extend(shipped_row::<Jumpy3>(rep, &run, 2));
    let md = &mut rep.md;
    let _ = writeln!(md, "## Games at a clock against the peer\n");
    let _ = writeln!(
        md,
        "This engine with its selective search (`Config::selective`) against the `minimax` \
         crate 0.6 (`IterativeSearch`, a 64 MiB table each) and against its own exact search; \
         where the game ships a network (`net+selective`), the same search with it against the \
         hand-made evaluation's and against the peer; Throne, Chaos Clock and Jumpy3 where \
         they ship one (`net (engine)`: Chaos Clock does, Jumpy3 while its solved table is \
         not cached; Jumpy3's openings 2 plies), their recommended engine with it against the \
         same engine with the hand-made evaluation (no peer plays them): \
         {} games a pairing at {} ms a move, one thread each, openings of random plies (4; \
         Othello 6) from seed 1, each played twice with the colours swapped (`--peer-games N` \
         for more). The peer's strongest options for each game were chosen by games:\n",
        run.games,
        run.movetime.as_millis()
    );
    for (game, options, why) in STRONGEST {
        let _ = writeln!(md, "- {game}: `{options}`: {why}.");
    }
    md.push('\n');
    table(
        md,
        &[
            "game",
            "ours",
            "opponent",
            "W / D / L",
            "score",
            "Elo (95%)",
            "nElo (95%)",
            "SPRT nElo [0, 10]",
            "depth (ours / theirs)",
            "ms a move (ours / theirs)",
            "target",
        ],
        &rows,
    );
}
