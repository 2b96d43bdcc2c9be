//! From games to training samples: each position before a move, observed by the player to
//! move, with a target per player counted from that player, by the run's [`Target`].

use plyforge::learn::{Dataset, Net};
use plyforge::learned::Inputs;
use plyforge::search::{Game, Player, MAX_PLAYERS};
use plyforge::GameAdapter;

use crate::error::Error;
use crate::records::{replay, target, RecordGame};

/// What a position's value is trained towards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// The game's result: 1 a win, −1 a loss, a draw the run's draw value (0 by default;
    /// three players: a shared result's share of the win, 2·share − 1).
    Outcome,
    /// The search's score of the move played from the position, `tanh(score / scale)` for
    /// the mover (two players: its negation for the other; three: the result for the
    /// others); the result where no search chose the move.
    Score,
    /// TD(λ) over the game's own moves: the λ-return of the network's own values of the
    /// positions that follow, the result at the end; recomputed every epoch.
    Td,
    /// TDLeaf(λ): the λ-return of the searched values recorded with the moves (the values
    /// of the leaves the searches reached), the result at the end.
    TdLeaf,
}

impl Target {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Outcome => "outcome",
            Target::Score => "score",
            Target::Td => "td",
            Target::TdLeaf => "tdleaf",
        }
    }

    /// The target of a name (`outcome`, `score`, `td`, `tdleaf`).
    pub fn parse(name: &str) -> Option<Target> {
        [Target::Outcome, Target::Score, Target::Td, Target::TdLeaf]
            .into_iter()
            .find(|t| t.name() == name)
    }
}

/// A game's positions in the data set.
pub(crate) struct Span {
    /// The first sample's index; the game's positions are `first..first + movers.len()`.
    pub(crate) first: usize,
    /// The player to move at each position.
    pub(crate) movers: Vec<Player>,
    /// Each position's searched value for the mover (`tanh(score / scale)`), if a search
    /// chose its move.
    pub(crate) searched: Vec<Option<f32>>,
    /// The result, per player (−1 … 1).
    pub(crate) result: [f32; MAX_PLAYERS],
    /// Whether the game is held out.
    pub(crate) held: bool,
}

/// The samples of a run: the data set and each game's span.
pub(crate) struct Samples {
    pub(crate) data: Dataset,
    pub(crate) spans: Vec<Span>,
}

/// A game to learn from: a record, with the search's scores of its moves where known.
pub(crate) struct Source {
    pub(crate) game: RecordGame,
    pub(crate) scores: Vec<Option<i32>>,
    pub(crate) held: bool,
}

/// The samples of `sources`, each position read as `inputs` say.
pub(crate) fn samples<A: GameAdapter>(
    inputs: &Inputs<A>,
    sources: &[Source],
    scale: f64,
    draw: f64,
) -> Result<Samples, Error> {
    let n = A::PLAYERS;
    let size = inputs.size();
    let mut data = Dataset::new(size, n);
    let mut spans = Vec::new();
    let mut x = vec![0.0; size];
    let zero = vec![0.0; n];
    for s in sources {
        let g = &s.game;
        let share = target::<A>(&g.result).ok_or_else(|| {
            g.fault(format!(
                "the result {:?} is not one of {}'s",
                g.result,
                A::TITLE
            ))
        })?;
        let mut result = [0.0; MAX_PLAYERS];
        let drawn = g.result.starts_with("draw");
        for p in 0..n {
            result[p] = if drawn {
                draw as f32
            } else {
                (2.0 * share[p] - 1.0) as f32
            };
        }
        let mut span = Span {
            first: data.len(),
            movers: Vec::new(),
            searched: Vec::new(),
            result,
            held: s.held,
        };
        let mut fault = None;
        replay::<A>(g, |ply, pos, _| {
            let mover = pos.to_move();
            inputs.write(pos, mover, &mut x);
            if let Err(err) = data.push(&x, &zero) {
                fault.get_or_insert(err);
            }
            span.movers.push(mover);
            let score = s.scores.get(ply).copied().flatten();
            span.searched
                .push(score.map(|v| (f64::from(v) / scale).tanh() as f32));
        })?;
        if let Some(err) = fault {
            return Err(g.fault(err));
        }
        spans.push(span);
    }
    Ok(Samples { data, spans })
}

/// A value per player, relative to `mover`: entry `k` is player `(mover + k) % n`'s.
fn relative(abs: &[f32; MAX_PLAYERS], mover: Player, n: usize) -> [f32; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = abs[(mover + k) % n];
    }
    out
}

/// The searched value of a position as a value per player: the mover's, its negation for
/// the other of two players, the result for the others of three.
fn searched_abs(
    v: f32,
    mover: Player,
    n: usize,
    result: &[f32; MAX_PLAYERS],
) -> [f32; MAX_PLAYERS] {
    let mut out = *result;
    out[mover] = v;
    if n == 2 {
        out[1 - mover] = -v;
    }
    out
}

