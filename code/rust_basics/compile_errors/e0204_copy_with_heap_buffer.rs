// A type that owns a heap buffer cannot be `Copy`: two bitwise copies would both free it.
#[derive(Clone, Copy)]
struct Tensor {
    data: Vec<f32>,
}

fn main() {
    let t = Tensor { data: vec![1.0] };
    let u = t;
    println!("{}", t.data.len() + u.data.len());
}
