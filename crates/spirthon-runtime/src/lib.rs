//! Runs compiled kernels on a GPU through wgpu (Vulkan on Linux and Windows, Metal on macOS),
//! following the binding ABI of docs/language.md: binding 0 is the uniform block (scalar
//! parameters, then the hidden `threads` launch size), bindings 1, 2, … are the arrays,
//! read-only where the kernel never writes them.
//!
//! - [`inputs`] turns a run-JSON object into a [`Launch`] for one entry point, and the arrays
//!   read back into the output JSON.
//! - [`resident`] keeps arrays and pipelines on the device across launches (the Python
//!   library's device arrays); [`adapters`] lists the devices.
//! - [`Gpu`] picks an adapter, and runs a [`Launch`] of a SPIR-V or WGSL shader: it creates
//!   the bind group layout from the ABI, uploads, dispatches
//!   `ceil(threads / workgroup_size)` workgroups, and reads every array back.
//!
//! Nothing here compiles Python: the caller passes SPIR-V words (and may pass a WGSL twin
//! with the same ABI, for comparisons).

mod adapter;
mod batch;
mod bindings;
mod floats;
mod hidden;
pub mod inputs;
pub mod json;
pub mod resident;
pub mod worker;

pub use adapter::{adapters, quiet_vulkan_loader, INSTALL_HINT};
pub use floats::{with_float_controls, FloatControls};
pub use hidden::Reported;

use std::fmt;
use std::time::{Duration, Instant};

