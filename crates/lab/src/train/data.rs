//! From games to training samples: each position before a move, read by the player to
//! move (the observation of a dense network, the views' features of a sparse one), with a
//! target per player counted from that player, by the run's [`Target`].

use plyforge::learn::sparse::{blend_target, SparseDataset, SparseNet};
use plyforge::learn::{Dataset, Net};
use plyforge::learned::{Inputs, SparseEval};
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
    /// the mover (two players: the other's of its negated score; three: the result for
    /// the others), mixed with the result by λ as NNUE's trainers label
    /// ([`blend_target`]: `λ · result + (1 − λ) · tanh(score / scale)`, λ 0 by default:
    /// the score alone); the result where no search chose the move.
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

    /// λ when the run gives none: 0 for [`Target::Score`] (the score alone), 0.7 for the
    /// TD targets (the outcome takes none).
    pub fn default_lambda(self) -> f64 {
        match self {
            Target::Score => 0.0,
            _ => 0.7,
        }
    }
}

/// What the positions are read as: a dense network's inputs, or a sparse network's views.
pub(crate) enum Reader<A: GameAdapter> {
    /// The observation (and the terms).
    Dense(Inputs<A>),
    /// The views' features, as this evaluation reads them.
    Sparse(SparseEval<A>),
}

/// The positions read, one sample each.
pub(crate) enum Data {
    /// A dense network's.
    Dense(Dataset),
    /// A sparse network's.
    Sparse(SparseDataset),
}

impl Data {
    /// The number of samples.
    pub(crate) fn len(&self) -> usize {
        match self {
            Data::Dense(d) => d.len(),
            Data::Sparse(d) => d.len(),
        }
    }

    /// Sets sample `i`'s targets.
    pub(crate) fn set_target(&mut self, i: usize, target: &[f32]) {
        match self {
            Data::Dense(d) => d.set_target(i, target),
            Data::Sparse(d) => d.set_target(i, target),
        }
    }

    /// Sample `i`'s targets.
    #[cfg(test)]
    pub(crate) fn target(&self, i: usize) -> &[f32] {
        match self {
            Data::Dense(d) => d.target(i),
            Data::Sparse(d) => d.target(i),
        }
    }
}

/// The network being trained, as TD(λ) reads its values of the samples.
#[derive(Clone, Copy)]
pub(crate) enum Values<'a> {
    /// A dense one.
    Dense(&'a Net),
    /// A sparse one.
    Sparse(&'a SparseNet),
}

/// A game's positions in the data set.
pub(crate) struct Span {
    /// The first sample's index; the game's positions are `first..first + movers.len()`.
    pub(crate) first: usize,
    /// The player to move at each position.
    pub(crate) movers: Vec<Player>,
    /// Each position's searched score for the mover, if a search chose its move.
    pub(crate) searched: Vec<Option<i32>>,
    /// The result, per player (−1 … 1).
    pub(crate) result: [f32; MAX_PLAYERS],
    /// Whether the game is held out.
    pub(crate) held: bool,
}

/// The samples of a run: the data set and each game's span.
pub(crate) struct Samples {
    pub(crate) data: Data,
    pub(crate) spans: Vec<Span>,
    /// Evaluation points per unit of `tanh` of the searched scores.
    pub(crate) scale: f32,
}

/// A game to learn from: a record, with the search's scores of its moves where known.
pub(crate) struct Source {
    pub(crate) game: RecordGame,
    pub(crate) scores: Vec<Option<i32>>,
    pub(crate) held: bool,
}

/// The samples of `sources`, each position read as `reader` says.
pub(crate) fn samples<A: GameAdapter>(
    reader: &Reader<A>,
    sources: &[Source],
    scale: f64,
    draw: f64,
) -> Result<Samples, Error> {
    let n = A::PLAYERS;
    let mut data = match reader {
        Reader::Dense(inputs) => Data::Dense(Dataset::new(inputs.size(), n)),
        Reader::Sparse(eval) => Data::Sparse(SparseDataset::new(eval.net().shape())),
    };
    let mut spans = Vec::new();
    let mut x = match reader {
        Reader::Dense(inputs) => vec![0.0; inputs.size()],
        Reader::Sparse(_) => Vec::new(),
    };
    let mut views: Vec<Vec<u32>> = match reader {
        Reader::Dense(_) => Vec::new(),
        Reader::Sparse(eval) => vec![Vec::new(); eval.perspectives()],
    };
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
            let pushed = match (reader, &mut data) {
                (Reader::Dense(inputs), Data::Dense(d)) => {
                    inputs.write(pos, mover, &mut x);
                    d.push(&x, &zero)
                }
                (Reader::Sparse(eval), Data::Sparse(d)) => {
                    eval.write_views(pos, &mut views);
                    d.push(&views, &zero)
                }
                _ => unreachable!("the data is the reader's kind"),
            };
            if let Err(err) = pushed {
                fault.get_or_insert(err);
            }
            span.movers.push(mover);
            span.searched.push(s.scores.get(ply).copied().flatten());
        })?;
        if let Some(err) = fault {
            return Err(g.fault(err));
        }
        spans.push(span);
    }
    Ok(Samples {
        data,
        spans,
        scale: scale as f32,
    })
}

