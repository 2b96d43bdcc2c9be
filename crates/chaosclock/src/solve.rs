//! The exact solver: the result under both sides' preferences and every best move.
//!
//! # What is computed
//!
//! The game from a position `X` with a set `S` of positions already seen (the game's history;
//! by default only `X`) is a finite tree: a move into a position of `S` or of the path since
//! `X` ends the game, both losing. Backing up that tree with each side choosing what it
//! prefers (own win > both win > both lose > own loss) gives one outcome, since the four
//! outcomes are shared and each side's preference over them is strict. The result code is that
//! outcome from the view of the side to move; the best moves are all moves whose subtree gives
//! it.
//!
//! # How: strongly connected components instead of paths
//!
//! Let `G` be the graph of states ([`Position::code`]: board, side to move, the restriction in
//! force, the pass flag) reachable from `X`, with the states of `S` made terminal (both lose).
//! Let `A_O` be Odd's attractor of the terminal states where Odd wins (Odd to move: some
//! successor in `A_O`; Even to move: all successors in `A_O`), `A_E` likewise for Even, and
//! `R` the other states. Then the value of the tree from `X` with no repetition yet is
//!
//! - Odd wins on `A_O`, Even wins on `A_E`;
//! - on `R`: both win if a terminal "both win" state can be reached from `X` by a path inside
//!   `R`, else both lose.
//!
//! Proof sketch. Odd's top outcome is Even's bottom one, so the tree value is "Odd wins"
//! exactly when Odd can force that outcome in the tree. In `A_O` Odd forces it by always
//! moving to a state of smaller attractor rank, which never repeats a state; outside `A_O`
//! Even can keep the game outside `A_O` for ever, so Odd's win is never reached (a repetition
//! ends the game both losing). The same holds for Even. On the remaining states, a side to
//! move has a successor in `R` (else it would be in the opponent's attractor), and every
//! successor outside `R` is in the opponent's attractor (its own attractor would contain the
//! state), so both sides prefer any continuation inside `R`, where the outcome is both win or
//! both lose: the tree value is both win exactly when a repetition-free path inside `R` reaches
//! a "both win" end. A path exists iff a simple path exists.
//!
//! So the value is a property of the graph, not of the path, and it is fixed by three
//! yes-or-no questions about a state: is it in `A_O`, in `A_E`, is its value "both win". The
//! table stores, for each state, the answers found so far (exact values are the three
//! answers together), and they are valid for every path: the table needs no care for the
//! repetition rule.
//!
//! # How: depth-first search with strongly connected components
//!
//! A searcher answers either one question (an and-or search: at a state of the side the
//! question is about one successor with "yes" suffices, at the opponent's all must have it;
//! "both win" needs one successor inside `R` with "yes") or computes exact values (max^n
//! with the mover's preference). Either way it is a depth-first search with Tarjan's
//! strongly connected components: a state whose successors' answers are all known is settled
//! as in a tree; a state whose answer depends on states still on the stack waits for its
//! component, which is solved when the search leaves it by the least fixed point above
//! (attractors, then reachability inside `R`) with its exits' answers known. Cycles can only
//! lie among states joined by walks that capture nothing and by passes: every other move
//! places a piece home or takes a piece off the board, home pieces never leave, and pieces off
//! the board only come back home, so no state before such a move recurs after it.
//!
//! The exact search at a state first asks whether the mover wins (a question is much cheaper
//! than values: one good move suffices at the asking side's states). If not, the mover's best
//! possible value is "both win", and the search ends at the first successor with that value.
//! A state that has found "both win" while its own win is still possible asks its remaining
//! successors only whether they are a win for it.
//!
//! The root's best moves need its children's values with the root itself seen: each child is
//! solved in the graph with the root (and the history) made terminal, which is the definition
//! above applied to the child.
//!
//! # Pruning without search
//!
//! - [`may_complete`] proves that a side can never complete: no win for it, no "both win".
//! - Races: a side whose pieces away from home are all in its hand completes by placing them
//!   whatever happens, so counting moves settles some wins and non-wins (see `race_facts`).
//! - When a state is expanded, all its successors are looked up in the table at once (their
//!   cache misses overlap), and one whose stored answer settles the state settles it.
//!
//! # Threads
//!
//! Answers are exact and independent of the path, so one lock-free table serves all threads.
//! Each thread solves root children nobody has taken yet; when none are left it helps on the
//! ones still open, with a different move order so that it explores elsewhere, and the first
//! answer found counts. The table starts small and, when 70% full, the searches stop, it
//! doubles with every answer kept, and they start again.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fxhash::{FxHashMap, FxHashSet};
use search::{Game, MoveList, Outcome, Player, Record};
use smallvec::SmallVec;

use crate::memo::Memo;
use crate::position::{owner, pieces_of, walk_target, Move, Position, EVEN, ODD};
use crate::reach::may_complete;

/// Internal value: Odd wins.
const V_ODD: u8 = 0;
/// Internal value: Even wins.
const V_EVEN: u8 = 1;
/// Internal value: both win.
const V_BW: u8 = 2;
/// Internal value: both lose.
const V_BL: u8 = 3;
/// No value (yet).
const NONE: u8 = 255;

