struct Params { dt: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> new_pos: array<vec4<f32>>;

@compute @workgroup_size(64)
fn nbody(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let p = pos[i];
    var acc = vec3<f32>(0.0);
    let n = i32(arrayLength(&pos));
    for (var j = 0; j < n; j += 1) {
        let q = pos[j];
        let d = q.xyz - p.xyz;
        let r2 = dot(d, d) + 0.01;
        let inv = 1.0 / (r2 * pow(r2, 0.5));
        acc += d * (q.w * inv);
    }
    let v = vel[i].xyz + acc * params.dt;
    vel[i] = vec4<f32>(v, 0.0);
    new_pos[i] = vec4<f32>(p.xyz + v * params.dt, p.w);
}
