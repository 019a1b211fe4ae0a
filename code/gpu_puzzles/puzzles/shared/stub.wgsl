// Workgroup memory: SIZE = 8 elements, workgroups of GROUP_SIZE = 4 threads.
// Set out[i] = a(i) + a(j), where j is i's right neighbour inside the same workgroup
// (the last thread of a workgroup wraps to its first).
// Each thread may read global memory ONCE: load into a var<workgroup> array, wait for the
// whole workgroup with workgroupBarrier(), then read the neighbour from there.
// var<workgroup> cache: array<f32, GROUP_SIZE>;
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
