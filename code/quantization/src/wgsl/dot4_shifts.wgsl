// ANCHOR: dot4_shifts
// The same sum by hand: move each byte to the top, then an arithmetic shift right by 24
// brings it back sign-extended.
fn dot4(a: u32, b: u32) -> i32 {
    var acc = 0i;
    for (var j = 0u; j < 4u; j++) {
        let up = 24u - 8u * j;
        acc += (bitcast<i32>(a << up) >> 24u) * (bitcast<i32>(b << up) >> 24u);
    }
    return acc;
}
// ANCHOR_END: dot4_shifts
