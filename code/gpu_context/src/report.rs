use std::fmt;

/// The adapter and device, described for people (Display) and for figure sidecars (JSON).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct AdapterReport {
    pub name: String,
    pub backend: String,
    pub device_type: String,
    pub driver: String,
    pub timestamps: bool,
    pub max_buffer_size: u64,
    pub max_storage_buffer_binding_size: u64,
    pub max_compute_workgroup_storage_size: u32,
    pub max_compute_invocations_per_workgroup: u32,
}

impl AdapterReport {
    pub(crate) fn new(adapter: &wgpu::Adapter, device: &wgpu::Device) -> Self {
        let info = adapter.get_info();
        let limits = device.limits();
        let driver = match (info.driver.is_empty(), info.driver_info.is_empty()) {
            (false, false) => format!("{} {}", info.driver, info.driver_info),
            (false, true) => info.driver.clone(),
            _ => info.driver_info.clone(),
        };
        Self {
            name: info.name,
            backend: format!("{:?}", info.backend),
            device_type: format!("{:?}", info.device_type),
            driver,
            timestamps: device.features().contains(wgpu::Features::TIMESTAMP_QUERY),
            max_buffer_size: limits.max_buffer_size,
            max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
            max_compute_workgroup_storage_size: limits.max_compute_workgroup_storage_size,
            max_compute_invocations_per_workgroup: limits.max_compute_invocations_per_workgroup,
        }
    }

    /// True for a CPU implementation such as lavapipe: fine for correctness, not for tuning.
    pub fn is_software(&self) -> bool {
        self.device_type == "Cpu"
    }

    /// One JSON object, for figure sidecars.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an adapter report is plain data and always serialises")
    }
}

impl fmt::Display for AdapterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "adapter:     {}", self.name)?;
        writeln!(f, "backend:     {}", self.backend)?;
        writeln!(f, "type:        {}", self.device_type)?;
        writeln!(f, "driver:      {}", self.driver)?;
        writeln!(
            f,
            "timestamps:  {}",
            if self.timestamps {
                "yes"
            } else {
                "no (CPU clock fallback)"
            }
        )?;
        writeln!(
            f,
            "max storage binding: {} MiB",
            self.max_storage_buffer_binding_size >> 20
        )?;
        write!(
            f,
            "workgroup storage:   {} KiB",
            self.max_compute_workgroup_storage_size >> 10
        )
    }
}
