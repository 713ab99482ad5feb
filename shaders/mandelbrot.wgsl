struct Params { width: i32, height: i32, x0: f32, y0: f32, scale: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> counts: array<i32>;

@compute @workgroup_size(8, 8)
fn mandelbrot(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let px = i32(gid.x);
    let py = i32(gid.y);
    let cr = params.x0 + f32(px) * params.scale;
    let ci = params.y0 + f32(py) * params.scale;
    var zr = 0.0;
    var zi = 0.0;
    var n = 0;
    while (n < 32 && zr * zr + zi * zi <= 4.0) {
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        n += 1;
    }
    counts[py * params.width + px] = n;
}
