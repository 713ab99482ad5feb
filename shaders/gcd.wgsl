struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<i32>;
@group(0) @binding(2) var<storage, read> b: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

fn gcd(a0: i32, b0: i32) -> i32 {
    var x = abs(a0);
    var y = abs(b0);
    while (y != 0) {
        let t = x % y;
        x = y;
        y = t;
    }
    return x;
}

@compute @workgroup_size(32)
fn gcd_pairs(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = gcd(a[i], b[i]);
}
