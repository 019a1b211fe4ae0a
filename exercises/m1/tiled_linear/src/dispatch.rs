/// How many workgroups `linear_tiled` dispatches along x and y for an `m × n` output, so that
/// your kernel's tiles cover every element.
pub fn workgroups(_m: u32, _n: u32) -> (u32, u32) {
    todo!("one workgroup per output tile")
}
