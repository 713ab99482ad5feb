struct Params { width: i32, c: vec2<f32>, origin: vec2<f32>, scale: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> counts: array<i32>;

fn complex_square(z: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y);
}

@compute @workgroup_size(8, 8)
fn julia(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let px = i32(gid.x);
    let py = i32(gid.y);
    var z = params.origin + vec2<f32>(f32(px), f32(py)) * params.scale;
    var n = 0;
    while (n < 24 && dot(z, z) <= 4.0) {
        z = complex_square(z) + params.c;
        n += 1;
    }
    counts[py * params.width + px] = n;
}
