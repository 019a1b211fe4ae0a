// Reads the count, then writes count + 1: two threads that read the same count lose an update.
fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let i = global.x;
    if i < SIZE {
        let bin = a(i);
        let count = atomicLoad(&out[bin]);
        atomicStore(&out[bin], count + 1u);
    }
}
