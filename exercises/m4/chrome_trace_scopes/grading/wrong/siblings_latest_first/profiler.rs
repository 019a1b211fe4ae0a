use crate::{Clock, ScopeError};

/// Nested, named scopes on one thread, written as a Chrome trace.
///
/// The trace is a JSON object `{"traceEvents": [...]}` holding one "complete" event per closed
/// scope: `{"name": <name>, "ph": "X", "ts": <begin, µs>, "dur": <end - begin, µs>, "pid": 1,
/// "tid": 1}`. Events are ordered by `ts`. Scopes that begin in the same microsecond keep the
/// order in which they were opened: a scope comes before the scopes opened inside it, and before
/// a sibling opened after it closed. Names may hold any characters (quotes, backslashes,
/// newlines, non-ASCII): the output must stay valid JSON and give the names back unchanged.
pub struct ScopeProfiler<C: Clock> {
    clock: C,
    /// (name, begin, depth) of each open scope, outermost first.
    open: Vec<(String, u64, usize)>,
    /// (begin, depth, name, duration) of each closed scope.
    closed: Vec<(u64, usize, String, u64)>,
}

impl<C: Clock> ScopeProfiler<C> {
    pub fn new(clock: C) -> Self {
        Self {
            clock,
            open: Vec::new(),
            closed: Vec::new(),
        }
    }

    /// Opens a scope now, inside the innermost open scope if there is one.
    pub fn begin(&mut self, name: &str) {
        let depth = self.open.len();
        self.open
            .push((name.to_owned(), self.clock.now_us(), depth));
    }

    /// Closes the innermost open scope now.
    pub fn end(&mut self) -> Result<(), ScopeError> {
        let (name, begin, depth) = self.open.pop().ok_or(ScopeError::NothingToEnd)?;
        let end = self.clock.now_us();
        self.closed
            .push((begin, depth, name, end.saturating_sub(begin)));
        Ok(())
    }

    /// The trace of every closed scope, or an error naming the scopes still open.
    pub fn chrome_trace_json(&self) -> Result<String, ScopeError> {
        if !self.open.is_empty() {
            return Err(ScopeError::StillOpen(
                self.open.iter().map(|(name, _, _)| name.clone()).collect(),
            ));
        }
        let mut events: Vec<&(u64, usize, String, u64)> = self.closed.iter().collect();
        // Wrong on purpose: the closed scopes are taken newest first before the (stable) sort,
        // so siblings that begin in the same microsecond come latest first.
        events.reverse();
        events.sort_by_key(|(begin, depth, _, _)| (*begin, *depth));
        let events: Vec<serde_json::Value> = events
            .into_iter()
            .map(|(begin, _, name, dur)| {
                serde_json::json!({
                    "name": name, "ph": "X", "ts": begin, "dur": dur, "pid": 1, "tid": 1,
                })
            })
            .collect();
        Ok(serde_json::json!({ "traceEvents": events }).to_string())
    }
}
