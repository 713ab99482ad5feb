struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> start: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

fn steps(n0: i32) -> i32 {
    var n = n0;
    var count = 0;
    while (n != 1) {
        if (n % 2 == 0) { n = n / 2; } else { n = 3 * n + 1; }
        count += 1;
    }
    return count;
}

@compute @workgroup_size(64)
fn collatz(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = steps(start[i]);
}
