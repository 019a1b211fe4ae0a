// ANCHOR: coop_gemm_bindings
// C (m×n) = A (m×k) · B (k×n), all row-major, on the cooperative-matrix units. S is the tile
// size (8 or 16), AB the inputs' type, CR the accumulator's; m and n are multiples of 2S, k of S.
// A workgroup is one subgroup: its threads own a 2S×2S block of C as four S×S accumulators.
@group(0) @binding(0) var<storage, read> dims: array<u32>; // m, n, k
@group(0) @binding(1) var<storage, read> a: array<AB>;
@group(0) @binding(2) var<storage, read> b: array<AB>;
@group(0) @binding(3) var<storage, read> zeros: array<CR>; // S×S zeros: the accumulators' start
@group(0) @binding(4) var<storage, read_write> c: array<CR>;

// ANCHOR_END: coop_gemm_bindings
// ANCHOR: coop_gemm_main
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) g: vec3<u32>) {
    let n = dims[1];
    let k = dims[2];
    let r = g.y * 2u * S;
    let s = g.x * 2u * S;
    var c00 = coopLoadT<coop_matSxS<CR, C>>(&zeros[0], S);
    var c01 = c00;
    var c10 = c00;
    var c11 = c00;
    for (var p = 0u; p < k; p += S) {
        // Every offset is a named value: naga 30's SPIR-V writer panicked ("expression is not
        // cached") while this kernel's stores took pointers such as &c[ct0 + S].
        let at0 = r * k + p;
        let at1 = at0 + S * k;
        let bt0 = p * n + s;
        let bt1 = bt0 + S;
        let a0 = coopLoadT<coop_matSxS<AB, A>>(&a[at0], k);
        let a1 = coopLoadT<coop_matSxS<AB, A>>(&a[at1], k);
        let b0 = coopLoadT<coop_matSxS<AB, B>>(&b[bt0], n);
        let b1 = coopLoadT<coop_matSxS<AB, B>>(&b[bt1], n);
        c00 = coopMultiplyAdd(a0, b0, c00);
        c01 = coopMultiplyAdd(a0, b1, c01);
        c10 = coopMultiplyAdd(a1, b0, c10);
        c11 = coopMultiplyAdd(a1, b1, c11);
    }
    let ct0 = r * n + s;
    let ct1 = ct0 + S;
    let ct2 = ct0 + S * n;
    let ct3 = ct2 + S;
    coopStoreT(c00, &c[ct0], n);
    coopStoreT(c01, &c[ct1], n);
    coopStoreT(c10, &c[ct2], n);
    coopStoreT(c11, &c[ct3], n);
}
// ANCHOR_END: coop_gemm_main
