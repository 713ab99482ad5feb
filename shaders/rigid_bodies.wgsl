struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> rot: array<f32>;
@group(0) @binding(2) var<storage, read> trans: array<f32>;
@group(0) @binding(3) var<storage, read> inertia: array<f32>;
@group(0) @binding(4) var<storage, read> body: array<i32>;
@group(0) @binding(5) var<storage, read> local: array<f32>;
@group(0) @binding(6) var<storage, read_write> world: array<f32>;
@group(0) @binding(7) var<storage, read_write> world_inertia: array<f32>;

fn load_mat(base: i32, which: i32) -> mat3x3<f32> {
    // Row-major entries into WGSL's column-major matrix: column c holds entries (r, c).
    var m: mat3x3<f32>;
    for (var c = 0; c < 3; c += 1) {
        for (var r = 0; r < 3; r += 1) {
            if (which == 0) {
                m[c][r] = rot[base + 3 * r + c];
            } else {
                m[c][r] = inertia[base + 3 * r + c];
            }
        }
    }
    return m;
}

@compute @workgroup_size(64)
fn rigid_bodies(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let b = body[i];
    let R = load_mat(9 * b, 0);
    let p = vec3<f32>(local[3 * i], local[3 * i + 1], local[3 * i + 2]);
    let t = vec3<f32>(trans[3 * b], trans[3 * b + 1], trans[3 * b + 2]);
    let w = R * p + t;
    world[3 * i] = w.x;
    world[3 * i + 1] = w.y;
    world[3 * i + 2] = w.z;
    if (i < i32(arrayLength(&rot) / 9u)) {
        let Q = load_mat(9 * i, 0);
        let I = load_mat(9 * i, 1);
        let W = Q * I * transpose(Q);
        for (var r = 0; r < 3; r += 1) {
            for (var c = 0; c < 3; c += 1) {
                world_inertia[9 * i + 3 * r + c] = W[c][r];
            }
        }
    }
}
