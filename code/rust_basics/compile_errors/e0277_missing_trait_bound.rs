fn largest<T: PartialOrd + Copy>(values: &[T]) -> T {
    let mut best = values[0];
    for &v in values {
        if v > best {
            best = v;
        }
    }
    best
}

#[derive(Clone, Copy)]
struct Complex {
    re: f32,
    im: f32,
}

fn main() {
    // Complex numbers have no order: `Complex` does not implement `PartialOrd`.
    let z = largest(&[Complex { re: 1.0, im: 0.0 }, Complex { re: 0.0, im: 1.0 }]);
    println!("{} {}", z.re, z.im);
}
