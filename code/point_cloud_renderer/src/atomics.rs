//! A debug variant of the splat pass that counts its own atomics: how many points it tests, how
//! many `atomicMin`s it issues and how many of those lower their pixel. It turns "early reject
//! skips most atomics" from a reading of times into a count.

use gpu_context::GpuContext;

use crate::renderer::COMMON;
use crate::{RenderError, Renderer};

const COUNTED: &str = include_str!("wgsl/splat_counted.wgsl");

/// Which splat kernel the counting frame runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountedSplat {
    /// Module 3's kernel: one `atomicMin` per point on screen.
    Naive,
    /// Read the pixel first; issue the `atomicMin` only when the point is nearer.
    EarlyReject,
}

impl CountedSplat {
    pub const ALL: [CountedSplat; 2] = [CountedSplat::Naive, CountedSplat::EarlyReject];

    pub fn label(self) -> &'static str {
        match self {
            CountedSplat::Naive => "naive",
            CountedSplat::EarlyReject => "early_reject",
        }
    }

    fn entry_point(self) -> &'static str {
        match self {
            CountedSplat::Naive => "splat_naive_counted",
            CountedSplat::EarlyReject => "splat_early_reject_counted",
        }
    }
}

/// One frame's splat, counted by the kernel itself.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct AtomicCounts {
    /// Points on screen and within the depth range: each is tested against its pixel.
    pub tested: u32,
    /// `atomicMin`s issued: every tested point in the naive kernel, only those the read did not
    /// reject with early reject.
    pub issued: u32,
    /// `atomicMin`s that lowered their pixel's value (the point was the nearest so far).
    pub won: u32,
}

impl Renderer {
    /// Runs one frame's clear, projection and a counting splat, and returns the counts; the
    /// depth|id image is then that frame's (its colours are not resolved). A debug tool: frames
    /// that count are never timed, and the order in which threads reach a pixel, hence `won`
    /// and early reject's `issued`, may change from one frame to the next.
    pub fn count_atomics(
        &self,
        ctx: &GpuContext,
        splat: CountedSplat,
    ) -> Result<AtomicCounts, RenderError> {
        let source = format!("{COMMON}\n{COUNTED}");
        let pipeline = ctx.cached_pipeline("splat_counted", &source, splat.entry_point())?;
        let counts = ctx.upload("atomic counts", &[AtomicCounts::default()])?;
        let bind_group = ctx.bind_buffers(
            &pipeline,
            &[&self.params, &self.screen, &self.image, &counts],
        );
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.clear
            .record(&mut encoder.begin_compute_pass(&Default::default()));
        self.project
            .record(&mut encoder.begin_compute_pass(&Default::default()));
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            // The same grid as the splat pass it stands for.
            pass.dispatch_workgroups(self.splat_naive.groups, 1, 1);
        }
        ctx.queue.submit([encoder.finish()]);
        let counts: Vec<AtomicCounts> = ctx.download(&counts)?;
        Ok(counts[0])
    }
}
