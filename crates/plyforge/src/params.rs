//! Tunable parameters: the numbers of an evaluation (and of the search) that a person may
//! set in an engine specification and that `arena tune` tunes, each declared once with its
//! default, its range and its step.
//!
//! A game declares its evaluation's parameters through
//! [`GameAdapter::params`](crate::GameAdapter::params) and builds an evaluation with values
//! set through [`GameAdapter::evaluator_with`](crate::GameAdapter::evaluator_with); the
//! search's own tunable settings (Monte Carlo tree search's constants) are
//! [`search_params`]. Engine specifications take every one as a key (`engine,material=320`),
//! checked against the declared range; `arena tune` perturbs them by their step; `--help`
//! lists them.
//!
//! ```
//! use plyforge::params::Param;
//! let p = Param::int("material", 300, 0, 1000, 40, "per piece of force");
//! assert_eq!(p.check(320.0), Ok(320.0));
//! assert!(p.check(1200.0).unwrap_err().contains("between 0 and 1000"));
//! assert!(p.check(3.5).unwrap_err().contains("whole number"));
//! assert_eq!(p.show(319.6), "320");
//! ```

use std::fmt::Write as _;

use search::{Algorithm, Config};

/// One tunable number.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Param {
    /// Its name: the key of an engine specification (`material=320`) and of `arena tune
    /// --param`. Lower case letters, digits and `_`.
    pub name: &'static str,
    /// The value the game uses when nothing sets it.
    pub default: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// A change that makes a difference without being reckless: SPSA's perturbation at the
    /// end of a tuning run (`c_end`), and the first step of Texel's local search.
    pub step: f64,
    /// True when only whole numbers are allowed (values are rounded where they are used).
    pub integer: bool,
    /// What it weighs, in a line for people.
    pub about: &'static str,
}

impl Param {
    /// A whole-number parameter.
    pub fn int(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        step: i64,
        about: &'static str,
    ) -> Param {
        Param {
            name,
            default: default as f64,
            min: min as f64,
            max: max as f64,
            step: step as f64,
            integer: true,
            about,
        }
    }

    /// A real-valued parameter.
    pub fn real(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        step: f64,
        about: &'static str,
    ) -> Param {
        Param {
            name,
            default,
            min,
            max,
            step,
            integer: false,
            about,
        }
    }

    /// The value as it is used: rounded for a whole-number parameter, kept in the range.
    pub fn used(&self, value: f64) -> f64 {
        let v = value.clamp(self.min, self.max);
        if self.integer {
            v.round()
        } else {
            v
        }
    }

    /// `value` if it is allowed, else why not (naming the parameter and its range).
    pub fn check(&self, value: f64) -> Result<f64, String> {
        if !value.is_finite() {
            return Err(format!("{}={value}: not a number", self.name));
        }
        if self.integer && value.fract() != 0.0 {
            return Err(format!(
                "{}={value}: the value must be a whole number",
                self.name
            ));
        }
        if value < self.min || value > self.max {
            return Err(format!(
                "{}={}: the value must be between {} and {}",
                self.name,
                show_number(value),
                self.show(self.min),
                self.show(self.max)
            ));
        }
        Ok(value)
    }

    /// Parses a value given as text and checks it.
    pub fn parse(&self, text: &str) -> Result<f64, String> {
        let v: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("{}={text}: the value must be a number", self.name))?;
        self.check(v)
    }

    /// The value as an engine specification writes it: a whole number for a whole-number
    /// parameter, else the shortest text that reads back as the same number (rounded to
    /// six significant digits).
    pub fn show(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value.round() as i64)
        } else {
            show_number(value)
        }
    }

    /// The line `--help` prints for it: name, default, range, step, what it weighs.
    pub fn help_line(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "{}={} ({}..{}, step {}): {}",
            self.name,
            self.show(self.default),
            self.show(self.min),
            self.show(self.max),
            show_number(self.step),
            self.about
        );
        s
    }
}

/// A real number in at most six significant digits, without trailing zeros (`0.4`, `1.25`,
/// `400`).
pub fn show_number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{}", if x == 0.0 { 0.0 } else { x });
    }
    let digits = 6 - 1 - x.abs().log10().floor() as i32;
    let text = if digits > 0 {
        format!("{:.*}", digits as usize, x)
    } else {
        format!("{}", x.round())
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The error of an evaluation that does not take a parameter it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoParam {
    /// The game's name for people.
    pub game: &'static str,
    /// The parameter given.
    pub name: String,
}

impl std::fmt::Display for NoParam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "this evaluation of {} does not take the parameter {}",
            self.game, self.name
        )
    }
}

impl std::error::Error for NoParam {}

