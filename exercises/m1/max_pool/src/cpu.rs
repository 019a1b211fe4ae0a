use crate::{Image, PoolError};

/// Max pooling with window and stride `k` on the CPU: every output element is the largest value
/// of its k × k window, channel by channel.
pub fn max_pool_cpu(_image: &Image, _k: usize) -> Result<Image, PoolError> {
    todo!("loop over channels, output rows and columns, and the window")
}
