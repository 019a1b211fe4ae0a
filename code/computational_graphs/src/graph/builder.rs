//! A convenience for writing operator lists: every call adds the buffers and the operator.
//! The builder can still produce invalid lists (it does not check): validation does.

use super::{BufferDecl, BufferId, Contents, Custom, CustomOperator, OpList, Operator, Place};
use crate::tensor::Tensor2D;

#[derive(Debug, Default)]
pub struct GraphBuilder {
    list: OpList,
}

impl GraphBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    fn buffer(
        &mut self,
        name: String,
        shape: (usize, usize),
        place: Place,
        contents: Contents,
    ) -> BufferId {
        self.list.buffers.push(BufferDecl {
            name,
            rows: shape.0,
            cols: shape.1,
            place,
            contents,
        });
        self.list.buffers.len() - 1
    }

    fn shape(&self, id: BufferId) -> (usize, usize) {
        self.list
            .buffers
            .get(id)
            .map(|b| (b.rows, b.cols))
            .unwrap_or((0, 0))
    }

    fn fresh(&mut self, shape: (usize, usize), place: Place) -> BufferId {
        let name = format!("t{}", self.list.buffers.len());
        self.buffer(name, shape, place, Contents::Empty)
    }

    /// A host buffer the caller fills on every run.
    pub fn input(&mut self, name: &str, rows: usize, cols: usize) -> BufferId {
        self.buffer(name.into(), (rows, cols), Place::Host, Contents::Input)
    }

    /// Weights or a bias: device-resident numbers, uploaded once when the graph is set up.
    pub fn parameter(&mut self, name: &str, value: Tensor2D) -> BufferId {
        self.buffer(
            name.into(),
            value.shape(),
            Place::Device,
            Contents::Parameter(value),
        )
    }

    pub fn to_device(&mut self, from: BufferId) -> BufferId {
        let to = self.fresh(self.shape(from), Place::Device);
        self.list.ops.push(Operator::HostToDevice { from, to });
        to
    }

    pub fn to_host(&mut self, from: BufferId) -> BufferId {
        let to = self.fresh(self.shape(from), Place::Host);
        self.list.ops.push(Operator::DeviceToHost { from, to });
        to
    }

    pub fn linear(&mut self, input: BufferId, weights: BufferId, bias: BufferId) -> BufferId {
        let output = self.fresh((self.shape(input).0, self.shape(weights).1), Place::Device);
        self.list.ops.push(Operator::Linear {
            input,
            weights,
            bias,
            output,
        });
        output
    }

    pub fn relu(&mut self, input: BufferId) -> BufferId {
        let output = self.fresh(self.shape(input), Place::Device);
        self.list.ops.push(Operator::Relu { input, output });
        output
    }

    pub fn softmax(&mut self, input: BufferId) -> BufferId {
        let output = self.fresh(self.shape(input), Place::Device);
        self.list.ops.push(Operator::Softmax { input, output });
        output
    }

    /// A node of an operator defined outside this crate. If the inputs' shapes do not suit it,
    /// the output is declared 0×0 and validation reports the operator's own explanation.
    pub fn custom(&mut self, op: impl CustomOperator, inputs: &[BufferId]) -> BufferId {
        self.custom_shared(Custom::new(op), inputs)
    }

    /// Like [`GraphBuilder::custom`], with an operator handle that may be used more than once.
    pub fn custom_shared(&mut self, op: Custom, inputs: &[BufferId]) -> BufferId {
        let shapes: Vec<_> = inputs.iter().map(|&id| self.shape(id)).collect();
        let shape = op.0.output_shape(&shapes).unwrap_or((0, 0));
        let output = self.fresh(shape, Place::Device);
        self.list.ops.push(Operator::Custom {
            op,
            inputs: inputs.to_vec(),
            output,
        });
        output
    }

    pub fn finish(self) -> OpList {
        self.list
    }
}
