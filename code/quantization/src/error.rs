use thiserror::Error;

/// What can go wrong when quantizing, pruning or running the operators of this crate.
#[derive(Debug, Error)]
pub enum QuantError {
    #[error("{bits} bits is not supported: pick a width from 2 to 8")]
    Bits { bits: u32 },
    #[error("{what}: {detail}")]
    Shape { what: &'static str, detail: String },
    #[error("the weights file is not what this model expects: {detail}")]
    Weights {
        detail: String,
        #[source]
        source: Option<safetensors::SafeTensorError>,
    },
    #[error("reading or writing {path}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Graph(#[from] computational_graphs::Error),
}
