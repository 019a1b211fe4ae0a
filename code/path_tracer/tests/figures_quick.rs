//! The figure program's quick mode writes the tree comparison, and its counts are the ones the
//! library gives.

use std::process::Command;

#[test]
fn quick_bvh_part_writes_its_table() {
    let out = std::env::temp_dir().join(format!("path_tracer_quick_{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temporary folder");
    let status = Command::new(env!("CARGO_BIN_EXE_path_tracer_figures"))
        .args([
            "--quick",
            "--only",
            "bvh",
            "--allow-dirty",
            "--allow-busy",
            "--out",
        ])
        .arg(&out)
        .status()
        .expect("the figure program runs");
    assert!(status.success());
    let csv = std::fs::read_to_string(out.join("path_tracer_bvh.csv")).expect("the table");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(str::to_owned)
        .collect();
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.expect("a row").iter().map(str::to_owned).collect())
        .collect();
    let rows: Vec<Vec<String>> = std::iter::once(header).chain(records).collect();
    let column = |name: &str| rows[0].iter().position(|c| *c == name).expect(name);
    assert_eq!(rows.len(), 3, "a header and one row per build:\n{csv}");
    assert_eq!(rows[1][0], "Morton");
    assert_eq!(rows[2][0], "binned SAH");
    let (nodes, rays) = (column("nodes_per_ray"), column("counted_rays"));
    // The same paths through either tree, and fewer nodes per ray through the SAH one.
    assert_eq!(rows[1][rays], rows[2][rays]);
    let per_ray = |r: usize| rows[r][nodes].parse::<f64>().expect("a number");
    assert!(per_ray(2) < per_ray(1), "{csv}");
    for row in &rows[1..] {
        let t: f64 = row[column("intersect_median_s")].parse().expect("a time");
        assert!(t > 0.0);
        // lavapipe has subgroups, so the ballot columns are filled.
        let lane_use: f64 = row[column("gpu_camera_lane_use")].parse().expect("a share");
        assert!(lane_use > 0.0 && lane_use <= 1.0, "{csv}");
    }
    assert!(out.join("path_tracer_bvh.svg").exists());
    assert!(out.join("path_tracer_bvh.json").exists());
    std::fs::remove_dir_all(&out).ok();
}
