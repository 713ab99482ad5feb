struct Params { width: i32, height: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> img: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

const WEIGHTS = array<f32, 5>(0.0625, 0.25, 0.375, 0.25, 0.0625);

@compute @workgroup_size(16, 4)
fn conv_rows(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    var acc = 0.0;
    for (var k = 0; k < 5; k += 1) {
        let sx = min(max(x + k - 2, 0), params.width - 1);
        acc += WEIGHTS[k] * img[y * params.width + sx];
    }
    out[y * params.width + x] = acc;
}

@compute @workgroup_size(16, 4)
fn conv_cols(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    var acc = 0.0;
    for (var k = 0; k < 5; k += 1) {
        let sy = min(max(y + k - 2, 0), params.height - 1);
        acc += WEIGHTS[k] * img[sy * params.width + x];
    }
    out[y * params.width + x] = acc;
}
