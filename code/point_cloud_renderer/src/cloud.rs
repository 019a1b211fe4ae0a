//! The points to draw: positions and colours, from module 3's test scene, in the scene's own
//! order or sorted along a Morton (Z-order) curve.

use quantization::specialisations::point_cloud::{Grid, PointCloudError, scene};

/// Positions and one RGBA8 colour per point (red in the low byte, as WGSL's `pack4x8unorm`).
/// A point's id is its index.
#[derive(Clone, Debug, PartialEq)]
pub struct PointCloud {
    pub positions: Vec<[f32; 3]>,
    pub colours: Vec<u32>,
}

/// Bits per axis of the Morton key: 3 × 10 bits fill a u32 key with 2 to spare.
const MORTON_BITS: u32 = 10;

impl PointCloud {
    /// Module 3's scene (three spheres and two tilted rectangles in a 10 m box) with about
    /// `points` points (rounded down to a multiple of five shapes, at least five), each coloured
    /// by where it is in the box.
    pub fn scene(points: usize, seed: u64) -> Self {
        let positions = scene((points / 5).max(1), seed);
        let colours = positions.iter().map(|&p| colour_of(p)).collect();
        Self { positions, colours }
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    // ANCHOR: morton_sort
    /// The same points reordered along a Z-order curve through their bounding box, so that
    /// points with neighbouring ids are neighbours in space, and so on the screen.
    pub fn sorted_morton(&self) -> Result<Self, PointCloudError> {
        let grid = Grid::fit(&self.positions, MORTON_BITS)?;
        let mut order: Vec<(u32, usize)> = self
            .positions
            .iter()
            .enumerate()
            .map(|(i, &p)| (morton3(grid.encode(p)), i))
            .collect();
        order.sort_unstable();
        Ok(Self {
            positions: order.iter().map(|&(_, i)| self.positions[i]).collect(),
            colours: order.iter().map(|&(_, i)| self.colours[i]).collect(),
        })
    }
    // ANCHOR_END: morton_sort
}

/// The Z-order key of a cell: the bits of x, y and z interleaved (x lowest), 10 bits each.
pub fn morton3(cell: [u32; 3]) -> u32 {
    let spread = |v: u32| {
        // Each step moves groups of bits apart so that two zeros follow every bit.
        let mut v = v & 0x3FF;
        v = (v | (v << 16)) & 0x0300_00FF;
        v = (v | (v << 8)) & 0x0300_F00F;
        v = (v | (v << 4)) & 0x030C_30C3;
        (v | (v << 2)) & 0x0924_9249
    };
    spread(cell[0]) | spread(cell[1]) << 1 | spread(cell[2]) << 2
}

/// A colour from a position in the 10 m box: x to red, y to green, z to blue.
fn colour_of(p: [f32; 3]) -> u32 {
    let byte = |c: f32| (c / 10.0 * 255.0).clamp(0.0, 255.0) as u32;
    byte(p[0]) | byte(p[1]) << 8 | byte(p[2]) << 16 | 0xFF << 24
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn morton3_interleaves_bits() {
        assert_eq!(morton3([1, 0, 0]), 0b001);
        assert_eq!(morton3([0, 1, 0]), 0b010);
        assert_eq!(morton3([0, 0, 1]), 0b100);
        assert_eq!(morton3([3, 0, 0]), 0b001_001);
        assert_eq!(morton3([1023, 1023, 1023]), (1 << 30) - 1);
    }

    #[test]
    fn sorting_keeps_every_point_with_its_colour() {
        let cloud = PointCloud::scene(2_000, 3);
        let sorted = cloud.sorted_morton().unwrap();
        let key = |c: &PointCloud| {
            let mut v: Vec<([u32; 3], u32)> = c
                .positions
                .iter()
                .zip(&c.colours)
                .map(|(p, &col)| (p.map(f32::to_bits), col))
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(key(&cloud), key(&sorted));
        assert_ne!(cloud.positions, sorted.positions);
    }
}
