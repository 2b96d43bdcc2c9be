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
/// Draws (the repetition and turn-limit draws) are scored from each player's standing
/// ([`DefaultEval`]'s [`draw_scores`](Evaluator::draw_scores)): `−draw_standing % ·
/// standing − contempt`, so a draw is bad for the leader and good for one far behind.
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
    /// converter gains.
    pub material: i32,
    /// Per pair of the player's own pieces side by side (a piece with a neighbour of its
    /// colour can leapfrog, and cannot be jumped from that side).
    pub cohesion: i32,
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
            draw_standing: 50,
            contempt: 100,
            race: 0,
            material: 0,
            cohesion: 0,
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
            cohesion: 0,
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
            cohesion: 0,
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
        "cohesion",
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
            "cohesion" => self.cohesion = n,
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

/// The default evaluation of this crate. Each player's score is its own value minus the
/// opponents' (their mean, or the best of them with [`Weights::against_best`]), so each entry is
/// that player's relative view and the entries sum to about zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DefaultEval {
    /// The weights.
    pub weights: Weights,
}

impl DefaultEval {
    /// An evaluation with the given weights.
    pub fn with_weights(weights: Weights) -> Self {
        DefaultEval { weights }
    }

    /// Whether `player` can still make four exits: its exits, its pieces on the board and,
    /// while it has a piece to convert with, the opponents' pieces make four.
    pub fn can_win(pos: &Position, player: usize) -> bool {
        let own = pos.pieces(player).count_ones();
        let others = pos.occupied().count_ones() - own;
        let reach = pos.exits(player) + own + if own > 0 { others } else { 0 };
        reach >= EXITS_TO_WIN as u32
    }

    /// The absolute value of `player`'s prospects (higher is better), before the relative view.
    pub fn absolute(&self, pos: &Position, player: usize) -> i32 {
        let w = &self.weights;
        let me = player;
        if w.hopeless != 0 && pos.exits(me) < EXITS_TO_WIN as u32 && !Self::can_win(pos, me) {
            return -w.hopeless;
        }
        let own = pos.pieces(me);
        let need = EXITS_TO_WIN.saturating_sub(pos.exits(me) as u8) as usize;
        let count = own.count_ones() as usize;
        let missing = need.saturating_sub(count) as i32;
        let mut work;
        if w.race != 0 {
            // The race with the pieces it owns, then an exit per missing piece.
            let take = need.min(count) as u32;
            work = crate::race::race_actions(me, own, take).unwrap_or(0) as i32 + missing;
        } else {
            // The `need` smallest distances: counting sort over 0..=6.
            let mut hist = [0u32; 7];
            for c in Bits(own) {
                hist[DISTANCE[me][c] as usize] += 1;
            }
            let mut left = need.min(count);
            work = need as i32; // one exit action per exit still needed
            for (d, &n) in hist.iter().enumerate() {
                if left == 0 {
                    break;
                }
                let take = (n as usize).min(left);
                work += (take * d) as i32;
                left -= take;
            }
        }
        work += missing * w.missing_steps;
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
        let mobility = pos.mobility(me) as i32;
        let mut pairs = 0;
        if w.cohesion != 0 {
            for c in Bits(own) {
                pairs += (ADJACENT[c] & own).count_ones() as i32;
            }
            pairs /= 2;
        }
        let mut v = -w.step * work + w.spare * spare
            - w.threatened * threatened
            - w.threatened_next * threatened_next
            + w.mobility * mobility
            + w.cohesion * pairs;
        if short {
            // Never a bonus for being short (a piece lost into it would look like a gain):
            // each piece fewer than three costs `short_piece`, so that every exit made while
            // short (one piece fewer, the shortfall the same) costs it.
            let below_three = (EXITS_TO_WIN as i32 - 1 - count as i32).max(0);
            v -= w.short_piece * below_three + w.short_threat * threatened;
        }
        v
    }

    /// Each player's absolute value.
    fn raw(&self, pos: &Position) -> [i32; 3] {
        [
            self.absolute(pos, 0),
            self.absolute(pos, 1),
            self.absolute(pos, 2),
        ]
    }

    /// The scores from the absolute values: each player's own value less the opponents'
    /// (or the absolute values themselves without [`Weights::relative`]).
    fn scores(&self, pos: &Position, raw: [i32; 3]) -> Scores {
        let mut out = [0; 3];
        let mut force = [0i32; 3];
        if self.weights.material != 0 {
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
            let material = self.weights.material * (2 * force[p] - fa - fb) / 2;
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
