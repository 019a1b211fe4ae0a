//! What can go wrong in a demo run, each with what to do about it.

/// One error type for every demo: the browser shows its message in the demo's box.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("the inputs have lengths {a} and {b}: give both the same length")]
    LengthMismatch { a: usize, b: usize },
    #[error(
        "{elements} elements need {groups} workgroups, over this adapter's limit of {max}: use fewer elements"
    )]
    TooLong {
        elements: usize,
        groups: u64,
        max: u32,
    },
    /// A size (or other choice) that the demo does not offer: the boxes only offer valid ones.
    #[error("{what} {value} is not one this demo offers ({offered}): pick one of those")]
    NotOffered {
        what: &'static str,
        value: String,
        offered: String,
    },
    #[error("{what} is {value}; it must be between {min} and {max}")]
    OutOfRange {
        what: &'static str,
        value: usize,
        min: usize,
        max: usize,
    },
    #[error("the GPU could not map the result for reading")]
    Map(#[source] wgpu::BufferAsyncError),
    #[error("the mapped result could not be read")]
    MappedRange(#[source] wgpu::MapRangeError),
    #[error("the GPU dropped the read-back before it finished (device lost?)")]
    Cancelled,
    #[error("waiting for the GPU failed")]
    Poll(#[source] wgpu::PollError),
    #[error(transparent)]
    Gpu(#[from] gpu_context::GpuError),
    #[error(transparent)]
    Graph(#[from] computational_graphs::Error),
    /// An error the device reported on its own (in a browser: a shader or a command the
    /// browser's WebGPU refused), collected while the demo ran.
    #[error("the GPU reported an error while the demo ran: {0}")]
    Device(String),
}

impl DemoError {
    /// The error for a `value` outside `offered`.
    pub fn not_offered<T: ToString>(
        what: &'static str,
        value: impl ToString,
        offered: &[T],
    ) -> Self {
        let offered = offered
            .iter()
            .map(T::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        Self::NotOffered {
            what,
            value: value.to_string(),
            offered,
        }
    }
}

/// `Ok(())` when `value` is one of `offered`, the error that lists them otherwise.
pub fn check_offered<T: PartialEq + ToString>(
    what: &'static str,
    value: T,
    offered: &[T],
) -> Result<(), DemoError> {
    if offered.contains(&value) {
        Ok(())
    } else {
        Err(DemoError::not_offered(what, value, offered))
    }
}