/// How much `player` likes value `v`: own win 3, both win 2, both lose 1, own loss 0
/// (the result code minus one).
#[inline]
fn rank(v: u8, player: Player) -> u8 {
    match v {
        V_BW => 2,
        V_BL => 1,
        _ if v as Player == player => 3,
        _ => 0,
    }
}

fn value_of(o: Outcome) -> u8 {
    match o {
        Outcome::Win(p) if p == ODD => V_ODD,
        Outcome::Win(_) => V_EVEN,
        Outcome::BothWin => V_BW,
        // Both lose; a draw (which Chaos Clock does not have) would be as bad.
        _ => V_BL,
    }
}

fn outcome_of(v: u8) -> Outcome {
    match v {
        V_ODD => Outcome::Win(ODD),
        V_EVEN => Outcome::Win(EVEN),
        V_BW => Outcome::BothWin,
        _ => Outcome::BothLose,
    }
}

/// The result code of `outcome` for `player`: 4 = `player` wins, 3 = both win, 2 = both lose,
/// 1 = `player` loses.
pub fn result_code(outcome: Outcome, player: Player) -> u8 {
    rank(value_of(outcome), player) + 1
}

/// The exact value of a position for the side to move, in the order the side to move
/// prefers (a [`Value::Loss`] is the worst); its [`code`](Value::code) is the result code of
/// the rules and of the public analyser: 4, 3, 2, 1.
///
/// ```
/// use plyforge_chaosclock::solve::Value;
/// assert_eq!(Value::BothWin.code(), 3);
/// assert_eq!(Value::from_code(4), Some(Value::Win));
/// assert!(Value::Win > Value::BothWin && Value::BothLose > Value::Loss);
/// assert_eq!(Value::BothLose.to_string(), "both lose");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Value {
    /// The side to move loses (code 1).
    Loss = 1,
    /// Both lose (code 2).
    BothLose = 2,
    /// Both win (code 3).
    BothWin = 3,
    /// The side to move wins (code 4).
    Win = 4,
}

impl Value {
    /// The result code: 4 the side to move wins, 3 both win, 2 both lose, 1 it loses.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The value of a result code; `None` outside 1..=4.
    pub fn from_code(code: u8) -> Option<Value> {
        match code {
            1 => Some(Value::Loss),
            2 => Some(Value::BothLose),
            3 => Some(Value::BothWin),
            4 => Some(Value::Win),
            _ => None,
        }
    }

    /// The value of `outcome` for `player`.
    pub fn of(outcome: Outcome, player: Player) -> Value {
        Value::from_code(result_code(outcome, player)).expect("result codes are 1 to 4")
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Value::Loss => "loss",
            Value::BothLose => "both lose",
            Value::BothWin => "both win",
            Value::Win => "win",
        })
    }
}

/// The exact result of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Solution {
    /// The value for the side to move.
    pub value: Value,
    /// The outcome under best play.
    pub outcome: Outcome,
    /// Every move that achieves it (a pass included where it does), in
    /// [`search::Game::legal_moves`] order; empty if the game is over.
    pub best: Vec<Move>,
    /// What the solve cost.
    pub stats: Stats,
}

/// What a solve cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// States expanded (searched with their moves), all searches and threads.
    pub nodes: u64,
    /// States with facts stored in the table.
    pub stored: usize,
    /// Bytes held by the table at the end.
    pub table_bytes: usize,
    /// Wall time.
    pub elapsed: Duration,
    /// The most states of one strongly connected component whose answer was still open when
    /// the search left it (0: no cycle mattered).
    pub largest_cycle_set: usize,
}

/// Limits and context of a solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Give up after this many expanded states (all threads).
    pub max_nodes: Option<u64>,
    /// Give up after this much time.
    pub time: Option<Duration>,
    /// Positions that occurred earlier in the game (the position solved need not be listed):
    /// reaching one again ends the game, both losing.
    pub history: Vec<Position>,
    /// Give up when this becomes true.
    pub stop: Option<std::sync::Arc<AtomicBool>>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
                .min(8),
            max_nodes: None,
            time: None,
            history: Vec::new(),
            stop: None,
        }
    }
}

impl SolveOptions {
    /// Default options for the current position of `record`, with the record's earlier
    /// positions as the history.
    pub fn for_record(record: &Record<Position>) -> SolveOptions {
        let mut history = Vec::with_capacity(record.moves().len());
        let mut p = record.start().clone();
        for &m in record.moves() {
            let next = p.after(m);
            history.push(std::mem::replace(&mut p, next));
        }
        SolveOptions {
            history,
            ..SolveOptions::default()
        }
    }
}

/// Solves `pos` exactly (its history being only itself), with every best move.
/// Runs to the end however long it takes; see [`solve_with`] for a budget.
pub fn solve(pos: &Position) -> Solution {
    solve_with(pos, &SolveOptions::default()).expect("an unlimited solve finishes")
}

