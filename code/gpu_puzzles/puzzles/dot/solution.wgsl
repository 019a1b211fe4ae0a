var<workgroup> products: array<f32, SIZE>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = local.x;
    products[i] = a(i) * b(i);
    workgroupBarrier();
    if i == 0u {
        var sum = 0.0;
        for (var k = 0u; k < SIZE; k++) {
            sum += products[k];
        }
        out[0] = sum;
    }
}
