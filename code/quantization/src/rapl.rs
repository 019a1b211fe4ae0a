//! CPU energy from Linux's powercap files (Intel's RAPL counters, which recent AMD CPUs also fill),
//! and a report of what a machine exposes when it does not: a guest under a hypervisor usually
//! sees no counter at all.
//!
//! Each package zone `/sys/class/powercap/intel-rapl:N/` has `energy_uj`, microjoules since some
//! moment, which wraps around at `max_energy_range_uj`. Sub-zones (`intel-rapl:N:M`: cores,
//! uncore, DRAM) are parts of their package, so only packages are summed.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One package counter that could be read.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    pub name: String,
    pub energy_file: PathBuf,
    pub wraps_at_uj: u64,
}

/// What a powercap tree offers: the readable package zones, and one line per thing that failed.
#[derive(Debug, Default)]
pub struct Probe {
    pub zones: Vec<Zone>,
    pub problems: Vec<String>,
}

// ANCHOR: probe
/// Looks for package zones under `root` (normally `/sys/class/powercap`). Reading `energy_uj`
/// needs root on current kernels (a side channel, CVE-2020-8694), so an unreadable file is
/// reported rather than skipped in silence.
pub fn probe(root: &Path) -> Probe {
    let mut probe = Probe::default();
    let entries = match fs::read_dir(root) {
        Ok(entries) => entries,
        Err(e) => {
            probe.problems.push(format!("{}: {e}", root.display()));
            return probe;
        }
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("intel-rapl:") && n.matches(':').count() == 1)
        .collect();
    names.sort();
    if names.is_empty() {
        probe
            .problems
            .push(format!("{}: no intel-rapl package zone", root.display()));
    }
    for name in names {
        let dir = root.join(&name);
        let read = |file: &str| read_u64(&dir.join(file));
        match (read("energy_uj"), read("max_energy_range_uj")) {
            (Ok(_), Ok(wraps_at_uj)) => probe.zones.push(Zone {
                name: fs::read_to_string(dir.join("name")).map_or(name, |n| n.trim().to_owned()),
                energy_file: dir.join("energy_uj"),
                wraps_at_uj,
            }),
            (Err(e), _) | (_, Err(e)) => probe.problems.push(format!("{}: {e}", dir.display())),
        }
    }
    probe
}
// ANCHOR_END: probe

fn read_u64(path: &Path) -> Result<u64, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.trim()
        .parse()
        .map_err(|e| format!("{}: not a number ({e})", path.display()))
}

/// Microjoules used between two readings of a counter that wraps at `wraps_at_uj`.
pub fn delta_uj(before: u64, after: u64, wraps_at_uj: u64) -> u64 {
    if after >= before {
        after - before
    } else {
        wraps_at_uj - before + after
    }
}

impl Probe {
    /// Sum of all package counters now, one value per zone.
    fn read_all(&self) -> Result<Vec<u64>, String> {
        self.zones
            .iter()
            .map(|z| read_u64(&z.energy_file))
            .collect()
    }

    // ANCHOR: measure
    /// Joules (all packages) and seconds used while `work` runs. A counter wraps after minutes
    /// at most, so `work` must stay well below one wrap (a few seconds is safe).
    pub fn measure(&self, work: impl FnOnce()) -> Result<(f64, f64), String> {
        if self.zones.is_empty() {
            return Err("no readable package energy counter".into());
        }
        let (before, t0) = (self.read_all()?, Instant::now());
        work();
        let (after, seconds) = (self.read_all()?, t0.elapsed().as_secs_f64());
        let uj: u64 = self
            .zones
            .iter()
            .zip(before.iter().zip(&after))
            .map(|(z, (&b, &a))| delta_uj(b, a, z.wraps_at_uj))
            .sum();
        Ok((uj as f64 * 1e-6, seconds))
    }
    // ANCHOR_END: measure

    /// Average package power over `span` of sleeping.
    pub fn idle_watts(&self, span: Duration) -> Result<f64, String> {
        let (joules, seconds) = self.measure(|| std::thread::sleep(span))?;
        Ok(joules / seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(root: &Path, dir: &str, name: &str, energy: &str, range: &str) {
        let d = root.join(dir);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("name"), format!("{name}\n")).unwrap();
        fs::write(d.join("energy_uj"), energy).unwrap();
        fs::write(d.join("max_energy_range_uj"), range).unwrap();
    }

    fn temp_root(tag: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("rapl-test-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).unwrap();
        root
    }

    #[test]
    fn packages_are_found_and_sub_zones_are_not_summed() {
        let root = temp_root("packages");
        zone(
            &root,
            "intel-rapl:0",
            "package-0",
            "1000\n",
            "262143328850\n",
        );
        zone(&root, "intel-rapl:0:0", "core", "400\n", "262143328850\n");
        zone(&root, "intel-rapl:1", "package-1", "7\n", "100\n");
        let p = probe(&root);
        let names: Vec<_> = p.zones.iter().map(|z| z.name.as_str()).collect();
        assert_eq!(names, ["package-0", "package-1"]);
        assert!(p.problems.is_empty(), "{:?}", p.problems);
        let (joules, _) = p.measure(|| ()).unwrap();
        assert_eq!(joules, 0.0, "nothing changed the files");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_missing_tree_and_a_bad_file_are_reported() {
        let root = temp_root("bad");
        let p = probe(&root.join("absent"));
        assert!(p.zones.is_empty());
        assert!(p.problems[0].contains("absent"), "{:?}", p.problems);
        zone(&root, "intel-rapl:0", "package-0", "garbage", "100");
        let p = probe(&root);
        assert!(p.zones.is_empty());
        assert!(p.problems[0].contains("not a number"), "{:?}", p.problems);
        assert!(p.measure(|| ()).is_err());
        let empty = temp_root("empty");
        assert!(probe(&empty).problems[0].contains("no intel-rapl package zone"));
        fs::remove_dir_all(&root).unwrap();
        fs::remove_dir_all(&empty).unwrap();
    }

    #[test]
    fn a_counter_that_wraps_is_unwrapped() {
        assert_eq!(delta_uj(10, 25, 100), 15);
        assert_eq!(delta_uj(90, 5, 100), 15);
    }

    #[test]
    fn energy_written_during_the_work_is_counted() {
        let root = temp_root("work");
        zone(&root, "intel-rapl:0", "package-0", "99000000", "100000000");
        let p = probe(&root);
        let file = p.zones[0].energy_file.clone();
        // 2.5 J pass during the work, across the wrap at 100 J.
        let (joules, _) = p.measure(|| fs::write(&file, "1500000").unwrap()).unwrap();
        assert!((joules - 2.5).abs() < 1e-9, "{joules}");
        fs::remove_dir_all(&root).unwrap();
    }
}
