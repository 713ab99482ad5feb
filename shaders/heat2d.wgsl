struct Params { alpha: f32, u_shape0: i32, u_shape1: i32, out_shape0: i32, out_shape1: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> u: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8, 8)
fn heat2d(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    let h = params.u_shape0;
    let w = params.u_shape1;
    let ow = params.out_shape1;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * ow + x] = u[y * w + x];
    } else {
        let lap = u[(y - 1) * w + x] + u[(y + 1) * w + x] + u[y * w + x - 1] + u[y * w + x + 1] - 4.0 * u[y * w + x];
        out[y * ow + x] = u[y * w + x] + params.alpha * lap;
    }
}
