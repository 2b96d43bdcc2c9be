//! The evaluation: how far each player is from four exits, pieces owned, threats of
//! conversion and mobility, turned into one relative score per player.

use search::{DrawKind, Evaluator, Game, Scores, MAX_EVAL};

use crate::board::{Bits, ADJACENT, CELLS, DISTANCE, NEIGHBOUR, NONE};
use crate::position::{Position, EXITS_TO_WIN, PLAYERS};

/// Weights of the evaluation's terms, in evaluation points.
///
/// A player's *absolute* value ([`DefaultEval::absolute`]) is
/// `−step·work + spare·spare_pieces − short_piece·(3 − pieces)⁺ when short − threat terms +
/// mobility·actions`, or `−hopeless` when it can no longer win:
/// - `work`: the actions the player's exits still need: with [`race`](Weights::race) on
///   the race table's count ([`crate::race_actions`]: its own pieces alone on the
///   board, leapfrogging over each other), else one action per exit plus the distances to
///   the exit edge of the pieces that will make them (the closest); plus an exit action and
///   `missing_steps` per piece the player still needs but does not own (it must be won by a
///   converting jump first);
/// - *short*: the player owns fewer pieces than the exits it still needs; then each piece it
///   owns fewer than three costs `short_piece` (its pieces are what converts), so that an
///   exit that leaves fewer pieces to convert with scores worse than keeping the piece, and
///   being short never scores better than not being short;
/// - *hopeless*: exits plus pieces on the board plus the opponents' pieces it could still
///   convert cannot make four (in particular, no piece left and fewer than four exits):
///   exits made count for nothing then;
/// - threats: own pieces an opponent can convert with one jump now (`threatened`, more with
///   `threatened_next` when that opponent moves next), each `short_threat` more when short.
///
/// The race's leader ([`race_leader`](crate::race_leader): first to its fourth exit by the race
/// table, nobody able to reach its pieces in time) gets `race_lead` more.
///
/// The relative score adds *material*: `material` per piece of force (pieces on the board
/// plus exits) more than the opponents' mean. Each conversion moves force from one player to
/// another; in the course referee against two public student agents the default won 41 of
/// 48 games with it and 28 without (`docs/chexers-strength.md`).
///
/// Draws (the repetition and turn-limit draws) are scored
/// ([`DefaultEval`]'s [`draw_scores`](Evaluator::draw_scores)) `−draw_standing % · standing −
/// contempt`: with `draw_standing` a draw is bad for the leader and good for one far behind.
/// The default scores every draw −3000 for every player (`draw_standing` 0, `contempt`
/// 3000), below what the evaluation gives all but lost positions: the course counts wins,
/// and a draw is none. Chosen by games against the course's public agents (a player far
/// behind that valued the draw by its standing shuffled into repetitions; the figures are
/// in the repository's `docs/chexers-strength.md`, "Repetition draws where only wins count").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per step of remaining work: the distances of the pieces closest to the exits (as many
    /// as the player still needs) plus one exit action per exit still needed.
    pub step: i32,
    /// Steps charged per piece the player still needs but does not own (it must be won by
    /// conversion first).
    pub missing_steps: i32,
    /// Per piece owned beyond those needed (material to convert with and to block with).
    pub spare: i32,
    /// While the player owns fewer pieces than the exits it still needs: the cost of each
    /// piece it owns fewer than three (0 turns the "short" rule off).
    pub short_piece: i32,
    /// The value of a player that can no longer make four exits (0 turns the rule off).
    pub hopeless: i32,
    /// Per own piece that an opponent can convert with one jump right now.
    pub threatened: i32,
    /// Extra for a threatened piece when the threatening opponent is the next to move.
    pub threatened_next: i32,
    /// Extra per threatened piece while the player is short of pieces.
    pub short_threat: i32,
    /// Per legal action (mobility).
    pub mobility: i32,
    /// Relative view: 0 subtracts the mean of the opponents' values, 1 the best opponent's.
    pub against_best: bool,
    /// Whether each player's score is relative (its value minus the opponents'); off: each
    /// player's absolute value (as simple course agents evaluate).
    pub relative: bool,
    /// A draw's value to a player, in percent of its standing, negated.
    pub draw_standing: i32,
    /// Subtracted from every player's value of a draw.
    pub contempt: i32,
    /// How `work` counts the actions to the exits: 0, the distances of the pieces to the exit
    /// edge plus one action per exit; otherwise the race table ([`crate::race_actions`]):
    /// the fewest actions with the player's own pieces alone on the board, leapfrogs
    /// included.
    pub race: i32,
    /// Per piece of *force* (pieces on the board plus exits made) more than the opponents'
    /// mean, added to each player's relative score: whoever's pieces are converted, the
    /// converter gains. 300 by default ([`Weights::plain`] and the greedy weights: 0).
    pub material: i32,
    /// Per piece of force (pieces on the board plus exits made) more than the strongest
    /// opponent's: a leader growing on the third player's pieces costs everyone else.
    pub material_best: i32,
    /// Per pair of the player's own pieces side by side (a piece with a neighbour of its
    /// colour can leapfrog, and cannot be jumped from that side).
    pub cohesion: i32,
    /// Per action of work below [`near_work`](Weights::near_work), on top of `step`: the
    /// last actions of a race count more (a player a few actions from its fourth exit is
    /// about to win, and searches do not see that far).
    pub near: i32,
    /// The work below which [`near`](Weights::near) counts.
    pub near_work: i32,
    /// For the player who wins the race ([`race_leader`](crate::race_leader): first to its fourth
    /// exit by the race table, turn order counted) when no other piece can reach one of its
    /// pieces in time: the race is its to lose, and the others should know it. 400 by
    /// default ([`Weights::plain`] and the greedy weights: 0).
    pub race_lead: i32,
    /// Whether the race leader's work ([`race_leader`](crate::race_leader)) is counted exactly, by
    /// the race table ([`crate::race_actions`], leapfrogs included) whatever
    /// [`race`](Weights::race) says: once nobody can reach its pieces, the race is what is
    /// left of its game. 0 (off) by default.
    pub leader_race: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            step: 100,
            missing_steps: 9,
            spare: 60,
            short_piece: 250,
            hopeless: 4000,
            threatened: 60,
            threatened_next: 90,
            short_threat: 120,
            mobility: 3,
            against_best: true,
            relative: true,
            draw_standing: 0,
            contempt: 3000,
            race: 0,
            material: 300,
            material_best: 0,
            cohesion: 0,
            near: 0,
            near_work: 8,
            race_lead: 400,
            leader_race: 0,
        }
    }
}

