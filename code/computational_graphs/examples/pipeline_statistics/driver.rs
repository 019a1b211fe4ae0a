//! WGSL → SPIR-V with naga, the way wgpu 30's Vulkan backend writes it, then a compute pipeline
//! made directly through Vulkan (ash) with the driver asked to keep its statistics
//! (VK_KHR_pipeline_executable_properties). wgpu itself never asks for them, so the pipeline is
//! made here again from the same SPIR-V options wgpu would pick on the same device.

use std::ffi::{CStr, c_char};

use ash::vk;
use naga::back::spv;
use naga::proc::{BoundsCheckPolicies, BoundsCheckPolicy};

#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error(
        "no Vulkan loader could be opened ({0}); install a Vulkan driver (Mesa's lavapipe for a CPU one)"
    )]
    NoLoader(String),
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan {
        call: &'static str,
        result: vk::Result,
    },
    #[error(
        "Vulkan lists no device with a compute queue; install a Vulkan driver (Mesa's lavapipe for a CPU one)"
    )]
    NoDevice,
    #[error(
        "{device} does not offer VK_KHR_pipeline_executable_properties (with its \
         pipelineExecutableInfo feature), so its driver cannot report what it compiled; \
         run on a device whose driver offers it (`vulkaninfo | grep pipeline_executable`)"
    )]
    NoExtension { device: String },
    #[error("kernel `{kernel}`: {detail}")]
    Compile { kernel: String, detail: String },
}

fn vk_call(call: &'static str) -> impl Fn(vk::Result) -> DriverError {
    move |result| DriverError::Vulkan { call, result }
}

/// The buffers a kernel binds in group 0: (binding, descriptor type).
pub type Bindings = Vec<(u32, vk::DescriptorType)>;

/// How a module's accesses are guarded, as wgpu 30 sets it for a checked or an unchecked module.
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    pub unchecked: bool,
    /// The device runs with robustBufferAccess2, so wgpu leaves buffer accesses to it.
    pub robust_buffer_access2: bool,
}

impl Checks {
    pub fn policies(&self) -> BoundsCheckPolicies {
        if self.unchecked {
            return BoundsCheckPolicies {
                index: BoundsCheckPolicy::Unchecked,
                buffer: BoundsCheckPolicy::Unchecked,
                image_load: BoundsCheckPolicy::Unchecked,
                binding_array: BoundsCheckPolicy::Unchecked,
            };
        }
        BoundsCheckPolicies {
            index: BoundsCheckPolicy::Restrict,
            buffer: if self.robust_buffer_access2 {
                BoundsCheckPolicy::Unchecked
            } else {
                BoundsCheckPolicy::Restrict
            },
            image_load: BoundsCheckPolicy::Restrict,
            binding_array: BoundsCheckPolicy::Unchecked,
        }
    }

    /// The row's description of the checks: naga's policies, loop bounding, division checks.
    pub fn describe(&self) -> String {
        let p = self.policies();
        let bounded = if self.unchecked { "no" } else { "yes" };
        format!(
            "index {:?}, buffer {:?}, loops bounded {bounded}, division checks {bounded}",
            p.index, p.buffer
        )
    }
}

/// A statistic the driver reported for one executable of one pipeline.
pub struct Statistic {
    pub executable: String,
    pub name: String,
    pub description: String,
    pub value: String,
}

/// The Vulkan loader and one instance; devices borrow it.
pub struct Vulkan {
    _entry: ash::Entry,
    instance: ash::Instance,
    /// The version the instance was made for: a device is used at most at this version.
    version: u32,
}

impl Vulkan {
    pub fn load() -> Result<Vulkan, DriverError> {
        // SAFETY: loading the system's Vulkan loader runs its initialisers; that is what every
        // Vulkan program does.
        let entry =
            unsafe { ash::Entry::load() }.map_err(|e| DriverError::NoLoader(e.to_string()))?;
        let version = unsafe { entry.try_enumerate_instance_version() }
            .map_err(vk_call("vkEnumerateInstanceVersion"))?
            .unwrap_or(vk::API_VERSION_1_0);
        let version = version.min(vk::API_VERSION_1_3);
        let app = vk::ApplicationInfo::default()
            .application_name(c"pipeline_statistics")
            .api_version(version);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        let instance =
            unsafe { entry.create_instance(&info, None) }.map_err(vk_call("vkCreateInstance"))?;
        Ok(Vulkan {
            _entry: entry,
            instance,
            version,
        })
    }

