//! Module 4: where time and memory go, on the CPU and the GPU.
//!
//! - [`chrome_trace`]: `tracing` spans recorded as a Chrome trace (open it in Perfetto), with the
//!   GPU's timing scopes from `gpu_context` added on their own row;
//! - [`timeline`]: one frame of such a trace drawn as an SVG timeline, CPU spans over GPU scopes;
//! - [`span_cost`]: what a span costs when nobody listens, when it is filtered out, when recorded;
//! - [`graph_frames`]: the course's random graph as a profiled frame, CPU spans and GPU scopes;
//! - [`training`]: a case study, a two-layer network trained with the graph crate's backward
//!   pass, and its gradients written out for a check against PyTorch's autograd;
//! - [`inference`]: a case study, module 3's quantized classifier served on the GPU, first
//!   dequantizing into f32 buffers, then with the dequantization fused into the GEMM;
//! - [`training_gpu`]: the same training step on the GPU, weights kept there between steps;
//! - [`yolo`]: a case study, the post-processing of an object detector (letterboxing and
//!   non-maximum suppression), measured and tested on generated boxes.

pub mod chrome_trace;
pub mod graph_frames;
pub mod inference;
pub mod span_cost;
pub mod timeline;
pub mod training;
pub mod training_gpu;
pub mod yolo;
