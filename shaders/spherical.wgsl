struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> angles: array<vec4<f32>>;

@compute @workgroup_size(64)
fn spherical(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let p = points[i];
    let r = sqrt(p.x * p.x + p.y * p.y + p.z * p.z);
    let azimuth = atan2(p.y, p.x);
    let polar = acos(p.z / r);
    let lat = asin(p.z / r);
    let dlat = (lat - 0.5) * 0.5;
    let dlon = (azimuth - 1.0) * 0.5;
    let h = pow(sin(dlat), 2.0) + cos(lat) * cos(0.5) * pow(sin(dlon), 2.0);
    let distance = 2.0 * asin(sqrt(min(h, 1.0)));
    angles[i] = vec4<f32>(azimuth, polar, distance, atan(p.w));
}
