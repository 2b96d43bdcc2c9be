//! Games at a clock on the benchmark games a user would write (Connect Four, 6×6 Othello,
//! 6×6 Breakthrough): this engine against the `minimax` crate (its default and its
//! strongest options for the game) and against itself in another mode, at equal time per
//! move, one thread each, from seeded random openings, each opening played twice with the
//! colours swapped (a game pair). The players, the openings and the games; the report's
//! section `peer-games` (`report/peer_games.rs`) plays them and judges them with the lab's
//! SPRT.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use minimax::{IterativeOptions, IterativeSearch, Strategy};
use plyforge::search::rng::XorShift64Star;
use plyforge::search::{
    Config, Evaluator, Game, Limits, MoveList, Outcome, Search, Selectivity, SideToMove,
    SideToMoveEval,
};

use crate::user_peer::{Eval, PeerGame};

/// Table size of every player, MiB.
pub const TABLE_MIB: usize = 64;

/// A player of the games: chooses a move within its time.
pub trait Player<G: Game> {
    /// Forgets the last game (its table and what it learnt): a new game starts.
    fn new_game(&mut self);
    /// Its move at `pos` (which goes on), and the depth of its last completed iteration.
    fn choose(&mut self, pos: &G) -> (G::Move, u32);
}

/// This engine with a time per move (one thread through [`Ours::new`]).
pub struct Ours<G: Game, E: Evaluator<G>> {
    search: Search<G, E>,
    movetime: Duration,
}

impl<G: Game, E: Evaluator<G>> Ours<G, E> {
    /// This engine with `config` as it is (its threads), a [`TABLE_MIB`] table and `eval`.
    pub fn with_config(config: Config, eval: E, movetime: Duration) -> Self {
        Ours {
            search: Search::new(config.with_tt_mib(TABLE_MIB), eval),
            movetime,
        }
    }
}

impl<G: Game, E: SideToMoveEval<G>> Ours<G, SideToMove<E>> {
    /// This engine with `config` (one thread, a [`TABLE_MIB`] table) and `eval`.
    pub fn new(config: Config, eval: E, movetime: Duration) -> Self {
        Ours::with_config(config.with_threads(1), SideToMove(eval), movetime)
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for Ours<G, E> {
    fn new_game(&mut self) {
        self.search.clear();
    }

    fn choose(&mut self, pos: &G) -> (G::Move, u32) {
        let r = self
            .search
            .run(pos, &[], Limits::movetime(self.movetime), |_| {});
        (r.best.expect("the game goes on"), r.depth)
    }
}

/// The `minimax` crate's `IterativeSearch` with a time per move.
pub struct Peer<G: PeerGame> {
    options: IterativeOptions,
    search: IterativeSearch<Eval<G, false>>,
    movetime: Duration,
}

impl<G: PeerGame> Peer<G> {
    /// The peer with `options` (and a [`TABLE_MIB`] table).
    pub fn new(options: IterativeOptions, movetime: Duration) -> Self {
        let options = options.with_table_byte_size(TABLE_MIB << 20);
        Peer {
            options,
            search: IterativeSearch::new(Eval::default(), options),
            movetime,
        }
    }
}

impl<G: PeerGame> Player<G> for Peer<G> {
    fn new_game(&mut self) {
        self.search = IterativeSearch::new(Eval::default(), self.options);
    }

    fn choose(&mut self, pos: &G) -> (G::Move, u32) {
        self.search.set_timeout(self.movetime);
        let mv = self.search.choose_move(pos).expect("the game goes on");
        // Its depth is only in its statistics' text: "... to depth N. ...".
        let mut p = *pos;
        let stats = self.search.stats(&mut p);
        let depth = stats
            .split("to depth ")
            .nth(1)
            .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse().ok())
            .unwrap_or(0);
        (mv, depth)
    }
}

/// The `minimax` options named `name`: `default` (`IterativeOptions::new()`, as its
/// documentation shows it) or a `+`-separated list of `q<N>` (quiescence search of N plies),
/// `null<R>` (null move, reduction R), `se` (its singular extension: a single reply one ply
/// deeper), `cm` (countermoves), `cmh` (countermove history), `asp<W>` (aspiration window
/// W), `mtdf`, `pvs` (null-window search, which its default has on).
pub fn peer_options(name: &str) -> Result<IterativeOptions, String> {
    let mut o = IterativeOptions::new();
    if name == "default" {
        return Ok(o);
    }
    for part in name.split('+') {
        let num = |prefix: &str| -> Result<u8, String> {
            part[prefix.len()..]
                .parse()
                .map_err(|_| format!("minimax option {part:?}: a number after {prefix:?}"))
        };
        o = match part {
            "se" => o.with_singular_extension(),
            "cm" => o.with_countermoves(),
            "cmh" => o.with_countermove_history(),
            "mtdf" => o.with_mtdf(),
            "pvs" => o.with_null_window_search(true),
            p if p.starts_with("null") => o.with_null_move_depth(num("null")?),
            p if p.starts_with("asp") => o.with_aspiration_window(num("asp")? as _),
            p if p.starts_with('q') => o.with_quiescence_search_depth(num("q")?),
            _ => return Err(format!("unknown minimax option {part:?}")),
        };
    }
    Ok(o)
}

/// This engine's configuration named `name`: `exact` (`Config::default()`, the exact
/// search) or `selective` (with [`Selectivity::default`]), then `,`-separated changes:
/// `-lmr`, `-null`, `-futility`, `-lmp`, `-iir`, `-ext` turn a technique off, `-qs`
/// quiescence search, and `lmr_base=N`, `lmr_divisor=N`, `null_base=N`, `rfp_margin=N` set a
/// constant of the selective search.
pub fn our_config(name: &str) -> Result<Config, String> {
    let mut parts = name.split(',');
    let mut config = match parts.next() {
        Some("exact") => Config::default(),
        Some("selective") => Config::default().with_selective(Some(Selectivity::default())),
        _ => {
            return Err(format!(
                "{name:?}: exact or selective, then ,-TECHNIQUE or ,KEY=N"
            ))
        }
    };
    for change in parts {
        if change == "-qs" {
            config = config.with_quiescence(false);
            continue;
        }
        let mut s = config
            .selective
            .ok_or(format!("{name:?}: {change} needs the selective mode"))?;
        if let Some((key, value)) = change.split_once('=') {
            let v: i32 = value
                .parse()
                .map_err(|_| format!("{name:?}: {change}: a whole number"))?;
            match key {
                "lmr_base" => s.lmr_base = v,
                "lmr_divisor" => s.lmr_divisor = v,
                "null_base" => s.null_base = v,
                "rfp_margin" => s.rfp_margin = v,
                _ => return Err(format!("{name:?}: unknown constant {key:?}")),
            }
        } else {
            s = match change {
                "-lmr" => s.with_reductions(false),
                "-null" => s.with_null_move(false),
                "-futility" => s.with_futility(false),
                "-lmp" => s.with_late_move_pruning(false),
                "-iir" => s.with_iir(false),
                "-ext" => s.with_extensions(false),
                _ => return Err(format!("{name:?}: unknown change {change:?}")),
            };
        }
        config = config.with_selective(Some(s));
    }
    Ok(config)
}

/// `count` distinct openings: `plies` random moves from `start`, seeded (positions that
/// end the game are skipped).
pub fn openings<G: Game + PartialEq>(start: &G, plies: usize, count: usize, seed: u64) -> Vec<G> {
    let mut rng = XorShift64Star::seeded(seed);
    let mut out: Vec<G> = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let mut g = start.clone();
        let mut moves = MoveList::new();
        for _ in 0..plies {
            moves.clear();
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.below(moves.len())]);
        }
        if g.outcome().is_none() && !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// What one side of a match did.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    /// Moves made.
    pub moves: u64,
    /// Their depths, summed.
    pub depth: u64,
    /// Their thinking times, summed.
    pub time: Duration,
}

