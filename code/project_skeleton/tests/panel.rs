//! The display's widgets without a window or a GPU: egui_kittest paints the panel over a running
//! (CPU) pipeline; results arrive, the statistics are shown, and dropping the panel shuts the
//! pipeline down with nothing lost.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_winit_wgpu_template::extension::PanelExtension;
use project_skeleton::display::{PipelinePanel, ReportSlot};
use project_skeleton::pipeline::clock::{Clock, SystemClock};
use project_skeleton::pipeline::process::CpuHistogram;
use project_skeleton::pipeline::queue::Policy;
use project_skeleton::pipeline::recorder::Recorder;
use project_skeleton::pipeline::run::{Pipeline, PipelineConfig};
use project_skeleton::pipeline::source::{FrameSource, SourceConfig};

#[test]
fn the_panel_shows_results_and_statistics_and_shuts_the_pipeline_down_when_dropped() {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock::new());
    let source = FrameSource::new(SourceConfig {
        period: Duration::from_millis(2),
        ..SourceConfig::DEFAULT
    })
    .unwrap();
    let recorder = Recorder::spawn(Vec::new(), 64).unwrap();
    let config = PipelineConfig {
        capacity: 4,
        policy: Policy::DropOldest,
    };
    let pipeline = Pipeline::start(
        source,
        CpuHistogram,
        config,
        clock.clone(),
        recorder.handle(),
    )
    .unwrap();
    let slot: ReportSlot = Arc::new(Mutex::new(None));
    let panel = PipelinePanel::new(pipeline, clock, slot.clone());
    let mut harness = Harness::new_ui_state(
        |ui, panel: &mut PipelinePanel| {
            panel.ui(ui);
        },
        panel,
    );
    // The panel asks to be painted again every frame: step it, as a display would.
    let deadline = Instant::now() + Duration::from_secs(30);
    while harness.state().view().received < 3 {
        assert!(Instant::now() < deadline, "no results reached the panel");
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    harness.step();
    let shown = harness.state().latest().map(|r| r.frame.index).unwrap();
    assert!(
        harness
            .query_by_label_contains(&format!("frame {shown}"))
            .is_some()
    );
    for words in [
        "frames made",
        "dropped: before processing",
        "queue depth",
        "p99 latency",
    ] {
        assert!(
            harness.query_by_label_contains(words).is_some(),
            "no {words:?} label"
        );
    }

    drop(harness);
    let report = slot
        .lock()
        .unwrap()
        .take()
        .expect("the panel left a report");
    let report = report.unwrap();
    assert_eq!(report.lost(), 0, "{report:?}");
    assert!(report.delivered >= 3);
    recorder.finish().unwrap();
}
