use crate::{Image, PoolError, pooled_shape};

/// Max pooling on the CPU (solution).
pub fn max_pool_cpu(image: &Image, k: usize) -> Result<Image, PoolError> {
    let (oh, ow) = pooled_shape(image.height, image.width, k)?;
    let mut data = Vec::with_capacity(image.channels * oh * ow);
    for c in 0..image.channels {
        for oy in 0..oh {
            for ox in 0..ow {
                let mut best = f32::NEG_INFINITY;
                for dy in 0..k {
                    for dx in 0..k {
                        best = best.max(image.at(c, oy * k + dy, ox * k + dx));
                    }
                }
                data.push(best);
            }
        }
    }
    Image::new(image.channels, oh, ow, data)
}