/// Solves `pos` within the limits of `opts`; `None` when cut short.
pub fn solve_with(pos: &Position, opts: &SolveOptions) -> Option<Solution> {
    let started = Instant::now();
    let mover = pos.to_move();
    if let Some(o) = pos.outcome() {
        return Some(Solution {
            value: Value::of(o, mover),
            outcome: o,
            best: Vec::new(),
            stats: Stats {
                elapsed: started.elapsed(),
                ..Stats::default()
            },
        });
    }
    let mut excluded: FxHashSet<u64> = opts.history.iter().map(Position::code).collect();
    excluded.insert(pos.code());
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let children: Vec<Position> = moves.iter().map(|&m| pos.after(m)).collect();
    let results: Vec<AtomicU8> = children.iter().map(|_| AtomicU8::new(NONE)).collect();
    let threads = opts.threads.max(1).min(children.len());
    let mut shared = Shared {
        memo: Memo::new(18),
        excluded,
        nodes: AtomicU64::new(0),
        max_nodes: opts.max_nodes.unwrap_or(u64::MAX),
        deadline: opts.time.map(|t| started + t),
        stop: opts.stop.clone(),
        aborted: AtomicBool::new(false),
        largest: AtomicUsize::new(0),
    };
    loop {
        let claimed: Vec<AtomicBool> = children.iter().map(|_| AtomicBool::new(false)).collect();
        let sh = &shared;
        if threads == 1 {
            worker(sh, &children, &results, &claimed, 0, 1);
        } else {
            std::thread::scope(|s| {
                for t in 0..threads {
                    let (children, results, claimed) = (&children, &results, &claimed);
                    s.spawn(move || worker(sh, children, results, claimed, t, threads));
                }
            });
        }
        if shared.aborted.load(Ordering::Relaxed) {
            return None;
        }
        if results.iter().all(|r| r.load(Ordering::Relaxed) != NONE) {
            break;
        }
        // The table filled up: searches stopped so that it can grow; go on with its facts.
        debug_assert!(shared.memo.full());
        shared.memo = shared.memo.grown();
    }
    let values: Vec<u8> = results.iter().map(|r| r.load(Ordering::Relaxed)).collect();
    let value = *values.iter().max_by_key(|&&v| rank(v, mover))?;
    let outcome = outcome_of(value);
    Some(Solution {
        value: Value::of(outcome, mover),
        outcome,
        best: moves
            .iter()
            .zip(&values)
            .filter(|(_, &v)| v == value)
            .map(|(&m, _)| m)
            .collect(),
        stats: Stats {
            nodes: shared.nodes.load(Ordering::Relaxed),
            stored: shared.memo.len(),
            table_bytes: shared.memo.bytes(),
            elapsed: started.elapsed(),
            largest_cycle_set: shared.largest.load(Ordering::Relaxed),
        },
    })
}

/// One thread's share of the root's children: first those nobody has taken (starting at an
/// offset so that threads spread), then help on those still open with another move order
/// (the table is shared, so helpers reuse each other's results).
fn worker(
    shared: &Shared,
    children: &[Position],
    results: &[AtomicU8],
    claimed: &[AtomicBool],
    t: usize,
    threads: usize,
) {
    let n = children.len();
    let count = Cell::new(0);
    'tasks: for helping in [false, true] {
        for k in 0..n {
            let i = (k + t * n / threads) % n;
            if results[i].load(Ordering::Acquire) != NONE
                || (!helping && claimed[i].swap(true, Ordering::AcqRel))
            {
                continue;
            }
            let variant = helping as u32;
            let mut s = Searcher::new(shared, Mode::Exact, variant, Some(&results[i]), &count);
            match s.eval(&children[i]) {
                Some(v) => results[i].store(v, Ordering::Release),
                None if shared.aborted.load(Ordering::Relaxed) || shared.memo.full() => {
                    break 'tasks
                }
                None => {}
            }
        }
    }
    shared
        .nodes
        .fetch_add(count.get() % 1024, Ordering::Relaxed);
}

/// A yes-or-no question about a state, a property of the state graph (see the module docs):
/// is the value "Odd wins" (Odd's attractor), "Even wins", "both win".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    OddWins = 0,
    EvenWins = 1,
    BothWin = 2,
}

impl Question {
    /// The question "does `p` win?".
    #[inline]
    fn win(p: Player) -> Question {
        if p == ODD {
            Question::OddWins
        } else {
            Question::EvenWins
        }
    }
    /// Memo bits: "known" and "yes".
    #[inline]
    fn bits(self, answer: bool) -> u8 {
        (1 | (answer as u8) << 1) << (2 * self as u8)
    }
    /// The answer in stored facts, if known (also derived: a side's win excludes the rest).
    #[inline]
    fn read(self, facts: u8) -> Option<bool> {
        let b = facts >> (2 * self as u8);
        if b & 1 != 0 {
            return Some(b & 2 != 0);
        }
        let others = [Question::OddWins, Question::EvenWins, Question::BothWin];
        others
            .iter()
            .any(|&o| o != self && (facts >> (2 * o as u8)) & 3 == 3)
            .then_some(false)
    }
    /// Whether a state with `mover` to move is an "or" state (one successor with the answer
    /// "yes" suffices) rather than an "and" state.
    #[inline]
    fn is_or(self, mover: Player) -> bool {
        match self {
            Question::OddWins => mover == ODD,
            Question::EvenWins => mover == EVEN,
            Question::BothWin => true,
        }
    }
}

