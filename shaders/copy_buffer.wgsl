struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(64)
fn copy(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    dst[i] = src[i];
}
