use std::path::{Path, PathBuf};
use std::{fs, io};

use crate::MachineInfo;
use crate::args::run_state;
use crate::provenance::{git_state, load_average};

/// The folder figures are written to: `--out` of the running figure program, else
/// `$FIGURES_DIR`, else the repository's `figures/` found by walking up from the current
/// directory (so a binary copied to another machine still works).
pub fn figures_dir() -> PathBuf {
    if let Some(out) = run_state().and_then(|s| s.out.clone()) {
        return out;
    }
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

/// A CSV table built cell by cell, for tables whose columns are only known at run time (one
/// column per thread count, per variant). Tables with fixed columns are typed rows instead
/// ([`crate::Figure::rows`]). Quoting is the `csv` crate's.
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
        self.push_strs(cells);
    }

    fn push_strs<S: AsRef<[u8]>>(&mut self, cells: &[S]) {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer
            .write_record(cells)
            .expect("writing to memory cannot fail");
        let bytes = writer.into_inner().expect("flushing to memory cannot fail");
        self.text
            .push_str(std::str::from_utf8(&bytes).expect("cells are UTF-8 strings"));
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
    /// The adapter that ran a GPU figure, as the JSON value its report serialises to
    /// ([`Sidecar::set_adapter`]); `null` for a CPU figure.
    pub adapter: serde_json::Value,
    pub notes: Vec<String>,
    /// The source file that built this sidecar: the figure program's code, repository-relative.
    pub program: String,
    /// What the figure wrote beside its sidecar, by file name, when that is not the usual
    /// `<figure>.csv` and `<figure>.svg` (a table without a chart, a screenshot, a trace).
    pub files: Vec<String>,
}

/// The sidecar's fields as written to `<figure>.json` (and read back by `cargo xtask figures
/// --check`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SidecarRecord {
    pub figure: String,
    pub description: String,
    /// Repository-relative path of the figure program's source.
    pub program: String,
    pub machine: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_label: Option<String>,
    pub cpu: String,
    pub logical_cpus: usize,
    pub caches: Vec<CacheRecord>,
    pub os: String,
    pub adapter: serde_json::Value,
    pub commit: String,
    /// Absent from sidecars written before the harness checked the tree: read as `false`, as
    /// `cargo xtask figures --check` reads them, so `--redraw` finds those figures too.
    #[serde(default)]
    pub dirty: bool,
    pub load_average: Option<[f64; 3]>,
    pub command: String,
    pub date: String,
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct CacheRecord {
    pub level: u32,
    #[serde(rename = "type")]
    pub kind: String,
    pub bytes: u64,
    pub shared_by: usize,
}

impl Sidecar {
    #[track_caller]
    pub fn new(figure: &str, description: &str) -> Self {
        Self {
            figure: figure.to_owned(),
            description: description.to_owned(),
            machine: MachineInfo::detect(),
            adapter: serde_json::Value::Null,
            notes: Vec::new(),
            program: std::panic::Location::caller().file().replace('\\', "/"),
            files: Vec::new(),
        }
    }

    /// Records the adapter that ran the figure: any report that serialises to a JSON object
    /// (`gpu_context::AdapterReport`), kept as a value, so the sidecar never parses JSON text.
    pub fn set_adapter<A: serde::Serialize + ?Sized>(&mut self, adapter: &A) {
        self.adapter = serde_json::to_value(adapter)
            .expect("an adapter report is plain data and always serialises");
    }

    /// The sidecar with the adapter that ran the figure ([`Sidecar::set_adapter`]).
    #[must_use]
    pub fn with_adapter<A: serde::Serialize + ?Sized>(mut self, adapter: &A) -> Self {
        self.set_adapter(adapter);
        self
    }

    /// The sidecar with these notes (what a reader needs to know to read the figure).
    #[must_use]
    pub fn with_notes(mut self, notes: impl IntoIterator<Item = String>) -> Self {
        self.notes = notes.into_iter().collect();
        self
    }

