struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read_write> rot: array<f32>;
@group(0) @binding(3) var<storage, read_write> stretch: array<f32>;

const ITERS: i32 = 8;

fn load(i: u32) -> mat3x3<f32> {
    let b = 9u * i;
    // Row-major entries: the rows are the columns of the transpose.
    return transpose(mat3x3<f32>(a[b], a[b + 1u], a[b + 2u], a[b + 3u], a[b + 4u], a[b + 5u], a[b + 6u], a[b + 7u], a[b + 8u]));
}

fn store_rot(i: u32, m: mat3x3<f32>) {
    let t = transpose(m);
    for (var r = 0u; r < 3u; r += 1u) {
        rot[9u * i + 3u * r] = t[r].x;
        rot[9u * i + 3u * r + 1u] = t[r].y;
        rot[9u * i + 3u * r + 2u] = t[r].z;
    }
}

fn store_stretch(i: u32, m: mat3x3<f32>) {
    let t = transpose(m);
    for (var r = 0u; r < 3u; r += 1u) {
        stretch[9u * i + 3u * r] = t[r].x;
        stretch[9u * i + 3u * r + 1u] = t[r].y;
        stretch[9u * i + 3u * r + 2u] = t[r].z;
    }
}

fn inverse3(m: mat3x3<f32>) -> mat3x3<f32> {
    let c0 = cross(m[1], m[2]);
    let c1 = cross(m[2], m[0]);
    let c2 = cross(m[0], m[1]);
    let det = dot(m[0], c0);
    return transpose(mat3x3<f32>(c0, c1, c2)) * (1.0 / det);
}

fn frobenius(m: mat3x3<f32>) -> f32 {
    return sqrt(dot(m[0], m[0]) + dot(m[1], m[1]) + dot(m[2], m[2]));
}

@compute @workgroup_size(64)
fn polar_mat33(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = gid.x;
    let m = load(i);
    var r = m;
    for (var k = 0; k < ITERS; k += 1) {
        let inv_t = transpose(inverse3(r));
        let g = sqrt(frobenius(inv_t) / frobenius(r));
        r = (r * g + inv_t * (1.0 / g)) * 0.5;
    }
    store_rot(i, r);
    store_stretch(i, transpose(r) * m);
}