/// The search's own tunable settings under `config`, with its values as the defaults:
/// Monte Carlo tree search's exploration constant `c`, progressive bias `bias`, logistic
/// `scale` and `playout` plies (the keys of an `mcts` specification); the selective
/// search's constants `lmr_base`, `lmr_divisor`, `null_base` and `rfp_margin`
/// ([`search::Selectivity`]) where it is on; none for the exact alpha-beta family, whose
/// settings are switches.
pub fn search_params(config: &Config) -> Vec<Param> {
    if config.algorithm != Algorithm::Mcts {
        let Some(s) = config.selective else {
            return Vec::new();
        };
        if !matches!(config.algorithm, Algorithm::AlphaBeta | Algorithm::Paranoid) {
            return Vec::new();
        }
        let [(_, b0, b1), (_, d0, d1), (_, n0, n1), (_, r0, r1)] = SELECTIVE_NUMBERS;
        let int = |name, v: i32, min: i32, max: i32, step, what| {
            Param::int(
                name,
                i64::from(v),
                i64::from(min),
                i64::from(max),
                step,
                what,
            )
        };
        return vec![
            int(
                "lmr_base",
                s.lmr_base,
                b0,
                b1,
                10,
                "selective: late-move reductions' constant, hundredths of a ply",
            ),
            int(
                "lmr_divisor",
                s.lmr_divisor,
                d0,
                d1,
                20,
                "selective: late-move reductions' divisor, hundredths",
            ),
            int(
                "null_base",
                s.null_base,
                n0,
                n1,
                1,
                "selective: the null move's base reduction, plies",
            ),
            int(
                "rfp_margin",
                s.rfp_margin,
                r0,
                r1,
                10,
                "selective: reverse futility's margin per ply, percent of the evaluation's margin",
            ),
        ];
    }
    let m = &config.mcts;
    vec![
        Param::real(
            "c",
            m.exploration,
            0.0,
            4.0,
            0.1,
            "MCTS: the UCT exploration constant",
        ),
        Param::real(
            "bias",
            m.bias,
            0.0,
            4.0,
            0.1,
            "MCTS: the weight of the evaluation's move hints",
        ),
        Param::real(
            "scale",
            m.scale,
            1.0,
            10_000.0,
            (m.scale / 10.0).max(1.0),
            "MCTS: evaluation points per logistic unit",
        ),
        Param::int(
            "playout",
            i64::from(m.playout),
            0,
            64,
            2,
            "MCTS: plies of guided playout before the evaluation",
        ),
    ]
}

/// The selective search's switches as spec keys ([`search::Selectivity`]).
pub const SELECTIVE_SWITCHES: [&str; 6] = ["lmr", "null", "futility", "lmp", "iir", "ext"];

/// The selective search's constants as spec keys, with their ranges.
pub const SELECTIVE_NUMBERS: [(&str, i32, i32); 4] = [
    ("lmr_base", 0, 400),
    ("lmr_divisor", 50, 1000),
    ("null_base", 1, 8),
    ("rfp_margin", 10, 400),
];

/// Why a list of declared parameters is not usable: a name that is not lower case letters,
/// digits and `_`, a name twice, a default outside the range or a step that is not positive.
/// (A name that is an engine specification's own key is refused too, by
/// [`crate::agent::check_params`], which the registry calls.)
pub fn check_declared(params: &[Param]) -> Result<(), String> {
    for (i, p) in params.iter().enumerate() {
        let valid = !p.name.is_empty()
            && p.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            return Err(format!(
                "parameter {:?}: a name is lower case letters, digits and _",
                p.name
            ));
        }
        if params[..i].iter().any(|q| q.name == p.name) {
            return Err(format!("parameter {:?} is declared twice", p.name));
        }
        if !(p.min <= p.default && p.default <= p.max) {
            return Err(format!(
                "parameter {}: the default {} is outside {}..{}",
                p.name, p.default, p.min, p.max
            ));
        }
        if !(p.step > 0.0 && p.step.is_finite()) {
            return Err(format!("parameter {}: the step must be positive", p.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_shown_short_and_read_back() {
        for (x, want) in [
            (0.4, "0.4"),
            (1.25, "1.25"),
            (400.0, "400"),
            (0.0, "0"),
            (-2.5, "-2.5"),
            (1.0 / 3.0, "0.333333"),
            (123456.7, "123457"),
        ] {
            assert_eq!(show_number(x), want, "{x}");
        }
    }

    #[test]
    fn a_value_is_checked_against_its_range_and_kind() {
        let p = Param::real("c", 0.4, 0.0, 4.0, 0.1, "x");
        assert_eq!(p.parse("1.5"), Ok(1.5));
        assert!(p.parse("x").unwrap_err().contains("must be a number"));
        assert!(p.parse("-1").unwrap_err().contains("between 0 and 4"));
        assert!(p.parse("NaN").unwrap_err().contains("not a number"));
        let q = Param::int("material", 300, 0, 1000, 40, "x");
        assert_eq!(q.used(1234.0), 1000.0);
        assert_eq!(q.used(12.4), 12.0);
        assert!(q.parse("2.5").unwrap_err().contains("whole number"));
    }

    #[test]
    fn declarations_are_checked() {
        let ok = [
            Param::int("a", 1, 0, 2, 1, ""),
            Param::int("b_2", 1, 0, 2, 1, ""),
        ];
        assert_eq!(check_declared(&ok), Ok(()));
        let twice = [
            Param::int("a", 1, 0, 2, 1, ""),
            Param::int("a", 1, 0, 2, 1, ""),
        ];
        assert!(check_declared(&twice).unwrap_err().contains("twice"));
        let out = [Param::int("a", 5, 0, 2, 1, "")];
        assert!(check_declared(&out).unwrap_err().contains("outside"));
        let step = [Param::int("a", 1, 0, 2, 0, "")];
        assert!(check_declared(&step).unwrap_err().contains("positive"));
        let name = [Param::int("A b", 1, 0, 2, 1, "")];
        assert!(check_declared(&name).unwrap_err().contains("lower case"));
    }

    #[test]
    fn mcts_has_search_params_and_alphabeta_none() {
        let ab = Config::default();
        assert!(search_params(&ab).is_empty());
        let m = Config::default().with_algorithm(Algorithm::Mcts);
        let names: Vec<_> = search_params(&m).iter().map(|p| p.name).collect();
        assert_eq!(names, ["c", "bias", "scale", "playout"]);
        for p in search_params(&m) {
            assert_eq!(p.check(p.default), Ok(p.default), "{}", p.name);
        }
    }
}
