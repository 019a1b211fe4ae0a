//! Small measured demos for the specialisations page: AoS vs SoA, a bump allocator and the
//! online softmax behind Flash Attention.

pub mod aos_soa;
pub mod bump;
pub mod online_softmax;
