struct Params { a: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

fn axpy(a: f32, x: f32, y: f32) -> f32 { return a * x + y; }

@compute @workgroup_size(64)
fn saxpy(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    y[i] = axpy(params.a, x[i], y[i]);
}
