struct Params { cols: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> m: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<i32>;

fn first_negative(row: i32, cols: i32) -> i32 {
    for (var c = 0; c < cols; c += 1) {
        if (m[row * cols + c] < 0.0) { return c; }
    }
    return -1;
}

@compute @workgroup_size(64)
fn find_first(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let r = i32(gid.x);
    out[r] = first_negative(r, params.cols);
}
