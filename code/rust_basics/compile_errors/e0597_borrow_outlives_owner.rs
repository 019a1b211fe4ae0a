fn main() {
    let first;
    {
        let scores = vec![3.0_f32, 9.0];
        first = &scores[0];
    } // `scores` is dropped here, while `first` still points into it
    println!("{first}");
}
