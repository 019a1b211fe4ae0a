fn consume(values: Vec<f32>) -> usize {
    values.len()
}

fn main() {
    let data = vec![1.0_f32, 2.0];
    let n = consume(data); // `data` moves into `consume`…
    println!("{n} {}", data.len()); // …so it cannot be used here
}
