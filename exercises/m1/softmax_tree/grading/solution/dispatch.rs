/// The workgroup grid for one workgroup per row (solution).
pub fn workgroup_grid(rows: u32) -> (u32, u32) {
    let x = rows.clamp(1, crate::MAX_GROUPS_PER_DIMENSION);
    (x, rows.div_ceil(x))
}