/// Why a run could not happen or failed.
#[derive(Debug)]
pub enum RunError {
    /// No adapter at all (or none matching the requested name).
    NoAdapter(String),
    /// The inputs do not fit the kernel (missing, extra or mistyped arguments, bad JSON).
    Input(String),
    /// The device rejected something or failed.
    Device(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::NoAdapter(m) | RunError::Input(m) | RunError::Device(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// The optional device features a module may need: the SPIR-V capability that declares the
/// need, the wgpu feature, the Vulkan feature's name, and what in a kernel needs it.
const OPTIONAL_FEATURES: [(u32, wgpu::Features, &str, &str); 5] = [
    (
        6033, // AtomicFloat32AddEXT
        wgpu::Features::SHADER_FLOAT32_ATOMIC,
        "shaderBufferFloat32AtomicAdd",
        "calls `atomic_add` on an `Array[f32]`",
    ),
    (
        10, // Float64
        wgpu::Features::SHADER_F64,
        "shaderFloat64",
        "computes in `f64`",
    ),
    (
        11, // Int64
        wgpu::Features::SHADER_INT64,
        "shaderInt64",
        "computes in `i64` or `u64` (or calls `exp`, `log`, `sin` or the like on an `f64`, which reads its bits as 64-bit ints)",
    ),
    (
        12, // Int64Atomics
        wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS,
        "shaderBufferInt64Atomics and shaderSharedInt64Atomics",
        "calls an atomic on an `Array[i64]`, `Array[u64]` or `Array[f64]` (or a shared array of them)",
    ),
    (
        61, // GroupNonUniform
        wgpu::Features::SUBGROUP,
        "subgroupSupportedOperations (basic, vote, arithmetic, ballot, shuffle and shuffle relative, in compute shaders)",
        "calls a subgroup operation",
    ),
];

/// Every optional feature wgpu is asked for, where the adapter has it.
pub(crate) fn optional_features() -> wgpu::Features {
    OPTIONAL_FEATURES
        .iter()
        .fold(wgpu::Features::empty(), |all, f| all | f.1)
}

/// The capabilities a SPIR-V module declares (they come first in a module, right after the
/// five header words).
fn declared_capabilities(words: &[u32]) -> Vec<u32> {
    const OP_CAPABILITY: u32 = 17;
    let mut caps = Vec::new();
    let mut at = 5;
    while let Some(&w) = words.get(at) {
        let (len, op) = ((w >> 16) as usize, w & 0xffff);
        if op != OP_CAPABILITY || len == 0 {
            break;
        }
        caps.extend(words.get(at + 1));
        at += len;
    }
    caps
}

/// A shader in one of the forms wgpu accepts.
#[derive(Copy, Clone, Debug)]
pub enum Shader<'a> {
    SpirV(&'a [u32]),
    Wgsl(&'a str),
}

/// One array binding: its number, whether it is read-only, and its initial contents.
#[derive(Clone, Debug)]
pub struct ArrayArg {
    pub binding: u32,
    pub read_only: bool,
    pub data: ArrayData,
}

/// An array's initial contents. Zeros are not held on the host: a device buffer starts
/// zeroed, so a huge `{"zeros": N}` costs nothing until the device limits have been checked.
#[derive(Clone, Debug)]
pub enum ArrayData {
    Bytes(Vec<u8>),
    /// This many zero bytes.
    Zeros(u64),
}

impl ArrayData {
    /// The size in bytes.
    pub fn len(&self) -> u64 {
        match self {
            ArrayData::Bytes(b) => b.len() as u64,
            ArrayData::Zeros(n) => *n,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Everything one dispatch needs.
#[derive(Clone, Debug)]
pub struct Launch {
    pub entry: String,
    pub workgroup_size: [u32; 3],
    pub threads: [u32; 3],
    /// The bytes of the uniform block at binding 0 (std140), if the kernel has one.
    pub uniform: Option<Vec<u8>>,
    pub arrays: Vec<ArrayArg>,
    /// A `--checked` module: the error buffer is bound at set 1, binding 0
    /// (`spirthon_ir::checks`).
    pub checked: bool,
    /// The kernel prints: the print buffer is bound at set 1, binding 1
    /// (`spirthon_ir::prints`).
    pub prints: bool,
}

impl Launch {
    /// Workgroups per axis: `ceil(threads / workgroup_size)`.
    pub fn workgroups(&self) -> [u32; 3] {
        workgroups(self.threads, self.workgroup_size)
    }

    /// What the pipeline of this launch binds.
    pub fn interface(&self) -> Interface {
        Interface {
            entry: self.entry.clone(),
            uniform: self.uniform.is_some(),
            arrays: self
                .arrays
                .iter()
                .map(|a| (a.binding, a.read_only))
                .collect(),
            checked: self.checked,
            prints: self.prints,
        }
    }
}

/// Workgroups per axis for `threads` threads: `ceil(threads / workgroup_size)`.
pub fn workgroups(threads: [u32; 3], workgroup_size: [u32; 3]) -> [u32; 3] {
    let mut w = [0; 3];
    for i in 0..3 {
        w[i] = threads[i].div_ceil(workgroup_size[i].max(1));
    }
    w
}

/// The most dispatches one launch may take (a launch of more workgroups than that many
/// dispatches of the device's limit would run for days).
pub const MAX_DISPATCHES: usize = 1 << 16;

/// One dispatch of a launch: its first workgroup id (its `group_base`, docs/language.md, "The
/// binding ABI") and its workgroup counts.
pub type Chunk = ([u32; 3], [u32; 3]);

/// The dispatches of a launch of `groups` workgroups when one dispatch takes at most `max`
/// per axis, x fastest; none when an axis has none.
pub fn chunks(groups: [u32; 3], max: u32) -> Vec<Chunk> {
    let max = max.max(1);
    let blocks = |n: u32| (0..n.div_ceil(max)).map(move |k| (k * max, (n - k * max).min(max)));
    let mut out = Vec::new();
    for (bz, nz) in blocks(groups[2]) {
        for (by, ny) in blocks(groups[1]) {
            for (bx, nx) in blocks(groups[0]) {
                out.push(([bx, by, bz], [nx, ny, nz]));
            }
        }
    }
    out
}

/// A uniform block's bytes with `group_base` (its last 16 bytes) set to `base`, padded to
/// `size` bytes.
fn with_base(uniform: &[u8], size: usize, base: [u32; 3]) -> Vec<u8> {
    let mut out = uniform.to_vec();
    out.resize(size.max(out.len()).max(16), 0);
    let at = out.len() - 16;
    for (k, v) in base.iter().enumerate() {
        out[at + 4 * k..at + 4 * k + 4].copy_from_slice(&v.to_le_bytes());
    }
    out
}

/// The dispatches of `chunks`, each with its bind group of `groups` (one per chunk, or one
/// for a launch of one dispatch) and the uniform block's dynamic offset.
fn dispatches<'a>(
    chunks: &[Chunk],
    groups: &'a [wgpu::BindGroup],
    offset: Option<u32>,
) -> Vec<Dispatch<'a>> {
    chunks
        .iter()
        .enumerate()
        .map(|(k, (_, n))| (&groups[k.min(groups.len() - 1)], offset, *n))
        .collect()
}

/// Little-endian bytes as 32-bit words (a trailing partial word is dropped).
pub fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// One dispatch of a pass: the ABI's bind group, the dynamic offset of its uniform block
/// (whose `group_base` is the dispatch's), and the workgroup counts.
type Dispatch<'a> = (&'a wgpu::BindGroup, Option<u32>, [u32; 3]);

/// Records one compute pass: `pipeline` with the hidden buffers' bind group at set 1, and
/// each of `dispatches`, `times` times.
fn encode_pass(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::ComputePipeline,
    dispatches: &[Dispatch<'_>],
    hidden: Option<&wgpu::BindGroup>,
    times: u32,
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: None,
        timestamp_writes: None,
    });
    pass.set_pipeline(pipeline);
    if let Some(g) = hidden {
        pass.set_bind_group(spirthon_ir::ErrorBuffer::SET, g, &[]);
    }
    for _ in 0..times {
        for (group, offset, [x, y, z]) in dispatches {
            pass.set_bind_group(0, *group, offset.as_slice());
            pass.dispatch_workgroups(*x, *y, *z);
        }
    }
}

/// What a kernel's pipeline binds (docs/language.md, "Binding ABI"): its entry point, the
/// uniform block at binding 0 if it has one, each array's binding and whether it is
/// read-only, and at set 1 the error buffer in checked mode and the print buffer of a
/// kernel that prints.
#[derive(Clone, Debug)]
pub struct Interface {
    pub entry: String,
    pub uniform: bool,
    pub arrays: Vec<(u32, bool)>,
    pub checked: bool,
    pub prints: bool,
}

impl Interface {
    /// The bindings of its two bind group layouts, sets 0 and 1 (module `bindings`).
    fn bindings(&self) -> [Vec<u32>; 2] {
        let mut main: Vec<u32> = self.arrays.iter().map(|a| a.0).collect();
        if self.uniform {
            main.push(0);
        }
        let mut hidden = Vec::new();
        if self.checked {
            hidden.push(spirthon_ir::ErrorBuffer::BINDING);
        }
        if self.prints {
            hidden.push(spirthon_ir::PrintBuffer::BINDING);
        }
        [main, hidden]
    }
}

/// What a run produced: every array's bytes after the dispatch, and how long the dispatch
/// took on the device (submission to completion).
#[derive(Clone, Debug)]
pub struct Outcome {
    pub arrays: Vec<Vec<u8>>,
    pub dispatch: Duration,
    /// The hidden buffers after the dispatch (the error and print buffers' words).
    pub reported: Reported,
}

/// The bind group layouts of a pipeline: the ABI's set 0, and set 1 when it has hidden
/// buffers (module `hidden`).
struct Layouts {
    main: wgpu::BindGroupLayout,
    hidden: Option<wgpu::BindGroupLayout>,
}

/// The arrays after a dispatch, and the hidden buffers' words.
type Dispatched = (Vec<Vec<u8>>, Reported);

/// A launch made ready for timing by [`Gpu::timer`].
pub struct Timer {
    entry: String,
    pipeline: wgpu::ComputePipeline,
    bound: Bound,
}

/// A launch's buffers on the device ([`Gpu::bind`]): its arrays, the workgroup counts and
/// bind group of each dispatch, the dynamic offset of the uniform block, the hidden buffers.
struct Bound {
    storage: Vec<wgpu::Buffer>,
    chunks: Vec<Chunk>,
    groups: Vec<wgpu::BindGroup>,
    offset: Option<u32>,
    hidden: Option<hidden::Hidden>,
}

/// An open device.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    /// The launches recorded and not yet submitted (module `batch`).
    batches: batch::Batches,
    /// On Vulkan, the float controls a module is given before it goes to the driver as it
    /// is (module `floats`); `None` where modules go through naga (Metal).
    passthrough: Option<FloatControls>,
}

impl Gpu {
    /// Runs `launch` once (`repeat` more times for timing: the reported dispatch time is
    /// the fastest of the repetitions, after a first run that also compiles the shader).
    pub fn run(
        &self,
        shader: Shader<'_>,
        launch: &Launch,
        repeat: usize,
    ) -> Result<Outcome, RunError> {
        let (layout, pipeline) = self.pipeline(shader, &launch.interface())?;
        let mut best = Duration::MAX;
        let mut arrays = Vec::new();
        let mut reported = Reported::default();
        for _ in 0..repeat.max(1) + usize::from(repeat > 0) {
            let (out, t) = self.dispatch(launch, &layout, &pipeline)?;
            best = best.min(t);
            (arrays, reported) = out;
        }
        Ok(Outcome {
            arrays,
            dispatch: best,
            reported,
        })
    }

    /// The device time of one dispatch of `launch`: the fastest of `rounds` submissions of
    /// `per_submit` dispatches (after a warm-up one) on one [`Timer`], divided by
    /// `per_submit`.
    pub fn time(
        &self,
        shader: Shader<'_>,
        launch: &Launch,
        per_submit: u32,
        rounds: usize,
    ) -> Result<Duration, RunError> {
        let t = self.timer(shader, launch)?;
        let mut best = Duration::MAX;
        for _ in 0..rounds + 1 {
            best = best.min(self.time_submission(&t, per_submit)?);
        }
        Ok(best)
    }

    /// `launch` ready to be timed again and again: its pipeline made and its arrays uploaded
    /// once (two timers alternate without either paying for the other's set-up).
    pub fn timer(&self, shader: Shader<'_>, launch: &Launch) -> Result<Timer, RunError> {
        let (layouts, pipeline) = self.pipeline(shader, &launch.interface())?;
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let bound = self.bind(launch, &layouts)?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RunError::Device(format!(
                "the device rejected the buffers of `{}`: {e:?}",
                launch.entry
            )));
        }
        self.wait()?;
        Ok(Timer {
            entry: launch.entry.clone(),
            pipeline,
            bound,
        })
    }

