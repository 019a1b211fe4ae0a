/// How many workgroups `linear_tiled` dispatches along x and y (solution).
pub fn workgroups(m: u32, n: u32) -> (u32, u32) {
    (n.div_ceil(16), m.div_ceil(16))
}
