//! Chain fusion: a run of small Linears (with their ReLUs, and a softmax at the end) in one
//! dispatch.
//!
//! On a large GPU, a 64×64 or 256×256 Linear is a few microseconds of work, about as long as the
//! gap between two dependent dispatches; a graph of such layers spends its time between kernels.
//! Every operator of such a chain works on rows independently (a Linear mixes columns, never
//! rows), so one workgroup can take a row and carry it through every layer in workgroup memory,
//! reading only the weights from global memory. The price is parallelism: a chain kernel has one
//! workgroup per row and one invocation per column, so it only pays for narrow layers. Every
//! workgroup reads every weight, so a chain of many rows reads each weight matrix once per row;
//! the block layouts of [`super::chain_block`] share each weight among a block of rows.

use gpu_context::{GpuContext, wgpu};

use super::lower::{KernelIr, OpCode};
use crate::Error;
use crate::graph::{BufferId, Contents, VerifiedGraph};
use crate::ops::gpu::Dispatch;

const TEMPLATE: &str = include_str!("chain_kernel.wgsl");

/// Layers wider than this stay separate kernels: a workgroup has one invocation per column, and
/// at most 256 of them.
pub const MAX_WIDTH: usize = 256;

/// One step of a chain, applied to the rows held in workgroup memory.
#[derive(Clone, Debug, PartialEq)]
pub enum ChainStep {
    /// rows ← rows · weights + bias (k → n columns), then max(·, 0) when `relu`.
    Linear {
        weights: BufferId,
        bias: BufferId,
        k: usize,
        n: usize,
        relu: bool,
    },
    Relu {
        width: usize,
    },
    Softmax {
        width: usize,
    },
}

/// One merged kernel seen as a link of a chain: what it reads, its steps, what it writes.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub input: BufferId,
    pub width_in: usize,
    pub steps: Vec<ChainStep>,
    pub output: BufferId,
    pub rows: usize,
    pub width_out: usize,
}

/// A kernel's op codes as a link, if every op has a chain step and its weights and biases are
/// parameters (they are packed into one buffer when the chain is compiled).
pub fn as_link(graph: &VerifiedGraph, ir: &KernelIr) -> Option<Link> {
    let is_parameter = |b: BufferId| matches!(graph.buffer(b).contents, Contents::Parameter(_));
    let mut input = None;
    let mut width_in = ir.cols;
    let mut output = None;
    let mut steps: Vec<ChainStep> = Vec::new();
    let mut pending_matmul = None;
    for op in &ir.ops {
        match *op {
            OpCode::Load { buffer } if input.is_none() => input = Some(buffer),
            OpCode::MatMul {
                input: a,
                weights,
                k,
            } if input.is_none() && is_parameter(weights) => {
                input = Some(a);
                width_in = k;
                pending_matmul = Some((weights, k));
            }
            OpCode::AddBias { bias } if is_parameter(bias) => {
                let (weights, k) = pending_matmul.take()?;
                steps.push(ChainStep::Linear {
                    weights,
                    bias,
                    k,
                    n: ir.cols,
                    relu: false,
                });
            }
            OpCode::Relu => match steps.last_mut() {
                Some(ChainStep::Linear { relu, .. }) => *relu = true,
                Some(ChainStep::Relu { .. }) => {}
                _ => steps.push(ChainStep::Relu { width: ir.cols }),
            },
            OpCode::RowMax => steps.push(ChainStep::Softmax { width: ir.cols }),
            OpCode::ExpMinusMax | OpCode::RowSum | OpCode::DivBySum => {}
            OpCode::Store { buffer } => output = Some(buffer),
            _ => return None,
        }
    }
    if pending_matmul.is_some() || width_in > MAX_WIDTH || ir.cols > MAX_WIDTH {
        return None;
    }
    Some(Link {
        input: input?,
        width_in,
        steps,
        output: output?,
        rows: ir.rows,
        width_out: ir.cols,
    })
}

/// The widest layer of a chain (what its workgroup memory holds per row).
pub fn widest(links: &[Link]) -> usize {
    links
        .iter()
        .map(|l| l.width_in.max(l.width_out))
        .max()
        .unwrap_or(0)
}

/// Runs of consecutive kernels that form chains: each link reads what the one before it
/// wrote, nobody else reads that, and the rows agree. Returns (first, last) kernel indices of
/// every run of at least two links.
pub fn find_chains(graph: &VerifiedGraph, kernels: &[KernelIr]) -> Vec<(usize, usize)> {
    let readers = super::fuse::count_readers(graph);
    let links: Vec<Option<Link>> = kernels.iter().map(|ir| as_link(graph, ir)).collect();
    let mut chains = Vec::new();
    let mut i = 0;
    while i < links.len() {
        let mut j = i;
        while let (Some(Some(a)), Some(Some(b))) = (links.get(j), links.get(j + 1)) {
            let joined = links[i].is_some()
                && b.input == a.output
                && readers[a.output] == 1
                && a.rows == b.rows
                && a.width_out == b.width_in;
            if !joined {
                break;
            }
            j += 1;
        }
        if j > i {
            chains.push((i, j));
            i = j + 1;
        } else {
            i += 1;
        }
    }
    chains
}

