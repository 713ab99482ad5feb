struct Params { width: i32, height: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;

@compute @workgroup_size(8, 8)
fn blur(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    var total = 0.0;
    var count = 0;
    for (var dy = -1; dy < 2; dy += 1) {
        for (var dx = -1; dx < 2; dx += 1) {
            let sx = x + dx;
            let sy = y + dy;
            if (0 <= sx && sx < params.width && 0 <= sy && sy < params.height) {
                total += src[sy * params.width + sx];
                count += 1;
            }
        }
    }
    dst[y * params.width + x] = total / f32(count);
}
