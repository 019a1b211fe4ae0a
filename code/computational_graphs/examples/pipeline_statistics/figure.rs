//! The figure's table row and its chart, apart from the measuring code so that a test can
//! redraw the committed chart from its table.

use bench_harness::{BarChart, Drawn, Found};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Row {
    pub device: String,
    pub driver: String,
    pub kernel: String,
    /// Created like `create_shader_module_trusted(.., ShaderRuntimeChecks::unchecked())`.
    pub wgpu_checks: String,
    /// naga's bounds-check policies and the other checks of this module.
    pub checks: String,
    pub spirv_words: usize,
    pub executable: String,
    pub statistic: String,
    pub value: String,
    pub description: String,
}

/// The sidecars' `program`: how `--redraw` finds this program's figures.
pub const SOURCES: [&str; 1] = ["code/computational_graphs/examples/pipeline_statistics/main.rs"];

/// The registers per invocation of each kernel, one bar per kernel, for the first device with
/// a "Register Count" statistic (NVIDIA's name; a driver without it gets no chart).
pub fn chart(rows: &[Row]) -> Option<String> {
    let device = rows.iter().find(|r| r.statistic == "Register Count")?;
    let bars = rows
        .iter()
        .filter(|r| r.device == device.device && r.statistic == "Register Count")
        .filter_map(|r| Some((r.kernel.clone(), r.value.parse::<f64>().ok()?, None)))
        .collect();
    Some(
        BarChart {
            title: "Registers per invocation of each matmul ladder kernel".into(),
            subtitle: format!(
                "{} ({}), 4096³, as its Vulkan driver compiled them",
                device.device, device.driver
            ),
            y_label: "registers per invocation".into(),
            log_y: false,
            bars,
        }
        .to_svg(),
    )
}

pub fn draw(found: &Found) -> Result<Drawn, bench_harness::FigureError> {
    let rows: Vec<Row> = found.rows()?;
    Ok(match chart(&rows) {
        Some(svg) => Drawn::chart(found, svg),
        None => Drawn::Kept("no device reported a Register Count".into()),
    })
}
