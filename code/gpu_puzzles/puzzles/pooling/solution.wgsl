var<workgroup> cache: array<f32, SIZE>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = local.x;
    cache[i] = a(i);
    workgroupBarrier();
    var sum = cache[i];
    if i >= 1u {
        sum += cache[i - 1u];
    }
    if i >= 2u {
        sum += cache[i - 2u];
    }
    out[i] = sum;
}
