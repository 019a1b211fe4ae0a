/// Everything that can go wrong while setting up or using the GPU, each with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter at all: no GPU driver and no software renderer.
    #[error(
        "no GPU adapter found ({details}).\n\
         What to do:\n\
         - with a GPU: install or update its driver (Vulkan on Linux and Windows, Metal is built into macOS);\n\
         - without one, on Debian/Ubuntu: `sudo apt install mesa-vulkan-drivers` gives the software Vulkan device lavapipe;\n\
         - then run `cargo xtask doctor` to check."
    )]
    NoAdapter { details: String },
    /// The adapter lacks a feature that this program needs.
    #[error(
        "the adapter \"{adapter}\" does not support the feature {feature}. \
         Use a GPU or driver that has it, or pick a variant of this program that does not need it."
    )]
    MissingFeature { adapter: String, feature: String },
    /// The adapter's limit is lower than this program needs.
    #[error(
        "the adapter \"{adapter}\" allows {limit} = {available}, but this needs {needed}. \
         Use smaller inputs, or a GPU with a higher limit."
    )]
    LimitTooLow {
        adapter: String,
        limit: &'static str,
        needed: u64,
        available: u64,
    },
    /// The adapter was found but refused to open a device.
    #[error(
        "the adapter refused to open a device. Update the GPU driver, or try the software \
         adapter (lavapipe)"
    )]
    DeviceRequest(#[source] wgpu::RequestDeviceError),
    /// A WGSL shader or pipeline failed validation.
    #[error("the shader or pipeline \"{label}\" is invalid:\n{message}")]
    Shader { label: String, message: String },
    /// A buffer is larger than the device allows.
    #[error(
        "buffer \"{label}\" needs {bytes} bytes, but this device allows at most {max} bytes per \
         buffer binding. Split the data, or use smaller shapes."
    )]
    BufferTooLarge { label: String, bytes: u64, max: u64 },
    /// Reading a buffer back failed.
    #[error("reading a buffer back from the GPU failed: {0}")]
    Readback(String),
    /// Mapping a buffer for reading failed.
    #[error("reading a buffer back from the GPU failed: the buffer could not be mapped")]
    Map(#[source] wgpu::BufferAsyncError),
    /// The device reported a validation or out-of-memory error while running work.
    #[error("the GPU reported an error while running work: {0}")]
    Execution(String),
}
