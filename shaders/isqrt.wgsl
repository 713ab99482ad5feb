struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> values: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

fn isqrt(n: i32) -> i32 {
    if (n < 2) { return n; }
    var x = min(n, 46341);
    var y = (x + n / x) / 2;
    while (y < x) {
        x = y;
        y = (x + n / x) / 2;
    }
    return x;
}

@compute @workgroup_size(64)
fn isqrt_all(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = isqrt(values[i]);
}
