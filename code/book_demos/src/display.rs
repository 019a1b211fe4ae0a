//! What a demo box shows: one row per kernel or variant, each with the reader's timing and the
//! check against the CPU. Every demo's report turns into this, and the box's script fills the
//! table from it, row by row (`key` names the row).

use serde::Serialize;

use crate::reference::Check;

#[derive(Clone, Debug, Serialize)]
pub struct Display {
    pub rows: Vec<Row>,
    /// Lines the box prints under its table (what was run, what was left out and why).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The row's name in the box's table (the kernel or variant as the book's CSV names it).
    pub key: String,
    /// The reader's measurement, formatted.
    pub yours: String,
    /// The check against the CPU, in words.
    pub check: String,
    /// Whether the result matched the CPU (a row that could not run on this adapter is not a
    /// failure: it says so in `check` and is `true` here).
    pub ok: bool,
    /// False for a row that could not run on this adapter.
    pub ran: bool,
}

impl Display {
    /// True when every row matched the CPU.
    pub fn passed(&self) -> bool {
        self.rows.iter().all(|r| r.ok)
    }
}

/// "all 4096 within the bound" or "3 of 4096 outside the bound (first at 17)".
pub fn describe(check: &Check, what: &str) -> String {
    if check.passed() {
        format!("all {} {what}", check.checked)
    } else {
        format!(
            "{} of {} not {what} (first at index {})",
            check.mismatches,
            check.checked,
            check.first_mismatch.unwrap_or(0)
        )
    }
}

/// Three significant digits, the way the book quotes its measurements.
pub fn sig3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_significant_digits() {
        assert_eq!(sig3(0.012345), "0.0123");
        assert_eq!(sig3(1.59), "1.59");
        assert_eq!(sig3(971.3), "971");
        assert_eq!(sig3(44771.3), "44771");
    }

    #[test]
    fn a_failed_check_says_how_many_and_where() {
        let bad = Check {
            checked: 10,
            mismatches: 2,
            first_mismatch: Some(3),
        };
        assert_eq!(
            describe(&bad, "within the bound"),
            "2 of 10 not within the bound (first at index 3)"
        );
    }
}
