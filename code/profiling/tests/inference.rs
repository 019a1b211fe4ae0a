//! The inference case study on this machine's adapter (lavapipe in CI): the server with every
//! set of changes against the CPU reference and the f32 model, the same classes from all, the
//! stages their profiles name, the spans of a traced request, and the requests they refuse.

use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::chrome_trace::{ChromeTrace, read_events, span_totals};
use profiling_lab::inference::{
    Changes, InferenceError, PackedModel, Server, WeightFormat, error_bound, predictions,
    stage_totals,
};
use quantization::model::{Mlp, shipped, spirals};
use tracing_subscriber::filter::LevelFilter;

const FORMATS: [WeightFormat; 2] = [WeightFormat::Int8, WeightFormat::Group4 { group: 32 }];

fn close(what: &str, got: &Tensor2D, want: &Tensor2D, tolerance: impl Fn(usize) -> f32) {
    assert_eq!(got.shape(), want.shape(), "{what}");
    for (i, (g, w)) in got.data().iter().zip(want.data()).enumerate() {
        assert!(
            (g - w).abs() <= tolerance(i),
            "{what}: value {i} is {g}, want {w} ± {}",
            tolerance(i)
        );
    }
}

#[test]
fn every_set_of_changes_matches_the_reference_and_stays_within_the_format_bound() {
    let ctx = GpuContext::for_tests();
    let model = shipped();
    let test = spirals(3, 200, 8);
    let exact = model.forward(&test.x);
    for format in FORMATS {
        let packed = PackedModel::quantize(&model, format).unwrap();
        let reference = packed.reference(&test.x).unwrap();
        let bound = error_bound(&model, &packed, &test.x);
        let label = format.label();
        let classes = predictions(&reference);
        for changes in Changes::STEPS {
            let mut server = Server::new(&ctx, packed.clone(), changes, test.x.rows()).unwrap();
            let out = server.infer(&ctx, &test.x).unwrap();
            let name = format!("{label} {}", changes.label());
            // Same dequantized weights: only the order of f32 additions differs.
            close(&format!("{name} vs CPU"), &out, &reference, |i| {
                1e-4 * (1.0 + reference.data()[i].abs())
            });
            // Against the f32 model: the quantization error, bounded layer by layer.
            close(&format!("{name} vs f32"), &out, &exact, |i| bound[i] + 1e-3);
            assert_eq!(predictions(&out), classes, "{name}: GPU vs CPU classes");
        }
        let right = classes.iter().zip(&test.labels).filter(|(p, l)| p == l);
        assert!(right.count() >= 570, "{label}: accuracy fell below 95%");
    }
}

#[test]
fn every_server_answers_requests_of_any_size_up_to_its_batch() {
    let ctx = GpuContext::for_tests();
    let model = Mlp::new(&[2, 36, 20, 5], 3);
    let points = spirals(2, 32, 1).x;
    // 1 and 3 rows take the matrix-vector kernel, 17 and 64 the tiled one.
    for format in [WeightFormat::Int8, WeightFormat::Group4 { group: 8 }] {
        let packed = PackedModel::quantize(&model, format).unwrap();
        for changes in Changes::STEPS {
            let mut server = Server::new(&ctx, packed.clone(), changes, 64).unwrap();
            for rows in [1, 17, 64, 3] {
                let x = Tensor2D::new(rows, 2, points.data()[..rows * 2].to_vec()).unwrap();
                let want = packed.reference(&x).unwrap();
                let got = server.infer(&ctx, &x).unwrap();
                let what = format!("{} {} {rows} rows", format.label(), changes.label());
                close(&what, &got, &want, |i| 1e-4 * (1.0 + want.data()[i].abs()));
            }
            let too_many = Tensor2D::zeros(65, 2);
            let err = server.infer(&ctx, &too_many).unwrap_err();
            assert!(err.to_string().contains("max_batch"), "{err}");
        }
    }
}