/// All facts of an exact value.
#[inline]
fn exact_facts(v: u8) -> u8 {
    Question::OddWins.bits(v == V_ODD)
        | Question::EvenWins.bits(v == V_EVEN)
        | Question::BothWin.bits(v == V_BW)
}

/// The exact value that stored facts give, if they do.
#[inline]
fn exact_of(facts: u8) -> Option<u8> {
    let q = |q: Question| q.read(facts);
    match (
        q(Question::OddWins),
        q(Question::EvenWins),
        q(Question::BothWin),
    ) {
        (Some(true), _, _) => Some(V_ODD),
        (_, Some(true), _) => Some(V_EVEN),
        (_, _, Some(true)) => Some(V_BW),
        (Some(false), Some(false), Some(false)) => Some(V_BL),
        _ => None,
    }
}

/// Facts that [`may_complete`] proves about a state.
fn proved_facts(can: [bool; 2]) -> u8 {
    let mut f = 0;
    if !can[ODD] {
        f |= Question::OddWins.bits(false) | Question::BothWin.bits(false);
    }
    if !can[EVEN] {
        f |= Question::EvenWins.bits(false) | Question::BothWin.bits(false);
    }
    f
}

/// Facts that a race settles. When a side's pieces away from home are all in its hand, it
/// completes by placing them one per turn whatever the opponent does (nothing can capture a
/// piece in hand or at home, and a placement is always legal), while the opponent needs at
/// least one move per piece of its own away from home (only its own moves bring its pieces
/// home, and it earns no extra move, having no piece of the first side to capture). Every
/// placement puts a piece home for good, so no position of the race repeats one before it.
///
/// - "`m` cannot win": the defender `d` has all its away pieces (`j`) in hand and `m` needs
///   at least `j - 1` moves with `d` to move, `j` with `m` to move: `d` completes first, or
///   `m` completes with `d` one placement short, which `d`'s last move makes "both win".
/// - "`m` wins": `m` to move has all its away pieces (`k`) in hand, and `d` needs at least
///   `k + 1` moves: `m` completes before `d`, and `d`'s last move cannot complete it. (Only
///   with `m` to move: `d` to move could pass after a pass, or return to a position seen.)
fn race_facts(pos: &Position) -> u8 {
    let home = pos.home_mask();
    let board = pos.board_mask();
    let mover = pos.to_move();
    let mut f = 0;
    for m in [ODD, EVEN] {
        let d = 1 - m;
        let q = Question::win(m);
        let m_away = pieces_of(m) & !home;
        let d_away = pieces_of(d) & !home;
        if d_away & board == 0 {
            let (j, k) = (d_away.count_ones(), m_away.count_ones());
            if (mover == d && k + 1 >= j) || (mover == m && k >= j) {
                f |= q.bits(false);
            }
        }
        if mover == m && m_away & board == 0 {
            let (k, j) = (m_away.count_ones(), d_away.count_ones());
            if k >= 1 && j > k {
                f |= q.bits(true);
            }
        }
    }
    f
}

/// What all threads of one solve share.
struct Shared {
    memo: Memo,
    excluded: FxHashSet<u64>,
    nodes: AtomicU64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<std::sync::Arc<AtomicBool>>,
    aborted: AtomicBool,
    largest: AtomicUsize,
}

impl Shared {
    /// Facts about `p` known without search: at the end of the game, for a state seen
    /// before (both lose), or stored.
    #[inline]
    fn facts(&self, p: &Position) -> (u64, u8) {
        if let Some(o) = p.outcome() {
            return (u64::MAX, exact_facts(value_of(o)));
        }
        let code = p.code();
        if self.excluded.contains(&code) {
            return (code, exact_facts(V_BL));
        }
        (code, self.memo.get(code))
    }
}

/// What a searcher computes: exact values, or the answer to one question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Exact,
    Ask(Question),
}

/// What `mode` reads in `facts`: an exact value, or an answer (0/1).
#[inline]
fn read(mode: Mode, facts: u8) -> Option<u8> {
    match mode {
        Mode::Exact => exact_of(facts),
        Mode::Ask(q) => q.read(facts).map(u8::from),
    }
}

/// A successor as a frame remembers it: its code, or `END | value` when the game is over.
const END: u64 = 1 << 62;

/// A state being searched.
struct Frame {
    pos: Position,
    code: u64,
    index: u32,
    low: u32,
    /// The moves in search order, each with its successor's code (or `END | value`).
    moves: SmallVec<[(Move, u64); 24]>,
    next: usize,
    /// Exact mode: the best value among the successors so far. Question mode: the answer
    /// once a successor settles it (0 no, 1 yes).
    best: u8,
    /// Exact mode: the best value the mover can still hope for (reaching it ends the
    /// search of the state). Question mode: 1 for an "or" state, 0 for an "and" state.
    ideal: u8,
    /// Some successor's answer is still open (it is on the stack).
    pending: bool,
}

