fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    if i < SIZE {
        out[i] = a(i) + 10.0;
    }
}
