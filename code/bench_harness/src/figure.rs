//! One way to write a figure and read it back: typed rows through `serde` and the `csv` crate,
//! the chart as SVG text, the sidecar as JSON, and any extra files, all in one folder.
//!
//! A figure program builds a [`Figure`], and redraw modes, tests and checks read the same files
//! back with [`read_rows`] and [`read_sidecar`]: the columns are the fields of one struct, so a
//! writer and its reader cannot disagree about them, and quoting (a variant name with a comma in
//! it) is the `csv` crate's job.

use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::output::{Csv, Sidecar, SidecarRecord, figures_dir, write_creating_dirs};

/// What can go wrong writing or reading a figure's files; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum FigureError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source} (regenerate it with its figure program)")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not the table this program expects: {source}")]
    Table { path: PathBuf, source: csv::Error },
    #[error("{path} is not a figure sidecar: {source}")]
    Sidecar {
        path: PathBuf,
        source: serde_json::Error,
    },
}

/// Rows as CSV text, the header taken from the field names of `T`.
pub fn rows_to_csv<T: Serialize>(rows: &[T]) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.serialize(row)?;
    }
    let bytes = writer
        .into_inner()
        .map_err(|e| csv::Error::from(e.into_error()))?;
    Ok(String::from_utf8(bytes).expect("the csv crate writes the UTF-8 it is given"))
}

/// Rows from CSV text with a header; the columns must match the fields of `T`.
pub fn rows_from_csv<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, csv::Error> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect()
}

/// Reads a figure's table (`<name>.csv`) as typed rows.
pub fn read_rows<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, FigureError> {
    let text = fs::read_to_string(path).map_err(|source| FigureError::Read {
        path: path.to_owned(),
        source,
    })?;
    rows_from_csv(&text).map_err(|source| FigureError::Table {
        path: path.to_owned(),
        source,
    })
}

/// Reads a figure's sidecar (`<name>.json`).
pub fn read_sidecar(path: &Path) -> Result<SidecarRecord, FigureError> {
    let text = fs::read_to_string(path).map_err(|source| FigureError::Read {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| FigureError::Sidecar {
        path: path.to_owned(),
        source,
    })
}

/// A figure to be written: `<name>.csv`, `<name>.svg` (when it has a chart), `<name>.json`, and
/// any extra files, which the sidecar lists.
pub struct Figure {
    sidecar: Sidecar,
    table: Option<String>,
    chart: Option<String>,
    extra: Vec<(String, Vec<u8>)>,
}

impl Figure {
    /// A figure named after its sidecar's `figure` field.
    pub fn new(sidecar: Sidecar) -> Self {
        Self {
            sidecar,
            table: None,
            chart: None,
            extra: Vec::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.sidecar.figure
    }

    /// The table, one typed row per line.
    pub fn rows<T: Serialize>(mut self, rows: &[T]) -> Result<Self, FigureError> {
        let path = PathBuf::from(format!("{}.csv", self.name()));
        let text = rows_to_csv(rows).map_err(|source| FigureError::Table { path, source })?;
        self.table = Some(text);
        Ok(self)
    }

    /// The table from a [`Csv`] built cell by cell (for tables whose columns vary by run).
    pub fn table(mut self, csv: &Csv) -> Self {
        self.table = Some(csv.as_str().to_owned());
        self
    }

    /// The chart as SVG text (`LineChart::to_svg`, `BarChart::to_svg`).
    pub fn chart(mut self, svg: String) -> Self {
        self.chart = Some(svg);
        self
    }

    /// Another file written beside the figure (a second chart, a trace); the sidecar lists it.
    pub fn extra(mut self, file_name: &str, bytes: impl Into<Vec<u8>>) -> Self {
        if !self.sidecar.files.iter().any(|f| f == file_name) {
            self.sidecar.files.push(file_name.to_owned());
        }
        self.extra.push((file_name.to_owned(), bytes.into()));
        self
    }

    /// Writes every file into `dir` and returns their paths, the sidecar last (so a folder with
    /// a sidecar has the files it describes).
    pub fn write_to(self, dir: &Path) -> Result<Vec<PathBuf>, FigureError> {
        let name = self.name().to_owned();
        let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        if let Some(table) = self.table {
            files.push((dir.join(format!("{name}.csv")), table.into_bytes()));
        }
        if let Some(svg) = self.chart {
            files.push((dir.join(format!("{name}.svg")), svg.into_bytes()));
        }
        for (file, bytes) in self.extra {
            files.push((dir.join(file), bytes));
        }
        files.push((
            dir.join(format!("{name}.json")),
            self.sidecar.to_json().into_bytes(),
        ));
        for (path, bytes) in &files {
            write_creating_dirs(path, bytes).map_err(|source| FigureError::Write {
                path: path.clone(),
                source,
            })?;
        }
        Ok(files.into_iter().map(|(path, _)| path).collect())
    }

    /// Writes into [`figures_dir`] and says where.
    pub fn write(self) -> Result<Vec<PathBuf>, FigureError> {
        let dir = figures_dir();
        let paths = self.write_to(&dir)?;
        if let Some(first) = paths.first() {
            println!("wrote {}", first.with_extension("").display());
        }
        Ok(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, serde::Deserialize)]
    struct Row {
        variant: String,
        n: u32,
        ms: f64,
    }

    fn rows() -> Vec<Row> {
        vec![
            Row {
                variant: "tiled, 8x8".into(),
                n: 64,
                ms: 0.25,
            },
            Row {
                variant: "say \"hi\"".into(),
                n: 128,
                ms: 1.5,
            },
        ]
    }

    #[test]
    fn rows_round_trip_with_commas_and_quotes_in_cells() {
        let text = rows_to_csv(&rows()).unwrap();
        assert!(
            text.starts_with("variant,n,ms\n\"tiled, 8x8\",64,0.25\n"),
            "{text}"
        );
        let back: Vec<Row> = rows_from_csv(&text).unwrap();
        assert_eq!(back, rows());
    }

    #[test]
    fn a_table_with_other_columns_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("figure-test-{}", std::process::id()));
        let path = dir.join("other.csv");
        write_creating_dirs(&path, b"variant,size\na,1\n").unwrap();
        let err = read_rows::<Row>(&path).unwrap_err();
        assert!(
            err.to_string().contains("other.csv is not the table"),
            "{err}"
        );
        let missing = read_rows::<Row>(&dir.join("missing.csv")).unwrap_err();
        assert!(missing.to_string().contains("regenerate it"), "{missing}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn figure_writes_its_files_and_lists_the_extra_ones() {
        let dir = std::env::temp_dir().join(format!("figure-write-{}", std::process::id()));
        let paths = Figure::new(Sidecar::new("demo", "a test"))
            .rows(&rows())
            .unwrap()
            .chart("<svg/>".into())
            .extra("demo_trace.json", "{}")
            .write_to(&dir)
            .unwrap();
        let names: Vec<String> = paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["demo.csv", "demo.svg", "demo_trace.json", "demo.json"]
        );
        let back: Vec<Row> = read_rows(&dir.join("demo.csv")).unwrap();
        assert_eq!(back, rows());
        let sidecar = read_sidecar(&dir.join("demo.json")).unwrap();
        assert_eq!(sidecar.files, ["demo_trace.json"]);
        fs::remove_dir_all(dir).unwrap();
    }
}
