use computational_graphs::tensor::Tensor2D;

/// The output values, row by row. Output element (r, c) is the largest value of the k×k window
/// whose top-left corner is input element (r·k, c·k).
///
/// `output` is what `pooled_shape` returned for this input, so every window fits inside it.
pub fn max_pool(_input: &Tensor2D, _k: usize, _output: (usize, usize)) -> Vec<f32> {
    todo!("one maximum per output element, over its k×k window")
}
