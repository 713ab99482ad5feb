struct Params { cols: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> m: array<f32>;
@group(0) @binding(2) var<storage, read_write> sums: array<f32>;
@group(0) @binding(3) var<storage, read_write> mins: array<f32>;
@group(0) @binding(4) var<storage, read_write> maxs: array<f32>;

@compute @workgroup_size(32)
fn row_stats(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let r = i32(gid.x);
    let cols = params.cols;
    var s = 0.0;
    var lo = m[r * cols];
    var hi = lo;
    for (var c = 0; c < cols; c += 1) {
        let v = m[r * cols + c];
        s += v;
        lo = min(lo, v);
        hi = max(hi, v);
    }
    sums[r] = s;
    mins[r] = lo;
    maxs[r] = hi;
}