impl Frame {
    #[inline]
    fn mover(&self) -> Player {
        self.pos.to_move()
    }
    #[inline]
    fn absorb(&mut self, mode: Mode, v: u8) {
        match mode {
            Mode::Exact => {
                let side = self.mover();
                if self.best == NONE || rank(v, side) > rank(self.best, side) {
                    self.best = v;
                }
            }
            Mode::Ask(_) => {
                if v == self.ideal {
                    self.best = v;
                }
            }
        }
    }
    #[inline]
    fn settled(&self) -> bool {
        self.best == self.ideal
    }
    /// The answer if no successor is open.
    #[inline]
    fn answer(&self, mode: Mode) -> Option<u8> {
        if self.settled() {
            Some(self.best)
        } else if self.pending {
            None
        } else {
            match mode {
                Mode::Exact => Some(self.best),
                Mode::Ask(_) => Some(1 - self.ideal),
            }
        }
    }
}

enum Class {
    Known(u8),
    OnStack(u32),
    New(u8),
}

/// The search was cut short (budget, stop, a full table, or another thread finished the
/// task).
struct Abort;

/// One thread's depth-first search with Tarjan's components, of exact values or of one
/// question.
struct Searcher<'a> {
    shared: &'a Shared,
    mode: Mode,
    variant: u32,
    /// Give up when this slot is answered (another thread answered the task first).
    watch: Option<&'a AtomicU8>,
    onstack: FxHashMap<u64, u32>,
    tarjan: Vec<(Position, u64, u32)>,
    frames: Vec<Frame>,
    next_index: u32,
    /// States expanded by this thread (shared by its nested searchers), for the budget checks.
    count: &'a Cell<u64>,
}

impl<'a> Searcher<'a> {
    fn new(
        shared: &'a Shared,
        mode: Mode,
        variant: u32,
        watch: Option<&'a AtomicU8>,
        count: &'a Cell<u64>,
    ) -> Self {
        Searcher {
            shared,
            mode,
            variant,
            watch,
            onstack: FxHashMap::default(),
            tarjan: Vec::new(),
            frames: Vec::new(),
            next_index: 0,
            count,
        }
    }

    /// What this searcher's mode reads in `facts`.
    #[inline]
    fn read(&self, facts: u8) -> Option<u8> {
        read(self.mode, facts)
    }

    /// The answer to `q` at `p`, searched by a nested searcher if not known.
    fn ask(&self, p: &Position, q: Question) -> Result<bool, Abort> {
        let (_, facts) = self.shared.facts(p);
        match q.read(facts) {
            Some(v) => Ok(v),
            None => {
                let mut nested = Searcher::new(
                    self.shared,
                    Mode::Ask(q),
                    self.variant,
                    self.watch,
                    self.count,
                );
                nested.eval(p).map(|v| v == 1).ok_or(Abort)
            }
        }
    }

    /// How this searcher meets the state `code` (not over), successor of `parent` by `mv`;
    /// `New` carries the stored facts.
    #[inline]
    fn classify(&self, parent: &Position, mv: Move, code: u64) -> Result<Class, Abort> {
        if self.shared.excluded.contains(&code) {
            return Ok(Class::Known(self.read(exact_facts(V_BL)).expect("exact")));
        }
        let facts = self.shared.memo.get(code);
        if let Some(v) = self.read(facts) {
            return Ok(Class::Known(v));
        }
        if let Some(&i) = self.onstack.get(&code) {
            return Ok(Class::OnStack(i));
        }
        if self.mode == Mode::Ask(Question::BothWin) {
            // "Both win" lives outside both attractors: settle those first.
            let child = parent.after(mv);
            for r in [Question::OddWins, Question::EvenWins] {
                if self.ask(&child, r)? {
                    return Ok(Class::Known(0));
                }
            }
        }
        Ok(Class::New(facts))
    }