/// A value per player, relative to `mover`: entry `k` is player `(mover + k) % n`'s.
fn relative(abs: &[f32; MAX_PLAYERS], mover: Player, n: usize) -> [f32; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = abs[(mover + k) % n];
    }
    out
}

/// The searched score `score` of a position (the mover's) as a value per player, each
/// mixed with the result by λ ([`blend_target`]): the mover's of its score, the other of
/// two players' of the negated score, the result for the others of three.
fn searched_abs(
    score: i32,
    mover: Player,
    n: usize,
    result: &[f32; MAX_PLAYERS],
    scale: f32,
    lambda: f32,
) -> [f32; MAX_PLAYERS] {
    let mut out = *result;
    out[mover] = blend_target(result[mover], score as f32, scale, lambda);
    if n == 2 {
        out[1 - mover] = blend_target(result[1 - mover], -score as f32, scale, lambda);
    }
    out
}

/// Each position's value per player (absolute) as TD bootstraps from it: the network's
/// ([`Target::Td`]) or the searched value (else; the result where there is none).
fn bootstrap(
    s: &Samples,
    span: &Span,
    target: Target,
    net: Option<Values<'_>>,
) -> Vec<[f32; MAX_PLAYERS]> {
    let n = s.outputs();
    let mut work = match net {
        Some(Values::Dense(net)) => vec![0.0; net.work_len()],
        _ => Vec::new(),
    };
    let mut out = vec![0.0; n];
    (0..span.movers.len())
        .map(|i| {
            let mover = span.movers[i];
            let sample = span.first + i;
            let values = match (target, net) {
                (Target::Td, Some(net)) => {
                    net_values(net, &s.data, sample, &mut work, &mut out);
                    Some(&out[..])
                }
                _ => None,
            };
            match values {
                Some(values) => {
                    let mut abs = [0.0; MAX_PLAYERS];
                    for k in 0..n {
                        abs[(mover + k) % n] = values[k];
                    }
                    abs
                }
                None => span.searched[i].map_or(span.result, |v| {
                    searched_abs(v, mover, n, &span.result, s.scale, 0.0)
                }),
            }
        })
        .collect()
}

/// The network's values of sample `sample` (one per player, counted from the mover) into
/// `out`; `work` is a dense network's scratch space.
fn net_values(
    net: Values<'_>,
    data: &Data,
    sample: usize,
    work: &mut Vec<f32>,
    out: &mut Vec<f32>,
) {
    match (net, data) {
        (Values::Dense(net), Data::Dense(d)) => {
            work.resize(net.work_len(), 0.0);
            net.forward(d.input(sample), work, out);
        }
        (Values::Sparse(net), Data::Sparse(d)) => {
            let p = d.shape().perspectives;
            let views: Vec<&[u32]> = (0..p).map(|v| d.features(sample, v)).collect();
            *out = net
                .evaluate(&views)
                .expect("the data's features are the network's");
        }
        _ => unreachable!("the data is the network's kind"),
    }
}

/// What a draw is worth to a search where only wins count, learned from a run's positions
/// after training (`arena train --draw-value wins`). A draw is no win; neither is a
/// position from which its player never goes on to win. The network's value of each
/// player in each position is paired with whether that player won the game, and the win
/// chance is fitted as a non-decreasing step function of the value (isotonic regression,
/// pool-adjacent-violators: no bins, no parameter). The draw scores the top of the fit's
/// lowest step when that step holds no win (the positions valued at or below it were never
/// won: a draw is worth as much), else −1, below every value (a win came even from the
/// lowest): so a search avoids a draw whenever the alternative has ever been won from, and
/// takes it over positions that never were.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawFit {
    /// The draw's score for every player, in the network's units (−1 … 1).
    pub score: f32,
    /// The values fitted: one per player and position.
    pub values: usize,
    /// How many of them were won.
    pub won: usize,
    /// The fit's lowest step: its top value, how many values it holds (those at or below
    /// its top) and how many of them were won (none: the draw scores its top).
    pub lowest: (f32, usize, usize),
}