    /// Every device with a compute queue, opened, in Vulkan's order; the statistics extension
    /// is enabled on those that offer it. An error when there is none.
    pub fn devices(&self) -> Result<Vec<Driver<'_>>, DriverError> {
        let physical = unsafe { self.instance.enumerate_physical_devices() }
            .map_err(vk_call("vkEnumeratePhysicalDevices"))?;
        let mut opened = Vec::new();
        for pd in physical {
            opened.extend(open_one(&self.instance, self.version, pd)?);
        }
        if opened.is_empty() {
            return Err(DriverError::NoDevice);
        }
        Ok(opened)
    }
}

impl Drop for Vulkan {
    fn drop(&mut self) {
        // SAFETY: every device made from this instance borrows it, so they are gone already.
        unsafe { self.instance.destroy_instance(None) };
    }
}

/// One Vulkan device, opened with the features wgpu would enable for robustness and
/// workgroup-memory initialisation, and with the statistics extension where offered.
pub struct Driver<'v> {
    device: ash::Device,
    executables: Option<ash::khr::pipeline_executable_properties::Device>,
    pub name: String,
    /// The driver's own name and version string (VkPhysicalDeviceDriverProperties).
    pub driver: String,
    api_version: u32,
    pub robust_buffer_access2: bool,
    zero_init_native: bool,
    _instance: std::marker::PhantomData<&'v Vulkan>,
}

/// One statistic as a row: its value written out in the format the driver chose.
fn statistic(executable: &str, s: &vk::PipelineExecutableStatisticKHR<'_>) -> Statistic {
    // SAFETY: `format` says which member of the union the driver wrote.
    let value = unsafe {
        match s.format {
            vk::PipelineExecutableStatisticFormatKHR::BOOL32 => (s.value.b32 != 0).to_string(),
            vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64.to_string(),
            vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64.to_string(),
            vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => s.value.f64.to_string(),
            other => format!("(format {other:?})"),
        }
    };
    Statistic {
        executable: executable.to_owned(),
        name: c_str(&s.name),
        description: c_str(&s.description),
        value,
    }
}

