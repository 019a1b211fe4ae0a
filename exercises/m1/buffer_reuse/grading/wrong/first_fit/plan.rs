// Wrong on purpose (check-exercises proves it loses points): a free allocation is chosen by
// its index (first fit), not by the smallest size that fits (best fit).
use computational_graphs::graph::{BufferId, Contents, NodeKind, VerifiedGraph};

use crate::{BufferPlan, PlanError, buffer_bytes, last_uses};

/// Places every used device buffer in an allocation, sharing where lives do not overlap
/// (solution).
pub fn plan_buffers(graph: &VerifiedGraph, keep: &[BufferId]) -> Result<BufferPlan, PlanError> {
    let last = last_uses(graph, keep)?;
    let count = graph.buffers().len();
    // A buffer read by a DeviceToHost must survive until the host has it: the course's GPU
    // runner records the copies back after the last node.
    let mut sent_back = vec![false; count];
    for node in graph.nodes() {
        if node.kind == NodeKind::DeviceToHost {
            for &b in node.reads() {
                sent_back[b] = true;
            }
        }
    }
    // A kept buffer may share too: its last use is after the run, so it is never freed.
    let shareable = |b: BufferId| {
        graph.is_device(b) && graph.buffer(b).contents == Contents::Empty && !sent_back[b]
    };
    let mut plan = BufferPlan {
        allocation_of: vec![None; count],
        allocation_bytes: Vec::new(),
    };
    for (b, life) in last.iter().enumerate() {
        if graph.is_device(b) && life.is_some() && !shareable(b) {
            plan.allocation_bytes.push(buffer_bytes(graph, b));
            plan.allocation_of[b] = Some(plan.allocation_bytes.len() - 1);
        }
    }
    let mut free: Vec<usize> = Vec::new();
    for (index, node) in graph.nodes().iter().enumerate() {
        let output = node.output();
        if shareable(output) {
            let bytes = buffer_bytes(graph, output);
            let best = free
                .iter()
                .enumerate()
                .filter(|&(_, &a)| plan.allocation_bytes[a] >= bytes)
                .min_by_key(|&(_, &a)| a)
                .map(|(slot, _)| slot);
            let a = match best {
                Some(slot) => free.swap_remove(slot),
                None => {
                    plan.allocation_bytes.push(bytes);
                    plan.allocation_bytes.len() - 1
                }
            };
            plan.allocation_of[output] = Some(a);
        }
        // Only after the output has its allocation: a node never writes what it reads.
        for &b in &node.buffers {
            if shareable(b)
                && last[b] == Some(index)
                && let Some(a) = plan.allocation_of[b]
                && !free.contains(&a)
            {
                free.push(a);
            }
        }
    }
    Ok(plan)
}
