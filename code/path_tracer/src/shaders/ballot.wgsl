// Lane use counted by subgroup ballots, shared by the three counting kernels (lane_count.wgsl,
// bounce_lanes.wgsl, wavefront_lanes.wgsl). WGSL has no imports: the crate joins this file to
// each of them, and each declares its own `lane_counters` array of atomics.

// The lowest lane set in a ballot (the ballot of a running lane is never empty).
fn lowest_lane(b: vec4u) -> u32 {
    if b.x != 0u { return firstTrailingBit(b.x); }
    if b.y != 0u { return 32u + firstTrailingBit(b.y); }
    if b.z != 0u { return 64u + firstTrailingBit(b.z); }
    return 96u + firstTrailingBit(b.w);
}

// ANCHOR: count_ballot
// The lanes that reach this call together vote. The lowest of them adds how many voted to
// `lane_counters[busy]`, the subgroup's width to `lane_counters[offered]` and one ballot to
// `lane_counters[ballots]`: the hardware's own lane use, counted while the kernel runs.
fn count_ballot(lane: u32, width: u32, busy: u32, offered: u32, ballots: u32) {
    let voters = subgroupBallot();
    if lane == lowest_lane(voters) {
        let voted = countOneBits(voters);
        atomicAdd(&lane_counters[busy], voted.x + voted.y + voted.z + voted.w);
        atomicAdd(&lane_counters[offered], width);
        atomicAdd(&lane_counters[ballots], 1u);
    }
}
// ANCHOR_END: count_ballot