/// A chain compiled: its WGSL, its packed parameters, and its grid.
pub struct ChainKernel {
    pub source: String,
    pub params: Vec<f32>,
    pub workgroups: [u32; 3],
    pub input: BufferId,
    pub output: BufferId,
}

/// A chain's steps and parameters packed into one buffer, and the sizes its kernels need.
pub struct PackedChain {
    /// Six words per step (see the templates), then every weight and bias.
    pub params: Vec<f32>,
    pub steps: usize,
    pub widest: usize,
    pub width_in: usize,
    pub width_out: usize,
    pub rows: usize,
    pub input: BufferId,
    pub output: BufferId,
}

/// Packs links `first..=last` (a run from [`find_chains`]) for either chain kernel.
pub fn pack_chain(graph: &VerifiedGraph, links: &[Link]) -> Result<PackedChain, Error> {
    let (first, last) = (links.first(), links.last());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(Error::Unsupported {
            kernel: "chain",
            detail: "a chain needs at least one link".into(),
        });
    };
    let parameter = |b: BufferId| match &graph.buffer(b).contents {
        Contents::Parameter(t) => Ok(t.data()),
        _ => Err(Error::Unsupported {
            kernel: "chain",
            detail: format!("{} is not a parameter", graph.buffer(b).name),
        }),
    };
    // Six words per step first (see the template), then every weight and bias.
    let all_steps: Vec<&ChainStep> = links.iter().flat_map(|l| &l.steps).collect();
    let mut words: Vec<u32> = Vec::with_capacity(6 * all_steps.len());
    let mut params: Vec<f32> = Vec::new();
    let mut widest = first.width_in;
    let offset = |params: &Vec<f32>| 6 * all_steps.len() + params.len();
    for step in &all_steps {
        let step_words = match **step {
            ChainStep::Linear {
                weights,
                bias,
                k,
                n,
                relu,
            } => {
                widest = widest.max(n);
                let w = offset(&params);
                params.extend_from_slice(parameter(weights)?);
                let b = offset(&params);
                params.extend_from_slice(parameter(bias)?);
                [0, k, n, w, b, usize::from(relu)]
            }
            ChainStep::Relu { width } => [1, 0, width, 0, 0, 0],
            ChainStep::Softmax { width } => [2, 0, width, 0, 0, 0],
        };
        let too_large = |x: usize| u32::try_from(x).is_err();
        if step_words.iter().any(|&x| too_large(x)) {
            return Err(Error::Unsupported {
                kernel: "chain",
                detail: format!("{} parameters do not fit 32-bit indices", params.len()),
            });
        }
        words.extend(step_words.map(|x| x as u32));
    }
    // The words travel bit for bit inside the float buffer.
    let mut packed: Vec<f32> = words.into_iter().map(f32::from_bits).collect();
    packed.append(&mut params);
    if packed.len() >= u32::MAX as usize {
        return Err(Error::Unsupported {
            kernel: "chain",
            detail: format!("{} parameters do not fit 32-bit indices", packed.len()),
        });
    }
    Ok(PackedChain {
        params: packed,
        steps: all_steps.len(),
        widest,
        width_in: first.width_in,
        width_out: last.width_out,
        rows: first.rows,
        input: first.input,
        output: last.output,
    })
}

/// The one-row-per-workgroup kernel for links `first..=last` (a run from [`find_chains`]).
pub fn generate_chain(graph: &VerifiedGraph, links: &[Link]) -> Result<ChainKernel, Error> {
    let packed = pack_chain(graph, links)?;
    let widest = packed.widest;
    // One invocation per column of the widest layer, a power of two (for the softmax's tree
    // reduction) of at least two warps.
    let threads = widest.next_power_of_two().clamp(64, MAX_WIDTH);
    let source = TEMPLATE
        .replace("{T}", &threads.to_string())
        .replace("{WIDEST}", &widest.to_string())
        .replace("{WIDTH_IN}", &packed.width_in.to_string())
        .replace("{WIDTH_OUT}", &packed.width_out.to_string())
        .replace("{STEPS}", &packed.steps.to_string());
    let rows = u32::try_from(packed.rows).map_err(|_| Error::Unsupported {
        kernel: "chain",
        detail: format!("{} rows do not fit a grid", packed.rows),
    })?;
    Ok(ChainKernel {
        source,
        params: packed.params,
        workgroups: [rows, 1, 1],
        input: packed.input,
        output: packed.output,
    })
}

impl ChainKernel {
    /// Compiles the kernel, uploads its parameters and binds it to the program's buffers.
    pub fn dispatch(
        &self,
        ctx: &GpuContext,
        input: &wgpu::Buffer,
        output: &wgpu::Buffer,
    ) -> Result<Dispatch, Error> {
        let max = ctx.device.limits().max_compute_workgroups_per_dimension;
        if self.workgroups[0] > max {
            return Err(Error::Unsupported {
                kernel: "chain",
                detail: format!(
                    "{} workgroups exceed the device's {max}",
                    self.workgroups[0]
                ),
            });
        }
        let pipeline = ctx.cached_pipeline("chain", &self.source, "main")?;
        let params = ctx.upload("chain parameters", &self.params)?;
        let bind_group = ctx.bind_buffers(&pipeline, &[input, &params, output]);
        Ok(Dispatch {
            label: "chain".into(),
            pipeline,
            bind_group,
            workgroups: self.workgroups,
        })
    }
}
