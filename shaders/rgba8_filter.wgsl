struct Params { src_h: i32, src_w: i32, src_c: i32, dst_h: i32, dst_w: i32, dst_c: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

// One word per pixel: R in the low byte, then G, B, A (NumPy's (h, w, 4) uint8 bytes).
@compute @workgroup_size(8, 8)
fn rgba8_filter(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    let width = params.src_w;
    let height = params.src_h;
    if (x >= width || y >= height) { return; }
    let here = src[y * width + x];
    var out = here & 0xff000000u;
    for (var c = 0u; c < 3u; c++) {
        var total = 0u;
        var count = 0u;
        for (var dy = -1; dy <= 1; dy++) {
            for (var dx = -1; dx <= 1; dx++) {
                let sx = x + dx;
                let sy = y + dy;
                if (0 <= sx && sx < width && 0 <= sy && sy < height) {
                    total += (src[sy * width + sx] >> (8u * c)) & 0xffu;
                    count += 1u;
                }
            }
        }
        out |= ((total + count / 2u) / count) << (8u * c);
    }
    dst[y * width + x] = out;
}