    /// Starts searching a new state with stored `facts`; returns its answer at once if
    /// the facts or a proof give it.
    fn push(&mut self, pos: Position, code: u64, mut facts: u8) -> Result<Option<u8>, Abort> {
        let proved = proved_facts(may_complete(&pos)) | race_facts(&pos);
        if proved & !facts != 0 {
            self.shared.memo.add(code, proved);
            facts |= proved;
        }
        if let Some(v) = self.read(facts) {
            return Ok(Some(v));
        }
        let mover = pos.to_move();
        if self.mode == Mode::Exact {
            // First the mover's own win, a yes-or-no question (cheaper than values); if the
            // answer is no, the value search below stops at the first "both win".
            let q = Question::win(mover);
            if q.read(facts).is_none() {
                let w = self.ask(&pos, q)?;
                facts |= q.bits(w);
                if let Some(v) = self.read(facts) {
                    return Ok(Some(v));
                }
            }
        }
        let ideal = match self.mode {
            Mode::Exact => {
                if Question::win(mover).read(facts) != Some(false) {
                    mover as u8
                } else if Question::BothWin.read(facts) != Some(false) {
                    V_BW
                } else {
                    V_BL
                }
            }
            Mode::Ask(q) => q.is_or(mover) as u8,
        };
        let mut all = MoveList::new();
        pos.legal_moves(&mut all);
        let defending =
            matches!(self.mode, Mode::Ask(q) if q != Question::BothWin && !q.is_or(mover));
        order_moves(&pos, &mut all, self.variant, defending);
        let moves: SmallVec<[(Move, u64); 24]> = all
            .into_iter()
            .map(|m| {
                let c = pos.after(m);
                let tag = match c.outcome() {
                    Some(o) => END | value_of(o) as u64,
                    None => c.code(),
                };
                (m, tag)
            })
            .collect();
        // Look every successor up now, in a tight loop, so that the cache misses overlap
        // instead of coming one by one as the search reaches each successor; a successor
        // whose stored answer settles this state settles it at once.
        let memo = &self.shared.memo;
        let first: SmallVec<[u64; 24]> = moves
            .iter()
            .map(|&(_, tag)| memo.first_word(tag & !END))
            .collect();
        let mut settling = None;
        for (&(_, tag), &word) in moves.iter().zip(&first) {
            let facts = if tag & END != 0 {
                exact_facts(tag as u8)
            } else if self.shared.excluded.contains(&tag) {
                exact_facts(V_BL)
            } else {
                memo.get_from(tag, word)
            };
            if read(self.mode, facts) == Some(ideal) {
                settling = Some(ideal);
            }
        }
        if let Some(v) = settling {
            self.store(code, v);
            return Ok(Some(v));
        }
        let index = self.next_index;
        self.next_index += 1;
        self.onstack.insert(code, index);
        self.tarjan.push((pos.clone(), code, index));
        self.frames.push(Frame {
            pos,
            code,
            index,
            low: index,
            moves,
            next: 0,
            best: NONE,
            ideal,
            pending: false,
        });
        Ok(None)
    }

    fn over_budget(&mut self) -> bool {
        let sh = self.shared;
        if sh.memo.full() {
            return true;
        }
        let n = self.count.get() + 1;
        self.count.set(n);
        if n % 1024 != 0 {
            return false;
        }
        let total = sh.nodes.fetch_add(1024, Ordering::Relaxed) + 1024;
        let out = total >= sh.max_nodes
            || sh.deadline.is_some_and(|d| Instant::now() >= d)
            || sh.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
        if out {
            sh.aborted.store(true, Ordering::Relaxed);
        }
        out || sh.aborted.load(Ordering::Relaxed)
            || self
                .watch
                .is_some_and(|w| w.load(Ordering::Relaxed) != NONE)
    }

    /// The value (exact mode) or answer (0/1, question mode) at `root`; `None` if cut short.
    fn eval(&mut self, root: &Position) -> Option<u8> {
        self.eval_inner(root).ok()
    }

    fn eval_inner(&mut self, root: &Position) -> Result<u8, Abort> {
        if let Some(o) = root.outcome() {
            return Ok(self.read(exact_facts(value_of(o))).expect("exact"));
        }
        let code = root.code();
        if self.shared.excluded.contains(&code) {
            return Ok(self.read(exact_facts(V_BL)).expect("exact"));
        }
        let facts = self.shared.memo.get(code);
        if let Some(v) = self.read(facts) {
            return Ok(v);
        }
        if self.mode == Mode::Ask(Question::BothWin) {
            for r in [Question::OddWins, Question::EvenWins] {
                if self.ask(root, r)? {
                    return Ok(0);
                }
            }
        }
        if self.over_budget() {
            return Err(Abort);
        }
        match self.push(root.clone(), code, facts)? {
            Some(v) => Ok(v),
            None => self.run(),
        }
    }

    /// The top frame takes the value `v` of the successor it searched last.
    #[inline]
    fn absorb_top(&mut self, v: u8) {
        let mode = self.mode;
        self.frames.last_mut().expect("frame").absorb(mode, v);
    }

    fn store(&self, code: u64, v: u8) {
        let facts = match self.mode {
            Mode::Exact => exact_facts(v),
            Mode::Ask(q) => q.bits(v == 1),
        };
        self.shared.memo.add(code, facts);
    }

    fn run(&mut self) -> Result<u8, Abort> {
        let mode = self.mode;
        loop {
            let f = self.frames.last_mut().expect("a frame");
            if !f.settled() && f.next < f.moves.len() {
                let (mv, tag) = f.moves[f.next];
                f.next += 1;
                if tag & END != 0 {
                    self.absorb_top(read(mode, exact_facts(tag as u8)).expect("exact"));
                    continue;
                }
                let mover = f.mover();
                if mode == Mode::Exact && f.best == V_BW && f.ideal == mover as u8 {
                    // Only the mover's own win would still be better: ask just that.
                    let q = Question::win(mover);
                    let yes = match q.read(self.shared.memo.get(tag)) {
                        Some(v) => v,
                        None => {
                            let child = f.pos.after(mv);
                            self.ask(&child, q)?
                        }
                    };
                    if yes {
                        self.absorb_top(mover as u8);
                    }
                    continue;
                }
                let parent = &self.frames.last().expect("frame").pos;
                match self.classify(parent, mv, tag)? {
                    Class::Known(v) => self.absorb_top(v),
                    Class::OnStack(i) => {
                        let f = self.frames.last_mut().expect("frame");
                        f.low = f.low.min(i);
                        f.pending = true;
                    }
                    Class::New(facts) => {
                        if self.over_budget() {
                            return Err(Abort);
                        }
                        let child = self.frames.last().expect("frame").pos.after(mv);
                        if let Some(v) = self.push(child, tag, facts)? {
                            self.absorb_top(v);
                        }
                    }
                }
                continue;
            }
            let f = self.frames.pop().expect("a frame");
            let mut value = f.answer(mode);
            if let Some(v) = value {
                self.store(f.code, v);
            }
            let root_of_component = f.low == f.index;
            if root_of_component {
                self.close_component(f.index)?;
                if value.is_none() {
                    value = self.read(self.shared.memo.get(f.code));
                }
            }
            match self.frames.last_mut() {
                None => return value.ok_or(Abort),
                Some(parent) => {
                    if !root_of_component {
                        parent.low = parent.low.min(f.low);
                    }
                    match value {
                        Some(v) => self.absorb_top(v),
                        None => parent.pending = true,
                    }
                }
            }
        }
    }

