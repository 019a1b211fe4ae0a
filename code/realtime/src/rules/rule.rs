//! The names of the hot-loop rules as a type: the figure program and the tests pick rules by
//! [`Rule`], and a name typed by a person is parsed once, with an error that lists the rules.

use std::fmt;
use std::str::FromStr;

/// One hot-loop rule that [`measure_rule`](super::measure_rule) can time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// An empty step: the cost of timing itself, which every other row includes
    /// (`time_each` reads the clock before and after each step, and about one clock read
    /// falls inside the interval it measures).
    Floor,
    Allocation,
    Logging,
    Syscalls,
    Copying,
    Validation,
    Keys,
    Batching,
    Vectorisation,
    Casts,
    Handoff,
    Sleeping,
}

impl Rule {
    /// Every rule, in the order of the chapter.
    pub const ALL: [Rule; 12] = [
        Rule::Floor,
        Rule::Allocation,
        Rule::Logging,
        Rule::Syscalls,
        Rule::Copying,
        Rule::Validation,
        Rule::Keys,
        Rule::Batching,
        Rule::Vectorisation,
        Rule::Casts,
        Rule::Handoff,
        Rule::Sleeping,
    ];

    /// The name the figures' CSV rows and the `--only` flag use.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Floor => "floor",
            Rule::Allocation => "allocation",
            Rule::Logging => "logging",
            Rule::Syscalls => "syscalls",
            Rule::Copying => "copying",
            Rule::Validation => "validation",
            Rule::Keys => "keys",
            Rule::Batching => "batching",
            Rule::Vectorisation => "vectorisation",
            Rule::Casts => "casts",
            Rule::Handoff => "handoff",
            Rule::Sleeping => "sleeping",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule name that is not one of [`Rule::ALL`].
#[derive(Debug, thiserror::Error)]
#[error("unknown rule `{name}`; the rules are: {}", rule_names())]
pub struct UnknownRule {
    pub name: String,
}

fn rule_names() -> String {
    Rule::ALL.map(Rule::name).join(", ")
}

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Rule::ALL
            .into_iter()
            .find(|rule| rule.name() == name)
            .ok_or_else(|| UnknownRule {
                name: name.to_owned(),
            })
    }
}