impl std::fmt::Display for DrawFit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (top, count, wins) = self.lowest;
        if wins == 0 {
            write!(
                f,
                "{:.6}, the top of the lowest step: {count} of {} values (players in positions, {} of them won) at or below it, none won",
                self.score, self.values, self.won
            )
        } else {
            write!(
                f,
                "{:.6}, below every value: the lowest step ({count} of {} values, at or below {top:.6}) holds {wins} wins ({} in all)",
                self.score, self.values, self.won
            )
        }
    }
}

/// Fits the draw's score ([`DrawFit`]) from `(value, won)` pairs.
pub fn fit_draw_values(mut pairs: Vec<(f32, bool)>) -> DrawFit {
    pairs.retain(|(v, _)| v.is_finite());
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let won = pairs.iter().filter(|p| p.1).count();
    // Pool adjacent violators, with ties kept in one block (a step cannot split a value):
    // the first block's extent and wins are all the draw needs.
    let mut blocks: Vec<(usize, usize, usize)> = Vec::new(); // (end, count, wins)
    let mut i = 0;
    while i < pairs.len() {
        let mut j = i;
        let mut wins = 0;
        while j < pairs.len() && pairs[j].0 == pairs[i].0 {
            wins += usize::from(pairs[j].1);
            j += 1;
        }
        blocks.push((j, j - i, wins));
        while blocks.len() >= 2 {
            let (b, a) = (blocks[blocks.len() - 1], blocks[blocks.len() - 2]);
            // Merge while the earlier block's win rate is not below the later's (equal
            // rates too: the fit is the same, and the lowest step is then as long as it is).
            if a.2 * b.1 >= b.2 * a.1 {
                blocks.pop();
                let last = blocks.len() - 1;
                blocks[last] = (b.0, a.1 + b.1, a.2 + b.2);
            } else {
                break;
            }
        }
        i = j;
    }
    let lowest = blocks.first().map_or((-1.0, 0, 0), |&(end, count, wins)| {
        (pairs[end - 1].0, count, wins)
    });
    DrawFit {
        score: if lowest.2 == 0 && lowest.1 > 0 {
            lowest.0
        } else {
            -1.0
        },
        values: pairs.len(),
        won,
        lowest,
    }
}

/// [`fit_draw_values`] over the samples `indices`, valued by `net`: every player's value in
/// each position, and whether that player won its game.
pub(crate) fn fit_draw(s: &Samples, indices: &[usize], net: Values<'_>) -> DrawFit {
    let n = s.outputs();
    let mut of_sample = vec![None; s.data.len()];
    for (k, span) in s.spans.iter().enumerate() {
        for (i, slot) in of_sample[span.first..span.first + span.movers.len()]
            .iter_mut()
            .enumerate()
        {
            *slot = Some((k, i));
        }
    }
    let (mut work, mut out) = (Vec::new(), vec![0.0; n]);
    let mut pairs = Vec::with_capacity(indices.len() * n);
    for &sample in indices {
        let Some((k, i)) = of_sample[sample] else {
            continue;
        };
        let span = &s.spans[k];
        net_values(net, &s.data, sample, &mut work, &mut out);
        for (rel, &value) in out.iter().enumerate().take(n) {
            let player = (span.movers[i] + rel) % n;
            pairs.push((value, span.result[player] > 0.0));
        }
    }
    fit_draw_values(pairs)
}

/// Sets every sample's target by `target` (for [`Target::Td`], with `net`'s values).
pub(crate) fn set_targets(s: &mut Samples, target: Target, lambda: f32, net: Option<Values<'_>>) {
    let n = s.outputs();
    for k in 0..s.spans.len() {
        let span = &s.spans[k];
        let len = span.movers.len();
        let values = match target {
            Target::Td | Target::TdLeaf => bootstrap(s, span, target, net),
            _ => Vec::new(),
        };
        let mut ret = span.result;
        let mut targets = Vec::with_capacity(len);
        for i in (0..len).rev() {
            let mover = span.movers[i];
            let abs = match target {
                Target::Outcome => span.result,
                Target::Score => span.searched[i].map_or(span.result, |v| {
                    searched_abs(v, mover, n, &span.result, s.scale, lambda)
                }),
                Target::Td | Target::TdLeaf => {
                    if i + 1 < len {
                        for p in 0..n {
                            ret[p] = (1.0 - lambda) * values[i + 1][p] + lambda * ret[p];
                        }
                    }
                    ret
                }
            };
            targets.push((span.first + i, relative(&abs, mover, n)));
        }
        for (i, rel) in targets {
            s.data.set_target(i, &rel[..n]);
        }
    }
}

