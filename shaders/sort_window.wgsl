struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> data: array<f32>;

@compute @workgroup_size(16)
fn sort_window(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let base = i32(gid.x) * 8;
    for (var n = 8; n > 1; n -= 1) {
        var swapped = false;
        for (var j = base; j < base + n - 1; j += 1) {
            if (data[j] > data[j + 1]) {
                let t = data[j];
                data[j] = data[j + 1];
                data[j + 1] = t;
                swapped = true;
            }
        }
        if (!swapped) { break; }
    }
}
