fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    out[global.x] = a(global.x) + 10.0;
}
