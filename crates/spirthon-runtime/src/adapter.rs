//! Adapters: which Vulkan or Metal devices there are, and opening one ([`Gpu::open`]).

use crate::{Gpu, RunError};

/// Gives the Vulkan loader an `XDG_RUNTIME_DIR` when there is none: it prints a warning
/// without one and needs nothing from it. Call it at start-up, before other threads run.
pub fn quiet_vulkan_loader() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        std::env::set_var("XDG_RUNTIME_DIR", std::env::temp_dir());
    }
}

/// Every Vulkan and Metal adapter, in the order the platform lists them.
fn all_adapters() -> Vec<wgpu::Adapter> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN | wgpu::Backends::METAL,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    pollster::block_on(instance.enumerate_adapters(wgpu::Backends::VULKAN | wgpu::Backends::METAL))
}

/// The adapters [`Gpu::open`] can pick from, as [`Gpu::describe`] words them.
pub fn adapters() -> Vec<String> {
    all_adapters()
        .iter()
        .map(|a| describe(&a.get_info()))
        .collect()
}

fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.device_type, info.backend)
}

/// How to install a CPU Vulkan implementation, for the "no adapter" message.
pub const INSTALL_HINT: &str = "install a Vulkan driver; with no GPU, Mesa's lavapipe runs Vulkan on the CPU: `sudo apt-get install mesa-vulkan-drivers` (Debian/Ubuntu)";

impl Gpu {
    /// Opens the first hardware adapter, else a CPU implementation (lavapipe); with
    /// `name`, the first adapter whose name as [`adapters`] lists it contains it
    /// (case-insensitive).
    pub fn open(name: Option<&str>) -> Result<Gpu, RunError> {
        let mut adapters = all_adapters();
        if adapters.is_empty() {
            return Err(RunError::NoAdapter(format!(
                "no Vulkan or Metal adapter found: {INSTALL_HINT}"
            )));
        }
        if let Some(n) = name {
            let n = n.to_lowercase();
            let names: Vec<String> = adapters.iter().map(|a| describe(&a.get_info())).collect();
            // As `adapters()` lists it (the kind and backend too), or any part of that.
            adapters.retain(|a| describe(&a.get_info()).to_lowercase().contains(&n));
            if adapters.is_empty() {
                return Err(RunError::NoAdapter(format!(
                    "no adapter name contains {n:?}; found: {}",
                    names.join("; ")
                )));
            }
        }
        // Hardware first (discrete, integrated, virtual), CPU implementations last.
        adapters.sort_by_key(|a| match a.get_info().device_type {
            wgpu::DeviceType::DiscreteGpu => 0,
            wgpu::DeviceType::IntegratedGpu => 1,
            wgpu::DeviceType::VirtualGpu => 2,
            wgpu::DeviceType::Other => 3,
            wgpu::DeviceType::Cpu => 4,
        });
        let adapter = adapters.swap_remove(0);
        let info = adapter.get_info();
        // On Vulkan the driver gets the compiler's module as it is (module `floats`).
        let passthrough = (info.backend == wgpu::Backend::Vulkan
            && adapter
                .features()
                .contains(wgpu::Features::PASSTHROUGH_SHADERS))
        .then(|| float_controls(&adapter));
        let extra = match passthrough {
            Some(_) => wgpu::Features::PASSTHROUGH_SHADERS,
            None => wgpu::Features::empty(),
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("spirthon"),
            // Float atomics and f64 where the device has them; a kernel that needs one the
            // device lacks is refused before it runs (`OPTIONAL_FEATURES`).
            required_features: (adapter.features() & crate::optional_features()) | extra,
            // Kernels may take many arrays: ask for what the adapter has.
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| RunError::Device(format!("cannot open {}: {e}", info.name)))?;
        Ok(Gpu {
            device,
            queue,
            info,
            batches: Default::default(),
            passthrough,
        })
    }

    /// The adapter's name and kind, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Cpu, Vulkan)`.
    pub fn describe(&self) -> String {
        describe(&self.info)
    }

    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// How the device computes with floats beside IEEE 754 rounding, e.g.
    /// `subnormals kept in f16, f32, f64` (module `floats`).
    pub fn describe_floats(&self) -> String {
        match &self.passthrough {
            Some(fc) => fc.describe(),
            None => "modules translated by naga (no float controls, contraction possible)".into(),
        }
    }

    /// The device's subgroup size, when it has subgroup operations and one size (a device
    /// that may pick a size per kernel, between two, gives `None`).
    pub fn subgroup_size(&self) -> Option<u32> {
        let (lo, hi) = (self.info.subgroup_min_size, self.info.subgroup_max_size);
        (self.device.features().contains(wgpu::Features::SUBGROUP) && lo == hi && lo > 0)
            .then_some(lo)
    }
}

/// The float controls of a Vulkan adapter (`VkPhysicalDeviceFloatControlsProperties`, core in
/// Vulkan 1.2); none for an older device.
#[allow(unsafe_code)]
fn float_controls(adapter: &wgpu::Adapter) -> crate::FloatControls {
    use ash::vk;
    // SAFETY: the guard borrows the adapter, which outlives it; the one Vulkan call below
    // only reads the physical device's properties, with structures ash sets up.
    let Some(hal) = (unsafe { adapter.as_hal::<wgpu::hal::api::Vulkan>() }) else {
        return Default::default();
    };
    let shared = hal.shared_instance();
    if shared.instance_api_version() < vk::API_VERSION_1_2 {
        return Default::default();
    }
    let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut fc);
    unsafe {
        shared
            .raw_instance()
            .get_physical_device_properties2(hal.raw_physical_device(), &mut props)
    };
    if props.properties.api_version < vk::API_VERSION_1_2 {
        return Default::default();
    }
    let yes = |b: vk::Bool32| b == vk::TRUE;
    crate::FloatControls {
        denorm_preserve: [
            yes(fc.shader_denorm_preserve_float16),
            yes(fc.shader_denorm_preserve_float32),
            yes(fc.shader_denorm_preserve_float64),
        ],
        signed_zero_inf_nan_preserve: [
            yes(fc.shader_signed_zero_inf_nan_preserve_float16),
            yes(fc.shader_signed_zero_inf_nan_preserve_float32),
            yes(fc.shader_signed_zero_inf_nan_preserve_float64),
        ],
    }
}
