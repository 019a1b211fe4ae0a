use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{fs, io};

use crate::MachineInfo;

/// The repository's `figures/` folder: `$FIGURES_DIR` if set, else found by walking up from the
/// current directory to the workspace root (so a binary copied to another machine still works).
pub fn figures_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("FIGURES_DIR") {
        return PathBuf::from(dir);
    }
    let mut dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    loop {
        if dir.join("book.toml").is_file() && dir.join("Cargo.toml").is_file() {
            return dir.join("figures");
        }
        if !dir.pop() {
            return PathBuf::from("figures");
        }
    }
}

/// The current commit, with "-dirty" when the tree has uncommitted changes ("unknown" outside git).
pub fn git_commit() -> String {
    if let Ok(commit) = std::env::var("COURSE_COMMIT") {
        return commit;
    }
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match run(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{commit}-dirty")
            } else {
                commit
            }
        }
        None => "unknown".into(),
    }
}

/// A CSV file built row by row. Values are written as given; commas in them are quoted.
pub struct Csv {
    text: String,
    columns: usize,
}

impl Csv {
    pub fn new(header: &[&str]) -> Self {
        let mut csv = Self {
            text: String::new(),
            columns: header.len(),
        };
        csv.push_strs(header);
        csv
    }

    /// Appends one row; it must have as many cells as the header.
    pub fn row(&mut self, cells: &[String]) {
        assert_eq!(
            cells.len(),
            self.columns,
            "a CSV row must have one cell per column"
        );
        let refs: Vec<&str> = cells.iter().map(String::as_str).collect();
        self.push_strs(&refs);
    }

    fn push_strs(&mut self, cells: &[&str]) {
        let quoted: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.contains([',', '"', '\n']) {
                    format!("\"{}\"", c.replace('"', "\"\""))
                } else {
                    (*c).to_owned()
                }
            })
            .collect();
        self.text.push_str(&quoted.join(","));
        self.text.push('\n');
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_creating_dirs(path, &self.text)
    }
}

/// What produced a figure: written next to it as `<name>.json`.
pub struct Sidecar {
    pub figure: String,
    pub description: String,
    pub machine: MachineInfo,
    /// The adapter report as JSON (from `gpu_context::AdapterReport::to_json`), for GPU figures.
    pub adapter_json: Option<String>,
    pub notes: Vec<String>,
}

impl Sidecar {
    pub fn new(figure: &str, description: &str) -> Self {
        Self {
            figure: figure.to_owned(),
            description: description.to_owned(),
            machine: MachineInfo::detect(),
            adapter_json: None,
            notes: Vec::new(),
        }
    }

    pub fn to_json(&self) -> String {
        let caches: Vec<String> = self
            .machine
            .caches
            .iter()
            .map(|c| {
                format!(
                    "{{\"level\":{},\"type\":{},\"bytes\":{},\"shared_by\":{}}}",
                    c.level,
                    json(&c.kind),
                    c.bytes,
                    c.shared_by
                )
            })
            .collect();
        let notes: Vec<String> = self.notes.iter().map(|n| json(n)).collect();
        // The program by name, not by the absolute path of one machine's checkout.
        let command: Vec<String> = std::env::args()
            .enumerate()
            .map(|(i, arg)| {
                if i > 0 {
                    return arg;
                }
                match std::path::Path::new(&arg).file_name() {
                    Some(name) => format!("target/release/{}", name.to_string_lossy()),
                    None => arg,
                }
            })
            .collect();
        let mut s = String::from("{\n");
        let _ = writeln!(s, "  \"figure\": {},", json(&self.figure));
        let _ = writeln!(s, "  \"description\": {},", json(&self.description));
        let _ = writeln!(s, "  \"machine\": {},", json(&self.machine.summary()));
        let _ = writeln!(s, "  \"cpu\": {},", json(&self.machine.cpu_model));
        let _ = writeln!(s, "  \"logical_cpus\": {},", self.machine.logical_cpus);
        let _ = writeln!(s, "  \"caches\": [{}],", caches.join(","));
        let _ = writeln!(s, "  \"os\": {},", json(&self.machine.os));
        let _ = writeln!(
            s,
            "  \"adapter\": {},",
            self.adapter_json.as_deref().unwrap_or("null")
        );
        let _ = writeln!(s, "  \"commit\": {},", json(&git_commit()));
        let _ = writeln!(s, "  \"command\": {},", json(&command.join(" ")));
        let _ = writeln!(s, "  \"date\": {},", json(&utc_now()));
        let _ = writeln!(s, "  \"notes\": [{}]", notes.join(","));
        s.push('}');
        s.push('\n');
        s
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_creating_dirs(path, &self.to_json())
    }
}

pub(crate) fn write_creating_dirs(path: &Path, text: &str) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(path, text)
}

pub(crate) fn json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// "2026-11-25T12:34:56Z", from the system clock, without a date crate.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil-from-days (proleptic Gregorian), after Howard Hinnant's well-known derivation.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_cells_with_commas() {
        let mut csv = Csv::new(&["name", "value"]);
        csv.row(&["a,b".into(), "1".into()]);
        assert_eq!(csv.as_str(), "name,value\n\"a,b\",1\n");
    }

    #[test]
    fn utc_date_has_the_iso_shape() {
        let now = utc_now();
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.starts_with("20") && now.ends_with('Z'));
    }

    #[test]
    fn sidecar_names_machine_and_commit() {
        let json = Sidecar::new("demo", "a test").to_json();
        for key in [
            "\"machine\"",
            "\"commit\"",
            "\"command\"",
            "\"date\"",
            "\"adapter\": null",
        ] {
            assert!(json.contains(key), "{key} missing in {json}");
        }
    }
}
