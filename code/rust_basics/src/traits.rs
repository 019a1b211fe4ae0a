//! Traits and generics: shared behaviour, and the choice between static and dynamic dispatch.

// ANCHOR: trait
/// An element-wise activation function, as a neural network layer uses it.
pub trait Activation {
    fn name(&self) -> &'static str;

    fn apply(&self, x: f32) -> f32;

    /// A provided method: every implementor gets it for free, and may override it.
    fn apply_all(&self, values: &mut [f32]) {
        for v in values {
            *v = self.apply(*v);
        }
    }
}

pub struct Relu;

pub struct LeakyRelu {
    pub slope: f32,
}

impl Activation for Relu {
    fn name(&self) -> &'static str {
        "relu"
    }
    fn apply(&self, x: f32) -> f32 {
        x.max(0.0)
    }
}

impl Activation for LeakyRelu {
    fn name(&self) -> &'static str {
        "leaky_relu"
    }
    fn apply(&self, x: f32) -> f32 {
        if x > 0.0 { x } else { self.slope * x }
    }
}
// ANCHOR_END: trait

// ANCHOR: dispatch
/// Static dispatch: the compiler makes one copy of this function per `A` and can inline
/// `apply` into the loop.
pub fn activate<A: Activation>(act: &A, values: &mut [f32]) {
    act.apply_all(values);
}

/// Dynamic dispatch: one copy of the function; each `apply` is a call through a vtable pointer.
/// Worth it when the choice is made at run time, e.g. a list of layers read from a file.
pub fn activate_all(layers: &[Box<dyn Activation>], values: &mut [f32]) {
    for layer in layers {
        layer.apply_all(values);
    }
}
// ANCHOR_END: dispatch

// ANCHOR: dispatch_per_element
/// Dynamic dispatch inside the loop: one vtable call per element. The compiler cannot see
/// which `apply` runs, so it can neither inline it nor vectorise the loop.
pub fn activate_each_dyn(act: &dyn Activation, values: &mut [f32]) {
    for v in values {
        *v = act.apply(*v);
    }
}

/// The closed alternative: an enum, matched per element. The compiler sees every case, and
/// can move the match out of the loop when the value does not change inside it.
#[derive(Clone, Copy, Debug)]
pub enum ActivationKind {
    Relu,
    LeakyRelu { slope: f32 },
}

pub fn activate_each_enum(kind: ActivationKind, values: &mut [f32]) {
    for v in values {
        *v = match kind {
            ActivationKind::Relu => v.max(0.0),
            ActivationKind::LeakyRelu { slope } => {
                if *v > 0.0 {
                    *v
                } else {
                    slope * *v
                }
            }
        };
    }
}
// ANCHOR_END: dispatch_per_element

// ANCHOR: dispatch_split
/// Static dispatch with `apply` kept out of line: one direct call per element. Between the
/// inlined loop and the `&dyn` loop, it shows what a call costs when it is not indirect.
pub fn activate_each_call<A: Activation>(act: &A, values: &mut [f32]) {
    for v in values {
        *v = apply_out_of_line(act, *v);
    }
}

#[inline(never)]
fn apply_out_of_line<A: Activation>(act: &A, x: f32) -> f32 {
    act.apply(x)
}

/// Static dispatch, `apply` inlined, but every `stride`-th element: with a stride the compiler
/// cannot see (1 at run time), it cannot vectorise the loop. Inlined and scalar: the cost of the
/// lost vectorisation alone.
pub fn activate_strided<A: Activation>(act: &A, values: &mut [f32], stride: usize) {
    for v in values.iter_mut().step_by(stride.max(1)) {
        *v = act.apply(*v);
    }
}
// ANCHOR_END: dispatch_split

// ANCHOR: generic
/// The largest element of any slice whose elements can be compared and copied.
/// `PartialOrd` (not `Ord`) so that it works for floats; NaNs are skipped.
pub fn max_of<T: PartialOrd + Copy>(values: &[T]) -> Option<T> {
    values
        .iter()
        .copied()
        .filter(|v| v.partial_cmp(v).is_some()) // only NaN is not comparable with itself
        .reduce(|best, v| if v > best { v } else { best })
}
// ANCHOR_END: generic

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activations_apply() {
        let mut v = [-2.0, 3.0];
        activate(&Relu, &mut v);
        assert_eq!(v, [0.0, 3.0]);
        let mut w = [-2.0, 3.0];
        activate(&LeakyRelu { slope: 0.5 }, &mut w);
        assert_eq!(w, [-1.0, 3.0]);
    }

    #[test]
    fn a_chain_of_boxed_layers_runs_in_order() {
        let layers: Vec<Box<dyn Activation>> =
            vec![Box::new(LeakyRelu { slope: 0.1 }), Box::new(Relu)];
        let names: Vec<_> = layers.iter().map(|l| l.name()).collect();
        assert_eq!(names, ["leaky_relu", "relu"]);
        let mut v = [-10.0, 4.0];
        activate_all(&layers, &mut v);
        assert_eq!(v, [0.0, 4.0]);
    }

    #[test]
    fn every_dispatch_gives_the_same_numbers() {
        let input: Vec<f32> = (-8..8).map(|i| i as f32 * 0.5).collect();
        let leaky = LeakyRelu { slope: 0.25 };
        let mut a = input.clone();
        activate(&leaky, &mut a);
        let mut b = input.clone();
        let boxed: Vec<Box<dyn Activation>> = vec![Box::new(LeakyRelu { slope: 0.25 })];
        activate_all(&boxed, &mut b);
        let mut c = input.clone();
        activate_each_dyn(&leaky, &mut c);
        let mut d = input.clone();
        activate_each_enum(ActivationKind::LeakyRelu { slope: 0.25 }, &mut d);
        let mut f = input.clone();
        activate_each_call(&leaky, &mut f);
        let mut g = input.clone();
        activate_strided(&leaky, &mut g, 1);
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(a, f);
        assert_eq!(a, g);
        // a stride of 2 leaves every other element as it was
        let mut h = input.clone();
        activate_strided(&leaky, &mut h, 2);
        assert_eq!((h[0], h[1]), (a[0], input[1]));
        let mut e = [-1.0, 2.0];
        activate_each_enum(ActivationKind::Relu, &mut e);
        assert_eq!(e, [0.0, 2.0]);
    }

    #[test]
    fn max_of_works_for_integers_and_floats() {
        assert_eq!(max_of(&[3, 9, 2]), Some(9));
        assert_eq!(max_of(&[1.5f32, f32::NAN, 0.5]), Some(1.5));
        assert_eq!(max_of(&[f32::NAN, 2.0]), Some(2.0));
        assert_eq!(max_of::<u8>(&[]), None);
    }
}
