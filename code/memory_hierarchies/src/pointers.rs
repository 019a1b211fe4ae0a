//! Smart pointers: who owns a heap value, and what sharing it costs.

use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::Arc;

// ANCHOR: tree
/// A tree node that owns its children (`Rc`) and points back at its parent without owning it
/// (`Weak`). If the back pointer were an `Rc`, parent and child would keep each other alive.
#[derive(Debug, Default)]
pub struct Node {
    pub value: i32,
    pub parent: RefCell<Weak<Node>>,
    pub children: RefCell<Vec<Rc<Node>>>,
}

pub fn add_child(parent: &Rc<Node>, value: i32) -> Rc<Node> {
    let child = Rc::new(Node {
        value,
        parent: RefCell::new(Rc::downgrade(parent)),
        children: RefCell::new(Vec::new()),
    });
    parent.children.borrow_mut().push(Rc::clone(&child));
    child
}
// ANCHOR_END: tree

// ANCHOR: cycle
/// Two values that point at each other through `Rc`: a reference cycle.
pub struct Peer {
    pub other: RefCell<Option<Rc<Peer>>>,
}

/// Makes a cycle of two peers, drops our handles, and returns a `Weak` to one of them: if it
/// can still be upgraded, the pair outlived every handle we had — it leaked.
pub fn leak_a_cycle() -> Weak<Peer> {
    let a = Rc::new(Peer {
        other: RefCell::new(None),
    });
    let b = Rc::new(Peer {
        other: RefCell::new(Some(Rc::clone(&a))),
    });
    *a.other.borrow_mut() = Some(Rc::clone(&b));
    Rc::downgrade(&a)
    // a and b are dropped here: each count falls from 2 to 1, never to 0.
}
// ANCHOR_END: cycle

// ANCHOR: refcount_traffic
/// Reads every value through a borrowed reference: no reference count is touched.
#[inline(never)]
pub fn sum_borrowed(values: &[Rc<u64>]) -> u64 {
    values.iter().map(|v| **v).sum()
}

/// Clones each `Rc` before reading (as code that stores handles "just in case" does): one
/// increment and one decrement of a count that lives next to the value, i.e. two writes to
/// memory per read.
#[inline(never)]
pub fn sum_cloning_rc(values: &[Rc<u64>]) -> u64 {
    values
        .iter()
        .map(|v| {
            let handle = std::hint::black_box(Rc::clone(v));
            *handle
        })
        .sum()
}

/// The same with `Arc`: the count is changed with atomic read-modify-write instructions, which
/// also order memory, so each clone and drop costs more even with one thread.
#[inline(never)]
pub fn sum_cloning_arc(values: &[Arc<u64>]) -> u64 {
    values
        .iter()
        .map(|v| {
            let handle = std::hint::black_box(Arc::clone(v));
            *handle
        })
        .sum()
}

#[inline(never)]
pub fn sum_borrowed_arc(values: &[Arc<u64>]) -> u64 {
    values.iter().map(|v| **v).sum()
}
// ANCHOR_END: refcount_traffic

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weak_parent_does_not_keep_the_tree_alive() {
        let root = Rc::new(Node::default());
        let child = add_child(&root, 7);
        assert_eq!(child.parent.borrow().upgrade().map(|p| p.value), Some(0));
        assert_eq!((Rc::strong_count(&root), Rc::weak_count(&root)), (1, 1));
        assert_eq!(Rc::strong_count(&child), 2);
        drop(root);
        assert!(
            child.parent.borrow().upgrade().is_none(),
            "the parent was freed"
        );
        assert_eq!(Rc::strong_count(&child), 1);
    }

    #[test]
    fn an_rc_cycle_leaks_until_broken() {
        let weak = leak_a_cycle();
        let a = weak.upgrade().expect("the cycle keeps it alive");
        assert_eq!(Rc::strong_count(&a), 2);
        // Break the cycle by hand, as a program would have to.
        let b = a.other.borrow_mut().take().expect("a points at b");
        drop(b.other.borrow_mut().take());
        drop((a, b));
        assert!(weak.upgrade().is_none(), "freed once the cycle is broken");
    }

    #[test]
    fn every_traversal_sums_the_same() {
        let rcs: Vec<Rc<u64>> = (0..100).map(Rc::new).collect();
        let arcs: Vec<Arc<u64>> = (0..100).map(Arc::new).collect();
        assert_eq!(sum_borrowed(&rcs), 4950);
        assert_eq!(sum_cloning_rc(&rcs), 4950);
        assert_eq!(sum_cloning_arc(&arcs), 4950);
        assert_eq!(sum_borrowed_arc(&arcs), 4950);
        assert!(
            rcs.iter().all(|r| Rc::strong_count(r) == 1),
            "clones were dropped"
        );
    }
}