    /// The device time of one dispatch of `t`'s launch: `per_submit` dispatches recorded in
    /// one submission, so that the submission's cost is shared, divided by `per_submit`;
    /// nothing is read back. The arrays are not reset between dispatches: this is for
    /// timing only.
    pub fn time_submission(&self, t: &Timer, per_submit: u32) -> Result<Duration, RunError> {
        let per_submit = per_submit.max(1);
        let b = &t.bound;
        let dispatches = dispatches(&b.chunks, &b.groups, b.offset);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let hidden = b.hidden.as_ref().map(|h| &h.group);
        encode_pass(&mut encoder, &t.pipeline, &dispatches, hidden, per_submit);
        let start = Instant::now();
        self.queue.submit([encoder.finish()]);
        self.wait()?;
        let elapsed = start.elapsed();
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RunError::Device(format!(
                "the device rejected the dispatch of `{}`: {e:?}",
                t.entry
            )));
        }
        Ok(elapsed / per_submit)
    }

    /// The shader's compute pipeline with the bind group layout of the ABI.
    fn pipeline(
        &self,
        shader: Shader<'_>,
        launch: &Interface,
    ) -> Result<(Layouts, wgpu::ComputePipeline), RunError> {
        if let Shader::SpirV(words) = shader {
            let caps = declared_capabilities(words);
            let has = self.device.features();
            for (cap, feature, vulkan, what) in OPTIONAL_FEATURES {
                if caps.contains(&cap) && !has.contains(feature) {
                    return Err(RunError::Device(format!(
                        "kernel `{}` {what}, which needs the device feature {vulkan}; {} does not have it",
                        launch.entry, self.info.name
                    )));
                }
            }
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = match (shader, &self.passthrough) {
            (Shader::SpirV(w), Some(fc)) => {
                let words = bindings::with_layout_bindings(w, &launch.bindings());
                let words = floats::with_float_controls(&words, fc);
                let entry = wgpu::PassthroughShaderEntryPoint {
                    name: launch.entry.as_str().into(),
                    workgroup_size: (1, 1, 1),
                };
                // SAFETY: the compiler validated the module with naga, and the module and
                // the pipeline layout below follow one binding ABI (docs/language.md);
                // the tests put every module through `spirv-val` too.
                #[allow(unsafe_code)]
                unsafe {
                    self.device.create_shader_module_passthrough(
                        wgpu::ShaderModuleDescriptorPassthrough {
                            label: Some(&launch.entry),
                            entry_points: std::borrow::Cow::Borrowed(std::slice::from_ref(&entry)),
                            spirv: Some(words.into()),
                            ..Default::default()
                        },
                    )
                }
            }
            _ => self
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(&launch.entry),
                    source: match shader {
                        Shader::SpirV(w) => wgpu::ShaderSource::SpirV(w.into()),
                        Shader::Wgsl(s) => wgpu::ShaderSource::Wgsl(s.into()),
                    },
                }),
        };
        let layout = self.bind_group_layout(launch);
        let hidden = self.hidden_layout(launch);
        let pipeline_layout = self
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: None,
                bind_group_layouts: &[Some(&layout), hidden.as_ref()]
                    [..1 + usize::from(hidden.is_some())],
                immediate_size: 0,
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&launch.entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(&launch.entry),
                compilation_options: Default::default(),
                cache: None,
            });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RunError::Device(format!(
                "the device rejected kernel `{}`: {e:?}",
                launch.entry
            )));
        }
        Ok((
            Layouts {
                main: layout,
                hidden,
            },
            pipeline,
        ))
    }

    fn bind_group_layout(&self, launch: &Interface) -> wgpu::BindGroupLayout {
        let mut entries = Vec::new();
        if launch.uniform {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        for &(binding, read_only) in &launch.arrays {
            entries.push(wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            });
        }
        self.device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: None,
                entries: &entries,
            })
    }

    /// A buffer holding `data` (zero bytes when `None`, as a new buffer starts zeroed) and
    /// at least `len` bytes.
    fn buffer(
        &self,
        data: Option<&[u8]>,
        len: u64,
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, RunError> {
        // Exact sizes: `len(a)` in a kernel is the buffer's size. A binding needs at least 4
        // bytes, so an empty array is bound as one element. (The uniform block's bytes are
        // already padded to 16.)
        let size = len.max(4).next_multiple_of(4);
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buf = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage,
            mapped_at_creation: false,
        });
        if let Some(data) = data {
            self.write_padded(&buf, data);
        }
        Ok(buf)
    }

    /// Queues a write of `data` at the start of `buf`, zero-padded to whole words (copied
    /// only when it needs the padding).
    fn write_padded(&self, buf: &wgpu::Buffer, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        if data.len().is_multiple_of(4) {
            self.queue.write_buffer(buf, 0, data);
        } else {
            let mut padded = data.to_vec();
            padded.resize(data.len().next_multiple_of(4), 0);
            self.queue.write_buffer(buf, 0, &padded);
        }
    }

    /// The buffers and bind groups of `launch` on this device: its arrays uploaded, one bind
    /// group per dispatch (each with its `group_base`), the hidden buffers.
    fn bind(&self, launch: &Launch, layouts: &Layouts) -> Result<Bound, RunError> {
        let layout = &layouts.main;
        self.check_limits(launch)?;
        let uniform = match &launch.uniform {
            Some(u) => Some(self.buffer(Some(u), u.len() as u64, wgpu::BufferUsages::UNIFORM)?),
            None => None,
        };
        let storage: Vec<wgpu::Buffer> = launch
            .arrays
            .iter()
            .map(|a| {
                let bytes = match &a.data {
                    ArrayData::Bytes(b) => Some(b.as_slice()),
                    ArrayData::Zeros(_) => None,
                };
                self.buffer(
                    bytes,
                    a.data.len(),
                    wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                )
            })
            .collect::<Result<_, _>>()?;
        let bindings: Vec<u32> = launch.arrays.iter().map(|a| a.binding).collect();
        let refs: Vec<&wgpu::Buffer> = storage.iter().collect();
        // One bind group per dispatch of the launch, each with its `group_base`.
        let chunks = self.chunks(launch.threads, launch.workgroup_size)?;
        let groups = match (&launch.uniform, chunks.len()) {
            (Some(u), n) if n > 1 => {
                self.chunk_groups(&chunks, u, u.len(), &bindings, layout, &refs)?
            }
            _ => {
                let u = uniform.as_ref().map(|u| (u, u.size()));
                vec![self.bind_group(&bindings, layout, u, &refs)]
            }
        };
        let prints = match launch.prints {
            true => Some(self.print_buffer()?),
            false => None,
        };
        let hidden = match &layouts.hidden {
            Some(l) => Some(self.hidden(l, &launch.interface(), prints.as_ref())?),
            None => None,
        };
        Ok(Bound {
            storage,
            chunks,
            groups,
            offset: launch.uniform.is_some().then_some(0),
            hidden,
        })
    }

    /// Runs `launch` once: the arrays (and the hidden buffers' words) afterwards, and the
    /// device time.
    fn dispatch(
        &self,
        launch: &Launch,
        layouts: &Layouts,
        pipeline: &wgpu::ComputePipeline,
    ) -> Result<(Dispatched, Duration), RunError> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let b = self.bind(launch, layouts)?;
        let dispatches = dispatches(&b.chunks, &b.groups, b.offset);
        let readback: Vec<wgpu::Buffer> =
            b.storage.iter().map(|s| self.staging(s.size())).collect();
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let hidden = b.hidden.as_ref().map(|h| &h.group);
        encode_pass(&mut encoder, pipeline, &dispatches, hidden, 1);
        for (s, r) in b.storage.iter().zip(&readback) {
            encoder.copy_buffer_to_buffer(s, 0, r, 0, s.size());
        }
        let staged = b
            .hidden
            .as_ref()
            .map(|h| self.stage_hidden(&mut encoder, h));
        let start = Instant::now();
        self.queue.submit([encoder.finish()]);
        self.wait()?;
        let elapsed = start.elapsed();
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(RunError::Device(format!(
                "the device rejected the dispatch of `{}`: {e:?}",
                launch.entry
            )));
        }
        let sizes: Vec<u64> = launch.arrays.iter().map(|a| a.data.len()).collect();
        let out = self.read_back(&sizes, &readback)?;
        let reported = match (&b.hidden, staged) {
            (Some(h), Some(s)) => self.collect_hidden(h, s)?,
            _ => Reported::default(),
        };
        Ok(((out, reported), elapsed))
    }

    /// The bind groups of the dispatches of a launch of several (`chunks`): each over a
    /// uniform block of its own, `uniform`'s bytes (padded to `size`) with the dispatch's
    /// `group_base`, and the arrays at `bindings`.
    fn chunk_groups(
        &self,
        chunks: &[Chunk],
        uniform: &[u8],
        size: usize,
        bindings: &[u32],
        layout: &wgpu::BindGroupLayout,
        storage: &[&wgpu::Buffer],
    ) -> Result<Vec<wgpu::BindGroup>, RunError> {
        chunks
            .iter()
            .map(|(base, _)| {
                let bytes = with_base(uniform, size, *base);
                let usage = wgpu::BufferUsages::UNIFORM;
                let ub = self.buffer(Some(&bytes), bytes.len() as u64, usage)?;
                Ok(self.bind_group(bindings, layout, Some((&ub, ub.size())), storage))
            })
            .collect()
    }

    /// The bind group of a launch: the uniform block at binding 0, the arrays at
    /// `bindings`.
    fn bind_group(
        &self,
        bindings: &[u32],
        layout: &wgpu::BindGroupLayout,
        uniform: Option<(&wgpu::Buffer, u64)>,
        storage: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        let mut entries = Vec::new();
        // The first `size` bytes from the dispatch's dynamic offset.
        if let Some((u, size)) = uniform {
            entries.push(wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: u,
                    offset: 0,
                    size: wgpu::BufferSize::new(size),
                }),
            });
        }
        for (&binding, b) in bindings.iter().zip(storage) {
            entries.push(wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            });
        }
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout,
            entries: &entries,
        })
    }

    /// A buffer to copy `size` bytes into and map for reading.
    fn staging(&self, size: u64) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Each buffer's first `sizes[k]` bytes, read back from its mapped buffer.
    fn read_back(
        &self,
        sizes: &[u64],
        readback: &[wgpu::Buffer],
    ) -> Result<Vec<Vec<u8>>, RunError> {
        let mut out = Vec::new();
        for (r, &len) in readback.iter().zip(sizes) {
            let slice = r.slice(..);
            slice.map_async(wgpu::MapMode::Read, |_| {});
            self.wait()?;
            let view = slice
                .get_mapped_range()
                .map_err(|e| RunError::Device(format!("cannot read a buffer back: {e:?}")))?;
            out.push(view[..len as usize].to_vec());
        }
        Ok(out)
    }

    /// Launches the device cannot take are clear errors, not validation failures.
    fn check_limits(&self, launch: &Launch) -> Result<(), RunError> {
        self.chunks(launch.threads, launch.workgroup_size)?;
        let limits = self.device.limits();
        let max_bytes = limits.max_storage_buffer_binding_size;
        if let Some(a) = launch.arrays.iter().find(|a| a.data.len() > max_bytes) {
            return Err(RunError::Input(format!(
                "the array at binding {} has {} bytes, more than this device binds ({max_bytes})",
                a.binding,
                a.data.len()
            )));
        }
        Ok(())
    }

    /// The dispatches a launch of `threads` takes (see [`chunks`]): one unless an axis has
    /// more workgroups than the device dispatches at once.
    fn chunks(&self, threads: [u32; 3], workgroup_size: [u32; 3]) -> Result<Vec<Chunk>, RunError> {
        let max_threads = spirthon_ir::abi::MAX_THREADS_PER_AXIS;
        if let Some(axis) = (0..3).find(|&i| threads[i] > max_threads) {
            return Err(RunError::Input(format!(
                "{} threads along {} are more than a launch can have: at most {max_threads} per axis (global_id() is an ivec3)",
                threads[axis],
                ["x", "y", "z"][axis]
            )));
        }
        let groups = workgroups(threads, workgroup_size);
        let max = self.device.limits().max_compute_workgroups_per_dimension;
        let count: u64 = groups
            .iter()
            .map(|&g| u64::from(g.div_ceil(max.max(1))))
            .product();
        if count > MAX_DISPATCHES as u64 {
            return Err(RunError::Input(format!(
                "a launch of {groups:?} workgroups takes {count} dispatches of at most {max} workgroups per axis, more than {MAX_DISPATCHES}: use a larger workgroup_size"
            )));
        }
        Ok(chunks(groups, max))
    }

    fn wait(&self) -> Result<(), RunError> {
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: None,
                timeout: None,
            })
            .map(|_| ())
            .map_err(|e| RunError::Device(format!("waiting for the device failed: {e}")))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn optional_features_are_found_among_the_capabilities() {
        let header = [0x0723_0203, 0x0001_0300, 0, 10, 0];
        let cap = |c: u32| [(2 << 16) | 17, c];
        let memory_model = [(3 << 16) | 14, 0, 1];
        let mut plain: Vec<u32> = header.to_vec();
        plain.extend(cap(1));
        plain.extend(memory_model);
        assert_eq!(super::declared_capabilities(&plain), [1]);
        let mut both: Vec<u32> = header.to_vec();
        both.extend(cap(1));
        both.extend(cap(6033));
        both.extend(cap(10));
        both.extend(memory_model);
        assert_eq!(super::declared_capabilities(&both), [1, 6033, 10]);
        assert!(super::declared_capabilities(&header).is_empty());
        // Every optional feature's capability is one a module can declare.
        let caps: Vec<u32> = super::OPTIONAL_FEATURES.iter().map(|f| f.0).collect();
        assert_eq!(caps, [6033, 10, 11, 12, 61]);
    }
}
