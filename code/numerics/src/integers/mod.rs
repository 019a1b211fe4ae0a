//! Chapter 4, integers: overflow, casts, fixed point, division, and integers as keys.

mod division;
mod fixed;
mod keys;
mod overflow;
mod signed_division;

pub use division::{Divider, divide_by_constant_7, divide_by_divider, divide_by_variable};
pub use fixed::Q16;
pub use keys::{Channel, Interner, PerChannel};
pub use overflow::{OverflowModes, add_u8_every_way, as_casts};
pub use signed_division::{euclidean, min_divided_by_minus_one, truncated};