/// Each position's value per player (absolute) as TD bootstraps from it: the network's
/// ([`Target::Td`]) or the searched value (else; the result where there is none).
fn bootstrap(
    data: &Dataset,
    span: &Span,
    target: Target,
    net: Option<&Net>,
) -> Vec<[f32; MAX_PLAYERS]> {
    let n = data.outputs();
    let mut work = net.map(|net| vec![0.0; net.work_len()]).unwrap_or_default();
    let mut out = vec![0.0; n];
    (0..span.movers.len())
        .map(|i| {
            let mover = span.movers[i];
            match (target, net) {
                (Target::Td, Some(net)) => {
                    net.forward(data.input(span.first + i), &mut work, &mut out);
                    let mut abs = [0.0; MAX_PLAYERS];
                    for k in 0..n {
                        abs[(mover + k) % n] = out[k];
                    }
                    abs
                }
                _ => span.searched[i]
                    .map_or(span.result, |v| searched_abs(v, mover, n, &span.result)),
            }
        })
        .collect()
}

/// Sets every sample's target by `target` (for [`Target::Td`], with `net`'s values).
pub(crate) fn set_targets(s: &mut Samples, target: Target, lambda: f32, net: Option<&Net>) {
    let n = s.data.outputs();
    for span in &s.spans {
        let len = span.movers.len();
        let values = match target {
            Target::Td | Target::TdLeaf => bootstrap(&s.data, span, target, net),
            _ => Vec::new(),
        };
        let mut ret = span.result;
        for i in (0..len).rev() {
            let mover = span.movers[i];
            let abs = match target {
                Target::Outcome => span.result,
                Target::Score => span.searched[i]
                    .map_or(span.result, |v| searched_abs(v, mover, n, &span.result)),
                Target::Td | Target::TdLeaf => {
                    if i + 1 < len {
                        for p in 0..n {
                            ret[p] = (1.0 - lambda) * values[i + 1][p] + lambda * ret[p];
                        }
                    }
                    ret
                }
            };
            let rel = relative(&abs, mover, n);
            s.data.set_target(span.first + i, &rel[..n]);
        }
    }
}

/// The samples' indices for training and held out (positions from ply `skip` on).
pub(crate) fn split(s: &Samples, skip: usize) -> (Vec<usize>, Vec<usize>) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for span in &s.spans {
        let to = if span.held { &mut held } else { &mut train };
        to.extend((span.first + skip.min(span.movers.len()))..(span.first + span.movers.len()));
    }
    (train, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(movers: Vec<Player>, searched: Vec<Option<f32>>, result: [f32; 3]) -> Samples {
        let mut data = Dataset::new(1, 2);
        for _ in &movers {
            data.push(&[0.0], &[0.0, 0.0]).unwrap();
        }
        Samples {
            data,
            spans: vec![Span {
                first: 0,
                movers,
                searched,
                result,
                held: false,
            }],
        }
    }

    #[test]
    fn targets_are_counted_from_the_mover() {
        let mut s = span(vec![0, 1, 0], vec![None; 3], [1.0, -1.0, 0.0]);
        set_targets(&mut s, Target::Outcome, 0.7, None);
        assert_eq!(s.data.target(0), [1.0, -1.0]);
        assert_eq!(s.data.target(1), [-1.0, 1.0]);
    }

    #[test]
    fn a_drawn_game_is_worth_the_draw_value_to_everybody() {
        let e = Inputs::<plyforge::games::Jumpy3>::new(false).unwrap();
        let game = |result: &str| Source {
            game: RecordGame {
                start: "start".into(),
                moves: vec!["4".into(), "13".into()],
                result: result.into(),
                file: "t".into(),
                line: 1,
                seats: Vec::new(),
                scores: Vec::new(),
            },
            scores: Vec::new(),
            held: false,
        };
        let mut s =
            samples::<plyforge::games::Jumpy3>(&e, &[game("draw"), game("winner w")], 400.0, -0.6)
                .unwrap();
        set_targets(&mut s, Target::Outcome, 0.7, None);
        assert_eq!(s.data.target(0), [-0.6, -0.6]);
        assert_eq!(s.data.target(1), [-0.6, -0.6]);
        assert_eq!(s.data.target(2), [1.0, -1.0]);
        assert_eq!(s.data.target(3), [-1.0, 1.0]);
    }

    #[test]
    fn tdleaf_is_the_lambda_return_of_the_searched_values() {
        // White (0) wins; positions 1 and 2 were searched at -0.5 (Black's view) and 0.5.
        let mut s = span(
            vec![0, 1, 0],
            vec![None, Some(-0.5), Some(0.5)],
            [1.0, -1.0, 0.0],
        );
        set_targets(&mut s, Target::TdLeaf, 0.5, None);
        // G2 = result = 1 (White); G1 = 0.5 · v2 + 0.5 · G2 = 0.5 · 0.5 + 0.5 = 0.75 for White,
        // so -0.75 for Black to move at 1; G0 = 0.5 · v1 + 0.5 · G1 = 0.5 · 0.5 + 0.375 = 0.625.
        assert_eq!(s.data.target(2), [1.0, -1.0]);
        assert_eq!(s.data.target(1), [-0.75, 0.75]);
        assert_eq!(s.data.target(0), [0.625, -0.625]);
        let mut s = span(
            vec![0, 1, 0],
            vec![None, Some(-0.5), None],
            [1.0, -1.0, 0.0],
        );
        set_targets(&mut s, Target::Score, 0.5, None);
        assert_eq!(s.data.target(1), [-0.5, 0.5]);
        assert_eq!(s.data.target(2), [1.0, -1.0]);
    }
}