impl Weights {
    /// The weights of the evaluation this crate had before the rules for being short of
    /// pieces, hopeless positions and draws: exits whatever remains on the board.
    pub fn plain() -> Weights {
        Weights {
            short_piece: 0,
            hopeless: 0,
            short_threat: 0,
            draw_standing: 0,
            contempt: 0,
            race: 0,
            material: 0,
            material_best: 0,
            cohesion: 0,
            near: 0,
            race_lead: 0,
            ..Weights::default()
        }
    }

    /// A model of the public course agents' judgement: the weights fitted to the moves that
    /// six of them (`flying_solo`, `max`, `latest_tile`, `H1`, `SquareBox`,
    /// `AlphaChexersButBetter`) chose in 468 games against this crate's Player (24,629 moves), in the
    /// course referee (`arena tune chexers --records … --predict NAME…`: the softmax of
    /// each legal move's resulting position scored for the mover predicts the move played).
    /// The default weights put the agent's move first 43.6% of the time (log loss 2.008 at
    /// the fitted temperature), these 44.5% (1.775): the agents search deeper than one
    /// move, so a model of one move can only go so far. [`DefaultEval::with_model`] uses it for the opponents of a max^n search.
    pub fn pool_model() -> Weights {
        Weights {
            step: 130,
            missing_steps: 5,
            spare: 61,
            short_piece: 206,
            hopeless: 2489,
            threatened: 209,
            threatened_next: 89,
            short_threat: 130,
            mobility: 0,
            material: 305,
            cohesion: 138,
            near: 111,
            ..Weights::default()
        }
    }