fn c_str(chars: &[c_char]) -> String {
    // The bytes up to the first NUL (Vulkan's fixed-size strings end in one).
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Driver<'_> {
    pub fn offers_statistics(&self) -> bool {
        self.executables.is_some()
    }

    /// The SPIR-V writer's options wgpu 30 would use on this device.
    fn spv_options(&self, checks: Checks, binding_map: spv::BindingMap) -> spv::Options<'static> {
        let minor = vk::api_version_minor(self.api_version);
        spv::Options {
            lang_version: match minor {
                0 => (1, 0),
                1 => (1, 3),
                2 => (1, 5),
                _ => (1, 6),
            },
            flags: spv::WriterFlags::LABEL_VARYINGS | spv::WriterFlags::FORCE_POINT_SIZE,
            fake_missing_bindings: false,
            binding_map,
            capabilities: None,
            bounds_check_policies: checks.policies(),
            zero_initialize_workgroup_memory: if self.zero_init_native {
                spv::ZeroInitializeWorkgroupMemoryMode::Native
            } else {
                spv::ZeroInitializeWorkgroupMemoryMode::Polyfill
            },
            force_loop_bounding: !checks.unchecked,
            emit_int_div_checks: !checks.unchecked,
            ..spv::Options::default()
        }
    }

    /// The kernel's SPIR-V and the storage/uniform bindings of group 0 it uses.
    pub fn spirv(
        &self,
        kernel: &str,
        wgsl: &str,
        constants: &[(String, f64)],
        checks: Checks,
    ) -> Result<(Vec<u32>, Bindings), DriverError> {
        let fail = |detail: String| DriverError::Compile {
            kernel: kernel.to_owned(),
            detail,
        };
        let module =
            naga::front::wgsl::parse_str(wgsl).map_err(|e| fail(e.emit_to_string(wgsl)))?;
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .map_err(|e| fail(format!("{e:?}")))?;
        let mut pipeline_constants = naga::back::PipelineConstants::default();
        for (name, value) in constants {
            pipeline_constants.insert(name.clone(), *value);
        }
        let (module, info) = naga::back::pipeline_constants::process_overrides(
            &module,
            &info,
            Some((naga::ShaderStage::Compute, "main")),
            &pipeline_constants,
        )
        .map_err(|e| fail(e.to_string()))?;
        // wgpu numbers each group's bindings densely in order; the ladder's are 0, 1, 2, …
        // already, so the map is the identity, written out as wgpu writes it.
        let mut bindings = Vec::new();
        let mut binding_map = spv::BindingMap::default();
        for (_, global) in module.global_variables.iter() {
            let Some(binding) = &global.binding else {
                continue;
            };
            let kind = match global.space {
                naga::AddressSpace::Storage { .. } => vk::DescriptorType::STORAGE_BUFFER,
                naga::AddressSpace::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
                other => return Err(fail(format!("binding in {other:?} is not a buffer"))),
            };
            if binding.group != 0 {
                return Err(fail("only bind group 0 is supported".into()));
            }
            bindings.push((binding.binding, kind));
            binding_map.insert(
                *binding,
                spv::BindingInfo {
                    descriptor_set: 0,
                    binding: binding.binding,
                    binding_array_size: None,
                },
            );
        }
        let pipeline = spv::PipelineOptions {
            shader_stage: naga::ShaderStage::Compute,
            entry_point: "main".into(),
        };
        let options = self.spv_options(checks, binding_map);
        let words = spv::write_vec(&module, &info, &options, Some(&pipeline))
            .map_err(|e| fail(e.to_string()))?;
        Ok((words, bindings))
    }

    /// Makes the compute pipeline of `spirv` (asking for statistics when `capture`) and returns
    /// what the driver reports about it (nothing without `capture`).
    pub fn pipeline_statistics(
        &self,
        spirv: &[u32],
        bindings: &[(u32, vk::DescriptorType)],
        capture: bool,
    ) -> Result<Vec<Statistic>, DriverError> {
        let executables = match (&self.executables, capture) {
            (Some(e), true) => Some(e),
            (None, true) => {
                return Err(DriverError::NoExtension {
                    device: self.name.clone(),
                });
            }
            (_, false) => None,
        };
        let d = &self.device;
        let layout_bindings: Vec<_> = bindings
            .iter()
            .map(|&(binding, kind)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(kind)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let mut objects = Objects::new(d);
        let set_layout = unsafe {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                None,
            )
        }
        .map_err(vk_call("vkCreateDescriptorSetLayout"))?;
        objects.set_layout = set_layout;
        let layouts = [set_layout];
        objects.layout = unsafe {
            d.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&layouts),
                None,
            )
        }
        .map_err(vk_call("vkCreatePipelineLayout"))?;
        objects.module = unsafe {
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
        }
        .map_err(vk_call("vkCreateShaderModule"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(objects.module)
            .name(c"main");
        // ANCHOR: capture
        let flags = if capture {
            vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR
        } else {
            vk::PipelineCreateFlags::empty()
        };
        let info = vk::ComputePipelineCreateInfo::default()
            .flags(flags)
            .stage(stage)
            .layout(objects.layout);
        let pipelines =
            unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &[info], None) }
                .map_err(|(_, r)| vk_call("vkCreateComputePipelines")(r))?;
        objects.pipeline = pipelines[0];
        let Some(ext) = executables else {
            return Ok(Vec::new());
        };
        let executables = unsafe {
            ext.get_pipeline_executable_properties(
                &vk::PipelineInfoKHR::default().pipeline(objects.pipeline),
            )
        }
        .map_err(vk_call("vkGetPipelineExecutablePropertiesKHR"))?;
        let mut rows = Vec::new();
        for (index, exe) in executables.iter().enumerate() {
            let exe_name = c_str(&exe.name);
            let query = vk::PipelineExecutableInfoKHR::default()
                .pipeline(objects.pipeline)
                .executable_index(index as u32);
            let stats = unsafe { ext.get_pipeline_executable_statistics(&query) }
                .map_err(vk_call("vkGetPipelineExecutableStatisticsKHR"))?;
            rows.extend(stats.iter().map(|s| statistic(&exe_name, s)));
        }
        // ANCHOR_END: capture
        Ok(rows)
    }
}

impl Drop for Driver<'_> {
    fn drop(&mut self) {
        // SAFETY: every object made on the device is destroyed by `Objects` before this runs.
        unsafe { self.device.destroy_device(None) };
    }
}

/// The Vulkan objects of one pipeline, destroyed together whichever step failed.
struct Objects<'d> {
    device: &'d ash::Device,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    module: vk::ShaderModule,
    pipeline: vk::Pipeline,
}

