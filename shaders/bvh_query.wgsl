struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> lo: array<f32>;
@group(0) @binding(2) var<storage, read> hi: array<f32>;
@group(0) @binding(3) var<storage, read> first: array<i32>;
@group(0) @binding(4) var<storage, read> count: array<i32>;
@group(0) @binding(5) var<storage, read> pts: array<f32>;
@group(0) @binding(6) var<storage, read> queries: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> hits: array<i32>;
@group(0) @binding(8) var<storage, read_write> visits: array<i32>;

fn v3(a: i32, which: i32) -> vec3<f32> {
    if (which == 0) { return vec3<f32>(lo[3 * a], lo[3 * a + 1], lo[3 * a + 2]); }
    if (which == 1) { return vec3<f32>(hi[3 * a], hi[3 * a + 1], hi[3 * a + 2]); }
    return vec3<f32>(pts[3 * a], pts[3 * a + 1], pts[3 * a + 2]);
}

@compute @workgroup_size(64)
fn bvh_query(@builtin(global_invocation_id) gid: vec3<u32>) {
    if (any(gid >= params.threads)) { return; }
    let i = i32(gid.x);
    let q = queries[i];
    let c = q.xyz;
    let r2 = q.w * q.w;
    var stack: array<i32, 32>;
    var top = 1;
    var found = 0;
    var seen = 0;
    while (top > 0) {
        top -= 1;
        let node = stack[top];
        seen += 1;
        let d = max(max(v3(node, 0) - c, c - v3(node, 1)), vec3<f32>(0.0));
        if (d.x * d.x + d.y * d.y + d.z * d.z > r2) { continue; }
        if (count[node] > 0) {
            for (var k = first[node]; k < first[node] + count[node]; k += 1) {
                let e = v3(k, 2) - c;
                if (e.x * e.x + e.y * e.y + e.z * e.z <= r2) { found += 1; }
            }
        } else {
            stack[top] = 2 * node + 1;
            stack[top + 1] = 2 * node + 2;
            top += 2;
        }
    }
    hits[i] = found;
    visits[i] = seen;
}
