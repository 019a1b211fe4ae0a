//! Running a solution natively through wgpu (lavapipe in the tests), judged like the page does.

use gpu_context::{GpuContext, GpuError, block_on, wgpu};

use crate::check::{Verdict, judge};
use crate::harness::{HIDDEN, full_source};
use crate::puzzle::{Elem, Puzzle};

#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    #[error("the shader does not compile:\n{0}")]
    Compile(String),
    #[error(
        "the code names `{HIDDEN}…`, the harness's own buffers: read inputs through their accessors, e.g. a(i)"
    )]
    Hidden,
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// What one run produced and how it was judged.
#[derive(Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    /// The whole output buffer, padding included.
    pub output: Vec<f64>,
    /// Global reads per thread.
    pub reads: Vec<u32>,
}

fn layout(ctx: &GpuContext, puzzle: &Puzzle) -> wgpu::BindGroupLayout {
    let entry = |binding: usize, read_only: bool| wgpu::BindGroupLayoutEntry {
        binding: binding as u32,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let n = puzzle.inputs.len();
    let entries: Vec<_> = (0..n)
        .map(|i| entry(i, true))
        .chain([entry(n, false), entry(n + 1, false)])
        .collect();
    ctx.device
        .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("puzzle"),
            entries: &entries,
        })
}

fn upload(
    ctx: &GpuContext,
    label: &str,
    elem: Elem,
    data: &[f64],
) -> Result<wgpu::Buffer, GpuError> {
    match elem {
        Elem::F32 => ctx.upload(label, &data.iter().map(|x| *x as f32).collect::<Vec<_>>()),
        Elem::U32 => ctx.upload(label, &data.iter().map(|x| *x as u32).collect::<Vec<_>>()),
    }
}

/// Compiles `student` with the puzzle's harness, runs it once on the puzzle's inputs and judges it.
pub fn run(ctx: &GpuContext, puzzle: &Puzzle, student: &str) -> Result<Outcome, PuzzleError> {
    if student.contains(HIDDEN) {
        return Err(PuzzleError::Hidden);
    }
    let device = &ctx.device;
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(puzzle.id),
        source: wgpu::ShaderSource::Wgsl(full_source(puzzle, student).into()),
    });
    let bind_layout = layout(ctx, puzzle);
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(puzzle.id),
        bind_group_layouts: &[Some(&bind_layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(puzzle.id),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(error) = block_on(scope.pop()) {
        return Err(PuzzleError::Compile(error.to_string()));
    }
    let mut buffers = Vec::new();
    for input in &puzzle.inputs {
        buffers.push(upload(ctx, input.name, input.elem, &input.data)?);
    }
    let zeros = vec![0.0; puzzle.padded_len()];
    buffers.push(upload(ctx, puzzle.output.name, puzzle.output.elem, &zeros)?);
    buffers.push(ctx.upload("reads", &vec![0u32; puzzle.total_threads()])?);
    let entries: Vec<_> = buffers
        .iter()
        .enumerate()
        .map(|(i, b)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: b.as_entire_binding(),
        })
        .collect();
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(puzzle.id),
        layout: &bind_layout,
        entries: &entries,
    });
    let [gx, gy] = puzzle.workgroups;
    ctx.dispatch(&pipeline, &bind_group, [gx, gy, 1]);
    let out_buffer = &buffers[puzzle.inputs.len()];
    let output: Vec<f64> = match puzzle.output.elem {
        Elem::F32 => ctx
            .download::<f32>(out_buffer)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::U32 => ctx
            .download::<u32>(out_buffer)?
            .into_iter()
            .map(f64::from)
            .collect(),
    };
    let reads: Vec<u32> = ctx.download(&buffers[puzzle.inputs.len() + 1])?;
    Ok(Outcome {
        verdict: judge(puzzle, &output, &reads),
        output,
        reads,
    })
}
