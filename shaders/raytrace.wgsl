struct Params { width: i32, height: i32, light: vec3<f32>, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> image: array<vec4<f32>>;

fn hit_sphere(center: vec3<f32>, radius: f32, origin: vec3<f32>, d: vec3<f32>) -> f32 {
    let oc = origin - center;
    let b = dot(oc, d);
    let h = b * b - (dot(oc, oc) - radius * radius);
    if (h < 0.0) { return -1.0; }
    return -b - sqrt(h);
}

fn sky(d: vec3<f32>) -> vec3<f32> {
    return mix(vec3<f32>(1.0), vec3<f32>(0.5, 0.7, 1.0), 0.5 * (d.y + 1.0));
}

@compute @workgroup_size(8, 8)
fn raytrace(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let px = i32(gid.x);
    let py = i32(gid.y);
    let size = vec2<f32>(f32(params.width), f32(params.height));
    let uv = (vec2<f32>(f32(px), f32(py)) + 0.5) / size * 2.0 - 1.0;
    let d = normalize(vec3<f32>(uv.x * f32(params.width) / f32(params.height), -uv.y, -1.5));
    let origin = vec3<f32>(0.0, 0.0, 2.5);
    var color = sky(d);
    let t = hit_sphere(vec3<f32>(0.0), 1.0, origin, d);
    if (t > 0.0) {
        let p = origin + d * t;
        let diffuse = max(dot(normalize(p), normalize(params.light - p)), 0.0);
        color = vec3<f32>(0.9, 0.3, 0.2) * (0.1 + 0.9 * diffuse);
    }
    image[py * params.width + px] = vec4<f32>(clamp(color, vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
}
