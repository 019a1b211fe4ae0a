use computational_graphs::tensor::Tensor2D;

/// The output values, row by row (solution).
pub fn max_pool(input: &Tensor2D, k: usize, output: (usize, usize)) -> Vec<f32> {
    let (rows, cols) = output;
    let mut values = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            // The lowest start, not 0: a window of negative numbers keeps its largest one.
            // Wrong on purpose: starting from 0, a window of negative numbers gives 0.
            let mut best = 0.0f32;
            for dy in 0..k {
                for dx in 0..k {
                    best = best.max(input.get(r * k + dy, c * k + dx));
                }
            }
            values.push(best);
        }
    }
    values
}
