// Right answer, but three global reads per thread where one is allowed.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    var sum = a(i);
    if i >= 1u {
        sum += a(i - 1u);
    }
    if i >= 2u {
        sum += a(i - 2u);
    }
    out[i] = sum;
}
