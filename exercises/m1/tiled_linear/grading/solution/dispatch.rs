/// How many workgroups to dispatch for an `m × n` output (solution): one per 16×16 tile.
pub fn workgroups(m: u32, n: u32) -> (u32, u32) {
    (n.div_ceil(16), m.div_ceil(16))
}