impl SideStats {
    /// Mean depth per move.
    pub fn mean_depth(&self) -> f64 {
        self.depth as f64 / self.moves.max(1) as f64
    }
    /// Mean thinking time per move.
    pub fn mean_time(&self) -> Duration {
        self.time / self.moves.max(1) as u32
    }
}

/// The result of a match of game pairs, for the first player.
#[derive(Clone, Debug, Default)]
pub struct Duel {
    /// The first player's points in each pair (0, ½, …, 2).
    pub pairs: Vec<f64>,
    /// Wins, draws, losses of the first player.
    pub wdl: [u32; 3],
    /// The first player's moves.
    pub first: SideStats,
    /// The second player's moves.
    pub second: SideStats,
}

impl Duel {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wdl.iter().sum()
    }

    /// The first player's score (points per game).
    pub fn score(&self) -> f64 {
        (self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64) / self.games().max(1) as f64
    }

    /// The counts of pairs by the first player's points (0, ½, 1, 1½, 2): the pentanomial.
    pub fn pentanomial(&self) -> [u32; 5] {
        let mut c = [0; 5];
        for p in &self.pairs {
            c[(p * 2.0).round().clamp(0.0, 4.0) as usize] += 1;
        }
        c
    }
}

/// Plays `first` against `second` from each opening twice, `first` with each colour; `log`
/// hears each game (opening index, `first`'s colour, its points).
pub fn duel<G: Game>(
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
    openings: &[G],
    mut log: impl FnMut(usize, usize, f64),
) -> Duel {
    let mut d = Duel::default();
    for (k, opening) in openings.iter().enumerate() {
        let mut pair = 0.0;
        for colour in 0..2 {
            let points = play(first, second, opening, colour, &mut d);
            log(k, colour, points);
            pair += points;
            d.wdl[match points {
                p if p > 0.75 => 0,
                p if p > 0.25 => 1,
                _ => 2,
            }] += 1;
        }
        d.pairs.push(pair);
    }
    d
}

/// One game from `opening` with `first` playing player `colour`: `first`'s points.
fn play<G: Game>(
    first: &mut dyn Player<G>,
    second: &mut dyn Player<G>,
    opening: &G,
    colour: usize,
    d: &mut Duel,
) -> f64 {
    first.new_game();
    second.new_game();
    let mut pos = opening.clone();
    let outcome = loop {
        if let Some(o) = pos.outcome() {
            break o;
        }
        let ours = pos.to_move() == colour;
        let t = Instant::now();
        let (mv, depth) = if ours {
            first.choose(&pos)
        } else {
            second.choose(&pos)
        };
        let stats = if ours { &mut d.first } else { &mut d.second };
        stats.time += t.elapsed();
        stats.moves += 1;
        stats.depth += depth as u64;
        assert!(
            pos.moves().contains(&mv),
            "an illegal move {mv:?} by the {} player",
            if ours { "first" } else { "second" }
        );
        pos.play(mv);
    };
    match outcome {
        Outcome::Win(p) if p == colour => 1.0,
        Outcome::Win(_) => 0.0,
        _ => 0.5,
    }
}
