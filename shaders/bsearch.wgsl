struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> sorted_values: array<f32>;
@group(0) @binding(2) var<storage, read> queries: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<i32>;

fn bisect_left(x: f32) -> i32 {
    var lo = 0;
    var hi = i32(arrayLength(&sorted_values));
    while (lo < hi) {
        let mid = (lo + hi) / 2;
        if (sorted_values[mid] < x) { lo = mid + 1; } else { hi = mid; }
    }
    return lo;
}

@compute @workgroup_size(64)
fn bsearch(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    out[i] = bisect_left(queries[i]);
}
