use std::fs;

/// One level of the CPU cache, as the operating system reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct CacheLevel {
    pub level: u32,
    /// "Data", "Instruction" or "Unified".
    pub kind: String,
    pub bytes: u64,
    /// How many logical CPUs share this cache.
    pub shared_by: usize,
}

/// The machine a measurement ran on.
#[derive(Clone, Debug)]
pub struct MachineInfo {
    pub cpu_model: String,
    pub logical_cpus: usize,
    pub caches: Vec<CacheLevel>,
    pub os: String,
}

impl MachineInfo {
    /// Reads what it can; fields it cannot read stay empty (e.g. caches on macOS or Windows).
    pub fn detect() -> Self {
        Self {
            cpu_model: cpu_model().unwrap_or_else(|| "unknown CPU".into()),
            logical_cpus: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            caches: linux_caches(),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
        }
    }

    /// Size of the data (or unified) cache at `level`, if known.
    pub fn data_cache_bytes(&self, level: u32) -> Option<u64> {
        self.caches
            .iter()
            .find(|c| c.level == level && c.kind != "Instruction")
            .map(|c| c.bytes)
    }

    /// One line, e.g. "AMD EPYC 7B13, 2 logical CPUs, L1d 32 KiB, L2 512 KiB, L3 32768 KiB".
    pub fn summary(&self) -> String {
        let mut s = format!("{}, {} logical CPUs", self.cpu_model, self.logical_cpus);
        for c in self.caches.iter().filter(|c| c.kind != "Instruction") {
            let name = if c.kind == "Data" {
                format!("L{}d", c.level)
            } else {
                format!("L{}", c.level)
            };
            s.push_str(&format!(", {name} {} KiB", c.bytes / 1024));
        }
        s
    }
}

fn cpu_model() -> Option<String> {
    let text = fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_owned())
}

fn linux_caches() -> Vec<CacheLevel> {
    let mut out = Vec::new();
    for index in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{index}");
        let read = |f: &str| {
            fs::read_to_string(format!("{dir}/{f}"))
                .ok()
                .map(|s| s.trim().to_owned())
        };
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            break;
        };
        let shared_by = read("shared_cpu_list").map(|l| count_cpus(&l)).unwrap_or(1);
        if let (Ok(level), Some(bytes)) = (level.parse(), parse_size(&size)) {
            out.push(CacheLevel {
                level,
                kind,
                bytes,
                shared_by,
            });
        }
    }
    out
}

/// "32K" → 32768, "1024K" → 1048576, "8M" → 8388608.
pub(crate) fn parse_size(s: &str) -> Option<u64> {
    let (digits, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = digits.parse().ok()?;
    match unit {
        "" => Some(n),
        "K" => Some(n << 10),
        "M" => Some(n << 20),
        "G" => Some(n << 30),
        _ => None,
    }
}

/// The CPUs of a Linux CPU list (`/sys/devices/system/cpu/…/shared_cpu_list`,
/// `thread_siblings_list`): "0-3,8" → [0, 1, 2, 3, 8]. Parts that do not parse are skipped.
pub fn cpu_list(list: &str) -> Vec<usize> {
    list.trim()
        .split(',')
        .flat_map(|part| match part.split_once('-') {
            Some((a, b)) => match (a.parse::<usize>(), b.parse::<usize>()) {
                (Ok(a), Ok(b)) => (a..=b).collect(),
                _ => Vec::new(),
            },
            None => part.parse().ok().into_iter().collect(),
        })
        .collect()
}

fn count_cpus(list: &str) -> usize {
    cpu_list(list).len().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cpu_lists_parse() {
        assert_eq!(parse_size("32K"), Some(32 << 10));
        assert_eq!(parse_size("8M"), Some(8 << 20));
        assert_eq!(parse_size("12x"), None);
        assert_eq!(count_cpus("0-3,8"), 5);
    }
}
