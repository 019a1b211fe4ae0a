//! The model's weights in a safetensors file: a JSON header naming each tensor's dtype, shape
//! and byte range, then the raw little-endian numbers (readable from Python as well).

use std::path::Path;

use computational_graphs::tensor::Tensor2D;
use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use super::Mlp;
use crate::QuantError;

/// The weights trained by `train_tiny_model`, shipped with the crate (a few kilobytes).
const SHIPPED: &[u8] = include_bytes!("../../data/spirals_mlp.safetensors");

fn names(i: usize) -> (String, String) {
    (format!("layer{i}.weight"), format!("layer{i}.bias"))
}

fn bad(detail: String) -> QuantError {
    QuantError::Weights {
        detail,
        source: None,
    }
}

/// The file's bytes for these weights.
pub fn save(model: &Mlp) -> Result<Vec<u8>, QuantError> {
    let mut views = Vec::new();
    let bytes: Vec<(String, Vec<u8>, Vec<usize>)> = model
        .layers
        .iter()
        .enumerate()
        .flat_map(|(i, (w, b))| {
            let (wn, bn) = names(i);
            [(wn, w), (bn, b)]
        })
        .map(|(name, t)| {
            (
                name,
                bytemuck::cast_slice(t.data()).to_vec(),
                vec![t.rows(), t.cols()],
            )
        })
        .collect();
    for (name, data, shape) in &bytes {
        let view =
            TensorView::new(Dtype::F32, shape.clone(), data).map_err(|e| QuantError::Weights {
                detail: format!("tensor {name}"),
                source: Some(e),
            })?;
        views.push((name.clone(), view));
    }
    safetensors::serialize(views, None).map_err(|e| QuantError::Weights {
        detail: "serializing".into(),
        source: Some(e),
    })
}

/// An MLP of `layers` layers from a safetensors file's bytes.
pub fn load(bytes: &[u8], layers: usize) -> Result<Mlp, QuantError> {
    let file = SafeTensors::deserialize(bytes).map_err(|e| QuantError::Weights {
        detail: "not a safetensors file".into(),
        source: Some(e),
    })?;
    let get = |name: &str| -> Result<Tensor2D, QuantError> {
        let t = file.tensor(name).map_err(|e| QuantError::Weights {
            detail: format!("no tensor named {name}"),
            source: Some(e),
        })?;
        let [rows, cols] = t.shape() else {
            return Err(bad(format!(
                "{name} has shape {:?}, want two dimensions",
                t.shape()
            )));
        };
        if t.dtype() != Dtype::F32 {
            return Err(bad(format!("{name} is {:?}, want F32", t.dtype())));
        }
        let values = t
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        Tensor2D::new(*rows, *cols, values).map_err(|e| bad(format!("{name}: {e}")))
    };
    let layers = (0..layers)
        .map(|i| {
            let (wn, bn) = names(i);
            Ok((get(&wn)?, get(&bn)?))
        })
        .collect::<Result<_, QuantError>>()?;
    Ok(Mlp { layers })
}

/// The shipped, trained spiral classifier.
pub fn shipped() -> Mlp {
    load(SHIPPED, 3).expect("the shipped weights file is checked by the crate's tests")
}

/// Writes `model` to `path`.
pub fn write(model: &Mlp, path: &Path) -> Result<(), QuantError> {
    std::fs::write(path, save(model)?).map_err(|source| QuantError::Io {
        path: path.display().to_string(),
        source,
    })
}
