// No barrier between loading the tiles and using them: a thread may multiply slots that other
// threads have not written yet. On software GPUs, which run a workgroup a few threads at a time,
// it fails every time; on a real GPU it can pass by luck, which is what makes it dangerous.
var<workgroup> a_tile: array<f32, 16>;
var<workgroup> b_tile: array<f32, 16>;

fn puzzle(global: vec2<u32>, local: vec2<u32>, group: vec2<u32>) {
    let row = global.y;
    let col = global.x;
    let r = local.y;
    let c = local.x;
    var acc = 0.0;
    for (var t = 0u; t < (N + TILE - 1u) / TILE; t++) {
        let a_col = t * TILE + c;
        let b_row = t * TILE + r;
        var a_value = 0.0;
        if row < N && a_col < N {
            a_value = a(row * N + a_col);
        }
        var b_value = 0.0;
        if b_row < N && col < N {
            b_value = b(b_row * N + col);
        }
        a_tile[r * TILE + c] = a_value;
        b_tile[r * TILE + c] = b_value;
        for (var k = 0u; k < TILE; k++) {
            acc += a_tile[r * TILE + k] * b_tile[k * TILE + c];
        }
        workgroupBarrier();
    }
    if row < N && col < N {
        out[row * N + col] = acc;
    }
}
