// Wrong on purpose (check-exercises proves it loses points): 
/// How many workgroups to dispatch for an `m × n` output (solution): one per 16×16 tile.
pub fn workgroups(m: u32, n: u32) -> (u32, u32) {
    // Wrong on purpose: rows along x, columns along y.
    (m.div_ceil(16), n.div_ceil(16))
}
