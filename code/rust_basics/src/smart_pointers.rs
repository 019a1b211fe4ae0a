//! Smart pointers, a first look: `Box`, `Rc`, `Arc` and `RefCell`. Module 1 goes deeper.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

// ANCHOR: boxed
/// A tiny expression tree. An enum cannot contain itself directly (its size would be infinite);
/// a `Box` is one pointer to a heap allocation, so the size is known.
#[derive(Debug)]
pub enum Expr {
    Value(f32),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Relu(Box<Expr>),
}

impl Expr {
    pub fn eval(&self) -> f32 {
        match self {
            Expr::Value(v) => *v,
            Expr::Add(a, b) => a.eval() + b.eval(),
            Expr::Mul(a, b) => a.eval() * b.eval(),
            Expr::Relu(a) => a.eval().max(0.0),
        }
    }
}
// ANCHOR_END: boxed

// ANCHOR: rc
/// Several layers sharing one set of weights (tied weights). `Rc` counts the owners and frees
/// the weights when the last one goes; cloning an `Rc` copies a pointer, not the weights.
pub struct Layer {
    pub weights: Rc<Vec<f32>>,
}

impl Layer {
    pub fn forward(&self, x: &[f32]) -> f32 {
        self.weights.iter().zip(x).map(|(w, x)| w * x).sum()
    }
}

pub fn tied_layers(weights: Vec<f32>, count: usize) -> Vec<Layer> {
    let shared = Rc::new(weights);
    (0..count)
        .map(|_| Layer {
            weights: Rc::clone(&shared),
        })
        .collect()
}
// ANCHOR_END: rc

// ANCHOR: arc
/// `Arc` is `Rc` with an atomic count, so it can cross threads. Each thread sums one part of
/// the same shared vector; nothing is copied.
pub fn parallel_sum(data: Arc<Vec<f32>>, threads: usize) -> f32 {
    let threads = threads.max(1);
    let chunk = data.len().div_ceil(threads).max(1);
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let data = Arc::clone(&data);
            std::thread::spawn(move || {
                let start = (t * chunk).min(data.len());
                let end = (start + chunk).min(data.len());
                data[start..end].iter().sum::<f32>()
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("a summing thread cannot panic"))
        .sum()
}
// ANCHOR_END: arc

// ANCHOR: refcell
/// A log that many parts of a program hold through `Rc` and append to. `RefCell` moves the
/// borrow check to run time: a second `borrow_mut` while one is alive is an error (or a panic).
#[derive(Default)]
pub struct SharedLog {
    lines: RefCell<Vec<String>>,
}

impl SharedLog {
    /// Appends through a shared reference: the `RefCell` hands out the mutable borrow.
    pub fn push(&self, line: &str) {
        self.lines.borrow_mut().push(line.to_owned());
    }

    pub fn len(&self) -> usize {
        self.lines.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a mutable borrow could be taken right now.
    pub fn can_write(&self) -> bool {
        self.lines.try_borrow_mut().is_ok()
    }

    /// Runs `f` while reading the lines (holding a shared borrow for its duration).
    pub fn with_lines<R>(&self, f: impl FnOnce(&[String]) -> R) -> R {
        f(&self.lines.borrow())
    }
}
// ANCHOR_END: refcell

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxed_tree_evaluates() {
        use Expr::*;
        // relu(2 * (-3) + 1) = relu(-5) = 0;  2 * 3 + 1 = 7
        let neg = Relu(Box::new(Add(
            Box::new(Mul(Box::new(Value(2.0)), Box::new(Value(-3.0)))),
            Box::new(Value(1.0)),
        )));
        assert_eq!(neg.eval(), 0.0);
        let pos = Add(
            Box::new(Mul(Box::new(Value(2.0)), Box::new(Value(3.0)))),
            Box::new(Value(1.0)),
        );
        assert_eq!(pos.eval(), 7.0);
    }

    #[test]
    fn a_box_is_one_pointer_and_none_is_free() {
        use std::mem::size_of;
        assert_eq!(size_of::<Box<[f32; 1024]>>(), size_of::<usize>());
        // The null pointer is never a valid Box, so Option uses it for None: no extra tag.
        assert_eq!(size_of::<Option<Box<Expr>>>(), size_of::<usize>());
    }

    #[test]
    fn tied_layers_share_one_allocation() {
        let layers = tied_layers(vec![1.0, 2.0], 3);
        assert_eq!(Rc::strong_count(&layers[0].weights), 3);
        assert!(Rc::ptr_eq(&layers[0].weights, &layers[2].weights));
        assert_eq!(layers[1].forward(&[3.0, 4.0]), 11.0);
        let weights = Rc::clone(&layers[0].weights);
        drop(layers);
        assert_eq!(Rc::strong_count(&weights), 1);
    }

    #[test]
    fn parallel_sum_matches_the_serial_sum() {
        let data: Vec<f32> = (1..=100).map(|i| i as f32).collect();
        let shared = Arc::new(data);
        for threads in [1, 3, 7, 200] {
            assert_eq!(parallel_sum(Arc::clone(&shared), threads), 5050.0);
        }
        assert_eq!(
            Arc::strong_count(&shared),
            1,
            "every thread dropped its clone"
        );
        assert_eq!(parallel_sum(Arc::new(Vec::new()), 4), 0.0);
    }

    #[test]
    fn refcell_checks_borrows_at_run_time() {
        let log = Rc::new(SharedLog::default());
        let other_owner = Rc::clone(&log);
        other_owner.push("compiled shader");
        log.push("submitted");
        assert_eq!(log.len(), 2);
        assert!(log.can_write());
        // While a shared borrow is alive, a mutable one is refused.
        let refused = log.with_lines(|lines| {
            assert_eq!(lines[0], "compiled shader");
            !log.can_write()
        });
        assert!(refused);
        assert!(!log.is_empty());
    }
}
