fn main() {
    let mut scores = vec![1.0_f32, 2.0];
    let first = &scores[0]; // a shared borrow of `scores` starts here…
    scores.push(3.0); // …so `push` may not borrow it mutably: it could move the elements
    println!("{first}"); // …because the shared borrow is still used here
}
