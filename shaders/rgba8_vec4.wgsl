struct Params { src_h: i32, src_w: i32, dst_h: i32, dst_w: i32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;

// One word per pixel: R in the low byte, then G, B, A (NumPy's (h, w, 4) uint8 bytes).
@compute @workgroup_size(8, 8)
fn rgba8_vec4(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let x = i32(gid.x);
    let y = i32(gid.y);
    let width = params.src_w;
    let height = params.src_h;
    if (x >= width || y >= height) { return; }
    var total = vec4<u32>(0u);
    var count = 0u;
    for (var dy = -1; dy <= 1; dy++) {
        for (var dx = -1; dx <= 1; dx++) {
            let sx = x + dx;
            let sy = y + dy;
            if (0 <= sx && sx < width && 0 <= sy && sy < height) {
                let p = src[sy * width + sx];
                total += vec4<u32>(p & 0xffu, (p >> 8u) & 0xffu, (p >> 16u) & 0xffu, p >> 24u);
                count += 1u;
            }
        }
    }
    let m = (total + vec4<u32>(count / 2u)) / vec4<u32>(count);
    let here = src[y * width + x];
    dst[y * width + x] = (m.x & 0xffu) | ((m.y & 0xffu) << 8u) | ((m.z & 0xffu) << 16u) | (here & 0xff000000u);
}