#[test]
fn profiles_name_every_stage_of_a_request() {
    let ctx = GpuScopes::open_context().unwrap();
    let mut scopes = GpuScopes::new(&ctx).unwrap();
    let packed = PackedModel::quantize(&shipped(), WeightFormat::Int8).unwrap();
    let x = spirals(3, 4, 2).x;
    let mut unfused = Server::new(&ctx, packed.clone(), Changes::NONE, 16).unwrap();
    let mut fused = Server::new(&ctx, packed, Changes::ALL, 16).unwrap();
    let (_, before) = unfused.infer_profiled(&ctx, &mut scopes, &x).unwrap();
    let (_, after) = fused.infer_profiled(&ctx, &mut scopes, &x).unwrap();
    let labels = |s: &[gpu_context::ScopeTiming]| -> Vec<String> {
        stage_totals(s).into_iter().map(|(l, _)| l).collect()
    };
    assert_eq!(
        labels(&before),
        ["dequantize", "matmul", "bias+relu", "read-back"]
    );
    assert_eq!(labels(&after), ["matmul", "read-back"]);
    // Three layers: three scopes of each per-layer stage.
    assert_eq!(before.iter().filter(|s| s.label == "dequantize").count(), 3);
    assert_eq!(after.iter().filter(|s| s.label == "matmul").count(), 3);
}

#[test]
fn bad_models_and_requests_are_refused_with_a_reason() {
    let odd = Mlp::new(&[2, 6, 3], 1);
    let err = PackedModel::quantize(&odd, WeightFormat::Int8).unwrap_err();
    assert!(err.to_string().contains("multiple of 4"), "{err}");
    let err = PackedModel::quantize(&shipped(), WeightFormat::Group4 { group: 12 }).unwrap_err();
    assert!(matches!(err, InferenceError::Quant(_)), "{err}");

    let ctx = GpuContext::for_tests();
    let packed = PackedModel::quantize(&shipped(), WeightFormat::Int8).unwrap();
    let err = Server::new(&ctx, packed.clone(), Changes::new(false, true, true), 4).err();
    let err = err.expect("gemv without fuse is refused").to_string();
    assert!(err.contains("turn on `fuse`"), "{err}");
    let mut unfused = Server::new(&ctx, packed, Changes::NONE, 4).unwrap();
    let err = unfused.infer(&ctx, &Tensor2D::zeros(4, 3)).unwrap_err();
    assert!(err.to_string().contains("3 columns"), "{err}");
    let err = unfused.infer(&ctx, &Tensor2D::zeros(0, 2)).unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
}

#[test]
fn a_traced_request_shows_each_step_outside_the_gpu() {
    let ctx = GpuContext::for_tests();
    let packed = PackedModel::quantize(&shipped(), WeightFormat::Int8).unwrap();
    let x = spirals(3, 4, 2).x;
    let dir = std::env::temp_dir().join(format!("inference-spans-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = |changes: Changes| -> Vec<Vec<String>> {
        let path = dir.join(format!("{}.json", changes.label()));
        let mut server = Server::new(&ctx, packed.clone(), changes, 16).unwrap();
        {
            let _trace = ChromeTrace::record_to(&path, LevelFilter::INFO).unwrap();
            for _ in 0..2 {
                server.infer(&ctx, &x).unwrap();
            }
        }
        let frames = span_totals(&read_events(&path).unwrap(), "request");
        let spans = |f: &Vec<(String, f64)>| f.iter().map(|(n, _)| n.clone()).collect();
        frames.iter().map(spans).collect()
    };
    let baseline = names(Changes::NONE);
    assert_eq!(baseline.len(), 2, "one entry per request");
    let per_request = [
        "create_buffers",
        "create_bind_groups",
        "write_buffers",
        "record",
        "submit",
        "wait_for_gpu",
        "map_read_back",
        "release",
        "request",
    ];
    assert_eq!(baseline[1], per_request);
    // Made once: a request creates nothing.
    let all = names(Changes::ALL);
    let kept = [
        "write_buffers",
        "record",
        "submit",
        "wait_for_gpu",
        "map_read_back",
        "release",
    ];
    assert_eq!(all[1], [&kept[..], &["request"]].concat());
    std::fs::remove_dir_all(&dir).unwrap();
}
