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
    // Read by the methods you write; until then the compiler sees it unused.
    #[allow(dead_code)]
    clock: C,
    // Your fields here.
}

impl<C: Clock> ScopeProfiler<C> {
    pub fn new(clock: C) -> Self {
        let _ = clock;
        todo!("a profiler with no scopes, reading time from the clock")
    }

    /// Opens a scope now, inside the innermost open scope if there is one.
    pub fn begin(&mut self, name: &str) {
        todo!("open the scope {name:?}")
    }

    /// Closes the innermost open scope now.
    pub fn end(&mut self) -> Result<(), ScopeError> {
        todo!("close the innermost scope")
    }

    /// The trace of every closed scope, or an error naming the scopes still open.
    pub fn chrome_trace_json(&self) -> Result<String, ScopeError> {
        todo!("write the trace")
    }
}