    /// Exits and distances to the exit edge only, each player against the leading opponent:
    /// the evaluation of a simple course agent (the stand-in for the students' agents in the
    /// matches).
    pub fn greedy() -> Weights {
        Weights {
            against_best: true,
            relative: true,
            ..Weights::greedy_absolute()
        }
    }

    /// [`Weights::greedy`], each player for itself (its own progress only).
    pub fn greedy_absolute() -> Weights {
        Weights {
            step: 100,
            missing_steps: 0,
            spare: 0,
            short_piece: 0,
            hopeless: 0,
            threatened: 0,
            threatened_next: 0,
            short_threat: 0,
            mobility: 0,
            against_best: false,
            relative: false,
            draw_standing: 0,
            contempt: 0,
            race: 0,
            material: 0,
            material_best: 0,
            cohesion: 0,
            near: 0,
            near_work: 8,
            race_lead: 0,
            leader_race: 0,
        }
    }
}

/// Why [`Weights::set`] refused a setting.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WeightError {
    /// No weight has this name (the names are [`Weights::KEYS`]).
    UnknownKey(String),
    /// The value of this weight is not a whole number (in `i32`).
    NotANumber {
        /// The weight.
        key: String,
        /// The value given.
        value: String,
    },
    /// A setting without `=` between the name and the value.
    NoValue(String),
}

impl std::fmt::Display for WeightError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeightError::UnknownKey(k) => write!(
                f,
                "no weight {k:?} (the weights are {})",
                Weights::KEYS.join(", ")
            ),
            WeightError::NotANumber { key, value } => {
                write!(f, "{key}={value}: expected a whole number")
            }
            WeightError::NoValue(s) => write!(f, "{s:?}: expected NAME=NUMBER"),
        }
    }
}

impl std::error::Error for WeightError {}

