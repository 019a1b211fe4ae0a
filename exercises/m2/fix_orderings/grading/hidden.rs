//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//!
//! Each model aims at one pair of orderings (see the solution's comments), so a seqlock with
//! some pairs fixed scores the models those pairs decide:
//! - pair 1, the even `seq` store and the first `seq` load: `finished_write_*`;
//! - pairs 1 and 2, plus the word stores and loads: `no_torn_*`;
//! - pair 3, `closed`: `closed_*`.

use ex_m2_fix_orderings::{Reader, Snapshot, seqlock};
use loom::model::Builder;
use loom::thread;

/// Every model here takes well under a second with this bound in a debug build.
fn model(f: impl Fn() + Sync + Send + 'static) {
    let mut builder = Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(f);
}

/// Once the writer's thread is joined, there is no race left: `try_read` must succeed with the
/// last write. (This also keeps a `try_read` that always says `None` from passing.)
fn assert_settled(reader: &Reader, version: u64) {
    assert_eq!(
        reader.try_read(),
        Some(snap(version, version)),
        "after joining the writer, try_read must return the last write"
    );
}

fn snap(version: u64, word: u64) -> Snapshot {
    Snapshot {
        version,
        words: [word, word],
    }
}

/// A reader that got version 1 must have the first write's words. Version 0 is not checked
/// here: with the word orderings still wrong it may be torn, which is the `no_torn_*` models'
/// business.
fn assert_version_1_is_whole(got: Snapshot) {
    assert!(
        got.version <= 1,
        "version {} after one write: {got:?}",
        got.version
    );
    if got.version == 1 {
        assert_eq!(
            got.words,
            [1, 1],
            "the reader saw the write finished (version 1) but not its words"
        );
    }
}

#[test]
fn fix_orderings_hidden_finished_write_is_seen_whole() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || writer.write([1, 1]));
        if let Some(got) = reader.try_read() {
            assert_version_1_is_whole(got);
        }
        t.join().unwrap();
        assert_settled(&reader, 1);
    });
    grade_ok!("fix_orderings_hidden_finished_write_is_seen_whole");
}

#[test]
fn fix_orderings_hidden_finished_write_is_seen_whole_by_read() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || writer.write([1, 1]));
        assert_version_1_is_whole(reader.read());
        t.join().unwrap();
    });
    grade_ok!("fix_orderings_hidden_finished_write_is_seen_whole_by_read");
}

#[test]
fn fix_orderings_hidden_no_torn_pair_during_a_write() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || writer.write([1, 1]));
        if let Some(got) = reader.try_read() {
            assert!(
                got == snap(0, 0) || got == snap(1, 1),
                "try_read returned {got:?} during one write of [1, 1] over [0, 0]"
            );
        }
        t.join().unwrap();
        assert_settled(&reader, 1);
    });
    grade_ok!("fix_orderings_hidden_no_torn_pair_during_a_write");
}

#[test]
fn fix_orderings_hidden_no_torn_pair_across_two_writes() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || {
            writer.write([1, 1]);
            writer.write([2, 2]);
        });
        if let Some(got) = reader.try_read() {
            assert!(
                got.version <= 2 && got == snap(got.version, got.version),
                "try_read returned {got:?} while [1, 1] then [2, 2] were written: version k \
                 must come with the words [k, k]"
            );
        }
        t.join().unwrap();
        assert_settled(&reader, 2);
    });
    grade_ok!("fix_orderings_hidden_no_torn_pair_across_two_writes");
}

#[test]
fn fix_orderings_hidden_closed_shows_the_last_write() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || {
            writer.write([1, 1]);
            drop(writer);
        });
        if reader.is_closed() {
            assert_eq!(
                reader.try_read(),
                Some(snap(1, 1)),
                "is_closed() was true, so the last write must be what try_read sees"
            );
        }
        t.join().unwrap();
        assert!(reader.is_closed(), "the writer was dropped: is_closed() must say so after join");
        assert_settled(&reader, 1);
    });
    grade_ok!("fix_orderings_hidden_closed_shows_the_last_write");
}

#[test]
fn fix_orderings_hidden_closed_shows_the_last_of_two_writes() {
    model(|| {
        let (mut writer, reader) = seqlock([0, 0]);
        let t = thread::spawn(move || {
            writer.write([1, 1]);
            writer.write([2, 2]);
        });
        if reader.is_closed() {
            assert_eq!(
                reader.read(),
                snap(2, 2),
                "is_closed() was true, so read() must return the last write"
            );
        }
        t.join().unwrap();
        assert!(reader.is_closed(), "the writer was dropped: is_closed() must say so after join");
    });
    grade_ok!("fix_orderings_hidden_closed_shows_the_last_of_two_writes");
}
