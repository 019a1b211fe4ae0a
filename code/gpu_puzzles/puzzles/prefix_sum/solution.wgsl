var<workgroup> cache: array<f32, SIZE>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = local.x;
    cache[i] = a(i);
    workgroupBarrier();
    for (var offset = 1u; offset < SIZE; offset *= 2u) {
        var left = 0.0;
        if i >= offset {
            left = cache[i - offset];
        }
        workgroupBarrier();
        cache[i] += left;
        workgroupBarrier();
    }
    out[i] = cache[i];
}
