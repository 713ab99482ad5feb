struct Params { scale: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn clamp_scale(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let factor = select(1.0, params.scale, params.scale != 0.0);
    let v = x[i] * factor;
    out[i] = select(select(v, -10.0, v < -10.0), 10.0, v > 10.0);
}
