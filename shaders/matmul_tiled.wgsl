struct Params { m: i32, n: i32, k: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

var<workgroup> ta: array<f32, 64>;
var<workgroup> tb: array<f32, 64>;

@compute @workgroup_size(8, 8)
fn matmul_tiled(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let col = i32(gid.x);
    let row = i32(gid.y);
    let lx = i32(lid.x);
    let ly = i32(lid.y);
    var acc = 0.0;
    let tiles = (params.k + 7) / 8;
    for (var t = 0; t < tiles; t += 1) {
        let ak = t * 8 + lx;
        let bk = t * 8 + ly;
        if (row < params.m && ak < params.k) { ta[ly * 8 + lx] = a[row * params.k + ak]; } else { ta[ly * 8 + lx] = 0.0; }
        if (bk < params.k && col < params.n) { tb[ly * 8 + lx] = b[bk * params.n + col]; } else { tb[ly * 8 + lx] = 0.0; }
        workgroupBarrier();
        for (var j = 0; j < 8; j += 1) {
            acc += ta[ly * 8 + j] * tb[j * 8 + lx];
        }
        workgroupBarrier();
    }
    if (row < params.m && col < params.n) { c[row * params.n + col] = acc; }
}
