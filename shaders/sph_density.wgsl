struct Params { mass: f32, threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pos: array<f32>;
@group(0) @binding(2) var<storage, read> cell_start: array<i32>;
@group(0) @binding(3) var<storage, read> cell_count: array<i32>;
@group(0) @binding(4) var<storage, read_write> density: array<f32>;

const H: f32 = 0.25;
const CELLS: i32 = 8;

fn at(k: i32) -> vec3<f32> {
    return vec3<f32>(pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]);
}

@compute @workgroup_size(64)
fn sph_density(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let p = at(i);
    let poly6 = 315.0 / (64.0 * 3.14159265 * pow(H, 9.0));
    let c = vec3<i32>(p * (1.0 / H));
    var rho = 0.0;
    for (var dz = -1; dz <= 1; dz += 1) {
        for (var dy = -1; dy <= 1; dy += 1) {
            for (var dx = -1; dx <= 1; dx += 1) {
                let q = c + vec3<i32>(dx, dy, dz);
                if (min(min(q.x, q.y), q.z) < 0 || max(max(q.x, q.y), q.z) >= CELLS) { continue; }
                let cell = (q.z * CELLS + q.y) * CELLS + q.x;
                for (var k = cell_start[cell]; k < cell_start[cell] + cell_count[cell]; k += 1) {
                    let d = at(k) - p;
                    let r2 = d.x * d.x + d.y * d.y + d.z * d.z;
                    if (r2 < H * H) {
                        let w = H * H - r2;
                        rho += params.mass * poly6 * w * w * w;
                    }
                }
            }
        }
    }
    density[i] = rho;
}
