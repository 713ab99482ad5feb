struct Params { threads: vec3<u32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> partial: array<f32>;

var<workgroup> sums: array<f32, 256>;

@compute @workgroup_size(256)
fn subgroup_reduce(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
                   @builtin(workgroup_id) wid: vec3<u32>, @builtin(subgroup_size) size: u32,
                   @builtin(subgroup_invocation_id) sid: u32) {
    let lid = i32(lid3.x);
    let i = i32(gid.x);
    var v = 0.0;
    if (i < i32(arrayLength(&x))) { v = x[i]; }
    let s = subgroupAdd(v);
    let n = i32(size);
    if (sid == 0u) { sums[lid / n] = s; }
    workgroupBarrier();
    if (lid < n) {
        var t = 0.0;
        var k = lid;
        while (k < 256 / n) {
            t += sums[k];
            k += n;
        }
        t = subgroupAdd(t);
        if (lid == 0) { partial[i32(wid.x)] = t; }
    }
}