impl Weights {
    /// The weights' names, as [`Weights::set`] takes them: the field names.
    pub const KEYS: &'static [&'static str] = &[
        "step",
        "missing_steps",
        "spare",
        "short_piece",
        "hopeless",
        "threatened",
        "threatened_next",
        "short_threat",
        "mobility",
        "against_best",
        "relative",
        "draw_standing",
        "contempt",
        "race",
        "material",
        "material_best",
        "cohesion",
        "near",
        "near_work",
        "race_lead",
        "leader_race",
    ];

    /// Sets the weight named `key` (a field name) to `value`, a whole number; for the
    /// switches [`against_best`](Weights::against_best) and [`relative`](Weights::relative)
    /// 0 is off and any other number on.
    ///
    /// ```
    /// use plyforge_chexers::Weights;
    /// let mut w = Weights::default();
    /// w.set("contempt", "600").unwrap();
    /// assert_eq!(w.contempt, 600);
    /// assert!(w.set("contempt", "lots").is_err());
    /// assert!(w.set("bravery", "1").is_err());
    /// ```
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), WeightError> {
        let n: i32 = value.trim().parse().map_err(|_| WeightError::NotANumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        match key.trim() {
            "step" => self.step = n,
            "missing_steps" => self.missing_steps = n,
            "spare" => self.spare = n,
            "short_piece" => self.short_piece = n,
            "hopeless" => self.hopeless = n,
            "threatened" => self.threatened = n,
            "threatened_next" => self.threatened_next = n,
            "short_threat" => self.short_threat = n,
            "mobility" => self.mobility = n,
            "against_best" => self.against_best = n != 0,
            "relative" => self.relative = n != 0,
            "draw_standing" => self.draw_standing = n,
            "contempt" => self.contempt = n,
            "race" => self.race = n,
            "material" => self.material = n,
            "material_best" => self.material_best = n,
            "cohesion" => self.cohesion = n,
            "near" => self.near = n,
            "near_work" => self.near_work = n,
            "race_lead" => self.race_lead = n,
            "leader_race" => self.leader_race = n,
            _ => return Err(WeightError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// These weights with the settings `NAME=NUMBER` of `text` applied in order, the
    /// settings separated by `separator` (empty settings are skipped).
    ///
    /// ```
    /// use plyforge_chexers::Weights;
    /// let w = Weights::default().with_settings("draw_standing=0:contempt=600", ':').unwrap();
    /// assert_eq!((w.draw_standing, w.contempt), (0, 600));
    /// assert!(Weights::default().with_settings("contempt", ':').is_err());
    /// ```
    pub fn with_settings(mut self, text: &str, separator: char) -> Result<Weights, WeightError> {
        for setting in text.split(separator).filter(|s| !s.trim().is_empty()) {
            let (k, v) = setting
                .split_once('=')
                .ok_or_else(|| WeightError::NoValue(setting.to_string()))?;
            self.set(k, v)?;
        }
        Ok(self)
    }
}

/// What the evaluation weighs for one player: the features of [`DefaultEval::absolute`],
/// which is [`Weights::value`] of them. Public so that weights can be fitted to games
/// (`arena tune chexers --records`, on the same numbers) and so that users can build their own
/// evaluations on the same measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Terms {
    /// The player can no longer make four exits ([`DefaultEval::can_win`] is false, and it
    /// has not won); the other terms are then all 0.
    pub hopeless: bool,
    /// Actions of work: one per exit still needed plus the distances to the exit edge of
    /// the closest pieces it owns, as many as it needs (or, measured with the race table,
    /// [`crate::race_actions`] for those pieces).
    pub work: i32,
    /// Exits still needed beyond the pieces it owns (pieces to be won by conversion first).
    pub missing: i32,
    /// Pieces owned beyond the exits still needed.
    pub spare: i32,
    /// While short (`missing > 0`): the pieces it owns fewer than three; else 0.
    pub short_below_three: i32,
    /// Own pieces an opponent can convert with one jump now.
    pub threatened: i32,
    /// Of those, the pieces the opponent who moves soonest can convert.
    pub threatened_next: i32,
    /// `threatened` while short, else 0.
    pub short_threatened: i32,
    /// Legal actions of the player (as if it were to move).
    pub mobility: i32,
    /// Pairs of its own pieces side by side (0 unless measured).
    pub pairs: i32,
    /// Force: pieces on the board plus exits made.
    pub force: i32,
}

impl Terms {
    /// The terms of `player` in `pos`, all of them (the work by distances, the pairs
    /// counted, the hopeless rule applied).
    pub fn of(pos: &Position, player: usize) -> Terms {
        Terms::measure(pos, player, false, true, true)
    }

    /// The terms, with the work from the race table (`race`), with the pairs counted
    /// (`pairs`, else 0) and with the hopeless rule (`hopeless`; without it a hopeless
    /// player is measured as any other).
    #[inline]
    pub(crate) fn measure(
        pos: &Position,
        me: usize,
        race: bool,
        pairs: bool,
        hopeless: bool,
    ) -> Terms {
        let force = (pos.pieces(me).count_ones() + pos.exits(me)) as i32;
        if hopeless && pos.exits(me) < EXITS_TO_WIN as u32 && !DefaultEval::can_win(pos, me) {
            return Terms {
                hopeless: true,
                force,
                ..Terms::default()
            };
        }
        let own = pos.pieces(me);
        let need = EXITS_TO_WIN.saturating_sub(pos.exits(me) as u8) as usize;
        let count = own.count_ones() as usize;
        let missing = need.saturating_sub(count) as i32;
        let work = if race {
            // The race with the pieces it owns, then an exit per missing piece.
            let take = need.min(count) as u32;
            crate::race::race_actions(me, own, take).unwrap_or(0) as i32 + missing
        } else {
            // The `need` smallest distances: counting sort over 0..=6.
            let mut hist = [0u32; 7];
            for c in Bits(own) {
                hist[DISTANCE[me][c] as usize] += 1;
            }
            let mut left = need.min(count);
            let mut work = need as i32; // one exit action per exit still needed
            for (d, &n) in hist.iter().enumerate() {
                if left == 0 {
                    break;
                }
                let take = (n as usize).min(left);
                work += (take * d) as i32;
                left -= take;
            }
            work
        };
        let spare = count.saturating_sub(need) as i32;
        let short = missing > 0;

        // Threats of conversion against my pieces.
        let occ = pos.occupied();
        // The opponent who moves soonest: the side to move, or the next one if that is me.
        let first = if pos.to_move() == me {
            Position::next_player(me)
        } else {
            pos.to_move()
        };
        let first_bits = pos.pieces(first);
        let mut threatened = 0;
        let mut threatened_next = 0;
        for c in Bits(own) {
            let mut by_any = false;
            let mut by_next = false;
            for d in 0..6 {
                let a = NEIGHBOUR[c][d];
                let l = NEIGHBOUR[c][(d + 3) % 6];
                if a == NONE || l == NONE || occ & (1u64 << l) != 0 || own & (1u64 << a) != 0 {
                    continue;
                }
                if occ & (1u64 << a) != 0 {
                    by_any = true;
                    by_next |= first_bits & (1u64 << a) != 0;
                }
            }
            threatened += by_any as i32;
            threatened_next += by_next as i32;
        }
        let mut side_by_side = 0;
        if pairs {
            for c in Bits(own) {
                side_by_side += (ADJACENT[c] & own).count_ones() as i32;
            }
            side_by_side /= 2;
        }
        Terms {
            hopeless: false,
            work,
            missing,
            spare,
            // Each piece fewer than three while short (see `Weights::short_piece`).
            short_below_three: if short {
                (EXITS_TO_WIN as i32 - 1 - count as i32).max(0)
            } else {
                0
            },
            threatened,
            threatened_next,
            short_threatened: if short { threatened } else { 0 },
            mobility: pos.mobility(me) as i32,
            pairs: side_by_side,
            force,
        }
    }
}

impl Weights {
    /// The absolute value of a player with these terms ([`DefaultEval::absolute`]):
    /// `−hopeless` for a hopeless player, else `−step·(work + missing_steps·missing) +
    /// spare·spare − short_piece·short_below_three − threatened·threatened −
    /// threatened_next·threatened_next − short_threat·short_threatened +
    /// mobility·mobility + cohesion·pairs + near·(near_work − work)⁺`. (Material is
    /// relative, added by the scores.)
    ///
    /// ```
    /// use plyforge_chexers::{DefaultEval, Position, Terms, Weights};
    /// let start = Position::start();
    /// let t = Terms::of(&start, 0);
    /// assert_eq!((t.work, t.spare, t.force), (28, 0, 4));
    /// assert_eq!(Weights::default().value(&t), DefaultEval::default().absolute(&start, 0));
    /// ```
    #[inline]
    pub fn value(&self, t: &Terms) -> i32 {
        if t.hopeless {
            return -self.hopeless;
        }
        // Never a bonus for being short (a piece lost into it would look like a gain):
        // each piece fewer than three costs `short_piece`, so that every exit made while
        // short (one piece fewer, the shortfall the same) costs it.
        -self.step * (t.work + t.missing * self.missing_steps) + self.spare * t.spare
            - self.threatened * t.threatened
            - self.threatened_next * t.threatened_next
            + self.mobility * t.mobility
            + self.cohesion * t.pairs
            + self.near * (self.near_work - t.work).max(0)
            - self.short_piece * t.short_below_three
            - self.short_threat * t.short_threatened
    }
}

/// The default evaluation of this crate. Each player's score is its own value minus the
/// opponents' (their mean, or the best of them with [`Weights::against_best`]), so each entry is
/// that player's relative view and the entries sum to about zero.
///
/// With a [`model`](DefaultEval::model) of the opponents, a max^n search for a player
/// ([`Evaluator::evaluate_for`]) scores the others' entries with the model's weights: how
/// they judge a position, so that the search predicts their moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval {
    /// The weights.
    pub weights: Weights,
    /// The opponents' weights in a max^n search ([`Evaluator::evaluate_for`]); `None`: the
    /// same as [`weights`](DefaultEval::weights).
    pub model: Option<Weights>,
}

impl DefaultEval {
    /// An evaluation with the given weights.
    pub fn with_weights(weights: Weights) -> Self {
        DefaultEval {
            weights,
            model: None,
        }
    }

    /// This evaluation with `model` as the opponents' weights in max^n searches (see
    /// [`DefaultEval::model`]).
    ///
    /// ```
    /// use plyforge_chexers::search::Evaluator;
    /// use plyforge_chexers::{DefaultEval, Position, Weights};
    /// let pos = Position::start();
    /// let ours = DefaultEval::default();
    /// let modelled = ours.with_model(Weights::pool_model());
    /// let theirs = DefaultEval::with_weights(Weights::pool_model()).evaluate(&pos);
    /// let seen = modelled.evaluate_for(&pos, 0);
    /// assert_eq!(seen[0], ours.evaluate(&pos)[0]);
    /// assert_eq!(&seen[1..], &theirs[1..]);
    /// // Elsewhere (paranoid search, the plain evaluation) the model is not used.
    /// assert_eq!(modelled.evaluate(&pos), ours.evaluate(&pos));
    /// ```
    pub fn with_model(self, model: Weights) -> Self {
        DefaultEval {
            model: Some(model),
            ..self
        }
    }

    /// Whether `player` can still make four exits: its exits, its pieces on the board and,
    /// while it has a piece to convert with, the opponents' pieces make four.
    pub fn can_win(pos: &Position, player: usize) -> bool {
        let own = pos.pieces(player).count_ones();
        let others = pos.occupied().count_ones() - own;
        let reach = pos.exits(player) + own + if own > 0 { others } else { 0 };
        reach >= EXITS_TO_WIN as u32
    }

    /// The absolute value of `player`'s prospects (higher is better), before the relative
    /// view: [`Weights::value`] of its [`Terms`] (with the race table's count of the work
    /// when [`Weights::race`] is on).
    pub fn absolute(&self, pos: &Position, player: usize) -> i32 {
        let w = &self.weights;
        let t = Terms::measure(pos, player, w.race != 0, w.cohesion != 0, w.hopeless != 0);
        w.value(&t)
    }

    /// The scores of `pos` from its players' [`Terms::of`], measured already (a learned
    /// evaluation that reads the terms asks for both), when these weights measure the terms
    /// as [`Terms::of`] does (the race table off, for the leader too; the hopeless rule on);
    /// `None` otherwise. Equal to [`Evaluator::evaluate`] then.
    ///
    /// ```
    /// use plyforge_chexers::search::Evaluator;
    /// use plyforge_chexers::{DefaultEval, Position, Terms};
    /// let pos = Position::start();
    /// let terms = [0, 1, 2].map(|p| Terms::of(&pos, p));
    /// let eval = DefaultEval::default();
    /// assert_eq!(eval.scores_from_terms(&pos, &terms), Some(eval.evaluate(&pos)));
    /// ```
    pub fn scores_from_terms(&self, pos: &Position, terms: &[Terms; 3]) -> Option<Scores> {
        let w = &self.weights;
        if w.race != 0 || w.leader_race != 0 || w.hopeless == 0 {
            return None;
        }
        Some(self.scores(pos, self.led(pos, terms.map(|t| w.value(&t)))))
    }

    /// Each player's absolute value, with [`Weights::race_lead`] for the race leader (and
    /// its work by the race table with [`Weights::leader_race`]).
    fn raw(&self, pos: &Position) -> [i32; 3] {
        self.led(pos, [0, 1, 2].map(|p| self.absolute(pos, p)))
    }

    /// The absolute values `raw` with the race leader's [`Weights::race_lead`] (and its work
    /// by the race table with [`Weights::leader_race`]).
    fn led(&self, pos: &Position, mut raw: [i32; 3]) -> [i32; 3] {
        let w = &self.weights;
        if w.race_lead != 0 || w.leader_race != 0 {
            if let Some(p) = crate::race::race_leader(pos) {
                if w.leader_race != 0 && w.race == 0 {
                    let t = Terms::measure(pos, p, true, w.cohesion != 0, w.hopeless != 0);
                    raw[p] = w.value(&t);
                }
                raw[p] += w.race_lead;
            }
        }
        raw
    }

    /// The scores from the absolute values: each player's own value less the opponents'
    /// (or the absolute values themselves without [`Weights::relative`]).
    fn scores(&self, pos: &Position, raw: [i32; 3]) -> Scores {
        let mut out = [0; 3];
        let mut force = [0i32; 3];
        if self.weights.material != 0 || self.weights.material_best != 0 {
            for (p, f) in force.iter_mut().enumerate() {
                *f = (pos.pieces(p).count_ones() + pos.exits(p)) as i32;
            }
        }
        for p in 0..PLAYERS {
            let (a, b) = (raw[(p + 1) % 3], raw[(p + 2) % 3]);
            let others = if !self.weights.relative {
                0
            } else if self.weights.against_best {
                a.max(b)
            } else {
                (a + b) / 2
            };
            let (fa, fb) = (force[(p + 1) % 3], force[(p + 2) % 3]);
            let material = self.weights.material * (2 * force[p] - fa - fb) / 2
                + self.weights.material_best * (force[p] - fa.max(fb));
            out[p] = (raw[p] - others + material).clamp(-MAX_EVAL, MAX_EVAL);
        }
        out
    }
}

/// The actions `player` still needs to make four exits if nobody stood in its way: one per
/// exit still needed plus the distances to the exit edge of its pieces closest to it (a piece
/// it lacks counts as a piece 6 steps away).
pub fn remaining_work(pos: &Position, player: usize) -> u32 {
    let need = EXITS_TO_WIN.saturating_sub(pos.exits(player) as u8) as u32;
    let mut dist: Vec<u32> = Bits(pos.pieces(player))
        .map(|c| DISTANCE[player][c] as u32)
        .collect();
    dist.sort_unstable();
    dist.resize(dist.len().max(need as usize), 6);
    need + dist.iter().take(need as usize).sum::<u32>()
}

impl Evaluator<Position> for DefaultEval {
    fn evaluate(&self, pos: &Position) -> Scores {
        self.scores(pos, self.raw(pos))
    }

    /// `root`'s entry by [`weights`](DefaultEval::weights), the others' by the
    /// [`model`](DefaultEval::model) when there is one.
    fn evaluate_for(&self, pos: &Position, root: search::Player) -> Scores {
        let mut mine = self.evaluate(pos);
        if let Some(model) = self.model {
            let theirs = DefaultEval::with_weights(model).evaluate(pos);
            for p in (0..PLAYERS).filter(|&p| p != root) {
                mine[p] = theirs[p];
            }
        }
        mine
    }

    /// A draw from each player's standing: `−draw_standing % · standing − contempt`, the
    /// standing being the player's relative score in the drawn position (as the relative
    /// view computes it, whatever [`Weights::relative`] says). A draw is bad for the leader
    /// and good for a player far behind; the contempt makes a level player avoid it.
    fn draw_scores(&self, pos: &Position, _kind: DrawKind) -> Scores {
        let w = &self.weights;
        if w.draw_standing == 0 && w.contempt == 0 {
            return [0; 3];
        }
        let relative = DefaultEval::with_weights(Weights {
            relative: true,
            ..*w
        });
        let standing = relative.scores(pos, self.raw(pos));
        let mut out = [0; 3];
        for p in 0..PLAYERS {
            out[p] = (-(standing[p] as i64) * w.draw_standing as i64 / 100 - w.contempt as i64)
                .clamp(-(MAX_EVAL as i64), MAX_EVAL as i64) as i32;
        }
        out
    }
}

const _: () = assert!(CELLS == 37);
