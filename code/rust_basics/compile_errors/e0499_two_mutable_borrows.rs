fn main() {
    let mut weights = vec![0.5_f32, 0.25];
    let a = &mut weights;
    let b = &mut weights; // a second `&mut` while the first is still alive
    a.push(1.0);
    b.push(2.0);
}
