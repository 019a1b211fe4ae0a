//! Module 4: where time and memory go.