    /// Pops the component whose root has Tarjan index `root` and settles its open states.
    fn close_component(&mut self, root: u32) -> Result<(), Abort> {
        let mut open: Vec<Position> = Vec::new();
        while let Some(&(_, _, index)) = self.tarjan.last() {
            if index < root {
                break;
            }
            let (pos, code, _) = self.tarjan.pop().expect("entry");
            self.onstack.remove(&code);
            if self.read(self.shared.memo.get(code)).is_none() {
                open.push(pos);
            }
        }
        if open.is_empty() {
            return Ok(());
        }
        self.shared.largest.fetch_max(open.len(), Ordering::Relaxed);
        let graph = Component::new(self.shared, &open);
        match self.mode {
            Mode::Ask(q) => {
                let yes = graph.fixpoint(self, q)?;
                for (p, y) in open.iter().zip(yes) {
                    self.shared.memo.add(p.code(), q.bits(y));
                }
            }
            Mode::Exact => {
                let odd = graph.fixpoint(self, Question::OddWins)?;
                let even = graph.fixpoint(self, Question::EvenWins)?;
                let outside: Vec<bool> = odd.iter().zip(&even).map(|(a, b)| !a && !b).collect();
                let both = graph.both_win(self, &outside)?;
                for (i, p) in open.iter().enumerate() {
                    let v = if odd[i] {
                        V_ODD
                    } else if even[i] {
                        V_EVEN
                    } else if both[i] {
                        V_BW
                    } else {
                        V_BL
                    };
                    self.shared.memo.add(p.code(), exact_facts(v));
                }
            }
        }
        Ok(())
    }
}

/// The open states of one strongly connected component: every successor of each is in the
/// component (an edge) or outside it with facts stored (or computable by a nested search).
struct Component<'p> {
    open: &'p [Position],
    /// Per state: its successors outside the component with their facts.
    exits: Vec<Vec<(Position, u8)>>,
    start: Vec<usize>,
    pstart: Vec<usize>,
    pred: Vec<u32>,
}

impl<'p> Component<'p> {
    fn new(shared: &Shared, open: &'p [Position]) -> Self {
        let local: FxHashMap<u64, u32> = open
            .iter()
            .enumerate()
            .map(|(i, p)| (p.code(), i as u32))
            .collect();
        let n = open.len();
        let mut exits = Vec::with_capacity(n);
        let mut start = Vec::with_capacity(n + 1);
        let mut succ: Vec<u32> = Vec::new();
        let mut moves = MoveList::new();
        for pos in open {
            start.push(succ.len());
            let mut out = Vec::new();
            moves.clear();
            pos.legal_moves(&mut moves);
            for &m in &moves {
                let c = pos.after(m);
                let (code, facts) = shared.facts(&c);
                match local.get(&code) {
                    Some(&j) if c.outcome().is_none() && !shared.excluded.contains(&code) => {
                        succ.push(j)
                    }
                    _ => out.push((c, facts)),
                }
            }
            exits.push(out);
        }
        start.push(succ.len());
        let mut pstart = vec![0usize; n + 1];
        for &j in &succ {
            pstart[j as usize + 1] += 1;
        }
        for i in 0..n {
            pstart[i + 1] += pstart[i];
        }
        let mut fill = pstart.clone();
        let mut pred = vec![0u32; succ.len()];
        for i in 0..n {
            for &j in &succ[start[i]..start[i + 1]] {
                pred[fill[j as usize]] = i as u32;
                fill[j as usize] += 1;
            }
        }
        Component {
            open,
            exits,
            start,
            pstart,
            pred,
        }
    }

    fn preds(&self, j: usize) -> &[u32] {
        &self.pred[self.pstart[j]..self.pstart[j + 1]]
    }

