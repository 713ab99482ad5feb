struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

fn sigmoid(v: f32) -> f32 { return 1.0 / (1.0 + exp(-v)); }

@compute @workgroup_size(64)
fn relu(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = max(x[i], 0.0);
}

@compute @workgroup_size(64)
fn logistic(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = sigmoid(x[i]);
}

@compute @workgroup_size(64)
fn gelu(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let v = x[i];
    out[i] = 0.5 * v * (1.0 + tanh(sqrt(2.0 / 3.14159265358979) * (v + 0.044715 * v * v * v)));
}
