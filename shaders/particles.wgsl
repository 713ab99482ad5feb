struct World { gravity: vec3<f32>, dt: f32, drag: f32, restitution: f32, floor: f32, threads: vec3<u32> }
struct Particle { px: f32, py: f32, pz: f32, vx: f32, vy: f32, vz: f32, inv_mass: f32, life: f32, bounces: i32 }
@group(0) @binding(0) var<uniform> w: World;
@group(0) @binding(1) var<storage, read_write> ps: array<Particle>;

const SUBSTEPS: i32 = 8;

@compute @workgroup_size(64)
fn particles(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= w.threads)) { return; }
    let i = gid.x;
    if (i >= arrayLength(&ps)) { return; }
    var p = ps[i];
    if (p.life <= 0.0) { return; }
    let h = w.dt / f32(SUBSTEPS);
    var pos = vec3<f32>(p.px, p.py, p.pz);
    var vel = vec3<f32>(p.vx, p.vy, p.vz);
    for (var s = 0; s < SUBSTEPS; s += 1) {
        let force = w.gravity - vel * w.drag;
        vel += force * (p.inv_mass * h);
        pos += vel * h;
        if (pos.y < w.floor) {
            pos.y = w.floor + (w.floor - pos.y) * w.restitution;
            vel.y = -vel.y * w.restitution;
            p.bounces += 1;
        }
    }
    p.px = pos.x; p.py = pos.y; p.pz = pos.z;
    p.vx = vel.x; p.vy = vel.y; p.vz = vel.z;
    p.life -= w.dt;
    ps[i] = p;
}
