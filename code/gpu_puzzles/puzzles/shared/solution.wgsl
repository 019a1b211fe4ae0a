var<workgroup> cache: array<f32, GROUP_SIZE>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    cache[local.x] = a(i);
    workgroupBarrier();
    let right = (local.x + 1u) % GROUP_SIZE;
    out[i] = cache[local.x] + cache[right];
}