impl<'d> Objects<'d> {
    fn new(device: &'d ash::Device) -> Self {
        Self {
            device,
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            module: vk::ShaderModule::null(),
            pipeline: vk::Pipeline::null(),
        }
    }
}

impl Drop for Objects<'_> {
    fn drop(&mut self) {
        // SAFETY: made on this device, used by no command buffer; destroying null is allowed.
        unsafe {
            self.device.destroy_pipeline(self.pipeline, None);
            self.device.destroy_shader_module(self.module, None);
            self.device.destroy_pipeline_layout(self.layout, None);
            self.device
                .destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

/// Opens one device (None when it has no compute queue).
fn open_one<'v>(
    instance: &ash::Instance,
    instance_version: u32,
    pd: vk::PhysicalDevice,
) -> Result<Option<Driver<'v>>, DriverError> {
    let props = unsafe { instance.get_physical_device_properties(pd) };
    let name = c_str(&props.device_name);
    let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
    let Some(family) = families
        .iter()
        .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
    else {
        return Ok(None);
    };
    let extensions = unsafe { instance.enumerate_device_extension_properties(pd) }
        .map_err(vk_call("vkEnumerateDeviceExtensionProperties"))?;
    let has = |wanted: &CStr| {
        extensions
            .iter()
            .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == wanted))
    };
    // Vulkan's versions order as numbers: the lower of the device's and the instance's.
    let api_version = props.api_version.min(instance_version);
    let minor = vk::api_version_minor(api_version);
    let mut exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
    let mut robust2 = vk::PhysicalDeviceRobustness2FeaturesEXT::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let offers_exec = has(ash::khr::pipeline_executable_properties::NAME);
    let offers_robust2 = has(ash::ext::robustness2::NAME);
    let mut query = vk::PhysicalDeviceFeatures2::default();
    if offers_exec {
        query = query.push_next(&mut exec);
    }
    if offers_robust2 {
        query = query.push_next(&mut robust2);
    }
    if minor >= 3 {
        query = query.push_next(&mut v13);
    }
    unsafe { instance.get_physical_device_features2(pd, &mut query) };
    let core = query.features;
    let statistics = offers_exec && exec.pipeline_executable_info == vk::TRUE;
    let robust_buffer_access2 = offers_robust2 && robust2.robust_buffer_access2 == vk::TRUE;
    let zero_init_native = minor >= 3 && v13.shader_zero_initialize_workgroup_memory == vk::TRUE;

    let mut driver_props = vk::PhysicalDeviceDriverProperties::default();
    let driver = if minor >= 2 {
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver_props);
        unsafe { instance.get_physical_device_properties2(pd, &mut props2) };
        format!(
            "{} {}",
            c_str(&driver_props.driver_name),
            c_str(&driver_props.driver_info)
        )
    } else {
        format!("driver version {:#x}", props.driver_version)
    };

    let mut names = Vec::new();
    let mut enable_exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default()
        .pipeline_executable_info(true);
    let mut enable_robust2 =
        vk::PhysicalDeviceRobustness2FeaturesEXT::default().robust_buffer_access2(true);
    let mut enable_v13 =
        vk::PhysicalDeviceVulkan13Features::default().shader_zero_initialize_workgroup_memory(true);
    let enabled_core = vk::PhysicalDeviceFeatures::default()
        .robust_buffer_access(core.robust_buffer_access == vk::TRUE);
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family as u32)
        .queue_priorities(&priorities)];
    let mut create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_features(&enabled_core);
    if statistics {
        names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        create = create.push_next(&mut enable_exec);
    }
    if robust_buffer_access2 {
        names.push(ash::ext::robustness2::NAME.as_ptr());
        create = create.push_next(&mut enable_robust2);
    }
    if zero_init_native {
        create = create.push_next(&mut enable_v13);
    }
    let create = create.enabled_extension_names(&names);
    let device =
        unsafe { instance.create_device(pd, &create, None) }.map_err(vk_call("vkCreateDevice"))?;
    let executables = statistics
        .then(|| ash::khr::pipeline_executable_properties::Device::new(instance, &device));
    Ok(Some(Driver {
        device,
        executables,
        name,
        driver,
        api_version,
        robust_buffer_access2,
        zero_init_native,
        _instance: std::marker::PhantomData,
    }))
}
