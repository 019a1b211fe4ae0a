// Workgroups: SIZE = 9 elements, workgroups of GROUP_SIZE = 4 threads, 3 workgroups.
// Set out[i] = a(i) + 10. Compute i from group (this workgroup's number) and local
// (this thread's number inside its workgroup), without using global.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    // your code
}
