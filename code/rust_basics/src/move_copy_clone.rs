//! Move, Copy and Clone: what assignment and passing by value cost.
//!
//! - A **move** copies the value's own bytes (for a `Vec`: pointer, length, capacity) and makes the
//!   old name unusable. The heap buffer stays where it is.
//! - A **Copy** type (numbers, small plain structs) is copied bit for bit and the old name stays
//!   usable; this is only allowed for types without a heap buffer or a destructor.
//! - A **clone** is an explicit, possibly expensive, deep copy: a new allocation for a `Vec`.

// ANCHOR: copy_type
/// Two floats: cheap to copy, so it derives `Copy` and is passed by value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

impl Vec2 {
    /// Takes `self` by value: for a `Copy` type that costs the same as a reference, or less.
    pub fn length(self) -> f32 {
        self.x.hypot(self.y)
    }
}
// ANCHOR_END: copy_type

// ANCHOR: clone_type
/// Owns a heap buffer, so it can be `Clone` but not `Copy`: duplicating it must be explicit.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}
// ANCHOR_END: clone_type

impl Tensor {
    /// A tensor of zeros with the given shape.
    pub fn zeros(shape: &[usize]) -> Self {
        Self {
            shape: shape.to_vec(),
            data: vec![0.0; shape.iter().product()],
        }
    }

    /// A tensor with the given shape holding `data`; `None` if the sizes disagree.
    pub fn from_vec(shape: &[usize], data: Vec<f32>) -> Option<Self> {
        (shape.iter().product::<usize>() == data.len()).then(|| Self {
            shape: shape.to_vec(),
            data,
        })
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

// ANCHOR: by_value
/// Consumes the tensor and returns it changed: the caller's buffer is reused, nothing allocated.
pub fn relu(mut t: Tensor) -> Tensor {
    for x in &mut t.data {
        *x = x.max(0.0);
    }
    t
}

/// Borrows the tensor and returns a new one: one allocation, and the input stays usable.
pub fn relu_copy(t: &Tensor) -> Tensor {
    Tensor {
        shape: t.shape.clone(),
        data: t.data.iter().map(|x| x.max(0.0)).collect(),
    }
}
// ANCHOR_END: by_value

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_types_stay_usable_after_being_passed() {
        let v = Vec2 { x: 3.0, y: 4.0 };
        let w = v; // a copy, not a move
        assert_eq!(v.length(), 5.0);
        assert_eq!(w, v);
    }

    #[test]
    fn moving_a_tensor_keeps_its_heap_buffer() {
        let t = Tensor::from_vec(&[2, 2], vec![-1.0, 2.0, -3.0, 4.0]).unwrap();
        let buffer = t.data.as_ptr();
        let r = relu(t);
        assert_eq!(r.data, [0.0, 2.0, 0.0, 4.0]);
        assert_eq!(r.data.as_ptr(), buffer);
    }

    #[test]
    fn cloning_allocates_a_new_buffer() {
        let t = Tensor::zeros(&[3, 4]);
        let c = t.clone();
        assert_eq!(c, t);
        assert_ne!(c.data.as_ptr(), t.data.as_ptr());
        assert_eq!(t.len(), 12);
        assert!(!t.is_empty());
    }

    #[test]
    fn relu_copy_leaves_the_input_alone() {
        let t = Tensor::from_vec(&[2], vec![-1.0, 1.0]).unwrap();
        let r = relu_copy(&t);
        assert_eq!(t.data, [-1.0, 1.0]);
        assert_eq!(r.data, [0.0, 1.0]);
        assert_ne!(r.data.as_ptr(), t.data.as_ptr());
    }

    #[test]
    fn from_vec_checks_the_size() {
        assert!(Tensor::from_vec(&[2, 3], vec![0.0; 5]).is_none());
        assert!(Tensor::zeros(&[0]).is_empty());
    }
}
