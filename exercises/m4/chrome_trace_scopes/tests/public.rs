//! Public tests: `cargo nextest run -p ex_m4_chrome_trace_scopes`.

use std::cell::Cell;
use std::rc::Rc;

use ex_m4_chrome_trace_scopes::{Clock, ScopeError, ScopeProfiler};

/// A clock the test moves by hand.
#[derive(Clone, Default)]
struct FakeClock(Rc<Cell<u64>>);

impl Clock for FakeClock {
    fn now_us(&self) -> u64 {
        self.0.get()
    }
}

#[test]
fn chrome_trace_scopes_public_one_scope() {
    let clock = FakeClock::default();
    let mut p = ScopeProfiler::new(clock.clone());
    clock.0.set(10);
    p.begin("frame");
    clock.0.set(25);
    p.end().unwrap();
    let trace: serde_json::Value = serde_json::from_str(&p.chrome_trace_json().unwrap()).unwrap();
    let e = &trace["traceEvents"][0];
    assert_eq!(e["name"], "frame");
    assert_eq!(e["ph"], "X");
    assert_eq!((e["ts"].as_u64(), e["dur"].as_u64()), (Some(10), Some(15)));
}

#[test]
fn chrome_trace_scopes_public_end_without_begin_is_an_error() {
    let mut p = ScopeProfiler::new(FakeClock::default());
    assert_eq!(p.end(), Err(ScopeError::NothingToEnd));
}

#[test]
fn chrome_trace_scopes_public_one_microsecond_keeps_the_opening_order() {
    let clock = FakeClock::default();
    let mut p = ScopeProfiler::new(clock.clone());
    clock.0.set(7);
    p.begin("frame");
    p.begin("update");
    p.end().unwrap();
    p.begin("draw");
    p.end().unwrap();
    clock.0.set(9);
    p.end().unwrap();
    let trace: serde_json::Value = serde_json::from_str(&p.chrome_trace_json().unwrap()).unwrap();
    let names: Vec<&str> = trace["traceEvents"]
        .as_array()
        .expect("traceEvents is an array")
        .iter()
        .map(|e| e["name"].as_str().expect("every event has a name"))
        .collect();
    // All three begin at 7: the outer scope first, then its children as they were opened.
    assert_eq!(names, ["frame", "update", "draw"]);
}