    /// The least fixed point of `q` (a win question) on the component: an "or" state is
    /// "yes" when some successor is, an "and" state when all are; what is not derived is "no".
    fn fixpoint(&self, s: &Searcher<'_>, q: Question) -> Result<Vec<bool>, Abort> {
        let n = self.open.len();
        let is_or: Vec<bool> = self.open.iter().map(|p| q.is_or(p.to_move())).collect();
        let mut yes = vec![false; n];
        let mut blocked = vec![false; n];
        let mut queue: Vec<u32> = Vec::new();
        for i in 0..n {
            // Stored facts first; nested searches only for what they leave open.
            for asking in [false, true] {
                for e in &self.exits[i] {
                    if yes[i] || blocked[i] {
                        break;
                    }
                    let v = match q.read(e.1) {
                        Some(v) => v,
                        None if asking => s.ask(&e.0, q)?,
                        None => continue,
                    };
                    if is_or[i] && v {
                        yes[i] = true;
                    } else if !is_or[i] && !v {
                        blocked[i] = true;
                    }
                }
            }
            if yes[i] || (!is_or[i] && !blocked[i] && self.start[i + 1] == self.start[i]) {
                yes[i] = true;
                queue.push(i as u32);
            }
        }
        let mut count: Vec<usize> = (0..n).map(|i| self.start[i + 1] - self.start[i]).collect();
        while let Some(j) = queue.pop() {
            for &p in self.preds(j as usize) {
                let p = p as usize;
                if yes[p] {
                    continue;
                }
                let now = if is_or[p] {
                    true
                } else {
                    count[p] -= 1;
                    count[p] == 0 && !blocked[p]
                };
                if now {
                    yes[p] = true;
                    queue.push(p as u32);
                }
            }
        }
        Ok(yes)
    }

    /// Among the states `outside` both attractors: those from which a "both win" end is
    /// reachable through such states.
    fn both_win(&self, s: &Searcher<'_>, outside: &[bool]) -> Result<Vec<bool>, Abort> {
        let n = self.open.len();
        let mut yes = vec![false; n];
        let mut queue: Vec<u32> = Vec::new();
        for i in (0..n).filter(|&i| outside[i]) {
            'exits: for asking in [false, true] {
                for e in &self.exits[i] {
                    let v = match Question::BothWin.read(e.1) {
                        Some(v) => v,
                        None if asking => s.ask(&e.0, Question::BothWin)?,
                        None => continue,
                    };
                    if v {
                        yes[i] = true;
                        queue.push(i as u32);
                        break 'exits;
                    }
                }
            }
        }
        while let Some(j) = queue.pop() {
            for &p in self.preds(j as usize) {
                let p = p as usize;
                if outside[p] && !yes[p] {
                    yes[p] = true;
                    queue.push(p as u32);
                }
            }
        }
        Ok(yes)
    }
}

/// Move order, by what the move does for the mover: first placements that capture an
/// opponent's piece (they keep the turn), then moves that bring an own piece home (placements,
/// walks landing home), moves that put an own piece into the own hand (piece 12 walked by
/// Even, walks capturing an own piece), other walks of own pieces, walks of the opponent's
/// pieces onto empty squares, walks that give the opponent a piece in hand, and the pass.
/// (Measured on the sample start and random starts, this order needs far fewer states than
/// placements-and-captures-first.)
fn move_class(pos: &Position, m: Move) -> u8 {
    let side = pos.to_move();
    match m {
        Move::Place(n) => {
            let c = pos.piece_at(n).unwrap_or(0);
            if c != 0 && owner(c) != side {
                0
            } else {
                1
            }
        }
        Move::Walk(n) => {
            let t = pos.square_of(n).map_or(0, |sq| walk_target(sq, n));
            let captured = if n == 12 {
                0
            } else {
                pos.piece_at(t).unwrap_or(0)
            };
            let mine = owner(n) == side;
            if mine && t == n {
                1
            } else if (n == 12 && side == EVEN) || (captured != 0 && owner(captured) == side) {
                2
            } else if mine {
                3
            } else if captured == 0 {
                4
            } else {
                5
            }
        }
        Move::Pass => 6,
    }
}

/// Sorts `moves` by [`move_class`] (slightly differently for the side that defends against a
/// win question); `variant` (odd) reverses the walks, so that threads helping on the same
/// task diverge.
fn order_moves(pos: &Position, moves: &mut MoveList<Move>, variant: u32, defending: bool) {
    // The defender of a win question tries putting its own pieces into its hand before
    // bringing them home, and its captures of the attacker's pieces before its other walks
    // of them (about 4% fewer states on the sample start and five random starts).
    const DEFENDING: [u8; 7] = [0, 2, 1, 3, 5, 4, 6];
    // A stable sort by rank, each rank computed once.
    let mut ranked: SmallVec<[(u8, Move); 32]> = moves
        .iter()
        .map(|&m| {
            let c = move_class(pos, m);
            (if defending { DEFENDING[c as usize] } else { c }, m)
        })
        .collect();
    ranked.sort_by_key(|&(r, _)| r);
    for (slot, (_, m)) in moves.iter_mut().zip(ranked) {
        *slot = m;
    }
    if variant % 2 == 1 {
        let walks: SmallVec<[usize; 16]> = (0..moves.len())
            .filter(|&i| matches!(moves[i], Move::Walk(_)))
            .collect();
        if let (Some(&a), Some(&b)) = (walks.first(), walks.last()) {
            moves[a..=b].reverse();
        }
    }
}
