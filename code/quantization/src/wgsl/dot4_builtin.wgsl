// ANCHOR: dot4_builtin
// One instruction where the device has packed integer dot products (SPIR-V OpSDot);
// naga writes the same unpack-multiply-add sequence as below where it has not.
fn dot4(a: u32, b: u32) -> i32 {
    return dot4I8Packed(a, b);
}
// ANCHOR_END: dot4_builtin