    /// The sidecar listing the files its figure wrote beside it, when they are not the usual
    /// `<figure>.csv` and `<figure>.svg`.
    #[must_use]
    pub fn with_files(mut self, files: impl IntoIterator<Item = String>) -> Self {
        self.files = files.into_iter().collect();
        self
    }

    pub fn record(&self) -> SidecarRecord {
        // The program by name, and files in the figures folder as `figures/NAME`: not the
        // absolute paths of one machine's checkout or output folder.
        let figures = figures_dir();
        let command: Vec<String> = std::env::args()
            .enumerate()
            .map(|(i, arg)| {
                let path = Path::new(&arg);
                match path.file_name() {
                    Some(name) if i == 0 => format!("target/release/{}", name.to_string_lossy()),
                    Some(name)
                        if path.is_absolute() && path.parent() == Some(figures.as_path()) =>
                    {
                        format!("figures/{}", name.to_string_lossy())
                    }
                    _ => arg,
                }
            })
            .collect();
        let git = git_state();
        let state = run_state();
        SidecarRecord {
            figure: self.figure.clone(),
            description: self.description.clone(),
            program: self.program.clone(),
            machine: self.machine.summary(),
            machine_label: state.and_then(|s| s.machine_label.clone()),
            cpu: self.machine.cpu_model.clone(),
            logical_cpus: self.machine.logical_cpus,
            caches: self
                .machine
                .caches
                .iter()
                .map(|c| CacheRecord {
                    level: c.level,
                    kind: c.kind.clone(),
                    bytes: c.bytes,
                    shared_by: c.shared_by,
                })
                .collect(),
            os: self.machine.os.clone(),
            adapter: self.adapter.clone(),
            commit: git
                .as_ref()
                .map_or_else(|| "unknown".into(), |g| g.commit.clone()),
            dirty: git.is_some_and(|g| g.dirty) || state.is_some_and(|s| s.dirty),
            load_average: load_average(),
            command: command.join(" "),
            date: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            notes: self.notes.clone(),
            files: self.files.clone(),
        }
    }

    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&self.record())
            .expect("a sidecar is plain data and always serialises");
        text.push('\n');
        text
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_creating_dirs(path, self.to_json())
    }
}

pub(crate) fn write_creating_dirs(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    fs::write(path, bytes)
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
    fn sidecar_round_trips_and_names_its_program() {
        let json = Sidecar::new("demo", "a test").to_json();
        let back: SidecarRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back.figure, "demo");
        assert!(back.program.ends_with("output.rs"), "{}", back.program);
        assert!(
            back.date.starts_with("20") && back.date.ends_with('Z'),
            "{}",
            back.date
        );
    }

    #[derive(serde::Serialize)]
    struct Report {
        name: &'static str,
        timestamps: bool,
    }

    #[test]
    fn sidecar_keeps_the_adapter_as_a_value_with_its_notes_and_files() {
        let report = Report {
            name: "llvmpipe, \"quoted\"",
            timestamps: false,
        };
        let sidecar = Sidecar::new("demo", "a test")
            .with_adapter(&report)
            .with_notes(["one note".to_owned()])
            .with_files(vec!["demo_b1.svg".to_owned()]);
        let back: SidecarRecord = serde_json::from_str(&sidecar.to_json()).unwrap();
        assert_eq!(
            back.adapter,
            serde_json::json!({"name": "llvmpipe, \"quoted\"", "timestamps": false})
        );
        assert_eq!(back.notes, ["one note"]);
        assert_eq!(back.files, ["demo_b1.svg"]);
        let cpu = Sidecar::new("demo", "a CPU figure");
        assert_eq!(cpu.record().adapter, serde_json::Value::Null);
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
            "\"load_average\"",
        ] {
            assert!(json.contains(key), "{key} missing in {json}");
        }
    }
}
