fn main() {
    let data = vec![1.0_f32, 2.0, 3.0];
    // The new thread may outlive `main`'s stack frame, so it may not borrow `data`.
    let handle = std::thread::spawn(|| data.iter().sum::<f32>());
    println!("{}", handle.join().unwrap());
}