impl Samples {
    /// The outputs of a sample (one per player).
    fn outputs(&self) -> usize {
        match &self.data {
            Data::Dense(d) => d.outputs(),
            Data::Sparse(d) => d.shape().outputs,
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

    /// Scores of this many points are worth tanh(0.5493) = 0.5 at the tests' scale.
    const HALF: i32 = 549;

    fn span(movers: Vec<Player>, searched: Vec<Option<i32>>, result: [f32; 3]) -> Samples {
        let mut data = Dataset::new(1, 2);
        for _ in &movers {
            data.push(&[0.0], &[0.0, 0.0]).unwrap();
        }
        Samples {
            data: Data::Dense(data),
            spans: vec![Span {
                first: 0,
                movers,
                searched,
                result,
                held: false,
            }],
            scale: 1000.0,
        }
    }

    fn near(got: &[f32], want: [f32; 2]) {
        assert!(
            (got[0] - want[0]).abs() < 1e-3 && (got[1] - want[1]).abs() < 1e-3,
            "{got:?} vs {want:?}"
        );
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
        let e = Reader::Dense(Inputs::<plyforge::games::Jumpy3>::new(false).unwrap());
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
    fn the_draw_scores_the_top_of_the_values_never_won_from() {
        let pairs = |v: &[(f32, bool)]| v.to_vec();
        // Never won at or below -0.6; won from -0.2 (and lost from -0.1 after it: one step).
        let fit = fit_draw_values(pairs(&[
            (0.5, true),
            (-0.7, false),
            (-0.2, true),
            (-0.9, false),
            (0.3, true),
            (-0.1, false),
            (-0.6, false),
        ]));
        assert_eq!(fit.score, -0.6);
        assert_eq!((fit.values, fit.won, fit.lowest), (7, 3, (-0.6, 3, 0)));
        // A value shared by a win and a loss is not split: the step ends below it.
        let fit = fit_draw_values(pairs(&[
            (-0.8, false),
            (-0.4, false),
            (-0.4, true),
            (0.2, true),
        ]));
        assert_eq!((fit.score, fit.lowest), (-0.8, (-0.8, 1, 0)));
        // A win from the lowest value: a draw is worth less than every value seen.
        let fit = fit_draw_values(pairs(&[
            (-0.95, true),
            (-0.5, false),
            (0.1, false),
            (0.4, true),
        ]));
        assert_eq!((fit.score, fit.lowest), (-1.0, (0.1, 3, 1)));
        assert!(fit.to_string().contains("below every value"), "{fit}");
        // A lucky win low down does not lift the draw above it, and the fit is monotone: the
        // losses after it join its step.
        let fit = fit_draw_values(pairs(&[
            (-0.9, false),
            (-0.8, true),
            (-0.7, false),
            (-0.6, false),
            (-0.5, false),
            (0.5, true),
        ]));
        assert_eq!((fit.score, fit.lowest), (-0.9, (-0.9, 1, 0)));
        assert!(fit.to_string().contains("none won"), "{fit}");
        // Nothing to fit, or nothing ever won: the top of what there is.
        assert_eq!(fit_draw_values(Vec::new()).score, -1.0);
        assert_eq!(
            fit_draw_values(pairs(&[(-0.3, false), (0.2, false)])).score,
            0.2
        );
    }

    #[test]
    fn tdleaf_is_the_lambda_return_of_the_searched_values() {
        // White (0) wins; positions 1 and 2 were searched at -0.5 (Black's view) and 0.5.
        let mut s = span(
            vec![0, 1, 0],
            vec![None, Some(-HALF), Some(HALF)],
            [1.0, -1.0, 0.0],
        );
        set_targets(&mut s, Target::TdLeaf, 0.5, None);
        // G2 = result = 1 (White); G1 = 0.5 · v2 + 0.5 · G2 = 0.5 · 0.5 + 0.5 = 0.75 for White,
        // so -0.75 for Black to move at 1; G0 = 0.5 · v1 + 0.5 · G1 = 0.5 · 0.5 + 0.375 = 0.625.
        near(s.data.target(2), [1.0, -1.0]);
        near(s.data.target(1), [-0.75, 0.75]);
        near(s.data.target(0), [0.625, -0.625]);
    }

    #[test]
    fn score_targets_mix_the_result_by_lambda() {
        let searched = vec![None, Some(-HALF), None];
        let mut s = span(vec![0, 1, 0], searched.clone(), [1.0, -1.0, 0.0]);
        set_targets(&mut s, Target::Score, 0.0, None);
        near(s.data.target(1), [-0.5, 0.5]);
        assert_eq!(s.data.target(2), [1.0, -1.0]);
        // λ 0.5: half the result (Black lost: -1), half the score (-0.5): -0.75.
        let mut s = span(vec![0, 1, 0], searched, [1.0, -1.0, 0.0]);
        set_targets(&mut s, Target::Score, 0.5, None);
        near(s.data.target(1), [-0.75, 0.75]);
    }
}
