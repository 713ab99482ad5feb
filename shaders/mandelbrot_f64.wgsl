struct Params { cx: f64, cy: f64, pitch: f64, width: i32, iters: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> counts: array<i32>;

@compute @workgroup_size(64)
fn mandelbrot_f64(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    if (i >= i32(arrayLength(&counts))) { return; }
    let w = params.width;
    let c_re = params.cx + f64(i % w - w / 2) * params.pitch;
    let c_im = params.cy + f64(i / w - w / 2) * params.pitch;
    var x = f64(0.0);
    var y = f64(0.0);
    var n = 0;
    while (n < params.iters && x * x + y * y <= f64(4.0)) {
        let t = (x + y) * (x - y) + c_re;
        y = f64(2.0) * x * y + c_im;
        x = t;
        n += 1;
    }
    counts[i] = n;
}
