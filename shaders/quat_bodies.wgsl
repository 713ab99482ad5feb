struct Params { dt: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> rot: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> omega: array<f32>;
@group(0) @binding(3) var<storage, read> trans: array<f32>;
@group(0) @binding(4) var<storage, read> body: array<i32>;
@group(0) @binding(5) var<storage, read> local: array<f32>;
@group(0) @binding(6) var<storage, read_write> new_rot: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> world: array<f32>;

fn v3(which: i32, k: i32) -> vec3<f32> {
    if (which == 0) { return vec3<f32>(omega[3 * k], omega[3 * k + 1], omega[3 * k + 2]); }
    if (which == 1) { return vec3<f32>(trans[3 * k], trans[3 * k + 1], trans[3 * k + 2]); }
    return vec3<f32>(local[3 * k], local[3 * k + 1], local[3 * k + 2]);
}

// The Hamilton product of quaternions (x, y, z, w).
fn qmul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(a.w * b.x + b.w * a.x + a.y * b.z - b.y * a.z,
                     a.w * b.y + b.w * a.y + a.z * b.x - b.z * a.x,
                     a.w * b.z + b.w * a.z + a.x * b.y - b.x * a.y,
                     a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

fn step(q: vec4<f32>, w: vec3<f32>) -> vec4<f32> {
    return normalize(q + qmul(vec4<f32>(w, 0.0), q) * (0.5 * params.dt));
}

fn rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let u = q.xyz;
    return v * (q.w * q.w * 2.0 - 1.0) + cross(u, v) * q.w * 2.0 + u * dot(u, v) * 2.0;
}

@compute @workgroup_size(64)
fn quat_bodies(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let b = body[i];
    let q = step(rot[b], v3(0, b));
    let p = rotate(q, v3(2, i)) + v3(1, b);
    world[3 * i] = p.x;
    world[3 * i + 1] = p.y;
    world[3 * i + 2] = p.z;
    if (i < i32(arrayLength(&rot))) {
        new_rot[i] = step(rot[i], v3(0, i));
    }
}
