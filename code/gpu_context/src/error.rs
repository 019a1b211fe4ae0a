use std::fmt;

/// Everything that can go wrong while setting up or using the GPU, each with what to do about it.
#[derive(Debug)]
pub enum GpuError {
    /// No adapter at all: no GPU driver and no software renderer.
    NoAdapter { details: String },
    /// The adapter lacks a feature that this program needs.
    MissingFeature { adapter: String, feature: String },
    /// The adapter's limit is lower than this program needs.
    LimitTooLow {
        adapter: String,
        limit: &'static str,
        needed: u64,
        available: u64,
    },
    /// The adapter was found but refused to open a device.
    DeviceRequest(String),
    /// A WGSL shader or pipeline failed validation.
    Shader { label: String, message: String },
    /// A buffer is larger than the device allows.
    BufferTooLarge { label: String, bytes: u64, max: u64 },
    /// Reading a buffer back failed.
    Readback(String),
    /// The device reported a validation or out-of-memory error while running work.
    Execution(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter { details } => write!(
                f,
                "no GPU adapter found ({details}).\n\
                 What to do:\n\
                 - with a GPU: install or update its driver (Vulkan on Linux and Windows, Metal is built into macOS);\n\
                 - without one, on Debian/Ubuntu: `sudo apt install mesa-vulkan-drivers` gives the software Vulkan device lavapipe;\n\
                 - then run `cargo xtask doctor` to check."
            ),
            GpuError::MissingFeature { adapter, feature } => write!(
                f,
                "the adapter \"{adapter}\" does not support the feature {feature}. \
                 Use a GPU or driver that has it, or pick a variant of this program that does not need it."
            ),
            GpuError::LimitTooLow {
                adapter,
                limit,
                needed,
                available,
            } => write!(
                f,
                "the adapter \"{adapter}\" allows {limit} = {available}, but this needs {needed}. \
                 Use smaller inputs, or a GPU with a higher limit."
            ),
            GpuError::DeviceRequest(msg) => write!(
                f,
                "the adapter refused to open a device: {msg}. Update the GPU driver, or try the software \
                 adapter (lavapipe)."
            ),
            GpuError::Shader { label, message } => {
                write!(
                    f,
                    "the shader or pipeline \"{label}\" is invalid:\n{message}"
                )
            }
            GpuError::BufferTooLarge { label, bytes, max } => write!(
                f,
                "buffer \"{label}\" needs {bytes} bytes, but this device allows at most {max} bytes per \
                 buffer binding. Split the data, or use smaller shapes."
            ),
            GpuError::Readback(msg) => {
                write!(f, "reading a buffer back from the GPU failed: {msg}")
            }
            GpuError::Execution(msg) => {
                write!(f, "the GPU reported an error while running work: {msg}")
            }
        }
    }
}

impl std::error::Error for GpuError {}
