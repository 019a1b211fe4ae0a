//! Switches of a grading that only the grader's own tests and staff debugging turn on. The
//! command line (`main.rs`) reads them from `GRADER_*` variables and hands them down; library
//! code never reads the environment for them.

/// All off (`Default`) when grading for real.
#[derive(Clone, Copy, Debug, Default)]
pub struct GradeOptions {
    /// `GRADER_SKIP_TEXT_CHECK`: skip the static checks of the sources (forbidden uses, the
    /// stub's API), so that a test shows what the sandbox and the gate alone stop.
    pub skip_text_check: bool,
    /// `GRADER_NO_GATE`: build without the gate's forbidden lints, so that a test shows what the
    /// sandbox alone stops.
    pub no_gate: bool,
    /// `GRADER_TEST_ONLY_LEAK_TOKENS`: hand the hidden tests their tokens (`GRADE_TOKENS`), as a
    /// submission that read them out of its own memory would have them, so that a test shows
    /// that the recorded results still decide.
    pub leak_tokens: bool,
    /// `GRADER_DEBUG`: print the hidden tests' own output on the grader's stderr (for staff
    /// only; students never see it).
    pub debug: bool,
}
